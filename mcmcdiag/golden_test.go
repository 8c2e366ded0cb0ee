package mcmcdiag

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// goldenTol is the largest relative difference allowed from posterior's
// output. Both sides compute the same formulas in double precision, so they
// differ by rounding only (R sums in long double, the FFTs differ); 1e-6
// leaves room for that while catching any change of definition, which
// moves values by far more.
const goldenTol = 1e-6

// readCSV reads a whole CSV file with a header row.
func readCSV(t *testing.T, path string) (header []string, rows [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: empty", path)
	}
	return recs[0], recs[1:]
}

// parseR parses a number as make_goldens.R prints it; NA becomes NaN.
func parseR(t *testing.T, s string) float64 {
	t.Helper()
	if s == "NA" {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return v
}

// readDraws reads testdata/draws/<name>.csv into chains x iterations.
func readDraws(t *testing.T, name string) [][]float64 {
	t.Helper()
	header, rows := readCSV(t, filepath.Join("testdata", "draws", name+".csv"))
	chains := make([][]float64, len(header))
	for _, r := range rows {
		if len(r) != len(header) {
			t.Fatalf("draws %s: row has %d fields, want %d", name, len(r), len(header))
		}
		for j, s := range r {
			chains[j] = append(chains[j], parseR(t, s))
		}
	}
	return chains
}

// relErr is |got - want| / |want|, 0 when both are NaN or the same
// infinity, and +Inf when exactly one is NaN.
func relErr(got, want float64) float64 {
	switch {
	case math.IsNaN(got) || math.IsNaN(want):
		if math.IsNaN(got) && math.IsNaN(want) {
			return 0
		}
		return math.Inf(1)
	case got == want:
		return 0
	}
	return math.Abs(got-want) / math.Abs(want)
}

func TestGoldens(t *testing.T) {
	header, rows := readCSV(t, filepath.Join("testdata", "expected.csv"))
	if len(rows) < 30 {
		t.Fatalf("expected.csv has %d cases, want the full set", len(rows))
	}
	col := make(map[string]int, len(header))
	for i, h := range header {
		col[h] = i
	}
	var worst float64
	var worstAt string
	for _, r := range rows {
		name := r[col["case"]]
		t.Run(name, func(t *testing.T) {
			chains := readDraws(t, name)
			s := Summarize(chains)
			got := map[string]float64{
				"rhat":       RHat(chains),
				"rhat_bulk":  s.RHatBulk,
				"rhat_tail":  s.RHatTail,
				"rhat_basic": RHatBasic(chains),
				"ess_bulk":   ESSBulk(chains),
				"ess_tail":   ESSTail(chains),
				"ess_q05":    ESSQuantile(chains, 0.05),
				"ess_q95":    ESSQuantile(chains, 0.95),
				"ess_q0":     ESSQuantile(chains, 0),
				"ess_q50":    ESSQuantile(chains, 0.5),
				"ess_q100":   ESSQuantile(chains, 1),
				"ess_basic":  ESSBasic(chains),
				"ess_mean":   ESSBasic(chains),
			}
			// Summarize must agree with the single functions to the bit.
			fromSummary := map[string]float64{
				"rhat": s.RHat, "rhat_basic": s.RHatBasic, "ess_bulk": s.ESSBulk,
				"ess_tail": s.ESSTail, "ess_q05": s.ESSQ05, "ess_q95": s.ESSQ95,
				"ess_basic": s.ESSBasic,
			}
			for k, v := range fromSummary {
				if relErr(v, got[k]) != 0 {
					t.Errorf("Summarize %s = %v, function gives %v", k, v, got[k])
				}
			}
			for k, g := range got {
				i, ok := col[k]
				if !ok {
					t.Fatalf("expected.csv lacks column %s", k)
				}
				want := parseR(t, r[i])
				e := relErr(g, want)
				if e > goldenTol {
					t.Errorf("%s = %.17g, posterior %.17g (relative error %.3g)", k, g, want, e)
				}
				if e > worst {
					worst, worstAt = e, name+"/"+k
				}
			}
		})
	}
	t.Logf("largest relative error against posterior: %.3g (%s)", worst, worstAt)
}

func TestAutocovarianceGolden(t *testing.T) {
	_, rows := readCSV(t, filepath.Join("testdata", "autocovariance.csv"))
	xs := map[string][]float64{}
	want := map[string][]float64{}
	var order []string
	for _, r := range rows {
		if _, ok := xs[r[0]]; !ok {
			order = append(order, r[0])
		}
		xs[r[0]] = append(xs[r[0]], parseR(t, r[2]))
		want[r[0]] = append(want[r[0]], parseR(t, r[3]))
	}
	for _, name := range order {
		got := Autocovariance(xs[name])
		// Lags far out are sums of few products and may nearly cancel, so
		// relative error is measured against the lag-0 variance.
		for k, g := range got {
			if d := math.Abs(g-want[name][k]) / want[name][0]; d > goldenTol {
				t.Errorf("%s lag %d: %.17g, posterior %.17g", name, k, g, want[name][k])
			}
		}
	}
}
