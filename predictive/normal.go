package predictive

import "math"

// Constants of the standard normal distribution.
const (
	invSqrt2   = 1 / math.Sqrt2
	invSqrt2Pi = 0.3989422804014327 // 1/sqrt(2 pi)
	logSqrt2Pi = 0.9189385332046728 // log(sqrt(2 pi))
)

// normCDF is the standard normal CDF Phi(z), from math.Erfc.
func normCDF(z float64) float64 { return 0.5 * math.Erfc(-z*invSqrt2) }

// normPDF is the standard normal density phi(z).
func normPDF(z float64) float64 { return invSqrt2Pi * math.Exp(-0.5*z*z) }

// crpsKernel is A(m, v)/sqrt(v) as a function of u = m/sqrt(v), from
// normCDF and normPDF: g(u) = 2 phi(u) + u (2 Phi(u) - 1). Grimit et al.
// (2006) write the CRPS of a normal mixture with A(m, v) = sqrt(v) g(m/sqrt(v)).
func crpsKernel(u float64) float64 {
	return 2*normPDF(u) + u*(2*normCDF(u)-1)
}

// Layout of normalTable: nodes z_i = -tableEdge + i*tableStep for
// i = 0, ..., tableNodes-1, tableCoefs Taylor coefficients per node.
const (
	tableEdge  = 9
	tableStep  = 1.0 / 32
	tableCoefs = 8 // degree 7
	tableNodes = 2*tableEdge*32 + 1
)

// normalTable evaluates Phi and phi together, for the inner loops of
// Accumulator, in half the time of math.Erfc and math.Exp. Within [-9, 9]
// it sums the degree-7 Taylor polynomial of Phi about the nearest node z_i
// (|z - z_i| <= 1/64), whose coefficients are
//
//	c_0 = Phi(z_i),  c_k = (-1)^(k-1) He_(k-1)(z_i) phi(z_i) / k!  (k >= 1),
//
// with He the probabilists' Hermite polynomials (the (k-1)-th derivative of
// phi is (-1)^(k-1) He_(k-1) phi), and takes phi as the polynomial's
// derivative. The truncation error is at most (1/64)^8/8! max|He_7 phi|
// < 3e-18 for Phi and (1/64)^7/7! max|He_7 phi| < 2e-15 for phi (|He_7 phi|
// < 31 by Cramer's bound on Hermite functions); relative to phi(z) it is
// (1/64)^7/7! |He_7(z)| at most, below 6e-14 for |z| <= 4, where
// Accumulator sums densities from the table (densityEdge). TestNormalTable
// checks these bounds, with rounding, against math.Erfc and math.Exp.
// Outside [-9, 9] it returns Phi in {0, 1} and phi = 0: the neglected
// Phi(-9) = 1.1e-19 and phi(9) = 1.0e-18 are below the rounding of the sums
// they enter.
//
// It also holds the Taylor coefficients of the CRPS kernel g(u) = 2 phi(u)
// + u (2 Phi(u) - 1), an even function, at the nodes in [0, 9]: g(u_i),
// g'(u_i) = 2 Phi(u_i) - 1 and g^(k)(u_i) = 2 phi^(k-2)(u_i) for k >= 2,
// over k!. Its truncation error is at most (1/64)^8/8! max|2 He_6 phi|
// < 3e-18; beyond 9, g(u) = |u| to within 2 phi(9)/81 < 3e-20.
type normalTable struct {
	coef [tableNodes * tableCoefs]float64
	kern [kernelNodes * tableCoefs]float64
}

// kernelNodes is the number of nodes of the CRPS kernel's table, on [0, 9].
const kernelNodes = tableEdge*32 + 1

// newNormalTable computes the tables' coefficients (577 and 289 nodes,
// 55 KB).
func newNormalTable() *normalTable {
	t := new(normalTable)
	var d [tableCoefs]float64
	for i := range tableNodes {
		z := -tableEdge + float64(i)*tableStep
		c := t.coef[i*tableCoefs : (i+1)*tableCoefs]
		pdfDerivatives(d[:], z)
		c[0] = normCDF(z)
		fact := 1.0
		for k := 1; k < tableCoefs; k++ {
			fact *= float64(k)
			c[k] = d[k-1] / fact // Phi^(k) = phi^(k-1)
		}
	}
	for i := range kernelNodes {
		u := float64(i) * tableStep
		c := t.kern[i*tableCoefs : (i+1)*tableCoefs]
		pdfDerivatives(d[:], u)
		c[0] = crpsKernel(u)
		c[1] = 2*normCDF(u) - 1
		fact := 1.0
		for k := 2; k < tableCoefs; k++ {
			fact *= float64(k)
			c[k] = 2 * d[k-2] / fact // g^(k) = 2 phi^(k-2)
		}
	}
	return t
}

// pdfDerivatives sets d[j] to the j-th derivative of phi at z,
// (-1)^j He_j(z) phi(z), with the recurrence He_0 = 1, He_1 = z,
// He_(j+1) = z He_j - j He_(j-1).
func pdfDerivatives(d []float64, z float64) {
	pdf := normPDF(z)
	hePrev, he, sign := 0.0, 1.0, 1.0
	for j := range d {
		d[j] = sign * he * pdf
		hePrev, he = he, z*he-float64(j)*hePrev
		sign = -sign
	}
}

// eval returns Phi(z) and phi(z). A NaN z panics (index out of range);
// callers never pass one.
func (t *normalTable) eval(z float64) (cdf, pdf float64) {
	if z >= tableEdge {
		return 1, 0
	}
	if z <= -tableEdge {
		return 0, 0
	}
	i := int((z+tableEdge)*(1/tableStep) + 0.5)
	d := z - (float64(i)*tableStep - tableEdge)
	c := (*[tableCoefs]float64)(t.coef[i*tableCoefs:])
	cdf = c[0] + d*(c[1]+d*(c[2]+d*(c[3]+d*(c[4]+d*(c[5]+d*(c[6]+d*c[7]))))))
	pdf = c[1] + d*(2*c[2]+d*(3*c[3]+d*(4*c[4]+d*(5*c[5]+d*(6*c[6]+d*7*c[7])))))
	return cdf, pdf
}

// kernel returns g(u) = 2 phi(u) + u (2 Phi(u) - 1), as crpsKernel does.
func (t *normalTable) kernel(u float64) float64 {
	u = math.Abs(u)
	if u >= tableEdge {
		return u
	}
	i := int(u*(1/tableStep) + 0.5)
	d := u - float64(i)*tableStep
	c := (*[tableCoefs]float64)(t.kern[i*tableCoefs:])
	return c[0] + d*(c[1]+d*(c[2]+d*(c[3]+d*(c[4]+d*(c[5]+d*(c[6]+d*c[7]))))))
}
