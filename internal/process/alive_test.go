package process

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

func TestAlive(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("processes cannot be probed here")
	}
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Skipf("cannot run a child process: %v", err)
	}
	tests := []struct {
		name string
		pid  int
		want bool
	}{
		{"this process", os.Getpid(), true},
		{"the parent", os.Getppid(), true},
		{"an exited child", exited.Process.Pid, false},
		{"pid 0", 0, false},
		{"a negative pid", -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Alive(tt.pid); got != tt.want {
				t.Errorf("Alive(%d) = %v, want %v", tt.pid, got, tt.want)
			}
		})
	}
}
