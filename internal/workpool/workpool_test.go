package workpool

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	items := make([]int, 100)
	for i := range items {
		items[i] = i
	}
	var sum atomic.Int64
	if err := Each(context.Background(), items, 3, func(_ context.Context, i int) error {
		sum.Add(int64(i))
		return nil
	}); err != nil || sum.Load() != 4950 {
		t.Fatalf("Each = %v with sum %d, want nil and 4950", err, sum.Load())
	}

	boom := errors.New("boom")
	var ran atomic.Int64
	err := Each(context.Background(), items, 1, func(_ context.Context, i int) error {
		ran.Add(1)
		if i == 10 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || ran.Load() != 11 {
		t.Errorf("Each = %v after %d items, want boom after 11 (one worker stops at the failing item)", err, ran.Load())
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran.Store(0)
	err = Each(ctx, items, 2, func(context.Context, int) error { ran.Add(1); return nil })
	if !errors.Is(err, context.Canceled) || ran.Load() != 0 {
		t.Errorf("with a cancelled context Each = %v after %d items, want context.Canceled after 0", err, ran.Load())
	}
}

// TestErrorCancelsRunning checks that the first error cancels the context
// of the calls under way: with two workers, the call for index 0 waits on
// its context, and returns only because the call for index 1 failed.
func TestErrorCancelsRunning(t *testing.T) {
	boom := errors.New("boom")
	err := Range(context.Background(), 2, 2, func(ctx context.Context, i int) error {
		if i == 1 {
			return boom
		}
		<-ctx.Done()
		return nil
	})
	if !errors.Is(err, boom) {
		t.Errorf("Range = %v, want boom", err)
	}
}

// TestRangeWithScratch checks that every index is done exactly once, that
// each goroutine makes one scratch value and that no more goroutines run
// than asked for or than there are indices.
func TestRangeWithScratch(t *testing.T) {
	tests := []struct {
		name       string
		n, workers int
		maxScratch int
	}{
		{"more work than workers", 1000, 4, 4},
		{"more workers than work", 3, 8, 3},
		{"no workers means one", 10, 0, 1},
		{"no work", 0, 4, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			scratches := 0
			done := make([]int32, tt.n)
			err := RangeWith(context.Background(), tt.n, tt.workers, func() *int {
				mu.Lock()
				defer mu.Unlock()
				scratches++
				return new(int)
			}, func(_ context.Context, s *int, i int) error {
				*s++ // the scratch is the goroutine's own: -race finds sharing
				atomic.AddInt32(&done[i], 1)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i, d := range done {
				if d != 1 {
					t.Errorf("index %d done %d times, want once", i, d)
				}
			}
			if scratches > tt.maxScratch || (tt.n > 0 && scratches < 1) {
				t.Errorf("%d scratch values made, want 1 to %d", scratches, tt.maxScratch)
			}
		})
	}
}
