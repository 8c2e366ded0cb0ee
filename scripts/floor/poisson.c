// poisson.c: a C floor of one Gibbs sweep of each Poisson sampler of bnmf
// (PGG, PGGG): the same algorithm as the package's sweep (poissonChain),
// written for speed and nothing else, to state the Go sweep's time as a
// ratio to it (scripts/floor-ratio.sh), as priors.c does for the
// entry-wise priors. It computes nothing that is kept.
//
// The counts a_ij ~ Poi(w_i . z_j) are split over the K factors
// (a_ijk ~ Poi(w_ik z_jk), summing to a_ij), so that every factor's
// conditional is Gamma:
//
//	w_ik | ... ~ Gamma(a + sum_j a_ijk, h_i + sum_j z_jk),
//
// the sums over the row's observed entries, and alike for z_jk. Per row of
// W: per entry the other factor's row added to the row's rate sums and the
// cumulative sums c_k = sum_(l<=k) w_il z_jl, then the entry's count split
// by that many categorical draws, each the first k with c_k > u c_K for a
// uniform u, found by a bisection without a branch on the comparison,
// tallied for the row and for the entry's column; then the row's K Gamma
// draws, each of its own shape (the Marsaglia-Tsang constants set up per
// draw, an exponential where the shape is 1), and for PGGG the row's rate
// h_i from Gamma(a' + K a, a'/b' + sum_k w_ik) (one shape, set up once).
// Per column of Z: the rate sums from the rows of W of its entries, the K
// Gamma draws with the column tallies, h_j, then the column's statistics
// the package keeps at the end of each sweep (per entry the prediction
// w_i . z_j, its squared residual and its part of the log-likelihood,
// a log(mu) - mu). The column tallies are cleared at the start of each
// sweep. The split itself is never stored, as in the package.
//
// The cumulative sums are a chain of K dependent additions per entry, the
// row pass's critical path; the floor runs them as two chains, one per
// half of the K, and adds the first half's total to the second half's
// sums after (0.83x the time of one chain on the 100K shape at K = 50;
// four chains were no faster), and, as the package's row pass, takes four
// entries at a time, their eight chains side by side. The sums are the
// same but for rounding, the licence -ffast-math takes for the dot
// products.
//
// The priors at the package's defaults: a = 1, b = 1 (PGG); a = 1, a' = 1,
// b' = 1 (PGGG). The entries' values, 1 to 5, are the counts. Random
// numbers, memory, the entries and the output: floor.h (see priors.c).
// The factors (and PGGG's rates) start from draws of the priors, and the
// sweeps are timed from the first, as the package's benchmark does.
//
//	gcc -O3 -march=native -ffast-math -o poisson poisson.c -lm   # floor.h beside it
//	HP=1 ./poisson MODEL M N nnz K sweeps
//	# e.g. HP=1 ./poisson PGG 943 1473 99723 50 20
//
// MODEL is one of PGG PGGG. It prints one line as priors.c does, with
// sigma2=0 (the Poisson models have none).
#include "floor.h"

static double pa = 1, pb = 1, ap = 1, bp = 1, ap_over_bp;
static int hier;
static gam_t g_h;
static double *scratch, *col_tally, *col_ss, *col_ll;

// gamma_shape draws Gamma(shape, rate) with the constants set up for this
// shape: an exponential for shape 1, Marsaglia-Tsang above it.
static inline double gamma_shape(double shape, double rate) {
	if (shape == 1) return exp_draw_inl() / rate;
	if (shape > 1) return gam_draw(gam_setup(shape), rate);
	return gamma_any(shape, rate);
}

// split adds to tally and tally2 the split of a count y over the K
// categories of cumulative weights cum.
static inline void split(const double *cum, int y, double *restrict tally, double *restrict tally2) {
	double total = cum[K - 1];
	for (int c = 0; c < y; c++) {
		double u = uniform01() * total;
		int k = 0, n = K;
		while (n > 1) {
			int half = n >> 1;
			k += half & -(int)(cum[k + half - 1] <= u);
			n -= half;
		}
		tally[k]++;
		tally2[k]++;
	}
}

// draw_line draws line x (K) from its Gamma conditionals given its tallies
// and rate sums, with the line's prior rate, and returns PGGG's new rate
// of the line (or the old one).
static inline double draw_line(double *restrict x, const double *tally, const double *rates, double rate) {
	double sum = 0;
	for (int k = 0; k < K; k++) {
		double v = gamma_shape(pa + tally[k], rate + rates[k]);
		x[k] = v;
		sum += v;
	}
	return hier ? gam_draw(g_h, ap_over_bp + sum) : rate;
}

// cum_halves sets cum to the cumulative sums of x[k] o[k] as two chains,
// the halves', the first half's total then added to the second's.
static inline void cum_halves(double *restrict cum, const double *restrict x, const double *restrict o) {
	int half = K / 2;
	double s = 0, s2 = 0;
	for (int k = 0; k < half; k++) {
		s += x[k] * o[k];
		cum[k] = s;
		s2 += x[half + k] * o[half + k];
		cum[half + k] = s2;
	}
	for (int k = 2 * half; k < K; k++) {
		s2 += x[k] * o[k];
		cum[k] = s2;
	}
	for (int k = half; k < K; k++) cum[k] += s;
}

// row_line updates row i of W: the split of its counts, then its draws.
// Four entries at a time, as the package's row pass: their rate sums,
// their cumulative sums side by side (eight chains, two per entry), then
// their splits in order.
static void row_line(double *w, const double *z, double *h, int i, int lo, int hi, const int32_t *col, const double *val) {
	double *x = w + (size_t)i * K, *tally = scratch, *rates = tally + K, *cum = rates + K;
	int half = K / 2;
	memset(tally, 0, 2 * K * sizeof(double));
	int q = lo;
	for (; q + 4 <= hi; q += 4) {
		const double *o[4];
		for (int e = 0; e < 4; e++) {
			o[e] = z + (size_t)col[q + e] * K;
			for (int k = 0; k < K; k++) rates[k] += o[e][k];
		}
		double s[4] = {0}, s2[4] = {0};
		for (int k = 0; k < half; k++)
			for (int e = 0; e < 4; e++) {
				s[e] += x[k] * o[e][k];
				cum[e * K + k] = s[e];
				s2[e] += x[half + k] * o[e][half + k];
				cum[e * K + half + k] = s2[e];
			}
		for (int e = 0; e < 4; e++) {
			for (int k = 2 * half; k < K; k++) {
				s2[e] += x[k] * o[e][k];
				cum[e * K + k] = s2[e];
			}
			for (int k = half; k < K; k++) cum[e * K + k] += s[e];
		}
		for (int e = 0; e < 4; e++) {
			int y = (int)val[q + e];
			if (y > 0) split(cum + e * K, y, tally, col_tally + (size_t)col[q + e] * K);
		}
	}
	for (; q < hi; q++) {
		const double *o = z + (size_t)col[q] * K;
		for (int k = 0; k < K; k++) rates[k] += o[k];
		cum_halves(cum, x, o);
		int y = (int)val[q];
		if (y > 0) split(cum, y, tally, col_tally + (size_t)col[q] * K);
	}
	double r = hier ? h[i] : pb;
	h[i] = draw_line(x, tally, rates, r);
}

// col_stats stores column j's sum of squared residuals and log-likelihood
// terms.
static void col_stats(const double *w, const double *z, int j, int lo, int hi, const int32_t *crow, const double *cval) {
	const double *zj = z + (size_t)j * K;
	double ss = 0, ll = 0;
	for (int q = lo; q < hi; q++) {
		const double *wr = w + (size_t)crow[q] * K;
		double mu = 0;
		for (int k = 0; k < K; k++) mu += wr[k] * zj[k];
		double y = cval[q], dd = y - mu;
		ss += dd * dd;
		if (y > 0) ll += y * log(mu);
		ll -= mu;
	}
	col_ss[j] = ss;
	col_ll[j] = ll;
}

// col_line updates column j of Z from its tallies, then its statistics.
static void col_line(const double *w, double *z, double *h, int j, int lo, int hi, const int32_t *crow, const double *cval) {
	double *rates = scratch + 2 * K;
	memset(rates, 0, K * sizeof(double));
	for (int q = lo; q < hi; q++) {
		const double *o = w + (size_t)crow[q] * K;
		for (int k = 0; k < K; k++) rates[k] += o[k];
	}
	double r = hier ? h[j] : pb;
	h[j] = draw_line(z + (size_t)j * K, col_tally + (size_t)j * K, rates, r);
	col_stats(w, z, j, lo, hi, crow, cval);
}

static const char *models[] = {"PGG", "PGGG"};

int main(int argc, char **argv) {
	data_t d;
	int sweeps = floor_setup(argc, argv, "poisson", models, sizeof models / sizeof models[0], &d);
	const char *name = argv[1];
	hier = strcmp(name, "PGGG") == 0;
	int M = d.M, N = d.N;
	ap_over_bp = ap / bp;
	g_h = gam_setup(ap + K * pa);

	scratch = malloc(6 * (size_t)K * sizeof(double));
	double *W = alloc_big((size_t)M * K * sizeof(double)), *Z = alloc_big((size_t)N * K * sizeof(double));
	double *hw = malloc(M * sizeof(double)), *hz = malloc(N * sizeof(double));
	col_tally = alloc_big((size_t)N * K * sizeof(double));
	col_ss = malloc(N * sizeof(double));
	col_ll = malloc(N * sizeof(double));
	for (int s = 0; s < 2; s++) {
		int lines = s ? N : M;
		double *x = s ? Z : W, *h = s ? hz : hw;
		for (int i = 0; i < lines; i++) {
			h[i] = hier ? gamma_any(ap, ap_over_bp) : pb;
			for (int k = 0; k < K; k++) x[(size_t)i * K + k] = gamma_any(pa, h[i]);
		}
	}
	for (int j = 0; j < N; j++) col_stats(W, Z, j, d.cstart[j], d.cstart[j + 1], d.crow, d.cval);

	double *wall = malloc(sweeps * sizeof(double)), *cpu = malloc(sweeps * sizeof(double));
	for (int s = 0; s < sweeps; s++) {
		double w0 = wall_now(), c0 = cpu_now();
		memset(col_tally, 0, (size_t)N * K * sizeof(double));
		for (int i = 0; i < M; i++) row_line(W, Z, hw, i, d.rstart[i], d.rstart[i + 1], d.col, d.val);
		for (int j = 0; j < N; j++) col_line(W, Z, hz, j, d.cstart[j], d.cstart[j + 1], d.crow, d.cval);
		wall[s] = wall_now() - w0;
		cpu[s] = cpu_now() - c0;
	}
	double chk = 0;
	for (size_t e = 0; e < (size_t)M * K; e++) chk += W[e];
	for (int j = 0; j < N; j++) chk += 1e-12 * (col_ss[j] + col_ll[j]);
	floor_report(name, &d, sweeps, wall, cpu, 0, chk);
	return 0;
}
