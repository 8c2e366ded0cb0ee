package posterior

import (
	"bytes"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// collected returns the posterior of 3 chains of a 4 x 3 matrix at rank 2,
// each keeping 6 draws whose sigma^2 is 10 chain + the draw's index, of
// which 2 per chain are stored (the 3rd and the 6th).
func collected(t *testing.T) *Posterior {
	t.Helper()
	const m, n, k, chains, kept = 4, 3, 2, 3, 6
	rng := rand.New(rand.NewPCG(2, 2))
	c := NewCollector(m, n, k, chains, kept, 6)
	for ch := range chains {
		for s := range kept {
			w := make([]float64, m*k)
			zt := make([]float64, n*k)
			for i := range w {
				w[i] = 1 + rng.Float64()
			}
			for i := range zt {
				zt[i] = 1 + rng.Float64()
			}
			if err := c.RecordDraw(bnmf.Draw{Chain: ch, Sweep: s + 1, W: w, Zt: zt, Sigma2: float64(10*ch + s)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return c.Pool()
}

// TestNewModel checks the model of a posterior: shape, samples, default
// ids, and the observed entries in CSR form whatever their order; and
// that it survives Write and Decode, chains included.
func TestNewModel(t *testing.T) {
	p := collected(t)
	observed := []bnmf.Entry{{Row: 2, Col: 1}, {Row: 0, Col: 2}, {Row: 0, Col: 0}, {Row: 3, Col: 2}}
	m := NewModel(p, Header{Model: "GRRN", Scale: 1}, observed)
	want := Header{Model: "GRRN", Rank: 2, Rows: 4, Cols: 3, Samples: 6, Chains: 3, Scale: 1,
		RowIDs: []string{"1", "2", "3", "4"}, ColIDs: []string{"1", "2", "3"}}
	if !reflect.DeepEqual(m.Header, want) {
		t.Errorf("header %+v, want %+v", m.Header, want)
	}
	if wantPtr, wantCol := []int64{0, 2, 2, 3, 4}, []int32{0, 2, 1, 2}; !slices.Equal(m.ObservedPtr, wantPtr) || !slices.Equal(m.ObservedCol, wantCol) {
		t.Errorf("observed %v %v, want %v %v", m.ObservedPtr, m.ObservedCol, wantPtr, wantCol)
	}
	if !slices.Equal(observed, []bnmf.Entry{{Row: 2, Col: 1}, {Row: 0, Col: 2}, {Row: 0, Col: 0}, {Row: 3, Col: 2}}) {
		t.Error("NewModel reordered the caller's entries")
	}
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	chains := got.ByChain()
	// Chain c stores its 3rd and 6th draws, sigma^2 10 c + 2 and 10 c + 5.
	for c, ch := range chains {
		if want := []float64{float64(10*c + 2), float64(10*c + 5)}; !slices.Equal(ch.Sigma2, want) || len(ch.W) != 2 || len(ch.Zt) != 2 {
			t.Errorf("chain %d: sigma^2 %v and %d, %d samples of W, Z; want %v and 2", c, ch.Sigma2, len(ch.W), len(ch.Zt), want)
		}
	}
	if len(chains) != 3 || !slices.Equal(chains[1].W[0], p.SamplesW[2]) {
		t.Errorf("%d chains; chain 1's first W is not the posterior's third sample", len(chains))
	}
}

// TestByChainOneBlock checks that samples the chains do not divide are
// one chain.
func TestByChainOneBlock(t *testing.T) {
	for _, chains := range []int{0, -1, 3} {
		m := testModel() // 2 samples
		m.Chains = chains
		if got := m.ByChain(); len(got) != 1 || !slices.Equal(got[0].Sigma2, m.Sigma2) {
			t.Errorf("%d chains: %+v, want one chain of both samples", chains, got)
		}
	}
	m := testModel()
	m.Chains = 2
	if got := m.ByChain(); len(got) != 2 || got[1].Sigma2[0] != 0.5 {
		t.Errorf("2 chains: %+v, want a sample each", got)
	}
}

// TestNewModelPanics checks the programmer errors NewModel refuses.
func TestNewModelPanics(t *testing.T) {
	p := collected(t)
	tests := []struct {
		name     string
		h        Header
		observed []bnmf.Entry
	}{
		{"row ids", Header{RowIDs: []string{"a"}}, nil},
		{"entry outside", Header{}, []bnmf.Entry{{Row: 4, Col: 0}}},
		{"negative column", Header{}, []bnmf.Entry{{Row: 0, Col: -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			NewModel(p, tt.h, tt.observed)
		})
	}
}

// TestRanker checks that clones rank as the original does, Top as a
// Ranker, Predict as PredictPairs, that MinObserved leaves out columns
// with fewer observed entries, and that bad options panic.
func TestRanker(t *testing.T) {
	m := randomModel(rand.New(rand.NewPCG(3, 3)), 10, 8, 30, 2)
	for _, o := range []TopOptions{{N: 4, Level: 0.9}, {N: 3, Level: 0.5, ByLower: true, IncludeObserved: true}, {N: 2, Level: 0.8, MinObserved: 3}} {
		r := m.NewRanker(o)
		c := r.Clone()
		for row := range m.Rows {
			a, b, top := r.Top(row), c.Top(row), m.Top(row, o)
			if len(a) != o.N || !slices.Equal(a, b) || !slices.Equal(a, top) {
				t.Fatalf("%+v, row %d: ranker %v, clone %v, Top %v", o, row, a, b, top)
			}
			for _, rk := range a {
				// randomModel's columns j = 1 mod 3 have 2 observed
				// entries in 8 rows, the others 3.
				if o.MinObserved == 3 && rk.Col%3 == 1 {
					t.Fatalf("row %d: column %d, with 2 observed entries, ranked with MinObserved 3", row, rk.Col)
				}
			}
			if p := m.PredictPairs([][2]int{{row, a[0].Col}}, o.Level)[0]; p != a[0].Prediction || p != m.Predict(row, a[0].Col, o.Level) {
				t.Fatalf("%+v, row %d: ranked %+v, predicted %+v", o, row, a[0].Prediction, p)
			}
		}
	}
	for _, o := range []TopOptions{{N: 0, Level: 0.9}, {N: 1, Level: 1}, {N: 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v: no panic", o)
				}
			}()
			m.NewRanker(o)
		}()
	}
}

// TestReadVersion1File reads testdata/model-v1.npz, written by bnmf fit's
// writer before the package existed (testModel with 2 chains and a
// training range), and checks its content, its chains and that writing
// it again gives the same bytes.
func TestReadVersion1File(t *testing.T) {
	const path = "testdata/model-v1.npz"
	m, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want := testModel()
	want.Format, want.Version, want.Chains, want.TrainRange = FileFormat, FileVersion, 2, []float64{0.5, 5}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("read\n%+v\nwant\n%+v", m, want)
	}
	if ch := m.ByChain(); len(ch) != 2 || !slices.Equal(ch[1].W[0], want.W[1]) {
		t.Errorf("chains %+v, want one sample each", ch)
	}
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), old) {
		t.Error("writing the model again changed its bytes")
	}
}
