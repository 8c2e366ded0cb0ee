package main

import (
	"bytes"
	"errors"
	"os"
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
			watchSignals(sigs, cancel, &stderr, func(c int) { code = c })
			if canceled != tt.wantCancel || code != tt.wantExit {
				t.Errorf("cancelled %v, exit code %d; want %v, %d", canceled, code, tt.wantCancel, tt.wantExit)
			}
			if tt.signals > 0 && !strings.Contains(stderr.String(), "finished cells are kept") {
				t.Errorf("message %q does not say that finished cells are kept", stderr.String())
			}
		})
	}
}
