package dataset

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/sparse"
)

// starEntries returns n entries whose values cycle through 1 to 5 stars:
// mean 3, population variance 2 when n is a multiple of 5.
func starEntries(n int) []sparse.Entry {
	e := make([]sparse.Entry, n)
	for i := range e {
		e[i] = sparse.Entry{Row: i / 100, Col: i % 100, Value: float64(i%5 + 1)}
	}
	return e
}

func TestAddNoiseVariance(t *testing.T) {
	const n = 200000
	clean := starEntries(n)
	orig := slices.Clone(clean)
	for _, ratio := range []float64{0.1, 1, 10} {
		noisy := mustAddNoise(t, clean, ratio, rand.NewPCG(11, uint64(ratio*10)))
		if !slices.Equal(clean, orig) {
			t.Fatal("AddNoise modified its input")
		}
		var sum, ss float64
		for i, e := range noisy {
			if e.Row != clean[i].Row || e.Col != clean[i].Col {
				t.Fatalf("entry %d moved from %+v to %+v", i, clean[i], e)
			}
			d := e.Value - clean[i].Value
			sum += d
			ss += d * d
		}
		want := ratio * 2 // population variance of 1..5 is 2
		mean := sum / n
		variance := ss/n - mean*mean
		// Monte Carlo error: the mean of n normals has standard error
		// sqrt(want/n); their sample variance has standard error
		// want*sqrt(2/n). Allow 4 standard errors for each.
		if math.Abs(mean) > 4*math.Sqrt(want/n) {
			t.Errorf("ratio %v: noise mean %v, want 0 within %v", ratio, mean, 4*math.Sqrt(want/n))
		}
		if math.Abs(variance-want) > 4*want*math.Sqrt(2.0/n) {
			t.Errorf("ratio %v: noise variance %v, want %v within %v", ratio, variance, want, 4*want*math.Sqrt(2.0/n))
		}
	}
}

func TestAddNoiseZeroAndDeterministic(t *testing.T) {
	clean := starEntries(1000)
	if got := mustAddNoise(t, clean, 0, rand.NewPCG(1, 1)); !slices.Equal(got, clean) {
		t.Error("ratio 0 changed the values")
	}
	a := mustAddNoise(t, clean, 0.5, rand.NewPCG(1, 1))
	b := mustAddNoise(t, clean, 0.5, rand.NewPCG(1, 1))
	if !slices.Equal(a, b) {
		t.Error("equal seeds gave different noise")
	}
	if got := mustAddNoise(t, nil, 1, rand.NewPCG(1, 1)); len(got) != 0 {
		t.Errorf("noise on no entries gave %v", got)
	}
}

func TestAddNoiseErrors(t *testing.T) {
	tests := []struct {
		name  string
		ratio float64
		src   rand.Source
		want  string
	}{
		{"nil source", 1, nil, "a random source is required"},
		{"negative ratio", -0.1, rand.NewPCG(1, 1), "ratio -0.1 must be nonnegative and finite"},
		{"NaN ratio", math.NaN(), rand.NewPCG(1, 1), "ratio NaN must be nonnegative and finite"},
		{"infinite ratio", math.Inf(1), rand.NewPCG(1, 1), "ratio +Inf must be nonnegative and finite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AddNoise(starEntries(5), tt.ratio, tt.src)
			if err == nil || !strings.Contains(err.Error(), tt.want) || got != nil {
				t.Errorf("got %v, error %v; want no entries and an error containing %q", got, err, tt.want)
			}
		})
	}
}

// mustAddNoise calls AddNoise and fails the test on an error.
func mustAddNoise(t *testing.T, entries []sparse.Entry, ratio float64, src rand.Source) []sparse.Entry {
	t.Helper()
	out, err := AddNoise(entries, ratio, src)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
