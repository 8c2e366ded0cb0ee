package main

import (
	"context"
	"errors"
	"io"
)

func runData(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("data: not available yet")
}
