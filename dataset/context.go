package dataset

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"
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
	n, err := c.r.Read(p)
	if err != nil && c.ctx.Err() != nil {
		err = c.ctx.Err() // a read cut short by the context (see openContext)
	}
	return n, err
}

// openContext opens the file at path for reading, stopped by ctx. A named
// pipe blocks its opener until a writer opens it, and its reader until
// the writer writes; both give way to ctx here: the open runs aside and
// is abandoned (its file closed once it opens) when ctx is done first,
// and a read blocked when ctx is done returns at once (the pipe's read
// deadline is set), so that a signal stops a command reading one. A
// regular file is opened directly. Close the file to release its watch
// on ctx.
func openContext(ctx context.Context, path string) (*ctxFile, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	var f *os.File
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
		if f, err = os.Open(path); err != nil {
			return nil, err
		}
	} else {
		type opened struct {
			f   *os.File
			err error
		}
		done := make(chan opened, 1)
		go func() {
			f, err := os.Open(path)
			done <- opened{f, err}
		}()
		select {
		case o := <-done:
			if o.err != nil {
				return nil, o.err
			}
			f = o.f
		case <-ctx.Done():
			go func() {
				if o := <-done; o.f != nil {
					_ = o.f.Close() // opened too late: nobody reads it
				}
			}()
			return nil, fmt.Errorf("opening %s: %w", path, ctx.Err())
		}
	}
	stop := context.AfterFunc(ctx, func() {
		// A pipe's reads give way at once; for a regular file, which
		// has no deadlines, ctxReader stops at the next read.
		_ = f.SetReadDeadline(time.Unix(1, 0))
	})
	return &ctxFile{File: f, stop: stop}, nil
}

// ctxFile is a file opened by openContext.
type ctxFile struct {
	*os.File
	stop func() bool
}

// Close stops watching the context and closes the file.
func (f *ctxFile) Close() error {
	f.stop()
	return f.File.Close()
}
