package predictive

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Merge pools the samples of several accumulators (one per chain, say)
// into one equal-weight mixture over all their samples, as if one
// accumulator had received them all. The parts must have the same entries,
// targets (equal values), levels and tolerance; they are not changed. The
// result accepts no more samples.
//
// Sums are combined in the order of parts, so the result depends on that
// order only through floating-point rounding; pass the parts in a fixed
// order (by chain index) and the result is reproducible bit for bit,
// whatever the number of workers that ran the chains. The buffers are
// concatenated: each kept sample of a part with c samples of which b are
// kept stands for c/b samples of the pool. The result's memory is that of
// a part with B the sum of the parts' buffers.
func Merge(parts ...*Accumulator) (*Accumulator, error) {
	if len(parts) == 0 {
		return nil, errors.New("predictive: Merge needs at least one accumulator")
	}
	first := parts[0]
	for i, p := range parts {
		if err := first.compatible(p); err != nil {
			return nil, fmt.Errorf("predictive: Merge part %d: %w", i, err)
		}
		if p.count == 0 {
			return nil, fmt.Errorf("predictive: Merge part %d has no samples", i)
		}
	}
	n := first.n
	out := &Accumulator{
		family:  first.family,
		n:       n,
		levels:  first.levels,
		tol:     first.tol,
		workers: first.workers,
		sealed:  true,
		mean:    make([]float64, n),
		m2:      make([]float64, n),
		table:   first.table,
	}
	for _, p := range parts {
		out.stride += p.nbuf
	}
	out.buf = make([]float64, n*out.stride)
	for _, tg := range first.targets {
		out.targets = append(out.targets, &target{
			y:      tg.y,
			dens:   slices.Clone(tg.dens),
			lseMax: slices.Clone(tg.lseMax),
			lseSum: slices.Clone(tg.lseSum),
			pit:    slices.Clone(tg.pit),
			crps:   slices.Clone(tg.crps),
			left:   slices.Clone(tg.left),
			// logFact depends on y alone.
			logFact: tg.logFact,
		})
	}
	for i, p := range parts {
		off := out.nbuf
		for k := range n {
			copy(out.buf[k*out.stride+off:k*out.stride+off+p.nbuf], p.buf[k*p.stride:k*p.stride+p.nbuf])
		}
		out.nbuf += p.nbuf
		out.bufSigma2 = append(out.bufSigma2, p.bufSigma2...)
		out.bufRep = append(out.bufRep, p.representation()...)
		out.sigma2 = append(out.sigma2, p.sigma2...)
		if i == 0 {
			copy(out.mean, p.mean)
			copy(out.m2, p.m2)
			out.count = p.count
			continue
		}
		// Chan, Golub and LeVeque (1979): pooled mean and sum of squares.
		na, nb := float64(out.count), float64(p.count)
		nt := na + nb
		for k := range n {
			d := p.mean[k] - out.mean[k]
			out.mean[k] += d * nb / nt
			out.m2[k] += p.m2[k] + d*d*na*nb/nt
		}
		for t, tg := range out.targets {
			pt := p.targets[t]
			for k := range n {
				ma, mb := tg.lseMax[k], pt.lseMax[k]
				mx := math.Max(ma, mb)
				tg.lseSum[k] = tg.lseSum[k]*math.Exp(ma-mx) + pt.lseSum[k]*math.Exp(mb-mx)
				tg.lseMax[k] = mx
				tg.dens[k] += pt.dens[k]
				tg.pit[k] += pt.pit[k]
				tg.crps[k] += pt.crps[k]
			}
			for k := range tg.left {
				tg.left[k] += pt.left[k]
			}
		}
		out.count += p.count
	}
	out.samples = out.count
	return out, nil
}

// representation returns, per kept sample, the number of added samples it
// stands for.
func (a *Accumulator) representation() []float64 {
	if a.bufRep != nil {
		return a.bufRep
	}
	rep := make([]float64, a.nbuf)
	for i := range rep {
		rep[i] = float64(a.count) / float64(a.nbuf)
	}
	return rep
}

// compatible returns an error if b cannot be pooled with a.
func (a *Accumulator) compatible(b *Accumulator) error {
	switch {
	case b.family != a.family:
		return fmt.Errorf("family %v, not %v", b.family, a.family)
	case b.n != a.n:
		return fmt.Errorf("%d entries, not %d", b.n, a.n)
	case !slices.Equal(b.levels, a.levels):
		return fmt.Errorf("levels %v, not %v", b.levels, a.levels)
	case b.tol != a.tol:
		return fmt.Errorf("tolerance %v, not %v", b.tol, a.tol)
	case len(b.targets) != len(a.targets):
		return fmt.Errorf("%d targets, not %d", len(b.targets), len(a.targets))
	}
	for t, tg := range b.targets {
		if !slices.Equal(tg.y, a.targets[t].y) {
			return fmt.Errorf("target %d has other values", t)
		}
	}
	return nil
}
