package dataset

import (
	"context"
	"io"
)

// checkEvery is how many entries (or rows, or columns) a loop over the
// data handles between checks of its context: a check costs a few
// nanoseconds, 65,536 steps well under a millisecond.
const checkEvery = 1 << 16

// ctxReader is an io.Reader that fails with the context's error once the
// context is cancelled, so that a parser reading through it stops at its
// next read (a line reader reads 64 KB at a time).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

// readerContext returns r, stopped by ctx.
func readerContext(ctx context.Context, r io.Reader) io.Reader {
	return &ctxReader{ctx: ctx, r: r}
}

// Read reads from the underlying reader unless the context is done.
func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
