package regression

import (
	"errors"
	"io"
	"math"
	"strconv"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// blioKey identifies one setting: a model at rank K and a fraction
// unobserved (0 in a convergence study). Their baselines have K = 0.
type blioKey struct {
	model string
	k     int
	x     float64
}

// meanSE is a mean over repeats with its standard error.
type meanSE struct {
	mean, se float64
	n        int
}

func newMeanSE(xs []float64) meanSE {
	n := float64(len(xs))
	var s, ss float64
	for _, x := range xs {
		s += x
	}
	m := s / n
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return meanSE{m, math.Sqrt(ss/(n-1)) / math.Sqrt(n), len(xs)}
}

// ourStats returns the mean and standard error over repeats of metric for
// every setting of st, failing unless every setting has 10 successful
// repeats (the configs' count, and upstream's). A setting's value is its
// cell's fraction unobserved (ourStatsOn for another axis or count).
func ourStats(t *testing.T, st *experiments.Study, metric func(*experiments.Metrics) float64) map[blioKey]meanSE {
	t.Helper()
	return ourStatsOn(t, st, 10, metric, fractionOf)
}

// ourStatsOn is ourStats with each setting's value read from its cell by
// x (the noise ratio in a noise study) and another number of repeats:
// per setting, the mean and standard error of metric, failing on a
// failed cell or on a setting without exactly repeats successful cells.
func ourStatsOn(t *testing.T, st *experiments.Study, repeats int, metric func(*experiments.Metrics) float64, x func(experiments.Cell) float64) map[blioKey]meanSE {
	t.Helper()
	vals := make(map[blioKey][]float64)
	for i := range st.Records {
		r := &st.Records[i]
		if r.Error != "" {
			t.Fatalf("%s: cell %s failed: %s", st.Manifest.Study, r.Cell.Key(), r.Error)
		}
		k := blioKey{r.Cell.Model, r.Cell.Rank, x(r.Cell)}
		vals[k] = append(vals[k], metric(&r.Metrics))
	}
	out := make(map[blioKey]meanSE, len(vals))
	for k, xs := range vals {
		if len(xs) != repeats {
			t.Fatalf("%s: %v has %d repeats, want %d", st.Manifest.Study, k, len(xs), repeats)
		}
		out[k] = newMeanSE(xs)
	}
	return out
}

// theirStats returns Brouwer & Lio's published numbers of one study and
// experiment directory for metric: per setting, the mean and standard
// error over their replicates (sparsity), or by iteration their published
// mean (convergence, with x the iteration and n = 1).
func theirStats(t *testing.T, study, experiment, metric string) map[blioKey]meanSE {
	t.Helper()
	r, _ := openPublished(t) // the header, which TestBrouwerLioPublishedRows checks
	col := make(map[string]int, len(publishedColumns))
	for i, c := range publishedColumns {
		col[c] = i
	}
	vals := make(map[blioKey][]float64)
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", publishedTable, err)
		}
		if rec[col["study"]] != study || rec[col["experiment"]] != experiment || rec[col["metric"]] != metric {
			continue
		}
		num := func(name string) float64 {
			v, err := strconv.ParseFloat(rec[col[name]], 64)
			if err != nil {
				t.Fatalf("%s:%d: %s: %v", publishedTable, line, name, err)
			}
			return v
		}
		k := blioKey{model: rec[col["model"]], x: num("setting_value")}
		if rec[col["K"]] != "" {
			k.k = int(num("K"))
		}
		vals[k] = append(vals[k], num("value"))
	}
	if len(vals) == 0 {
		t.Fatalf("%s: no %s rows of %s/%s", publishedTable, metric, study, experiment)
	}
	out := make(map[blioKey]meanSE, len(vals))
	for k, xs := range vals {
		if len(xs) == 1 {
			out[k] = meanSE{xs[0], math.NaN(), 1}
			continue
		}
		out[k] = newMeanSE(xs)
	}
	return out
}
