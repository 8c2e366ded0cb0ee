package experiments

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

func TestRunEach(t *testing.T) {
	items := make([]int, 100)
	for i := range items {
		items[i] = i
	}
	var sum atomic.Int64
	if err := runEach(context.Background(), items, 3, func(_ context.Context, i int) error {
		sum.Add(int64(i))
		return nil
	}); err != nil || sum.Load() != 4950 {
		t.Fatalf("runEach = %v with sum %d, want nil and 4950", err, sum.Load())
	}

	boom := errors.New("boom")
	var ran atomic.Int64
	err := runEach(context.Background(), items, 1, func(_ context.Context, i int) error {
		ran.Add(1)
		if i == 10 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || ran.Load() != 11 {
		t.Errorf("runEach = %v after %d items, want boom after 11 (one worker stops at the failing item)", err, ran.Load())
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran.Store(0)
	err = runEach(ctx, items, 2, func(context.Context, int) error { ran.Add(1); return nil })
	if !errors.Is(err, context.Canceled) || ran.Load() != 0 {
		t.Errorf("with a cancelled context runEach = %v after %d items, want context.Canceled after 0", err, ran.Load())
	}
}
