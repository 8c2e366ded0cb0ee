package main

import (
	"context"
	"fmt"
	"io"

	"github.com/bnmf-lab/bnmf/experiments"
)

const mergeUsage = `Usage: bnmf merge --out DIR [--compact] STUDY_DIR...

Combines the result stores of one study run in shards (bnmf run --shard) on
several machines into the store at DIR. Every input must hold results of
the same config; stores of different configs are refused. DIR may be one of
the inputs, and its records are kept. A merge that would drop records it
cannot read is refused: with --compact, when any input has such problems;
without, when DIR has. Records that a run still writing into DIR stores
meanwhile are kept.

With --compact the records are written as one gzip-compressed JSON Lines
file, records.jsonl.gz, for committing large results; "bnmf merge --compact
--out DIR DIR" compacts a study in place.
`

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("merge", mergeUsage, stdout, stderr)
	out := fs.String("out", "", "write the merged study to `DIR` (required)")
	compact := fs.Bool("compact", false, "store the records as records.jsonl.gz instead of records/")
	if err := fs.parse(args); err != nil {
		return err
	}
	switch {
	case *out == "":
		return fs.fail("--out is required")
	case fs.NArg() == 0:
		return fs.fail("no study directory given")
	}
	st, err := experiments.Merge(*out, fs.Args(), experiments.MergeOptions{Compact: *compact})
	if err != nil {
		return err
	}
	for _, p := range st.Problems {
		fmt.Fprintln(stderr, "warning: not merged:", p)
	}
	fmt.Fprintf(stdout, "%s: %d of %d cells stored in %s\n", st.Manifest.Study, len(st.Records), len(st.Manifest.Cells), *out)
	return nil
}
