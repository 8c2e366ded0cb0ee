package bnmf

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// Phases of a sweep; each keys its own random streams.
const (
	phaseW = iota
	phaseZ
	phaseSigma
	phaseOther
	// phaseGlobal keys the draws of a side's shared hyperparameters
	// (globalPrior), with the side as the line.
	phaseGlobal
)

// lineFunc processes line i (a row of W, a column of Z, a chunk of test
// entries, ...) with the worker's random stream rng, already seeded for
// (seed, sweep, phase, i), and its scratch space. It returns a non-nil error
// to report a failure at i.
type lineFunc func(wk *worker, i int) error

// worker holds one goroutine's random stream and scratch space.
//
// The stream's state is written on every draw, so it is kept on cache lines
// of its own: with the states of two workers on one line (as separately
// allocated 16-byte PCGs tend to be), every draw on one core invalidates
// the other core's copy of the line. Such false sharing made a draw ten
// times slower and took away the second core's gain in about one process
// in three.
type worker struct {
	_       cacheLinePad
	pcg     rand.PCG
	_       cacheLinePad
	rng     *rand.Rand
	scratch []float64
}

// cacheLinePad keeps the fields on either side of it off each other's
// cache lines: 128 bytes cover a 64-byte line and the neighbouring line that
// x86 processors prefetch along with it.
type cacheLinePad [128]byte

// job asks the workers to apply fn to lines [0, n).
type job struct {
	fn           lineFunc
	n            int
	sweep, phase int
}

// pool runs line functions on a fixed set of goroutines. Every line's
// random stream derives from (seed, sweep, phase, line) alone, never from
// which goroutine runs it, so results do not depend on the number of
// workers. The goroutines start with the pool and stop with close.
type pool struct {
	seed    uint64
	workers []*worker
	next    atomic.Int64
	jobs    []chan job
	done    chan lineError
	wg      sync.WaitGroup
}

// lineError is the failure of the lowest-numbered failing line a worker saw.
type lineError struct {
	line int
	err  error
}

// newPool starts n workers, each with scratch floats of scratch space.
func newPool(n int, seed uint64, scratch int) *pool {
	p := &pool{seed: seed, done: make(chan lineError, n)}
	for range n {
		wk := &worker{scratch: make([]float64, scratch)}
		wk.rng = rand.New(&wk.pcg)
		p.workers = append(p.workers, wk)
	}
	if n > 1 {
		for w := range n {
			ch := make(chan job)
			p.jobs = append(p.jobs, ch)
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				for j := range ch {
					p.done <- p.work(p.workers[w], j)
				}
			}()
		}
	}
	return p
}

// close stops the pool's goroutines.
func (p *pool) close() {
	for _, ch := range p.jobs {
		close(ch)
	}
	p.wg.Wait()
}

// run applies fn to every line in [0, n) and returns the error of the
// lowest-numbered failing line, so that the error too is the same for any
// number of workers.
func (p *pool) run(fn lineFunc, n, sweep, phase int) error {
	p.next.Store(0)
	j := job{fn: fn, n: n, sweep: sweep, phase: phase}
	if len(p.jobs) == 0 {
		return p.work(p.workers[0], j).err
	}
	for _, ch := range p.jobs {
		ch <- j
	}
	first := lineError{line: -1}
	for range p.jobs {
		le := <-p.done
		if le.err != nil && (first.err == nil || le.line < first.line) {
			first = le
		}
	}
	return first.err
}

// work takes lines from the shared counter, a run of consecutive lines at a
// time, until none are left. Runs of about a sixteenth of a worker's share
// keep the workers' loads even when lines differ in cost, and touch the
// shared counter, and the cache lines where one worker's lines end and
// another's begin, less often than single lines: on the 100K shape this
// made a two-worker sweep 3% to 21% faster, depending on the model and
// rank (medians of three benchmark runs). Which worker takes a line
// never changes what is computed for it.
func (p *pool) work(wk *worker, j job) lineError {
	first := lineError{line: -1}
	chunk := max(1, j.n/(16*len(p.workers)))
	for {
		lo := int(p.next.Add(int64(chunk))) - chunk
		if lo >= j.n {
			return first
		}
		for i := lo; i < min(lo+chunk, j.n); i++ {
			wk.pcg.Seed(streamSeed(p.seed, j.sweep, j.phase, i))
			if err := j.fn(wk, i); err != nil && (first.err == nil || i < first.line) {
				first = lineError{line: i, err: err}
			}
		}
	}
}

// runInOrder applies fn to lines 0, 1, ..., n-1 in that order on the
// first worker, each line with the stream run would give it, for a side
// whose lines depend on each other (sequentialPrior). It stops at the
// first failing line.
func (p *pool) runInOrder(fn lineFunc, n, sweep, phase int) error {
	wk := p.workers[0]
	for i := range n {
		wk.pcg.Seed(streamSeed(p.seed, sweep, phase, i))
		if err := fn(wk, i); err != nil {
			return err
		}
	}
	return nil
}

// streamSeed derives the two PCG seed words of one line's random stream
// from the run's seed, the sweep, the phase and the line, mixing with
// SplitMix64 (Steele, Lea and Flood 2014) so that nearby keys give
// unrelated streams.
func streamSeed(seed uint64, sweep, phase, line int) (hi, lo uint64) {
	h := splitMix64(seed ^ 0x6a09e667f3bcc909)
	h = splitMix64(h ^ uint64(sweep))
	h = splitMix64(h ^ uint64(phase)<<40 ^ uint64(line))
	return h, splitMix64(h ^ 0xbb67ae8584caa73b)
}

// splitMix64 is the finaliser of the SplitMix64 generator.
func splitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
