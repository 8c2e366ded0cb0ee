package bnmf

import "gonum.org/v1/gonum/floats"

// float32Reader is a chain that can read the other factor from float32
// copies; see Settings.Float32Factors.
type float32Reader interface {
	useFloat32Factors()
}

// useFloat32Factors gives W and Z float32 copies, which init fills and
// updateLine keeps up to date, and makes each side gather from the
// other's copy.
func (c *gibbsChain) useFloat32Factors() {
	w32, zt32 := make([]float32, len(c.w)), make([]float32, len(c.zt))
	c.sides[0].x32, c.sides[0].other32 = w32, zt32
	c.sides[1].x32, c.sides[1].other32 = zt32, w32
}

// fillFloat32 copies the factors into their float32 copies, if any.
func (c *gibbsChain) fillFloat32() {
	for s := range c.sides {
		side := &c.sides[s]
		for i, v := range side.x[:len(side.x32)] {
			side.x32[i] = float32(v)
		}
	}
}

// exactResidualsFromGather is exactResiduals for Settings.Float32Factors:
// the residuals of column j's entries from the values of W gathered in g
// (as float32 copies) and z_j = x, a_mn - sum_k g[k][q] z_jk summed over k
// in order, one latent dimension at a time over the column, so that W's
// rows are not read again from memory. r is scratch of the column's
// length.
func (c *gibbsChain) exactResidualsFromGather(side *factorSide, j int, x, g, r []float64) {
	lo, hi := side.start[j], side.start[j+1]
	n := hi - lo
	_, vals := c.data.Col(j)
	copy(r, vals)
	for kk, v := range x {
		floats.AddScaled(r, -v, g[kk*n:(kk+1)*n])
	}
	for q, e := range side.pos[lo:hi] {
		c.resid[e] = r[q]
	}
}
