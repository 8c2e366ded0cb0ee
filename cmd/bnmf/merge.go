package main

import (
	"context"
	"errors"
	"io"
)

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("merge: not available yet")
}
