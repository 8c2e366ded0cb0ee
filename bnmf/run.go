package bnmf

import (
	"context"
	"errors"
)

// chain is the internal state of one model's sampler.
type chain interface{}

// Name returns "GEE".
func (GEE) Name() string { return "GEE" }

// Name returns "GTT".
func (GTT) Name() string { return "GTT" }

// Name returns "GTTN".
func (GTTN) Name() string { return "GTTN" }

// Name returns "GRRN".
func (GRRN) Name() string { return "GRRN" }

// Name returns "NMF".
func (NMF) Name() string { return "NMF" }

func (GEE) newChain(*Matrix, int) (chain, error)  { return nil, errors.New("todo") }
func (GTT) newChain(*Matrix, int) (chain, error)  { return nil, errors.New("todo") }
func (GTTN) newChain(*Matrix, int) (chain, error) { return nil, errors.New("todo") }
func (GRRN) newChain(*Matrix, int) (chain, error) { return nil, errors.New("todo") }
func (NMF) newChain(*Matrix, int) (chain, error)  { return nil, errors.New("todo") }

// Run fits model to the observed entries of train for s.Sweeps sweeps and
// returns the trace and posterior summaries. A cancelled ctx stops the run
// within one sweep and returns ctx.Err().
func Run(ctx context.Context, model Model, train *Matrix, s Settings) (*Result, error) {
	return nil, errors.New("bnmf: Run is being written")
}
