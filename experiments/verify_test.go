package experiments

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestVerify(t *testing.T) {
	p := tinyPlan(t, "models: [{name: GRRN}, {name: NMF}]\n")
	// Stored with one core per chain, verified with two: the worker count
	// must not matter.
	st, err := LoadStudy(run(t, p, RunOptions{Workers: 1}))
	if err != nil {
		t.Fatal(err)
	}
	cells, err := VerificationSample(st, 3, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 3 {
		t.Fatalf("sampled %d cells, want 3", len(cells))
	}
	var reported int
	checks, err := p.Verify(context.Background(), st, cells, 2, func(*Check) { reported++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != 3 || reported != 3 {
		t.Fatalf("%d checks, %d reported; want 3 and 3", len(checks), reported)
	}
	for _, c := range checks {
		if !c.Identical() {
			t.Errorf("cell %s: rerun differs in %v", c.Stored.Cell.Key(), c.Differences)
		}
	}

	// A stored record that is off in its last digits is caught, and only
	// in the part that differs.
	i := slices.IndexFunc(st.Records, func(r Record) bool { return r.Cell == cells[0] })
	st.Records[i].Metrics.TestMSE *= 1 + 1e-12
	st.Records[i].Versions.Module = "another build" // not compared
	st.Records[i].WallSeconds++                     // not compared
	checks, err = p.Verify(context.Background(), st, cells[:1], 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := checks[0].Differences; !reflect.DeepEqual(got, []string{"metrics"}) {
		t.Errorf("tampered record differs in %v, want [metrics]", got)
	}

	st.Manifest.ConfigHash = "other"
	if _, err := p.Verify(context.Background(), st, cells, 0, nil); err == nil || !strings.Contains(err.Error(), "holds results of config") {
		t.Errorf("verifying another config's study gave %v, want a refusal", err)
	}
}

func TestVerificationSample(t *testing.T) {
	st := &Study{}
	build := func(rev string) Versions { return Versions{Go: "go1.26.8", Module: rev} }
	for i, rev := range []string{"a", "a", "b", "a", "c", "c", "a", "b"} {
		r := fakeRecord("aaa", i)
		r.Versions = build(rev)
		st.Records = append(st.Records, r)
	}
	failed := fakeRecord("aaa", 8)
	failed.Versions = build("d")
	failed.Error = "diverged"
	st.Records = append(st.Records, failed)
	repeats := func(cells []Cell) []int {
		var out []int
		for _, c := range cells {
			out = append(out, c.Repeat)
		}
		return out
	}
	tests := []struct {
		n    int
		want []int
	}{
		{1, []int{0}},
		{3, []int{0, 2, 4}}, // the first cell of each build
		{8, []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{20, []int{0, 1, 2, 3, 4, 5, 6, 7}}, // every successful cell, the failed one left out
	}
	for _, tt := range tests {
		cells, err := VerificationSample(st, tt.n, rand.NewPCG(3, 4))
		if err != nil {
			t.Fatal(err)
		}
		if got := repeats(cells); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("n=%d: sampled repeats %v, want %v", tt.n, got, tt.want)
		}
	}
	// Beyond one cell per build the draw comes from the source alone.
	a, err := VerificationSample(st, 5, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	b, err := VerificationSample(st, 5, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) || len(a) != 5 || !slices.Contains(repeats(a), 0) || !slices.Contains(repeats(a), 2) || !slices.Contains(repeats(a), 4) {
		t.Errorf("samples of 5 with one seed: %v and %v; want equal, of 5, with every build's first cell", repeats(a), repeats(b))
	}
	if _, err := VerificationSample(st, 0, rand.NewPCG(1, 1)); err == nil {
		t.Error("a sample of 0 cells was accepted")
	}
	if _, err := VerificationSample(st, 2, nil); err == nil {
		t.Error("a nil source was accepted")
	}
}
