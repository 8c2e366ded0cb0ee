package bnmf

import (
	"context"
	"errors"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/floats/scalar"
)

// drawsFunc is a DrawRecorder made of a function.
type drawsFunc func(Draw) error

func (f drawsFunc) RecordDraw(d Draw) error { return f(d) }

// TestDraws checks that every chain sends exactly its kept sweeps, in
// order, and that their means are the chains' posterior means.
func TestDraws(t *testing.T) {
	train, test, _ := planted(t, 20, 15, 2, 0.5, 0.3, 21)
	s := Settings{Rank: 2, Sweeps: 30, BurnIn: 20, Thin: 3, Seed: 4, Test: test, Workers: 2}
	type sums struct {
		sweeps []int
		w, zt  []float64
		sigma2 float64
	}
	got := map[int]*sums{}
	s.Draws = drawsFunc(func(d Draw) error {
		sm := got[d.Chain]
		if sm == nil {
			sm = &sums{w: make([]float64, len(d.W)), zt: make([]float64, len(d.Zt))}
			got[d.Chain] = sm
		}
		sm.sweeps = append(sm.sweeps, d.Sweep)
		floats.Add(sm.w, d.W)
		floats.Add(sm.zt, d.Zt)
		sm.sigma2 += d.Sigma2
		return nil
	})
	ch, err := RunChains(context.Background(), GRRN{}, train, s, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("draws from chains %v, want 0 and 1", got)
	}
	for c, r := range ch.Results {
		sm := got[c]
		if want := []int{23, 26, 29}; !slices.Equal(sm.sweeps, want) || r.Kept != len(want) {
			t.Errorf("chain %d sent sweeps %v, want %v (kept %d)", c, sm.sweeps, want, r.Kept)
		}
		inv := 1 / float64(len(sm.sweeps))
		floats.Scale(inv, sm.w)
		m, k := r.MeanW.Dims()
		// The same sums in the same order as Run's: equal up to the
		// rounding of a different association, far below 1e-12.
		for i := range m {
			for j := range k {
				if !scalar.EqualWithinAbsOrRel(sm.w[i*k+j], r.MeanW.At(i, j), 1e-12, 1e-12) {
					t.Fatalf("chain %d: mean of W draws at (%d, %d) is %v, MeanW %v", c, i, j, sm.w[i*k+j], r.MeanW.At(i, j))
				}
			}
		}
		floats.Scale(inv, sm.zt)
		_, n := r.MeanZ.Dims()
		for j := range n {
			for f := range k {
				if !scalar.EqualWithinAbsOrRel(sm.zt[j*k+f], r.MeanZ.At(f, j), 1e-12, 1e-12) {
					t.Fatalf("chain %d: mean of Z draws at (%d, %d) is %v, MeanZ %v", c, f, j, sm.zt[j*k+f], r.MeanZ.At(f, j))
				}
			}
		}
		if !scalar.EqualWithinAbsOrRel(sm.sigma2*inv, r.Sigma2Mean, 1e-12, 1e-12) {
			t.Errorf("chain %d: mean sigma^2 of draws %v, Sigma2Mean %v", c, sm.sigma2*inv, r.Sigma2Mean)
		}
	}
}

// TestDrawsPointEstimateAndError checks that a point estimate sends no
// draws and that a recorder's error stops the run.
func TestDrawsPointEstimateAndError(t *testing.T) {
	train, _, _ := planted(t, 12, 10, 2, 0.6, 0.3, 22)
	n := 0
	s := Settings{Rank: 2, Sweeps: 10, Seed: 1, Workers: 1, Draws: drawsFunc(func(Draw) error { n++; return nil })}
	for _, m := range []Model{NMF{}, GlobalMean{}} {
		if _, err := Run(context.Background(), m, train, s); err != nil {
			t.Fatal(err)
		}
	}
	if n != 0 {
		t.Errorf("point estimates sent %d draws", n)
	}
	stop := errors.New("enough")
	s.Draws = drawsFunc(func(Draw) error { return stop })
	if _, err := Run(context.Background(), GEE{}, train, s); !errors.Is(err, stop) {
		t.Errorf("Run returned %v, want the recorder's error", err)
	}
}
