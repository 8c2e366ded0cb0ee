// Package workpool runs independent pieces of work on a bounded number of
// goroutines: the cells of a study, the chains of a fit, the rows of a
// top-N ranking, the entries of a predictive finish. Work starts in index
// order; which goroutine runs which piece is left to the scheduler, so
// callers that want reproducible output write each piece's result to its
// own slot (or derive its random stream from its index), never depend on
// the finish order.
package workpool

import (
	"context"
	"sync"
	"sync/atomic"
)

// RangeWith calls do(ctx, s, i) for i = 0 to n-1 on up to workers
// goroutines at once (fewer than 1 means 1), starting them in the order of
// i, and waits for them. Each goroutine calls scratch once and passes its
// result, state the goroutine reuses from one call to the next, to every
// call it makes.
//
// The first error that do returns cancels the context the other calls see
// and is returned (as the cause of that context); the indices not yet
// started are then skipped. When ctx is cancelled the indices not yet
// started are skipped too, and ctx's cause is returned.
func RangeWith[S any](ctx context.Context, n, workers int, scratch func() S, do func(ctx context.Context, s S, i int) error) error {
	if n <= 0 {
		return context.Cause(ctx)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(max(1, workers), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := scratch()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := do(ctx, s, i); err != nil {
					cancel(err)
				}
			}
		}()
	}
	wg.Wait()
	return context.Cause(ctx)
}

// Range calls do(ctx, i) for i = 0 to n-1 as RangeWith does, with no
// per-goroutine state.
func Range(ctx context.Context, n, workers int, do func(ctx context.Context, i int) error) error {
	return RangeWith(ctx, n, workers, func() struct{} { return struct{}{} },
		func(ctx context.Context, _ struct{}, i int) error { return do(ctx, i) })
}

// Each calls do(ctx, item) for every item of items as Range does, in the
// order of items.
func Each[T any](ctx context.Context, items []T, workers int, do func(context.Context, T) error) error {
	return Range(ctx, len(items), workers, func(ctx context.Context, i int) error { return do(ctx, items[i]) })
}
