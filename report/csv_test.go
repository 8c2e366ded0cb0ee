package report

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

func TestWriteCSV(t *testing.T) {
	fx := fixture{kind: experiments.KindSparsity, models: []string{"GEE", "GRRN"}, ranks: []int{20},
		fractions: []float64{0.97, 0.98}, repeats: 2, sweeps: 4, burnIn: 2,
		drop: []experiments.Cell{{Model: "GEE", Rank: 20, Fraction: 0.98, Repeat: 1}},
		fail: []experiments.Cell{{Model: "GRRN", Rank: 20, Fraction: 0.97, Repeat: 0}},
		warn: []experiments.Cell{{Model: "GRRN", Rank: 20, Fraction: 0.98, Repeat: 1}},
	}
	st := fx.study(t, "s", "tiny")
	foreign := st.Records[0]
	foreign.ConfigHash = "deadbeef"
	st.Records = append(st.Records, foreign)
	var b bytes.Buffer
	if err := WriteCSV(&b, st); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "cells.csv", b.Bytes())

	rows, err := csv.NewReader(bytes.NewReader(b.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// A header and one row per cell of the manifest; the foreign record is
	// not a row.
	if len(rows) != 1+8 {
		t.Fatalf("%d rows, want 9", len(rows))
	}
	status := make(map[string]int)
	for _, r := range rows[1:] {
		if len(r) != len(rows[0]) {
			t.Fatalf("row has %d columns, want %d", len(r), len(rows[0]))
		}
		status[r[9]]++
	}
	if status["ok"] != 6 || status["failed"] != 1 || status["missing"] != 1 {
		t.Errorf("status counts %v, want 6 ok, 1 failed, 1 missing", status)
	}
}
