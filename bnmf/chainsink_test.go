package bnmf

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestRecordersCalledOneAtATime checks that RunChains calls the caller's
// Recorder and DrawRecorder one call at a time, as its doc comment
// promises, without relying on the race detector: each call stays inside
// the recorder for a while (a sleep, which lets the other chains' goroutines
// run even on one core) and counts the calls inside at once. Without the
// lock in chainSink.put the four chains, running at once, meet inside the
// recorder within a few sweeps.
func TestRecordersCalledOneAtATime(t *testing.T) {
	train, _, _ := planted(t, 20, 15, 2, 0.5, 0.3, 31)
	var inside, most, calls atomic.Int64
	enter := func() {
		calls.Add(1)
		n := inside.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(200 * time.Microsecond)
		inside.Add(-1)
	}
	s := Settings{Rank: 2, Sweeps: 20, BurnIn: 10, Seed: 3, Workers: 4}
	s.Recorder = recorderFunc(func(SweepStats) error { enter(); return nil })
	s.Draws = drawsFunc(func(Draw) error { enter(); return nil })
	if _, err := RunChains(context.Background(), GRRN{}, train, s, 4); err != nil {
		t.Fatal(err)
	}
	// 4 chains x (20 sweeps + 10 kept draws).
	if got := calls.Load(); got != 120 {
		t.Errorf("the recorders were called %d times, want 120", got)
	}
	if m := most.Load(); m != 1 {
		t.Errorf("%d calls were inside the recorders at once, want 1", m)
	}
}
