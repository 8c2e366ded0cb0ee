package dataset

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// starEntries returns n entries whose values cycle through 1 to 5 stars:
// mean 3, population variance 2 when n is a multiple of 5.
func starEntries(n int) []bnmf.Entry {
	e := make([]bnmf.Entry, n)
	for i := range e {
		e[i] = bnmf.Entry{Row: i / 100, Col: i % 100, Value: float64(i%5 + 1)}
	}
	return e
}

func TestAddNoiseVariance(t *testing.T) {
	const n = 200000
	clean := starEntries(n)
	orig := slices.Clone(clean)
	for _, ratio := range []float64{0.1, 1, 10} {
		noisy := AddNoise(clean, ratio, rand.NewPCG(11, uint64(ratio*10)))
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
	if got := AddNoise(clean, 0, rand.NewPCG(1, 1)); !slices.Equal(got, clean) {
		t.Error("ratio 0 changed the values")
	}
	a := AddNoise(clean, 0.5, rand.NewPCG(1, 1))
	b := AddNoise(clean, 0.5, rand.NewPCG(1, 1))
	if !slices.Equal(a, b) {
		t.Error("equal seeds gave different noise")
	}
	if got := AddNoise(nil, 1, rand.NewPCG(1, 1)); len(got) != 0 {
		t.Errorf("noise on no entries gave %v", got)
	}
}

func TestAddNoisePanics(t *testing.T) {
	tests := []struct {
		name  string
		ratio float64
		src   rand.Source
	}{
		{"nil source", 1, nil},
		{"negative ratio", -0.1, rand.NewPCG(1, 1)},
		{"NaN ratio", math.NaN(), rand.NewPCG(1, 1)},
		{"infinite ratio", math.Inf(1), rand.NewPCG(1, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			AddNoise(starEntries(5), tt.ratio, tt.src)
		})
	}
}
