// Package sparse holds the value types that the loaders, the samplers and
// the experiment harness share: an observed Entry, the sparse Matrix of
// observed entries (stored row- and column-wise), and ErrNonFinite. It
// imports nothing of this module, so that package dataset need not depend
// on the samplers.
package sparse
