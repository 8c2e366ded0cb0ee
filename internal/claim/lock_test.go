package claim

import (
	"context"
	"errors"
	"runtime"
	"testing"
)

// TestLockDir checks the conflicts between locks on one directory: an
// exclusive lock is refused at once while another lock is held, a shared
// one waits while an exclusive one is held (until its context ends), and
// shared locks do not conflict.
func TestLockDir(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock here: LockDir locks nothing")
	}
	dir := t.TempDir()
	ctx := context.Background()
	ex, err := LockDir(ctx, dir, "run.lock", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockDir(ctx, dir, "run.lock", true); !errors.Is(err, ErrLocked) {
		t.Errorf("a second exclusive lock: %v, want ErrLocked", err)
	}
	short, cancel := context.WithTimeout(ctx, 5*lockPoll)
	defer cancel()
	if _, err := LockDir(short, dir, "run.lock", false); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a shared lock while an exclusive one is held: %v, want it to wait until its deadline", err)
	}
	if err := ex.Share(ctx); err != nil {
		t.Fatal(err)
	}
	sh, err := LockDir(ctx, dir, "run.lock", false)
	if err != nil {
		t.Errorf("a shared lock beside a shared one: %v", err)
	} else {
		sh.Unlock()
	}
	if _, err := LockDir(ctx, dir, "run.lock", true); !errors.Is(err, ErrLocked) {
		t.Errorf("an exclusive lock beside a shared one: %v, want ErrLocked", err)
	}
	ex.Unlock()
	last, err := LockDir(ctx, dir, "run.lock", true)
	if err != nil {
		t.Errorf("an exclusive lock once every other is released: %v", err)
	} else {
		last.Unlock()
	}
}
