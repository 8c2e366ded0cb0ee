package bnmf_test

import (
	"context"
	"fmt"
	"log"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// Example fits GRRN to a small matrix with a missing entry and predicts it.
func Example() {
	// A 4 x 3 matrix of rank 1: row i is (i+1) * (1, 2, 3). Entry (3, 2),
	// whose value is 12, is held out.
	var train []bnmf.Entry
	for i := range 4 {
		for j := range 3 {
			if i == 3 && j == 2 {
				continue
			}
			train = append(train, bnmf.Entry{Row: i, Col: j, Value: float64((i + 1) * (j + 1))})
		}
	}
	a, err := bnmf.NewMatrix(4, 3, train)
	if err != nil {
		log.Fatal(err)
	}
	test := []bnmf.Entry{{Row: 3, Col: 2, Value: 12}}
	res, err := bnmf.Run(context.Background(), bnmf.GRRN{}, a, bnmf.Settings{
		Rank:   1,
		Sweeps: 2000,
		Seed:   1,
		Test:   test,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("kept %d of %d sweeps\n", res.Kept, len(res.Trace))
	fmt.Printf("prediction of the held-out 12 within 1.5: %v\n", res.PredictiveMean[0] > 10.5 && res.PredictiveMean[0] < 13.5)
	// Output:
	// kept 400 of 2000 sweeps
	// prediction of the held-out 12 within 1.5: true
}
