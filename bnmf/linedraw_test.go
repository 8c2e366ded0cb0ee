package bnmf

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// Tests of the chains with block draws of GEG's, GVG's and GVnG's
// columns of Z (ZDraw DrawRows) and GLL's and GLLI's rows of W and
// columns of Z (Draw DrawRows): the joint-distribution test with the
// harness of geweke_uni_test.go, bit-identical chains for any number of
// workers and the errors of a bad LineDraw, with the helpers and wrong
// samplers they and the test of a single draw against its closed form
// (linedraw_conditional_test.go) share.

// blockDrawModels are GEG, GLL, GLLI, GVG and GVnG with their lines
// drawn as blocks, at default hyperparameters.
func blockDrawModels() []Model {
	return []Model{GEG{ZDraw: DrawRows}, GLL{Draw: DrawRows}, GLLI{Draw: DrawRows}, GVG{ZDraw: DrawRows}, GVnG{ZDraw: DrawRows}}
}

// modelLabel names model in a subtest: its name, followed by its line
// draw when that is not the default.
func modelLabel(m Model) string {
	switch m := m.(type) {
	case GEG:
		if m.ZDraw != DrawEntries {
			return m.Name() + "/z_draw=" + m.ZDraw.String()
		}
	case GLL:
		if m.Draw != DrawEntries {
			return m.Name() + "/draw=" + m.Draw.String()
		}
	case GLLI:
		if m.Draw != DrawEntries {
			return m.Name() + "/draw=" + m.Draw.String()
		}
	case GVG:
		if m.ZDraw != DrawEntries {
			return m.Name() + "/z_draw=" + m.ZDraw.String()
		}
	case GVnG:
		if m.ZDraw != DrawEntries {
			return m.Name() + "/z_draw=" + m.ZDraw.String()
		}
	case Biased:
		if l := modelLabel(m.Model); l != m.Model.Name() {
			return m.Name() + strings.TrimPrefix(l, m.Model.Name())
		}
	}
	return m.Name()
}

// uniWrongBlocks makes every block draw of c take a wrong conditional,
// with the data's precision 1/sigma^2 counted twice in the precision and
// the linear term alike, as if sigma^2 were half its value: the sampler
// the tests must reject.
func uniWrongBlocks(c *gibbsChain) {
	for s := range c.sides {
		side := &c.sides[s]
		if side.block {
			side.line = func(wk *worker, i int) error { return c.updateBlock(side, wk, i, 2*c.invSigma2) }
		}
	}
}

// uniBlocksIgnoreOffsets makes every block draw of c, a chain with
// offsets, take a wrong conditional: the mean of the line's block from
// the values a_ij themselves, not a_ij - mu - b_i - c_j, as if drawBlock
// forgot netOfOffsets. The rest of updateBlock is kept: the line's
// offset is drawn from the values net of the offsets, as the correct
// sampler draws it, and the line's hyperparameters given its new values.
// The sampler the tests must reject. It sets c.off aside during the draw,
// so it is for a pool of one worker.
func uniBlocksIgnoreOffsets(c *gibbsChain) {
	for s := range c.sides {
		side := &c.sides[s]
		if !side.block {
			continue
		}
		side.line = func(wk *worker, i int) error {
			k := c.k
			pm, b := wk.scratch[:k*k], wk.scratch[k*k:k*k+k]
			for a := range k {
				clear(pm[a*k : a*k+a])
				pm[a*k+a], b[a] = side.prior.natural(i, a)
			}
			off := c.off
			c.off = nil // wrong: drawBlock reads the values with their offsets
			err := c.drawBlock(side, wk, i, c.invSigma2)
			c.off = off
			if err != nil {
				return err
			}
			// The values net of the offsets, where finishBlock reads them.
			var vals []float64
			if side.pos == nil {
				_, vals = c.data.Row(i)
			} else {
				_, vals = c.data.Col(i)
			}
			n := len(vals)
			c.netOfOffsets(side, i, vals, wk.scratch[k*k+2*k+n*k:][:n])
			c.finishBlock(side, wk, i)
			if bad := side.prior.updateLine(i, side.x[i*k:(i+1)*k], wk.rng); bad >= 0 {
				return fmt.Errorf("hyperparameters of %s[%d][%d] left their support", side.name, i, bad)
			}
			return nil
		}
	}
}

// TestGewekeBlockDraws is TestGewekeUnivariate for GEG with its columns of
// Z and GLL and GLLI with their rows of W and columns of Z drawn as
// blocks, through the same simulators (uniGewekeMarginal,
// uniGewekeSuccessive), with three more test functions that a wrong
// correlation within a line would move: W[0][0]W[0][1], Z[1][0]Z[1][1]
// and the square of an unobserved prediction. It runs the models with
// offsets too (GEG+b, GLL+b, GLLI+b, with the offsets' hyperparameters of
// TestGewekeRowwise), where each block draw must see the line's values
// net of mu + b_i + c_j (netOfOffsets) and the line's offset is drawn
// after it (rowOffset); their test functions add the offsets' seven
// (uniGewekeFuncs). There are 111 comparisons (11 for GEG, 15 for GLL,
// 18 for GEG+b, 22 for GLL+b, 19 for GLLI, 26 for GLLI+b); at |z| <
// gewekeZLimit each (about 4e-5 per function with a batch-means standard
// error on 49 degrees of freedom) a correct sampler fails with
// probability below 5e-3. The block draws with the data's precision
// counted twice (uniWrongBlocks) must give some |z| above gewekeMutantZ,
// and so must, with offsets, the block draws of the values with their
// offsets in them (uniBlocksIgnoreOffsets). Milder variants of the two
// mutants, measured once and not kept here, fail too in full: the
// precision counted 1.1 times gave 14 for GEG, 19 for GLL and 24 for
// GLLI, a tenth of the offsets left in the values 19 for GEG+b, 15 for
// GLL+b and 23 for GLLI+b. Under -short it runs 30000 and 60000 sweeps (800-sweep
// batches, still far beyond the chains' autocorrelation), about two
// seconds; in full, as TestGewekeUnivariate, 100000 and 200000, about
// 7 s.
func TestGewekeBlockDraws(t *testing.T) {
	skipUnderRace(t)
	geg := GEG{Lambda: 1, ZDraw: DrawRows, Likelihood: gewekeLik()}
	gll := GLL{Eta: 2, Draw: DrawRows, Likelihood: gewekeLik()}
	glli := GLLI{A: 1, B: 2, Draw: DrawRows, Likelihood: gewekeLik()}
	gegB := Biased{Model: geg, Offsets: gewekeOffsets()}
	gllB := Biased{Model: gll, Offsets: gewekeOffsets()}
	glliB := Biased{Model: glli, Offsets: gewekeOffsets()}
	cases := []struct {
		name   string
		model  Model
		mutant bool
	}{
		{"GEG/z_draw=rows", geg, false},
		{"GLL/draw=rows", gll, false},
		{"GEG/z_draw=rows/precision-doubled", geg, true},
		{"GLL/draw=rows/precision-doubled", gll, true},
		{"GEG+b/z_draw=rows", gegB, false},
		{"GLL+b/draw=rows", gllB, false},
		{"GEG+b/z_draw=rows/offsets-ignored", gegB, true},
		{"GLL+b/draw=rows/offsets-ignored", gllB, true},
		{"GLLI/draw=rows", glli, false},
		{"GLLI/draw=rows/precision-doubled", glli, true},
		{"GLLI+b/draw=rows", glliB, false},
		{"GLLI+b/draw=rows/offsets-ignored", glliB, true},
	}
	nMarginal, nSuccessive := 100000, 200000
	if testing.Short() {
		nMarginal, nSuccessive = 30000, 60000
	}
	ratio := func(v float64) float64 { return v / (1 + math.Abs(v)) }
	k := gewekeK
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := append(uniGewekeFuncs(newUniState(tc.model, uniGewekeShape), uniLikelihood(tc.model)),
				uniFunc{"W[0][0]W[0][1]", func(s *uniState) float64 { return ratio(s.w[0] * s.w[1]) }},
				uniFunc{"Z[1][0]Z[1][1]", func(s *uniState) float64 { return ratio(s.zt[k] * s.zt[k+1]) }},
				uniFunc{"pred(1,1)^2 unobserved", func(s *uniState) float64 { return ratio(s.pred(k, 1, 1) * s.pred(k, 1, 1)) }},
			)
			mm, ms := uniGewekeMarginal(tc.model, fs, nMarginal, uint64(4200+2*ci))
			sm, ss := uniGewekeSuccessive(t, tc.model, tc.mutant, fs, nSuccessive, uint64(4201+2*ci))
			wrong := "the doubled precision of the block draw"
			if _, ok := tc.model.(Biased); ok {
				wrong = "the block draw's values with their offsets"
			}
			gewekeCompare(t, stateFuncNames(fs), mm, ms, sm, ss, tc.mutant, wrong)
		})
	}
}

// TestBlockDrawWorkers checks that GEG, GLL and GLLI with block draws
// give the same Result, bit for bit, with 1, 2 and 3 workers, with and
// without Settings.Float32Factors and offsets, and that the block draws
// change the chain (they are not the entry-by-entry sampler by mistake).
func TestBlockDrawWorkers(t *testing.T) {
	train, test, _ := planted(t, 40, 30, 3, 0.4, 0.3, 13)
	var models []Model
	for _, m := range blockDrawModels() {
		models = append(models, m, Biased{Model: m})
	}
	for _, model := range models {
		for _, f32 := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/float32=%v", modelLabel(model), f32), func(t *testing.T) {
				var first *Result
				for _, workers := range []int{1, 2, 3} {
					s := Settings{Rank: 3, Sweeps: 20, BurnIn: 10, Seed: 5, Test: test, Workers: workers, Float32Factors: f32}
					r, err := Run(context.Background(), model, train, s)
					if err != nil {
						t.Fatal(err)
					}
					r = withoutTimes(r)
					r.Settings.Workers = 0
					if first == nil {
						first = r
						continue
					}
					if !reflect.DeepEqual(r, first) {
						t.Errorf("%d workers give a different run from 1 worker", workers)
					}
				}
				if !(first.TestMSE < 1) {
					t.Errorf("test MSE %v on planted data with noise variance 0.09", first.TestMSE)
				}
				entries := model
				switch m := model.(type) {
				case GEG:
					m.ZDraw = DrawEntries
					entries = m
				case GLL:
					m.Draw = DrawEntries
					entries = m
				case GLLI:
					m.Draw = DrawEntries
					entries = m
				case GVG:
					m.ZDraw = DrawEntries
					entries = m
				case GVnG:
					m.ZDraw = DrawEntries
					entries = m
				default:
					return
				}
				r, err := Run(context.Background(), entries, train, Settings{Rank: 3, Sweeps: 20, BurnIn: 10, Seed: 5, Test: test, Float32Factors: f32})
				if err != nil {
					t.Fatal(err)
				}
				if r.Trace[0] == first.Trace[0] {
					t.Error("the block draws' first sweep is the entry-by-entry sampler's")
				}
			})
		}
	}
}

// TestLineDrawErrors checks that a LineDraw other than DrawEntries and
// DrawRows is an error that names the model and its field, and that
// Configure takes the config's names.
func TestLineDrawErrors(t *testing.T) {
	train, _, _ := planted(t, 6, 5, 2, 0.8, 0.3, 29)
	for _, tc := range []struct {
		model Model
		want  string
	}{
		{GEG{ZDraw: 7}, "bnmf: GEG.ZDraw is LineDraw(7); want DrawEntries (\"entries\") or DrawRows (\"rows\")"},
		{GLL{Draw: -1}, "bnmf: GLL.Draw is LineDraw(-1); want DrawEntries (\"entries\") or DrawRows (\"rows\")"},
		{GLLI{Draw: 2}, "bnmf: GLLI.Draw is LineDraw(2); want DrawEntries (\"entries\") or DrawRows (\"rows\")"},
		{GVG{ZDraw: 3}, "bnmf: GVG.ZDraw is LineDraw(3); want DrawEntries (\"entries\") or DrawRows (\"rows\")"},
		{GVnG{ZDraw: -2}, "bnmf: GVnG.ZDraw is LineDraw(-2); want DrawEntries (\"entries\") or DrawRows (\"rows\")"},
	} {
		if _, err := tc.model.newChain(train, 2); err == nil || err.Error() != tc.want {
			t.Errorf("%#v: error %v, want %q", tc.model, err, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		key  string
		want Model
	}{{"GEG", "z_draw", GEG{ZDraw: DrawRows}}, {"GLL", "draw", GLL{Draw: DrawRows}}, {"GLLI", "draw", GLLI{Draw: DrawRows}},
		{"GVG", "z_draw", GVG{ZDraw: DrawRows}}, {"GVnG", "z_draw", GVnG{ZDraw: DrawRows}}} {
		spec, _ := Lookup(tc.name)
		if m, err := spec.Configure(map[string]any{tc.key: "rows"}); err != nil || m != tc.want {
			t.Errorf("%s %s: rows configured %#v (%v)", tc.name, tc.key, m, err)
		}
		if m, err := spec.Configure(map[string]any{tc.key: "entries"}); err != nil || m != spec.Zero {
			t.Errorf("%s %s: entries configured %#v (%v), want the default", tc.name, tc.key, m, err)
		}
		want := fmt.Sprintf("%s: unknown %s \"cols\" for %s; want one of [\"entries\" \"rows\"]", tc.key, tc.key, tc.name)
		if _, err := spec.Configure(map[string]any{tc.key: "cols"}); err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %q", tc.name, err, want)
		}
	}
}
