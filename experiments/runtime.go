package experiments

import (
	"bytes"
	"os"
	"strconv"
)

// KindRuntime names the runtime study of Brouwer & Lio (2017): the time
// per sweep of each model over a grid of ranks K, each chain trained on
// all observed entries (their runtime_experiment.py). Its number is each
// record's seconds_per_sweep, the wall-clock time of the chain's sweeps
// over their number, as every kind records it; the train MSE is kept as
// in a convergence study.
//
// Wall-clock time depends on the machine and on what else runs on it:
// other chains of the same study (the runner runs cells side by side and
// gives each max(1, workers/running) sampler workers) and other programs.
// A runtime study is comparable only with itself, run on one otherwise
// idle machine one cell at a time (bnmf run -workers 1), and its report
// says so. Its records keep the machine's one-minute load average at the
// start and end of each cell and the chain's sampler workers
// (Record.LoadAverage, Record.SamplerWorkers), so that a loaded run shows.
const KindRuntime = "runtime"

type runtimeKind struct{ allEntries }

func (runtimeKind) Name() string { return KindRuntime }

// loadMeasurer is implemented by the kinds whose records keep the
// machine's load and the sampler workers (Record.LoadAverage,
// Record.SamplerWorkers).
type loadMeasurer interface{ measuresLoad() }

func (runtimeKind) measuresLoad() {}

// kind returns the Kind of the plan's config.
func (p *Plan) kind() Kind { return p.Config.kind() }

// appendLoadAverage appends the machine's one-minute load average, read
// from /proc/loadavg, to xs; where that file is missing or unreadable (a
// system other than Linux) it returns xs unchanged.
func appendLoadAverage(xs []float64) []float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return xs
	}
	field, _, _ := bytes.Cut(b, []byte(" "))
	l, err := strconv.ParseFloat(string(field), 64)
	if err != nil {
		return xs
	}
	return append(xs, l)
}
