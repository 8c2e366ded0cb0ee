package regression

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// The test in this file checks claim 24 of results/brouwer-lio/findings.md:
// the sparsity studies on GDSC IC50 with every model both sides ran, at
// each model's K and all at K = 5.

// gdscSparsityModels are the models of claim 24's tables in the page's
// order, by group: nonnegative, real-valued, semi-nonnegative, Poisson,
// then the baselines (their NMF is claim 15's).
var gdscSparsityModels = []string{
	"GEE", "GEEA", "GTT", "GTTN", "GL21", "GVnG",
	"GGG", "GGGU", "GGGA", "GGGW", "GLL", "GLLI", "GVG",
	"GEG", "PGG", "PGGG", "ColumnMean", "RowMean",
}

// gdscSparsityK is each model's K in upstream's per-model-K sparsity study
// (their cross-validation's choice).
var gdscSparsityK = map[string]int{
	"GEE": 8, "GEEA": 10, "GTT": 9, "GTTN": 8, "GL21": 6, "GVnG": 11,
	"GGG": 6, "GGGU": 6, "GGGA": 10, "GGGW": 16, "GLL": 10, "GLLI": 10, "GVG": 10,
	"GEG": 6, "PGG": 4, "PGGG": 5,
}

// sparsityTable holds ours and theirs of one sparsity experiment and
// renders its rows: its models at the fractions unobserved lo and hi,
// and the rise between them.
type sparsityTable struct {
	ours, theirs map[blioKey]meanSE
	k            func(model string) (ours, theirs int)
	models       []string
	lo, hi       float64
}

func (s sparsityTable) get(t *testing.T, who, m string, x float64) meanSE {
	t.Helper()
	o, th := s.k(m)
	if who == "ours" {
		return at(t, s.ours, m, o, x)
	}
	return at(t, s.theirs, m, th, x)
}

func (s sparsityTable) rise(t *testing.T, who, m string) float64 {
	return 100 * (s.get(t, who, m, s.hi).mean/s.get(t, who, m, s.lo).mean - 1)
}

func (s sparsityTable) render(t *testing.T, withK bool, digits int) string {
	cols := []string{"model", fmt.Sprintf("%g ours", s.lo), fmt.Sprintf("%g theirs", s.lo),
		fmt.Sprintf("%g ours", s.hi), fmt.Sprintf("%g theirs", s.hi), "rise ours", "rise theirs"}
	if withK {
		cols = slices.Insert(cols, 1, "K")
	}
	out := tableHead(cols...)
	for _, m := range s.models {
		row := []string{m}
		if withK {
			k := "—"
			if _, th := s.k(m); th > 0 {
				k = fmt.Sprint(th)
			}
			row = append(row, k)
		}
		row = append(row, pm(s.get(t, "ours", m, s.lo), digits), pm(s.get(t, "theirs", m, s.lo), digits),
			pm(s.get(t, "ours", m, s.hi), digits), pm(s.get(t, "theirs", m, s.hi), digits),
			fmt.Sprintf("%.0f%%", s.rise(t, "ours", m)), fmt.Sprintf("%.0f%%", s.rise(t, "theirs", m)))
		out += tableRow(row...)
	}
	return out
}

// mergedStats is ourStats over several studies.
func mergedStats(t *testing.T, studies ...string) map[blioKey]meanSE {
	t.Helper()
	out := make(map[blioKey]meanSE)
	for _, name := range studies {
		for k, v := range ourStats(t, loadCommittedStudy(t, name), testMSEOf) {
			if _, ok := out[k]; ok {
				t.Fatalf("%s: %v is in another of the studies %v too", name, k, studies)
			}
			out[k] = v
		}
	}
	return out
}

// TestBrouwerLioClaimGDSCSparsitySixteen checks claim 24 of
// results/brouwer-lio/findings.md: both tables as the records and their
// published numbers give them; at K = 5 GTT and GGGW the two lowest at 0.9
// on both sides; GLL at 0.9 within 0.5% of theirs at both K and above
// the row means on both sides; GGGW at 0.9 below theirs by the page's
// percentages; our GLLI and GVnG far above theirs at K = 5; and the rise
// of ten other models at K = 5 within the page's points of theirs,
// PGG's above theirs at both K.
func TestBrouwerLioClaimGDSCSparsitySixteen(t *testing.T) {
	sec := claimSection(t, 24)
	perK := sparsityTable{
		ours: mergedStats(t, "blio-gdsc-sparsity", "blio-gdsc-sparsity-geea", "blio-gdsc-sparsity-geg", "blio-gdsc-sparsity-gggw",
			"blio-gdsc-sparsity-gl21", "blio-gdsc-sparsity-gll", "blio-gdsc-sparsity-gvg", "blio-gdsc-sparsity-gvng",
			"blio-gdsc-sparsity-pgg", "blio-gdsc-sparsity-pggg"),
		theirs: theirStats(t, "sparsity", "drug_sensitivity_gdsc", "MSE"),
		k: func(m string) (int, int) {
			if k, ok := gdscSparsityK[m]; ok {
				return k, k
			}
			return 8, 0 // our baselines run beside GEE's K; theirs have none
		},
		models: gdscSparsityModels, lo: 0.3, hi: 0.9,
	}
	sameK := sparsityTable{
		ours: mergedStats(t, "blio-gdsc-sparsity-samek", "blio-gdsc-sparsity-samek-gggw", "blio-gdsc-sparsity-samek-gvg",
			"blio-gdsc-sparsity-samek-pgg"),
		theirs: theirStats(t, "sparsity", "sameK_drug_sensitivity_gdsc", "MSE"),
		k: func(m string) (int, int) {
			if _, ok := gdscSparsityK[m]; ok {
				return 5, 5
			}
			return 5, 0
		},
		models: gdscSparsityModels, lo: 0.3, hi: 0.9,
	}
	requireOnPage(t, 24, sec, perK.render(t, true, 1))
	requireOnPage(t, 24, sec, sameK.render(t, false, 1))

	models := gdscSparsityModels[:16]
	for _, who := range []string{"ours", "theirs"} {
		order := slices.Clone(models)
		v := func(m string) float64 { return sameK.get(t, who, m, 0.9).mean }
		slices.SortFunc(order, func(a, b string) int { return cmpFloat(v(a), v(b)) })
		if !slices.Equal(slices.Sorted(slices.Values(order[:2])), []string{"GGGW", "GTT"}) {
			t.Errorf("%s at K = 5, 0.9: the two lowest are %v; the page says GTT and GGGW", who, order[:2])
		}
		// Not by group: two real-valued priors below the nonnegative GEE,
		// the least robust four all real-valued volume, Laplace or Poisson.
		if !(v("GGGW") < v("GEE") && v("GGGA") < v("GEE")) {
			t.Errorf("%s at K = 5, 0.9: GGGW %.1f, GGGA %.1f, GEE %.1f; the page says both below GEE", who, v("GGGW"), v("GGGA"), v("GEE"))
		}
		for _, m := range order[len(order)-4:] {
			if !slices.Contains([]string{"GLL", "GLLI", "GVG", "GVnG", "PGG", "PGGG"}, m) {
				t.Errorf("%s at K = 5, 0.9: %s is among the four highest; the page says GLL, the volume priors and the Poisson models are the least robust", who, m)
			}
		}
	}
	for _, tab := range []sparsityTable{perK, sameK} {
		o, th := tab.get(t, "ours", "GLL", 0.9).mean, tab.get(t, "theirs", "GLL", 0.9).mean
		if math.Abs(o/th-1) >= 0.005 || o <= tab.get(t, "ours", "RowMean", 0.9).mean || th <= tab.get(t, "theirs", "RowMean", 0.9).mean {
			t.Errorf("GLL at 0.9: ours %.1f, theirs %.1f; the page says within 0.5%% and above the row means on both sides", o, th)
		}
	}
	// GGGW: ours the lowest of all at 0.9 at both K; theirs second at
	// K = 5, third after GTT and GTTN at its K.
	for i, tab := range []sparsityTable{perK, sameK} {
		for _, who := range []string{"ours", "theirs"} {
			v := func(m string) float64 { return tab.get(t, who, m, 0.9).mean }
			below := 0
			for _, m := range gdscSparsityModels[:16] {
				if v(m) < v("GGGW") {
					below++
				}
			}
			want := map[string][2]int{"ours": {0, 0}, "theirs": {2, 1}}[who][i]
			if below != want {
				t.Errorf("table %d, %s: %d models below GGGW at 0.9, the page says %d", i, who, below, want)
			}
		}
	}
	if !(perK.get(t, "theirs", "GTTN", 0.9).mean < perK.get(t, "theirs", "GGGW", 0.9).mean) {
		t.Errorf("at each model's K their GTTN is not below their GGGW at 0.9")
	}
	for _, tab := range []sparsityTable{perK, sameK} {
		for _, who := range []string{"ours", "theirs"} {
			if v := tab.get(t, who, "PGGG", 0.9); v.se < 0.2*v.mean || v.se > 0.6*v.mean {
				t.Errorf("%s PGGG at 0.9: %.1f ± %.1f; the page says standard errors a fifth to three fifths of its means", who, v.mean, v.se)
			}
		}
	}
	// GLLI drawn as blocks breaks down as drawn by entries.
	rows := ourStats(t, loadCommittedStudy(t, "blio-gdsc-sparsity-gll-rows"), testMSEOf)
	glliRows, glliEntries := at(t, rows, "GLLI", 10, 0.9), perK.get(t, "ours", "GLLI", 0.9)
	requireOnPage(t, 24, sec, fmt.Sprintf("ours breaks down all the same (%s at 0.9 against %s drawn by entries; theirs %s)",
		pm(glliRows, 1), pm(glliEntries, 1), pm(perK.get(t, "theirs", "GLLI", 0.9), 1)))
	if math.Abs(glliRows.mean/glliEntries.mean-1) > 0.005 {
		t.Errorf("GLLI at 0.9: %.1f drawn as blocks, %.1f by entries; the page says alike", glliRows.mean, glliEntries.mean)
	}
	// GGGW with the reference code's hyperparameter draw.
	gggwUp := ourStats(t, loadCommittedStudy(t, "blio-gdsc-sparsity-gggw-upstream"), testMSEOf)
	var upCells []string
	for _, x := range []float64{0.8, 0.9} {
		o, ex, th := at(t, gggwUp, "GGGW", 16, x), perK.get(t, "ours", "GGGW", x), perK.get(t, "theirs", "GGGW", x)
		upCells = append(upCells, fmt.Sprintf("%s at %g (exact %s, theirs %s)", pm(o, 1), x, pm(ex, 1), pm(th, 1)))
		// Most of the gap closed: less than a quarter of it left.
		if left := (th.mean - o.mean) / (th.mean - ex.mean); left < 0 || left > 0.25 {
			t.Errorf("GGGW at %g: upstream's draw leaves %.0f%% of the gap to theirs; the page says it accounts for most", x, 100*left)
		}
	}
	requireOnPage(t, 24, sec, "ours rises to "+strings.Join(upCells, " and ")+", the rest of the way")
	// With upstream's eta draw too, ours matches theirs at every fraction.
	upstream := ourStats(t, loadCommittedStudy(t, "blio-gdsc-sparsity-glli-upstream"), testMSEOf)
	var cells []string
	maxZ := 0.0
	for _, x := range blioFractions {
		o, th := at(t, upstream, "GLLI", 10, x), perK.get(t, "theirs", "GLLI", x)
		maxZ = max(maxZ, math.Abs(zDiff(o, th)))
		cells = append(cells, fmt.Sprintf("%g: %s against %s", x, pm(o, 1), pm(th, 1)))
	}
	requireOnPage(t, 24, sec, fmt.Sprintf("matches theirs at every fraction (%s; within %.1f standard errors of the difference at each", strings.Join(cells, ", "), maxZ))
	// Ours sit below theirs by about the integer cast's effect (claim 4),
	// which allows a little more than two standard errors.
	if maxZ > 2.5 {
		t.Errorf("GLLI with upstream's sampler is %.1f standard errors from theirs at some fraction; the page says it matches", maxZ)
	}
	gap := func(tab sparsityTable, m string) float64 {
		return 100 * (1 - tab.get(t, "ours", m, 0.9).mean/tab.get(t, "theirs", m, 0.9).mean)
	}
	requireOnPage(t, 24, sec, fmt.Sprintf("our GGGW is %.0f%% below theirs at 0.9 at K = 5 and %.0f%% at its K of 16", gap(sameK, "GGGW"), gap(perK, "GGGW")))
	for _, tab := range []sparsityTable{perK, sameK} {
		if g := gap(tab, "GGGW"); g < 5 {
			t.Errorf("GGGW at 0.9: ours %.1f%% below theirs; the page says about 10%%", g)
		}
		if o, th := tab.rise(t, "ours", "PGG"), tab.rise(t, "theirs", "PGG"); o <= th {
			t.Errorf("PGG: ours rises %.0f%%, theirs %.0f%%; the page says ours more", o, th)
		}
	}
	for _, m := range []string{"GLLI", "GVnG"} {
		if z := zDiff(sameK.get(t, "ours", m, 0.9), sameK.get(t, "theirs", m, 0.9)); z < 10 {
			t.Errorf("%s at K = 5, 0.9: ours %.1f standard errors of the difference above theirs; the page says far above", m, z)
		}
	}
	maxRise := 0.0
	for _, m := range []string{"GEE", "GEEA", "GTT", "GTTN", "GL21", "GGG", "GGGU", "GGGA", "GVG", "GEG"} {
		maxRise = max(maxRise, math.Abs(sameK.rise(t, "ours", m)-sameK.rise(t, "theirs", m)))
	}
	requireOnPage(t, 24, sec, fmt.Sprintf("rise from 0.3 to 0.9 within %.0f percentage points of theirs", math.Ceil(maxRise)))
	requireOnPage(t, 24, sec, fmt.Sprintf("PGG rises more than theirs at both K (%.0f%% against %.0f%% at K = 5, %.0f%% against %.0f%% at its K of 4)",
		sameK.rise(t, "ours", "PGG"), sameK.rise(t, "theirs", "PGG"), perK.rise(t, "ours", "PGG"), perK.rise(t, "theirs", "PGG")))
	zPGG := max(zDiff(sameK.get(t, "ours", "PGG", 0.9), sameK.get(t, "theirs", "PGG", 0.9)),
		zDiff(perK.get(t, "ours", "PGG", 0.9), perK.get(t, "theirs", "PGG", 0.9)))
	requireOnPage(t, 24, sec, fmt.Sprintf("within %.1f standard errors of the difference at 0.9 at each", math.Ceil(zPGG*10)/10))
}
