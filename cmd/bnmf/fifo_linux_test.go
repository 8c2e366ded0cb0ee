package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// catchesSIGTERM reports whether the process pid has installed a handler
// for SIGTERM (its SigCgt mask in /proc), so that a signal sent now is
// the program's to handle.
func catchesSIGTERM(t *testing.T, pid int) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if mask, ok := strings.CutPrefix(line, "SigCgt:"); ok {
			m, err := strconv.ParseUint(strings.TrimSpace(mask), 16, 64)
			return err == nil && m&(1<<(syscall.SIGTERM-1)) != 0
		}
	}
	return false
}

// TestSIGTERMWhileWaitingForPipe starts bnmf fit and bnmf run on data
// that is a named pipe, with no writer (the open blocks) or with a writer
// that writes nothing (the read blocks), sends one SIGTERM, and checks
// that it stops the command at once with status 143 and a message in the
// command's terms.
func TestSIGTERMWhileWaitingForPipe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	tests := []struct {
		name    string
		args    func(dir, pipe string) []string
		writer  bool
		message string
	}{
		{"fit, no writer", fitArgs, false, "stopping the fit"},
		{"fit, silent writer", fitArgs, true, "stopping the fit"},
		{"run, no writer", func(dir, pipe string) []string { return runArgs(t, dir, pipe) }, false, "finished cells are kept"},
		{"run, silent writer", func(dir, pipe string) []string { return runArgs(t, dir, pipe) }, true, "finished cells are kept"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			pipe := filepath.Join(dir, "data.csv")
			if err := syscall.Mkfifo(pipe, 0o600); err != nil {
				t.Skip("cannot make a named pipe:", err)
			}
			if tt.writer {
				// O_RDWR does not wait for a reader (Linux); this end
				// never writes.
				w, err := os.OpenFile(pipe, os.O_RDWR, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
			}
			cmd := exec.Command(os.Args[0], tt.args(dir, pipe)...)
			cmd.Env = append(os.Environ(), "BNMF_TEST_MAIN=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			deadline := time.Now().Add(10 * time.Second)
			for !catchesSIGTERM(t, cmd.Process.Pid) && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			time.Sleep(200 * time.Millisecond) // into the open (or the read) of the pipe
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() != 143 {
					t.Errorf("bnmf exited with %v, want status 143; it printed\n%s", err, stderr.String())
				}
			case <-time.After(5 * time.Second):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("one SIGTERM did not stop bnmf within 5 s; it printed\n%s", stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.message) {
				t.Errorf("bnmf printed\n%s\nwant a stop message saying %q", stderr.String(), tt.message)
			}
		})
	}
}

func fitArgs(dir, pipe string) []string {
	return []string{"fit", "--rank", "1", "--sweeps", "10", "--out", filepath.Join(dir, "fit"), pipe}
}

func runArgs(t *testing.T, dir, pipe string) []string {
	cfg := filepath.Join(dir, "pipe.yaml")
	src := "kind: convergence\ndataset: {path: " + strconv.Quote(pipe) + ", format: triplets}\nmodels: [{name: NMF}]\nranks: [1]\nrepeats: 1\nsweeps: 10\nburn_in: 5\n"
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"run", "--out", filepath.Join(dir, "out"), cfg}
}
