package posterior_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/mcmcdiag"
	"github.com/bnmf-lab/bnmf/posterior"
)

// plantedEntries returns the entries of a 12 x 10 matrix of rank 2 plus
// a little deterministic noise, every entry but (0, 0), and that entry's
// value.
func plantedEntries() (train []bnmf.Entry, heldOut float64) {
	value := func(i, j int) float64 {
		w := [2]float64{1 + float64(i%3), 0.5 + float64(i%2)}
		z := [2]float64{0.5 + 0.25*float64(j%3), 1 + 0.5*float64(j%2)}
		noise := 0.1 * float64((i*7+j*3)%5-2) / 2
		return w[0]*z[0] + w[1]*z[1] + noise
	}
	for i := range 12 {
		for j := range 10 {
			if i == 0 && j == 0 {
				continue
			}
			train = append(train, bnmf.Entry{Row: i, Col: j, Value: value(i, j)})
		}
	}
	return train, value(0, 0)
}

// Example fits GRRN to a matrix with four chains, keeps the posterior's
// samples, saves them as a model file, loads it and predicts the entry
// that was held out.
func Example() {
	train, truth := plantedEntries()
	a, err := bnmf.NewMatrix(12, 10, train)
	if err != nil {
		log.Fatal(err)
	}
	const chains = 4
	s := bnmf.Settings{Rank: 2, Sweeps: 1000, Seed: 1, Workers: 1}
	// Store at most 100 samples, 25 from each chain's 200 kept sweeps.
	collector := posterior.NewCollector(12, 10, s.Rank, chains, s.KeptSweeps(), 100)
	s.Draws = collector
	if _, err := bnmf.RunChains(context.Background(), bnmf.GRRN{}, a, s, chains); err != nil {
		log.Fatal(err)
	}
	post := collector.Pool() // the chains' factors matched, then pooled
	model := posterior.NewModel(post, posterior.Header{Model: "GRRN", Scale: 1}, train)

	dir, err := os.MkdirTemp("", "posterior-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, posterior.FileName)
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := model.Write(f); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}

	loaded, err := posterior.Read(path)
	if err != nil {
		log.Fatal(err)
	}
	p := loaded.Predict(0, 0, 0.9)
	fmt.Printf("%d samples of a %d x %d model at rank %d\n", loaded.Samples, loaded.Rows, loaded.Cols, loaded.Rank)
	fmt.Printf("held-out %.2f within the 90%% interval: %v\n", truth, p.Lower <= truth && truth <= p.Upper)
	// Row 0 observes every column but the held-out one.
	top := loaded.Top(0, posterior.TopOptions{N: 3, Level: 0.9})
	fmt.Printf("row %s's unobserved columns: %d, column %s\n", loaded.RowIDs[0], len(top), loaded.ColIDs[top[0].Col])
	// Output:
	// 100 samples of a 12 x 10 model at rank 2
	// held-out 0.90 within the 90% interval: true
	// row 1's unobserved columns: 1, column 1
}

// ExampleModel_ByChain diagnoses a model, as one read back from its file
// can be: its samples of sigma^2, split into their chains, give R-hat
// (over 4 chains of 50 samples, between 1.00 and 1.03 for seeds 1 to 6; 1.1 leaves
// room for any of them).
func ExampleModel_ByChain() {
	train, _ := plantedEntries()
	a, err := bnmf.NewMatrix(12, 10, train)
	if err != nil {
		log.Fatal(err)
	}
	const chains = 4
	s := bnmf.Settings{Rank: 2, Sweeps: 1000, Seed: 2, Workers: 1}
	collector := posterior.NewCollector(12, 10, s.Rank, chains, s.KeptSweeps(), 200)
	s.Draws = collector
	if _, err := bnmf.RunChains(context.Background(), bnmf.GRRN{}, a, s, chains); err != nil {
		log.Fatal(err)
	}
	model := posterior.NewModel(collector.Pool(), posterior.Header{Model: "GRRN", Scale: 1}, train)

	var sigma2 [][]float64
	for _, ch := range model.ByChain() {
		sigma2 = append(sigma2, ch.Sigma2)
	}
	fmt.Printf("%d chains of %d samples\n", len(sigma2), len(sigma2[0]))
	fmt.Printf("R-hat of sigma^2 below 1.1: %v\n", mcmcdiag.RHat(sigma2) < 1.1)
	// Output:
	// 4 chains of 50 samples
	// R-hat of sigma^2 below 1.1: true
}
