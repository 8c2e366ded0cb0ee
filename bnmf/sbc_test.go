package bnmf

import (
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// sbcOut names a directory to which TestSBC writes every replicate's ranks,
// one CSV file per model (see writeSBCRanks).
var sbcOut = flag.String("sbc.out", "", "write TestSBC's ranks as CSV files to this directory")

// sbcSize is the size of a simulation-based calibration run.
type sbcSize struct {
	reps int
	th   sbcThinning
	// bins is the number of bins of the chi-square test; it divides
	// th.draws + 1, the number of possible ranks, and leaves at least 5
	// replicates expected in each.
	bins int
}

// sbcSizeFor returns the size of the run: at the full size (-sbc.large)
// 2,000 replicates of L = 99 draws, ranks in 20 bins of 5 (100 expected
// per bin); otherwise L = 19 draws in 10 bins of 2, with 100 replicates
// (10 expected per bin) under -short and 400 without. Every chain runs
// until each quantity's bulk effective sample size is at least twice L,
// so the kept draws are spaced by at least two autocorrelation times
// (Talts et al. 2018, Section 5.1; at that spacing an AR(1) chain's
// autocorrelation is e^-4 = 0.02), and at most 2^17 sweeps.
func sbcSizeFor() sbcSize {
	th := sbcThinning{draws: 19, essFactor: 2, minSweeps: 200, maxSweeps: 1 << 17}
	switch {
	case *calibrationLarge:
		th.draws, th.minSweeps = 99, 1000
		return sbcSize{reps: 2000, th: th, bins: 20}
	case testing.Short():
		return sbcSize{reps: 100, th: th, bins: 10}
	}
	return sbcSize{reps: 400, th: th, bins: 10}
}

// sbcFamily is the probability with which a correct sampler may fail
// TestSBC: each quantity's chi-square test rejects at sbcFamily divided
// by the number of quantities over all models (Bonferroni).
const sbcFamily = 0.001

// TestSBC is simulation-based calibration (Talts, Betancourt, Simpson,
// Vehtari and Gelman 2018, "Validating Bayesian inference algorithms with
// simulation-based calibration", arXiv:1804.06788) of every Bayesian
// model. Each replicate draws the parameters from the model's prior
// (simModels; the Geweke test's exact sampler), 40 observed entries of a
// 12 x 10 matrix at K = 3 from the likelihood (drawSimReplicate), runs the
// sampler and records, for each quantity of sbcQuantities, the rank of the
// true value among L thinned posterior draws. If the sampler draws from the
// posterior, every rank is uniform on 0, ..., L; a chi-square test on
// binned ranks checks each quantity, with a Bonferroni bound over all
// quantities of all models (sbcFamily). The sampler with GTTN's wrong tau
// conditional (gewekeWrongTauShape) must fail the same test.
//
// The chains start at the true parameters. An NMF posterior is invariant
// to permuting the K factors, so a chain started elsewhere may settle on a
// relabelling of the truth, and the rank of W[0][0] would compare the
// truth with another factor's draws: no longer uniform for a correct
// sampler. The true parameters are an exact draw from the posterior given
// the data they generated (that is how the pair was drawn), so a correct
// chain started there is stationary from its first sweep: it needs no
// burn-in, and whatever labelling it keeps, its draws have the posterior
// as their law. Draws close to the start are correlated with the truth, and
// consecutive draws with each other; both pull ranks away from uniform
// (towards the ends of the range when the chain moves slowly), so the
// chain is thinned by its effective sample size (sbcRun, sbcSizeFor). A
// wrong sampler started at the truth drifts to its own stationary law,
// which is what the ranks reveal.
func TestSBC(t *testing.T) {
	skipUnderRace(t)
	size := sbcSizeFor()
	sh := defaultSimShape()
	// study returns the calibration of model (with mutant, of its sampler
	// with the wrong conditional) on replicates drawn with seed.
	study := func(name string, model Model, mutant bool, seed uint64) sbcStudy {
		h := gewekeHyperOf(t, model)
		qs := sbcQuantities(h, sh)
		return sbcStudy{name: name, mutant: mutant, quantities: stateFuncNames(qs),
			replicate: func(t *testing.T, r int) sbcOutcome {
				rep := drawSimReplicate(h, sh, replicateSeed(seed, r))
				return sbcRun(t, model, h, mutant, qs, rep, size.th, replicateSeed(seed+1, r))
			}}
	}
	var studies []sbcStudy
	models := simModels()
	for mi, m := range models {
		studies = append(studies, study(m.Name(), m, false, uint64(3000+10*mi)))
	}
	// The mutant sees the same replicates (prior draws and data) as GTTN
	// (models[2], seed 3020).
	studies = append(studies, study("GTTN-wrong-tau-shape", models[2], true, 3020))
	// With offsets (Biased, the Geweke test's offsets' hyperparameters),
	// and the sampler whose tau_b conditional has the wrong shape
	// (gewekeChainModel) on GEE+b's replicates.
	geeB := Biased{Model: models[0], Offsets: gewekeOffsets()}
	studies = append(studies,
		study("GEE+b", geeB, false, 3100),
		study("GRRN+b", Biased{Model: models[3], Offsets: gewekeOffsets()}, false, 3110),
		study("GEE+b-wrong-tau_b-shape", geeB, true, 3100),
	)
	checkSBC(t, size, studies, "the wrong conditional", *sbcOut)
}

// sbcStudy is one sampler's part in a simulation-based calibration test.
type sbcStudy struct {
	name string
	// mutant marks a sampler with a wrong conditional, which the test
	// must reject.
	mutant bool
	// quantities names the ranked quantities, in the order of an
	// outcome's ranks.
	quantities []string
	// replicate draws replicate r (from 0) from the prior, runs its chain
	// from the true parameters and ranks the true values (sbcRun).
	replicate func(t *testing.T, r int) sbcOutcome
}

// checkSBC runs size.reps replicates of every study, each in a subtest,
// and tests each quantity's ranks for uniformity (rankChiSquare). A
// correct sampler's quantity fails below alpha, sbcFamily divided by the
// number of quantities of all correct samplers (Bonferroni); a mutant
// fails unless its smallest p-value is below alpha, in a message naming
// its fault wrong. With out not empty, every study's ranks are written to
// that directory (writeSBCRanks).
func checkSBC(t *testing.T, size sbcSize, studies []sbcStudy, wrong, out string) {
	t.Helper()
	var total int
	for _, st := range studies {
		if !st.mutant {
			total += len(st.quantities)
		}
	}
	alpha := sbcFamily / float64(total)
	t.Logf("%d replicates, L = %d draws, %d bins; %d quantities over the models: each rejects at p < %.2g",
		size.reps, size.th.draws, size.bins, total, alpha)
	for _, st := range studies {
		t.Run(st.name, func(t *testing.T) {
			start := time.Now()
			outs := make([]sbcOutcome, size.reps)
			var sweeps, capped int
			for r := range size.reps {
				outs[r] = st.replicate(t, r)
				sweeps += outs[r].sweeps
				if outs[r].capped {
					capped++
				}
			}
			t.Logf("%s: %d replicates in %v, %.0f sweeps per replicate on average, %d stopped at %d sweeps short of the effective sample size",
				st.name, size.reps, time.Since(start).Round(time.Millisecond), float64(sweeps)/float64(size.reps), capped, size.th.maxSweeps)
			if out != "" {
				if err := writeSBCRanks(out, st.name, st.quantities, size.th.draws, outs); err != nil {
					t.Fatal(err)
				}
			}
			minP, worst := 1.0, ""
			for q, name := range st.quantities {
				ranks := make([]int, size.reps)
				for r, o := range outs {
					ranks[r] = o.ranks[q]
				}
				stat, p := rankChiSquare(ranks, size.th.draws, size.bins)
				t.Logf("%-14s chi2(%d) = %7.2f  p = %.3g", name, size.bins-1, stat, p)
				if p < minP {
					minP, worst = p, name
				}
				if !st.mutant && !(p >= alpha) {
					t.Errorf("%s: ranks of the true values are not uniform: chi2(%d) = %.2f, p = %.3g < %.2g",
						name, size.bins-1, stat, p, alpha)
				}
			}
			t.Logf("smallest p = %.3g (%s)", minP, worst)
			if st.mutant && !(minP < alpha) {
				t.Errorf("%s went undetected: smallest p = %.3g (%s), want < %.2g", wrong, minP, worst, alpha)
			}
		})
	}
}

// rankChiSquare returns Pearson's chi-square statistic of ranks in
// [0, draws] grouped into bins equal bins (bins divides draws + 1), against
// the uniform distribution, and its p-value on bins - 1 degrees of
// freedom.
func rankChiSquare(ranks []int, draws, bins int) (stat, p float64) {
	if (draws+1)%bins != 0 {
		panic(fmt.Sprintf("bnmf: %d bins do not divide %d ranks", bins, draws+1))
	}
	counts := make([]float64, bins)
	for _, r := range ranks {
		counts[r*bins/(draws+1)]++
	}
	want := float64(len(ranks)) / float64(bins)
	for _, c := range counts {
		stat += (c - want) * (c - want) / want
	}
	return stat, distuv.ChiSquared{K: float64(bins - 1)}.Survival(stat)
}

// writeSBCRanks writes the ranks of one model's replicates to
// dir/sbc-ranks-<name>.csv: a header "model,replicate,draws,sweeps"
// followed by the quantities' names, then one row per replicate with the
// number L of draws each rank is among and the sweeps its chain ran.
func writeSBCRanks(dir, name string, quantities []string, draws int, outs []sbcOutcome) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, "sbc-ranks-"+name+".csv")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	header := []string{"model", "replicate", "draws", "sweeps"}
	header = append(header, quantities...)
	if err := w.Write(header); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	for r, o := range outs {
		row := []string{name, strconv.Itoa(r), strconv.Itoa(draws), strconv.Itoa(o.sweeps)}
		for _, v := range o.ranks {
			row = append(row, strconv.Itoa(v))
		}
		if err := w.Write(row); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
