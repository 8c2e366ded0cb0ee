package report

import (
	"slices"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

func TestSummariseCounts(t *testing.T) {
	sum := Summarise([]*experiments.Study{troubledSparsity(t, "s")})
	s := sum.Studies[0]
	// 5 models x 4 ranks x 6 fractions x 3 repeats; one dropped, and the
	// record of another config not used.
	if s.Expected != 360 || s.Found != 359 || s.Failed != 1 {
		t.Errorf("expected %d found %d failed %d, want 360, 359, 1", s.Expected, s.Found, s.Failed)
	}
	if len(s.Groups) != 120 {
		t.Errorf("%d groups, want 120", len(s.Groups))
	}
	wantWarnings := []string{
		"records/0042.json: unexpected end of JSON input",
		"record for GEE, K = 20, fraction unobserved 0.93, repeat 0 not used: config hash deadbeef differs from the manifest's c0ffee",
	}
	if !slices.Equal(s.Warnings, wantWarnings) {
		t.Errorf("study warnings %q, want %q", s.Warnings, wantWarnings)
	}
	tests := []struct {
		key                     Key
		expected, found, failed int
		testN, nonFinite        int
		warnings                []string
	}{
		{Key{Model: "GEE", Rank: 50, Fraction: 0.98}, 3, 2, 0, 2, 0, nil},
		{Key{Model: "GTT", Rank: 40, Fraction: 0.97}, 3, 3, 1, 2, 0,
			[]string{"repeat 1 failed: sampler: sigma2 draw is not finite at sweep 7"}},
		{Key{Model: "NMF", Rank: 20, Fraction: 0.98}, 3, 3, 0, 2, 1,
			[]string{"1 non-finite train MSE value left out", "1 non-finite held-out MSE value left out"}},
		{Key{Model: "GRRN", Rank: 20, Fraction: 0.97}, 3, 3, 0, 3, 0,
			[]string{"repeat 0: effective sample size of sigma2 is 12, below 100"}},
		{Key{Model: "GRRN", Rank: 30, Fraction: 0.95}, 3, 3, 0, 3, 0, nil},
	}
	for _, tt := range tests {
		g := s.Group(tt.key)
		if g == nil {
			t.Fatalf("no group %s", tt.key)
		}
		if g.Expected != tt.expected || g.Found != tt.found || g.Failed != tt.failed ||
			g.TestMSE.N != tt.testN || g.TestMSE.NonFinite != tt.nonFinite || !slices.Equal(g.Warnings, tt.warnings) {
			t.Errorf("%s: got expected %d found %d failed %d n %d non-finite %d warnings %q", tt.key,
				g.Expected, g.Found, g.Failed, g.TestMSE.N, g.TestMSE.NonFinite, g.Warnings)
		}
	}
	if g := s.Group(Key{Model: "GEE", Rank: 50, Fraction: 0.98}); !slices.Equal(g.Missing, []int{2}) {
		t.Errorf("missing repeats %v, want [2]", g.Missing)
	}
	// GRRN's held-out MSE at K = 30, 0.95 is 0.99 times 0.98, 1, 1.02.
	g := s.Group(Key{Model: "GRRN", Rank: 30, Fraction: 0.95})
	if d := g.TestMSE.Mean - 0.99; d > 1e-12 || d < -1e-12 {
		t.Errorf("mean %v, want 0.99", g.TestMSE.Mean)
	}
	if d := g.TestMSE.SD - 0.0198; d > 1e-12 || d < -1e-12 {
		t.Errorf("sd %v, want 0.0198", g.TestMSE.SD)
	}
}

func TestSummariseManifestWithoutCells(t *testing.T) {
	st := noiseFixture().study(t, "n", "noise")
	st.Manifest.Cells = nil // expected cells come from models, ranks, ratios and repeats
	s := Summarise([]*experiments.Study{st}).Studies[0]
	if s.Expected != 120 || s.Found != 120 || len(s.Warnings) != 0 {
		t.Errorf("expected %d found %d warnings %q, want 120, 120, none", s.Expected, s.Found, s.Warnings)
	}
}

func TestSummariseRejectsRecords(t *testing.T) {
	st := convergenceFixture().study(t, "c", "convergence")
	dup := st.Records[1]
	stray := st.Records[2]
	stray.Cell.Rank = 99
	newer := st.Records[3]
	newer.Version = experiments.RecordVersion + 1
	st.Records = append(slices.Clone(st.Records), dup, stray, newer)
	s := Summarise([]*experiments.Study{st}).Studies[0]
	want := []string{
		"record for GEE, K = 10, repeat 1 not used: a second record for the same cell",
		"record for GEE, K = 99, repeat 2 not used: the manifest does not list this cell",
		"record for GEE, K = 20, repeat 0 not used: record version 2 is newer than 1",
	}
	if !slices.Equal(s.Warnings, want) {
		t.Errorf("warnings %q, want %q", s.Warnings, want)
	}
}
