package mcmcdiag_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/bnmf-lab/bnmf/mcmcdiag"
)

// ar1 returns m chains of n draws of an AR(1) process with coefficient
// rho, chain j shifted by shift*j.
func ar1(src *rand.Rand, m, n int, rho, shift float64) [][]float64 {
	chains := make([][]float64, m)
	for j := range chains {
		chains[j] = make([]float64, n)
		x := 0.0
		for t := range chains[j] {
			x = rho*x + src.NormFloat64()
			chains[j][t] = x + shift*float64(j)
		}
	}
	return chains
}

func ExampleSummarize() {
	src := rand.New(rand.NewPCG(1, 2))
	mixed := ar1(src, 4, 1000, 0.5, 0)
	stuck := ar1(src, 4, 1000, 0.5, 1) // chain j sits j units higher

	for _, q := range []struct {
		name   string
		chains [][]float64
	}{{"mixed", mixed}, {"stuck", stuck}} {
		s := mcmcdiag.Summarize(q.chains)
		// Vehtari et al. (2021): use the draws when R-hat < 1.01 and the
		// bulk and tail ESS exceed 100 per chain.
		ok := s.RHat < 1.01 && s.ESSBulk > 400 && s.ESSTail > 400
		fmt.Printf("%s: R-hat<1.01 %v, bulk-ESS>400 %v, usable %v\n",
			q.name, s.RHat < 1.01, s.ESSBulk > 400, ok)
	}
	// Output:
	// mixed: R-hat<1.01 true, bulk-ESS>400 true, usable true
	// stuck: R-hat<1.01 false, bulk-ESS>400 false, usable false
}

func ExampleSummarizeAll() {
	src := rand.New(rand.NewPCG(3, 4))
	quantities := [][][]float64{
		ar1(src, 4, 500, 0.3, 0),
		ar1(src, 4, 500, 0.3, 2),                 // chains disagree
		{{1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1}}, // fixed by construction
	}
	_, worst := mcmcdiag.SummarizeAll(quantities)
	fmt.Printf("worst R-hat in quantity %d (above 1.5: %v)\n", worst.RHatAt, worst.RHat > 1.5)
	fmt.Println("undefined:", worst.Undefined)
	// Output:
	// worst R-hat in quantity 1 (above 1.5: true)
	// undefined: [2]
}

func ExampleWorkspace() {
	// One Workspace reused over many quantities keeps its buffers.
	src := rand.New(rand.NewPCG(5, 6))
	var w mcmcdiag.Workspace
	for k := 0; k < 3; k++ {
		chains := ar1(src, 4, 200, 0, 0)
		fmt.Printf("quantity %d: R-hat<1.01 %v\n", k, w.RHat(chains) < 1.01)
	}
	// Output:
	// quantity 0: R-hat<1.01 true
	// quantity 1: R-hat<1.01 true
	// quantity 2: R-hat<1.01 true
}
