package main

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// defaultMaxSweeps is fit's --max-sweeps: four times the paper's 500.
const defaultMaxSweeps = 2000

// sweepsFlag is --sweeps: a number of sweeps, or auto.
type sweepsFlag struct {
	n    *int
	auto *bool
}

func (f sweepsFlag) String() string {
	switch {
	case f.auto == nil: // the zero value, which flag asks about
		return ""
	case *f.auto:
		return "auto"
	}
	return strconv.Itoa(*f.n)
}

func (f sweepsFlag) Set(v string) error {
	n, auto, err := parseSweeps(v)
	if err != nil {
		return err
	}
	*f.n, *f.auto = n, auto
	return nil
}

// parseSweeps reads a value of --sweeps: "auto", or a whole number of
// sweeps (whose range fitOptions.validate checks).
func parseSweeps(v string) (n int, auto bool, err error) {
	if v == "auto" {
		return 0, true, nil
	}
	n, err = strconv.Atoi(v)
	if err != nil {
		return 0, false, fmt.Errorf("%q is neither auto nor a whole number of sweeps", v)
	}
	return n, false, nil
}

// validateAuto checks the flags that go with --sweeps auto, which sets no
// --burn-in (the first half of the sweeps run is burn-in) and needs a
// --max-sweeps between bnmf.MinAutoSweeps and bnmf.MaxSweeps.
func (o *fitOptions) validateAuto() error {
	switch {
	case o.maxSweeps < bnmf.MinAutoSweeps || o.maxSweeps > bnmf.MaxSweeps:
		return fmt.Errorf("--max-sweeps %d must be between %d and %d (every sweep's statistics are kept in memory)", o.maxSweeps, bnmf.MinAutoSweeps, bnmf.MaxSweeps)
	case o.burnIn != -1:
		return fmt.Errorf("--burn-in does not go with --sweeps auto, whose burn-in is the first half of the sweeps run")
	case o.thin < 1:
		return fmt.Errorf("--thin %d must be positive", o.thin)
	}
	first := bnmf.AutoCheckpoints(o.maxSweeps)[0]
	if kept := first - first/2; kept/o.thin == 0 {
		return fmt.Errorf("--thin %d keeps none of the %d sweeps of the first block of --sweeps auto", o.thin, kept)
	}
	return nil
}

// printAuto writes how the chains of --sweeps auto stopped, and the
// diagnostics the stopping rule reached.
func printAuto(w io.Writer, a *bnmf.AutoStop, tracked string) error {
	th := bnmf.DefaultThresholds()
	fmt.Fprintf(w, "\nsweeps: auto: %s after %d sweeps per chain (at most %d; burn-in the first half); want R-hat < %v, bulk- and tail-ESS >= %d:\n",
		a.Verdict, a.Sweeps, a.MaxSweeps, th.MaxRHat, th.MinESS)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "quantity\tR-hat\tbulk-ESS\ttail-ESS\t")
	row := func(name string, c bnmf.Convergence) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", name, fmtOpt(c.RHat, "%.3f"), fmtOpt(c.ESSBulk, "%.0f"), fmtOpt(c.ESSTail, "%.0f"))
	}
	if a.LogLikelihood != nil {
		row("log-likelihood", *a.LogLikelihood)
	} else {
		row("sigma^2", a.Sigma2)
	}
	if a.TestMSE != nil {
		row(tracked+" MSE", *a.TestMSE)
	}
	if a.Predictions != nil {
		row("worst "+tracked+" prediction", *a.Predictions)
	}
	return tw.Flush()
}
