package main

import (
	"context"
	"errors"
	"io"
)

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("run: not available yet")
}
