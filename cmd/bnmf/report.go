package main

import (
	"context"
	"errors"
	"io"
)

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("report: not available yet")
}
