package claim

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ErrLocked is returned by LockDir when another process holds a lock
// that conflicts with the one asked for.
var ErrLocked = errors.New("study locked")

// Lock is a lock on a study's directory held by one run. A run holds it
// shared from before it opens the study until it has counted what it
// stored, so that several runs (shards, or processes pulling cells) share
// the study, and a run that discards the study's files (--force) takes it
// exclusive: it gets in only when no run holds the study, and no run gets
// in while it discards. The lock is an advisory lock (flock) on a file of
// the directory, which the system releases when its process ends,
// however it ends; where there is none, LockDir locks nothing and the
// caller's own checks are the only guard.
type Lock struct {
	f *os.File
}

// lockPoll is how often LockDir tries again for a shared lock while an
// exclusive one (a --force discarding the study) is held.
const lockPoll = 20 * time.Millisecond

// LockDir locks the directory dir through its file name, creating both if
// need be: exclusive, refused at once with ErrLocked when another process
// holds the directory; else shared, waiting while another holds it
// exclusive, until ctx is cancelled. The file holds nothing and should
// never be removed, so that every process locks the same file.
func LockDir(ctx context.Context, dir, name string, exclusive bool) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	for {
		err := tryLock(f, exclusive)
		switch {
		case err == nil:
			return &Lock{f: f}, nil
		case !errors.Is(err, ErrLocked) || exclusive:
			_ = f.Close() // the lock failed; that error tells
			return nil, err
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, fmt.Errorf("waiting for the lock on %s: %w", dir, ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}

// Share turns an exclusive lock into a shared one. The change need not be
// atomic (flock releases the old lock first), so a caller checks that the
// study is still its own afterwards.
func (l *Lock) Share(ctx context.Context) error {
	for {
		err := tryLock(l.f, false)
		if !errors.Is(err, ErrLocked) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}

// Unlock releases the lock.
func (l *Lock) Unlock() {
	_ = l.f.Close() // closing releases the lock; nothing was written
}
