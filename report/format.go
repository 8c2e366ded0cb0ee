package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// fmtG formats a configured value (a fraction, a ratio) in its shortest
// exact form: 0.97, 10.
func fmtG(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// fmtMeanSE formats a statistic as "mean ± standard error", the error to two
// significant digits and the mean to the same decimals, but no more
// decimals than give the mean three significant digits (and at least
// three); a single value is printed alone and no value as "—".
func fmtMeanSE(s Stat) string {
	switch {
	case s.N == 0:
		return "—"
	case math.Abs(s.Mean) >= 1e6:
		if s.N < 2 {
			return fmt.Sprintf("%.3g", s.Mean)
		}
		return fmt.Sprintf("%.3g ± %.2g", s.Mean, s.SE)
	case s.N < 2 || s.SE == 0:
		return fmtSig(s.Mean, 3)
	}
	dmax := max(3, 2-int(math.Floor(math.Log10(math.Abs(s.Mean)))))
	d := max(0, min(dmax, 1-int(math.Floor(math.Log10(s.SE)))))
	return fmt.Sprintf("%.*f ± %.*f", d, s.Mean, d, s.SE)
}

// fmtSig formats x with sig significant digits, or more for a large
// number, and at least three decimals for numbers below one: 1.02, 0.517,
// 0.0213, 236750.
func fmtSig(x float64, sig int) string {
	if !isFinite(x) {
		return fmtFloat(x)
	}
	if x == 0 {
		return "0"
	}
	d := max(0, sig-1-int(math.Floor(math.Log10(math.Abs(x)))))
	return strconv.FormatFloat(x, 'f', d, 64)
}

// fmtPaper formats a published value as printed in the paper (two
// decimals).
func fmtPaper(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// fmtFloat formats a value for CSV: shortest exact form, and Inf, -Inf and
// NaN as R and pandas read them.
func fmtFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// fmtInt formats an integer with thousands separators, as the paper does:
// 99,723.
func fmtInt(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fmtDuration formats seconds as "42 s", "3.5 min" or "2.1 h".
func fmtDuration(sec float64) string {
	switch {
	case sec < 60:
		return fmt.Sprintf("%.0f s", sec)
	case sec < 3600:
		return fmt.Sprintf("%.1f min", sec/60)
	}
	return fmt.Sprintf("%.1f h", sec/3600)
}

// fmtInts formats ranks as "10, 20, 30".
func fmtInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

// fmtFloats formats fractions or ratios as "0.97, 0.98".
func fmtFloats(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmtG(x)
	}
	return strings.Join(parts, ", ")
}
