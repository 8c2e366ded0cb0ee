package experiments

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// LockFile is the file of a study's directory that runs lock for their
// whole life (see lockStudy). It holds nothing and is never removed, so
// that every process locks the same file.
const LockFile = "run.lock"

// errStudyLocked is returned by tryLock when another process holds a lock
// that conflicts with the one asked for.
var errStudyLocked = errors.New("study locked")

// studyLock is a lock on a study's directory held by one run. A run holds
// it shared from before it opens the study until it has counted what it
// stored, so that several runs (shards, or processes pulling cells) share
// the study, and --force, which discards the study's files, takes it
// exclusive: it gets in only when no run holds the study, and no run gets
// in while it discards. The lock is an advisory lock on LockFile (flock),
// which the system releases when its process ends, however it ends; where
// there is none, lockStudy locks nothing and Plan.Run's final check that
// its records are still there is the only guard.
type studyLock struct {
	f *os.File
}

// lockPoll is how often lockStudy tries again for a shared lock while an
// exclusive one (a --force discarding the study) is held.
const lockPoll = 20 * time.Millisecond

// lockStudy locks the study directory dir, creating it if need be:
// exclusive, refused at once with errStudyLocked when another process
// holds the study; else shared, waiting while a --force holds it
// exclusive, until ctx is cancelled.
func lockStudy(ctx context.Context, dir string, exclusive bool) (*studyLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	for {
		err := tryLock(f, exclusive)
		switch {
		case err == nil:
			return &studyLock{f: f}, nil
		case !errors.Is(err, errStudyLocked) || exclusive:
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

// share turns an exclusive lock into a shared one. The change need not be
// atomic (flock releases the old lock first), so a caller checks that the
// study is still its own afterwards.
func (l *studyLock) share(ctx context.Context) error {
	for {
		err := tryLock(l.f, false)
		if !errors.Is(err, errStudyLocked) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}

// unlock releases the lock.
func (l *studyLock) unlock() {
	_ = l.f.Close() // closing releases the lock; nothing was written
}
