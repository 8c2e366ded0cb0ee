package main

import (
	"bytes"
	"errors"
	"os"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
)

func TestWatchSignals(t *testing.T) {
	tests := []struct {
		name       string
		signals    int
		wantCancel bool
		wantExit   int // -1: exit not called
	}{
		{"none", 0, false, -1},
		{"first interrupt cancels", 1, true, -1},
		{"second interrupt quits", 2, true, 130},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sigs := make(chan os.Signal, 2)
			for range tt.signals {
				sigs <- syscall.SIGINT
			}
			close(sigs)
			var (
				canceled bool
				code     = -1
				stderr   bytes.Buffer
			)
			cancel := func(cause error) {
				canceled = true
				if got := exitCode(errors.New("stopped"), cause); got != 130 {
					t.Errorf("a command stopped by SIGINT exits %d, want 130", got)
				}
			}
			watchSignals(sigs, cancel, stopping([]string{"run"}), &stderr, func(c int) { code = c })
			if canceled != tt.wantCancel || code != tt.wantExit {
				t.Errorf("cancelled %v, exit code %d; want %v, %d", canceled, code, tt.wantCancel, tt.wantExit)
			}
			if tt.signals > 0 && !strings.Contains(stderr.String(), "finished cells are kept") {
				t.Errorf("message %q does not say that finished cells are kept", stderr.String())
			}
		})
	}
}

// TestSetGCPercent checks that bnmf sets the collector's target to
// gcPercent when GOGC is not set, leaves it when it is, and restores it.
func TestSetGCPercent(t *testing.T) {
	current := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	before := current()
	tests := []struct {
		gogc string
		want int
	}{
		{"", gcPercent},
		{"200", before},
		{"off", before},
	}
	for _, tt := range tests {
		restore := setGCPercent(func(k string) string {
			if k == "GOGC" {
				return tt.gogc
			}
			return ""
		})
		if got := current(); got != tt.want {
			t.Errorf("GOGC=%q: collector target %d, want %d", tt.gogc, got, tt.want)
		}
		restore()
		if got := current(); got != before {
			t.Errorf("GOGC=%q: target %d after restoring, want %d", tt.gogc, got, before)
		}
	}
}

// TestStopMessages checks that a signal's message speaks of what the
// command stops: cells for run, the fit for fit, neither for the others.
func TestStopMessages(t *testing.T) {
	tests := []struct {
		args       []string
		want, deny string
	}{
		{[]string{"run", "a.yaml"}, "finished cells are kept", "fit"},
		{[]string{"fit", "data.csv"}, "stopping the fit within a sweep; it writes nothing", "cell"},
		{[]string{"predict", "m"}, "stopping", "cell"},
		{nil, "stopping", "cell"},
	}
	for _, tt := range tests {
		sigs := make(chan os.Signal, 2)
		sigs <- syscall.SIGTERM
		sigs <- syscall.SIGTERM
		close(sigs)
		var stderr bytes.Buffer
		watchSignals(sigs, func(error) {}, stopping(tt.args), &stderr, func(int) {})
		if msg := stderr.String(); !strings.Contains(msg, tt.want) || strings.Contains(msg, tt.deny) {
			t.Errorf("%q: message %q, want one saying %q and not %q", tt.args, msg, tt.want, tt.deny)
		}
	}
}
