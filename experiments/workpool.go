package experiments

import (
	"context"
	"sync"
)

// runEach calls do for every item on up to workers goroutines at once, in
// the order of items, and waits for them. The first error that do returns
// cancels the context the others see and is returned (as the cause of
// that context); the items not yet started are then skipped. When ctx is
// cancelled the items not yet started are skipped too, and ctx's cause is
// returned.
func runEach[T any](ctx context.Context, items []T, workers int, do func(context.Context, T) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan T)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range jobs {
				if ctx.Err() != nil {
					continue // drain the channel
				}
				if err := do(ctx, it); err != nil {
					cancel(err)
				}
			}
		}()
	}
feed:
	for _, it := range items {
		select {
		case jobs <- it:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return context.Cause(ctx)
}
