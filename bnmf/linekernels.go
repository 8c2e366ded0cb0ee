package bnmf

// The kernels of the line update (updateLine). For latent dimension k of a
// line it needs the dot products g_k . g_k and g_k . r, and after the draw
// the update r -= d g_k of the residuals. lineDots computes both dot
// products in one pass over g_k, and lineAxpyDots does the update of
// dimension k and the two dot products of dimension k+1 in one pass, so
// that the line's residuals and gathered values are read from cache once
// per dimension rather than three times.
//
// Each dot product is summed exactly as gonum's floats.Dot sums it on this
// platform, and each updated residual is rounded as floats.AddScaled rounds
// it, so the draws are bit for bit those of the three separate calls
// (linekernels_amd64.go for gonum's amd64 assembly, linekernels_other.go,
// which calls gonum, elsewhere).
