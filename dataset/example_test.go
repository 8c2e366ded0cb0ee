package dataset_test

import (
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/bnmf-lab/bnmf/dataset"
)

// Open the generated dataset, which needs no download, and print its row
// of the paper's Table 1.
func ExampleOpen() {
	r, err := dataset.Open("synthetic", "", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	s := r.Summary()
	fmt.Printf("%s: %d x %d, %d observed (%.3f)\n", s.Name, s.Rows, s.Cols, s.Observed, s.FractionObserved)
	// Output: synthetic: 300 x 500, 10500 observed (0.070)
}

// Load a user's own matrix from a CSV file of triplets with a header.
func ExampleOpenFile() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "scores.csv")
	csv := "patient,gene,expression\np10,TP53,2.5\np9,TP53,0.5\np9,BRCA1,1.25\n"
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		log.Fatal(err)
	}
	r, err := dataset.OpenFile(path, "triplets", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Rows, "x", r.Cols, r.RowIDs, r.ColIDs)
	for _, e := range r.Entries {
		fmt.Println(e.Row, e.Col, e.Value)
	}
	// Output:
	// 2 x 2 [p10 p9] [BRCA1 TP53]
	// 0 1 2.5
	// 1 0 1.25
	// 1 1 0.5
}

// Split for the sparsity study: 98% of the grid unobserved in training,
// every column keeping a training entry.
func ExampleSplitUnobserved() {
	r, err := dataset.Open("synthetic", "", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("fraction unobserved from %.2f\n", dataset.MinFractionUnobserved(r))
	train, test, err := dataset.SplitUnobserved(r, 0.98, dataset.CoverageColumns, rand.NewPCG(1, 0))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(train), "training and", len(test), "test entries")
	_, _, err = dataset.SplitUnobserved(r, 0.9, dataset.CoverageColumns, rand.NewPCG(1, 0))
	fmt.Println(err)
	// Output:
	// fraction unobserved from 0.93
	// 3000 training and 7500 test entries
	// dataset synthetic: fraction unobserved 0.9 is outside the allowed range [0.930000, 0.996666]: the 300 x 500 grid has 10500 observed entries and coverage "columns" needs at least 500 in training
}

// Five folds for cross-validation.
func ExampleKFold() {
	r, err := dataset.Open("synthetic", "", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	folds, err := dataset.KFold(r, 5, dataset.CoverageColumns, rand.NewPCG(1, 0))
	if err != nil {
		log.Fatal(err)
	}
	// Each fold tests about a fifth of the 10,500 entries; a few stay in
	// training so that every column keeps a training entry.
	for _, f := range folds {
		fmt.Println(len(f.Train)+len(f.Test) == len(r.Entries), len(f.Test) > 2050)
	}
	// Output:
	// true true
	// true true
	// true true
	// true true
	// true true
}

// Add noise with half the variance of the ratings, keeping the clean
// values for scoring.
func ExampleAddNoise() {
	r, err := dataset.Open("synthetic", "", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	noisy, err := dataset.AddNoise(r.Entries, 0.5, rand.NewPCG(1, 0))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(noisy) == len(r.Entries), noisy[0].Row == r.Entries[0].Row, noisy[0].Value != r.Entries[0].Value)
	// Output: true true true
}

// Count the ratings by value, the paper's Fig. 3.
func ExampleDistribution() {
	r, err := dataset.Open("synthetic", "", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	total := 0
	for _, c := range dataset.Distribution(r) {
		fmt.Print(c.Value, " ")
		total += c.Count
	}
	fmt.Println(total)
	// Output: 1 2 3 4 5 10500
}
