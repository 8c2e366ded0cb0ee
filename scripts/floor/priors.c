// priors.c: a C floor of one Gibbs sweep for each entry-wise prior of bnmf
// (and NMF's multiplicative updates): the same algorithm as the package's
// sweep, written for speed and nothing else, to state the Go sweep's time
// as a ratio to it (scripts/floor-ratio.sh). It computes nothing that is
// kept; it is an estimate of what a careful single-threaded implementation
// of the same work costs on the machine at hand.
//
// Per line (row of W, then column of Z): copy or gather the line's
// residuals, gather the other factor's rows transposed (K blocks of n), the
// two dot products of dimension 0; per latent dimension the entry's draw
// from its full conditional (truncated normal on [0, inf) for the
// nonnegative priors, normal for the real-valued ones) with the prior's
// natural parameters, then one pass that updates the residuals with the
// change and forms the next dimension's two dot products; on the Z side
// the exact residuals summed from the gathered rows; then the line's
// hyperparameter draws as the prior has them. For the volume prior of
// GVG and GVnG on W the rows are taken in order with G = W^T W formed and
// inverted at the start of the pass over W, downdated by the row before it
// and updated with its new values after it (rank one each), as the package
// does. NMF's sweep is its own: per line the sums of the other factor's
// rows weighted by the data and by the prediction, the multiplicative
// update, and all residuals recomputed after each side. After Z the shared
// hyperparameters (GEEA's rates), then the sum of squared residuals and
// sigma^2 from its inverse-gamma conditional.
//
// Random numbers: xoshiro256++; normal and exponential variates by
// ziggurats of 256 layers whose tables are computed at start-up; gamma by
// Marsaglia and Tsang's method with the constants of a fixed shape set up
// once (these in floor.h, shared with the floors of the row-wise samplers,
// rowwise.c, and of the Poisson ones, poisson.c); inverse Gaussian by
// Michael, Schucany and Haas.
//
//	gcc -O3 -march=native -ffast-math -o priors priors.c -lm   # floor.h beside it
//	HP=1 ./priors MODEL M N nnz K sweeps
//	# e.g. HP=1 ./priors GEE 943 1473 99723 50 20
//
// MODEL is one of GEE GTT GTTN GRRN GEEA GEG GGGU GLL GLLI GL21 GVnG GVG
// NMF. HP=1
// backs the arrays of 4 MiB and more with transparent huge pages, as the
// package does. The entries are nnz distinct cells drawn uniformly, with
// values 1 to 5, as the package's sweep benchmark builds them. The factors
// and hyperparameters start from draws of the priors and sigma^2 from its
// conditional, and the sweeps are timed from the first, as the benchmark
// does. It prints one line: the model, the shape, and the best and median
// wall and CPU milliseconds per sweep.
#include "floor.h"

// ---- inverse Gaussian, truncated normal ---------------------------------

static inline double invgauss_draw(double mu, double shape) {
	double z = norm_draw(), y = z * z, t = mu * y / (2 * shape);
	double x = mu / (1 + t + sqrt(t * (t + 2)));
	return uniform01() * (mu + x) <= mu ? x : mu * mu / x;
}

// tn_draw samples the density proportional to exp(lin x - prec x^2 / 2)
// on [0, inf): in the far tail (lin < 0, (lin/sqrt(prec))^2 >= 0.36) by
// rejection from a scaled exponential, otherwise by rejection from the
// normal, as the package does.
static inline double tn_draw(double lin, double prec) {
	if (lin < 0) {
		double a2 = lin / prec * lin;
		if (a2 >= 0.36) {
			double h = 0.5 + 0.5 * sqrt(1 + 4 / a2), m = 1 / (h * -lin), c = prec * m * m;
			for (;;) {
				double e = exp_draw_inl(), d = e - 1;
				if (2 * exp_draw_inl() >= c * d * d) return e * m;
			}
		}
	}
	double s = sqrt(prec), alpha = -lin / s, z;
	if (alpha < 0) {
		do z = norm_draw(); while (z < alpha);
	} else {
		do z = fabs(norm_draw()); while (z < alpha);
	}
	return (z - alpha) / s;
}

// ---- kernels ------------------------------------------------------------

static inline void dots2(const double *restrict g, const double *restrict r, int n, double *gg, double *gr) {
	double a = 0, b = 0;
	for (int q = 0; q < n; q++) { a += g[q] * g[q]; b += g[q] * r[q]; }
	*gg = a;
	*gr = b;
}

// axpy_dots: r -= d * gk, then the dots of gn with itself and with r, in
// one pass.
static inline void axpy_dots(double *restrict r, double d, const double *restrict gk, const double *restrict gn, int n, double *gg, double *gr) {
	double a = 0, b = 0;
	for (int q = 0; q < n; q++) {
		double v = r[q] - d * gk[q];
		r[q] = v;
		a += gn[q] * gn[q];
		b += gn[q] * v;
	}
	*gg = a;
	*gr = b;
}

// ---- priors -------------------------------------------------------------

enum kind { EXPO, TNORM, HIER, ARD, GAUSS, LAPLACE, L21, VOLUME };

typedef struct {
	enum kind kind;
	int real;        // draws from a normal, not a truncated normal
	int with_lambda; // HIER: GRRN's lambda; LAPLACE: GLLI's per-entry eta
	int lines;
	double *x;         // lines x K
	double *h1, *h2, *h3; // per-entry hyperparameters (lines x K) or NULL
} side_t;

static double inv_s2;
// the priors' constants at the package's defaults
static double lam_exp = 0.1, tn_mu = 0, tn_tau = 0.1;
static double mu_mu = 0, tau_mu = 0.1, hyp_a = 1, hyp_b = 1, alpha_lam = 1, beta_lam;
static double gau_lam = 0.1, lap_eta, glli_a, glli_b, l21_lam = 0.1;
static double alpha0 = 1, beta0 = 1, *ard_lambda;
static gam_t g_tau, g_lam, g_ard;

// The volume prior of GVG and GVnG on W: G = W^T W and its inverse, kept
// over the rows but the current one by rank-one updates (Sherman-Morrison)
// and refactorised (Cholesky) at the start of each pass over W.
static double vol_gamma = 1, *vol_g, *vol_ginv, *vol_t, *vol_l, vol_logdet, vol_scale;

// vol_invert factorises G and forms its inverse and log determinant; it
// returns 0 when G is not positive definite.
static int vol_invert(void) {
	double *l = vol_l, *inv = vol_ginv, *y = vol_t, logdet = 0;
	memcpy(l, vol_g, (size_t)K * K * sizeof(double));
	for (int j = 0; j < K; j++) {
		double d = l[j * K + j];
		for (int q = 0; q < j; q++) d -= l[j * K + q] * l[j * K + q];
		if (!(d > 0)) return 0;
		d = sqrt(d);
		l[j * K + j] = d;
		logdet += 2 * log(d);
		for (int i = j + 1; i < K; i++) {
			double v = l[i * K + j];
			for (int q = 0; q < j; q++) v -= l[i * K + q] * l[j * K + q];
			l[i * K + j] = v / d;
		}
	}
	for (int c = 0; c < K; c++) { // column c of the inverse: L y = e_c, L^T col = y
		for (int i = 0; i < c; i++) y[i] = 0;
		for (int i = c; i < K; i++) {
			double v = i == c ? 1 : 0;
			for (int q = c; q < i; q++) v -= l[i * K + q] * y[q];
			y[i] = v / l[i * K + i];
		}
		for (int i = K - 1; i >= 0; i--) {
			double v = y[i];
			for (int q = i + 1; q < K; q++) v -= l[q * K + i] * inv[q * K + c];
			inv[i * K + c] = v / l[i * K + i];
		}
	}
	vol_logdet = logdet;
	return 1;
}

// vol_begin_pass forms G from all rows of W (lower triangle, mirrored) and
// inverts it.
static void vol_begin_pass(const double *w, int lines) {
	memset(vol_g, 0, (size_t)K * K * sizeof(double));
	for (int i = 0; i < lines; i++) {
		const double *row = w + (size_t)i * K;
		for (int a = 0; a < K; a++) {
			double va = row[a], *ga = vol_g + (size_t)a * K;
			for (int b = 0; b <= a; b++) ga[b] += va * row[b];
		}
	}
	for (int a = 0; a < K; a++)
		for (int b = 0; b < a; b++) vol_g[b * K + a] = vol_g[a * K + b];
	if (!vol_invert()) { fprintf(stderr, "priors: W^T W is singular\n"); exit(1); }
}

// vol_rank_one adds sign u u^T to G and updates its inverse and log
// determinant; it returns 0 when the update is ill-conditioned.
static int vol_rank_one(const double *u, double sign) {
	double h = 0;
	for (int a = 0; a < K; a++) {
		double *ga = vol_g + (size_t)a * K, va = sign * u[a];
		for (int b = 0; b < K; b++) ga[b] += va * u[b];
	}
	for (int a = 0; a < K; a++) {
		const double *ia = vol_ginv + (size_t)a * K;
		double v = 0;
		for (int b = 0; b < K; b++) v += ia[b] * u[b];
		vol_t[a] = v;
		h += v * u[a];
	}
	double d = 1 + sign * h;
	if (!(d >= 1e-4)) return 0;
	double f = sign / d;
	for (int a = 0; a < K; a++) {
		double *ia = vol_ginv + (size_t)a * K, fa = f * vol_t[a];
		for (int b = 0; b < K; b++) ia[b] -= fa * vol_t[b];
	}
	vol_logdet += log(d);
	return 1;
}

static inline void natural(const side_t *s, int e, int k, const double *x, double *prec, double *lin) {
	switch (s->kind) {
	case EXPO: *prec = 0; *lin = -lam_exp; break;
	case TNORM: *prec = tn_tau; *lin = tn_tau * tn_mu; break;
	case HIER:
		*prec = s->h2[e];
		*lin = s->h2[e] * s->h1[e] - (s->with_lambda ? s->h3[e] : 0);
		break;
	case ARD: *prec = 0; *lin = -ard_lambda[k]; break;
	case GAUSS: *prec = gau_lam; *lin = 0; break;
	case LAPLACE: *prec = s->h1[e]; *lin = 0; break;
	case VOLUME: {
		const double *ik = vol_ginv + (size_t)k * K;
		double o = 0;
		for (int j = 0; j < K; j++)
			if (j != k) o += ik[j] * x[j];
		*prec = vol_scale * ik[k];
		*lin = -vol_scale * o;
		break;
	}
	case L21: {
		double o = 0;
		for (int j = 0; j < K; j++)
			if (j != k) o += x[j];
		*prec = l21_lam;
		*lin = -l21_lam * o;
		break;
	}
	}
}

// line_hyper draws a line's per-entry hyperparameters given its new x.
static inline void line_hyper(side_t *s, int i) {
	const double *x = s->x + (size_t)i * K;
	switch (s->kind) {
	case HIER:
		for (int k = 0; k < K; k++) {
			int e = i * K + k;
			double xk = x[k], tau = s->h2[e], t = tau + tau_mu;
			double mu = (tau * xk + tau_mu * mu_mu) / t + norm_draw() / sqrt(t), d = xk - mu;
			s->h1[e] = mu;
			s->h2[e] = gam_draw(g_tau, hyp_b + d * d / 2);
			if (s->with_lambda) s->h3[e] = gam_draw(g_lam, beta_lam + xk);
		}
		break;
	case LAPLACE:
		for (int k = 0; k < K; k++) {
			int e = i * K + k;
			double eta = s->with_lambda ? s->h2[e] : lap_eta;
			double p = invgauss_draw(sqrt(eta) / fabs(x[k]), eta);
			s->h1[e] = p;
			if (s->with_lambda) {
				double c = glli_a + 1 / p;
				s->h2[e] = 1 / invgauss_draw(sqrt(c / glli_b), c);
			}
		}
		break;
	default:
		break;
	}
}

// init_side draws a side's hyperparameters and factor from the prior.
static void init_side(side_t *s, int lines, enum kind kind, int extra) {
	size_t n = (size_t)lines * K;
	s->kind = kind;
	s->with_lambda = extra;
	s->lines = lines;
	s->real = kind == GAUSS || kind == LAPLACE || (kind == VOLUME && extra);
	s->x = alloc_big(n * sizeof(double));
	s->h1 = s->h2 = s->h3 = NULL;
	if (kind == HIER || kind == LAPLACE) {
		s->h1 = alloc_big(n * sizeof(double));
		s->h2 = alloc_big(n * sizeof(double));
		s->h3 = alloc_big(n * sizeof(double));
	}
	for (int i = 0; i < lines; i++) {
		double *x = s->x + (size_t)i * K;
		if (kind == L21) {
			double sc = sqrt(2 * gamma_any(K / 2.0, 1) / l21_lam), sum = 0;
			for (int k = 0; k < K; k++) sum += x[k] = exp_draw();
			for (int k = 0; k < K; k++) x[k] *= sc / sum;
			continue;
		}
		for (int k = 0; k < K; k++) {
			size_t e = (size_t)i * K + k;
			double prec = 0, lin = 0;
			switch (kind) {
			case HIER:
				s->h1[e] = mu_mu + norm_draw() / sqrt(tau_mu);
				s->h2[e] = gamma_any(hyp_a, hyp_b);
				s->h3[e] = extra ? gamma_any(alpha_lam, beta_lam) : 0;
				natural(s, (int)e, k, x, &prec, &lin);
				x[k] = tn_draw(lin, prec);
				break;
			case LAPLACE: {
				double eta = lap_eta;
				if (extra) eta = s->h2[e] = invgauss_draw(sqrt(glli_b / glli_a), glli_b);
				double lam = 2 * exp_draw() / eta;
				s->h1[e] = 1 / lam;
				x[k] = sqrt(lam) * norm_draw();
				break;
			}
			case GAUSS: x[k] = norm_draw() / sqrt(gau_lam); break;
			case EXPO: x[k] = exp_draw() / lam_exp; break;
			case ARD: x[k] = exp_draw() / ard_lambda[k]; break;
			case TNORM: x[k] = tn_draw(tn_tau * tn_mu, tn_tau); break;
			case VOLUME: x[k] = extra ? norm_draw() : fabs(norm_draw()); break;
			default: break;
			}
		}
	}
}

// ---- the sweep ----------------------------------------------------------

static double *scratch;

// update_line updates line i of side s; other is the other side's factor;
// idx[lo:hi] the other side's line of each entry; pos (Z side only) the
// entries' places in resid and val their values in this side's order.
static void update_line(side_t *s, const double *other, int i, int lo, int hi, const int32_t *idx,
			const int32_t *pos, double *resid, const double *val) {
	int n = hi - lo;
	double *x = s->x + (size_t)i * K, *r = scratch, *g = scratch + n, *t = g + (size_t)n * K;
	if (pos) {
		for (int q = 0; q < n; q++) r[q] = resid[pos[lo + q]];
	} else {
		memcpy(r, resid + lo, n * sizeof(double));
	}
	gather_lines(g, other, idx + lo, n, K);
	if (s->kind == VOLUME) { // G over the other rows, and the scale 2 gamma det
		if (!vol_rank_one(x, -1)) vol_invert();
		vol_scale = exp(log(2 * vol_gamma) + vol_logdet);
	}
	double gg = 0, gr = 0;
	if (K > 0) dots2(g, r, n, &gg, &gr);
	for (int k = 0; k < K; k++) {
		double *gk = g + (size_t)k * n, xk = x[k], prec0 = 0, lin0 = 0;
		natural(s, i * K + k, k, x, &prec0, &lin0);
		double prec = gg * inv_s2 + prec0, lin = (gr + xk * gg) * inv_s2 + lin0, v;
		if (s->real) v = lin / prec + norm_draw() / sqrt(prec);
		else v = tn_draw(lin, prec);
		double d = v - xk;
		if (k + 1 < K) {
			if (d != 0) axpy_dots(r, d, gk, gk + n, n, &gg, &gr);
			else dots2(gk + n, r, n, &gg, &gr);
		} else if (d != 0) {
			for (int j = 0; j < n; j++) r[j] -= d * gk[j];
		}
		x[k] = v;
	}
	if (!pos) {
		memcpy(resid + lo, r, n * sizeof(double));
	} else {
		// exact residuals from the gathered rows
		for (int j = 0; j < n; j++) t[j] = 0;
		for (int k = 0; k < K; k++) {
			const double *gk = g + (size_t)k * n;
			double xk = x[k];
			for (int j = 0; j < n; j++) t[j] += xk * gk[j];
		}
		for (int j = 0; j < n; j++) resid[pos[lo + j]] = val[lo + j] - t[j];
	}
	if (s->kind == VOLUME) vol_rank_one(x, 1);
	line_hyper(s, i);
}

// nmf_line is one multiplicative update of line i (squared error): per
// entry num += a o, den += (a - resid) o over the other factor's row o.
static void nmf_line(side_t *s, const double *other, int i, int lo, int hi, const int32_t *idx, const int32_t *pos,
		     const double *resid, const double *rowval) {
	double *num = scratch, *den = scratch + K, *x = s->x + (size_t)i * K;
	for (int k = 0; k < K; k++) num[k] = den[k] = 0;
	for (int q = lo; q < hi; q++) {
		int e = pos ? pos[q] : q;
		double a = rowval[e], pred = a - resid[e];
		const double *o = other + (size_t)idx[q] * K;
		for (int k = 0; k < K; k++) {
			num[k] += a * o[k];
			den[k] += pred * o[k];
		}
	}
	for (int k = 0; k < K; k++)
		if (den[k] > 0) x[k] = x[k] * num[k] / den[k];
}

static const char *models[] = {"GEE", "GTT", "GTTN", "GRRN", "GEEA", "GEG", "GGGU", "GLL", "GLLI", "GL21", "GVnG", "GVG", "NMF"};

int main(int argc, char **argv) {
	data_t d;
	int sweeps = floor_setup(argc, argv, "priors", models, sizeof models / sizeof models[0], &d);
	const char *model = argv[1];
	int M = d.M, N = d.N, longest = d.longest;
	long nnz = d.nnz;
	int32_t *row = d.row, *col = d.col, *rstart = d.rstart, *cstart = d.cstart, *crow = d.crow, *cpos = d.cpos;
	double *val = d.val, *cval = d.cval;
	scratch = malloc(((size_t)longest * (K + 2) + 2 * (size_t)K) * sizeof(double));

	// priors at the package's defaults
	double mean = d.mean;
	beta_lam = sqrt(mean / K);
	lap_eta = sqrt(10.0);
	glli_a = 1.0 / K;
	glli_b = K;
	g_tau = gam_setup(hyp_a + 0.5);
	g_lam = gam_setup(alpha_lam + 1);
	g_ard = gam_setup(alpha0 + M + N);
	ard_lambda = malloc(K * sizeof(double));
	for (int k = 0; k < K; k++) ard_lambda[k] = gamma_any(alpha0, beta0);

	side_t W, Z;
	int nmf = strcmp(model, "NMF") == 0;
	if (nmf) {
		double scale = 2 * sqrt(mean / K);
		init_side(&W, M, EXPO, 0);
		init_side(&Z, N, EXPO, 0);
		for (size_t e = 0; e < (size_t)M * K; e++) W.x[e] = scale * (1 - uniform01());
		for (size_t e = 0; e < (size_t)N * K; e++) Z.x[e] = scale * (1 - uniform01());
	} else if (!strcmp(model, "GEE")) { init_side(&W, M, EXPO, 0); init_side(&Z, N, EXPO, 0); }
	else if (!strcmp(model, "GTT")) { init_side(&W, M, TNORM, 0); init_side(&Z, N, TNORM, 0); }
	else if (!strcmp(model, "GTTN")) { init_side(&W, M, HIER, 0); init_side(&Z, N, HIER, 0); }
	else if (!strcmp(model, "GRRN")) { init_side(&W, M, HIER, 1); init_side(&Z, N, HIER, 1); }
	else if (!strcmp(model, "GEEA")) { init_side(&W, M, ARD, 0); init_side(&Z, N, ARD, 0); }
	else if (!strcmp(model, "GEG")) { init_side(&W, M, EXPO, 0); init_side(&Z, N, GAUSS, 0); }
	else if (!strcmp(model, "GGGU")) { init_side(&W, M, GAUSS, 0); init_side(&Z, N, GAUSS, 0); }
	else if (!strcmp(model, "GLL")) { init_side(&W, M, LAPLACE, 0); init_side(&Z, N, LAPLACE, 0); }
	else if (!strcmp(model, "GLLI")) { init_side(&W, M, LAPLACE, 1); init_side(&Z, N, LAPLACE, 1); }
	else if (!strcmp(model, "GL21")) { init_side(&W, M, L21, 0); init_side(&Z, N, L21, 0); }
	else { // GVnG (W nonnegative) and GVG (W real)
		vol_g = malloc((size_t)K * K * sizeof(double));
		vol_ginv = malloc((size_t)K * K * sizeof(double));
		vol_l = malloc((size_t)K * K * sizeof(double));
		vol_t = malloc(K * sizeof(double));
		init_side(&W, M, VOLUME, strcmp(model, "GVG") == 0);
		init_side(&Z, N, GAUSS, 0);
	}
	int ard = strcmp(model, "GEEA") == 0;

	double *resid = alloc_big(nnz * sizeof(double));
	double ss = 0;
	for (long e = 0; e < nnz; e++) {
		const double *w = W.x + (size_t)row[e] * K, *z = Z.x + (size_t)col[e] * K;
		double p = 0;
		for (int k = 0; k < K; k++) p += w[k] * z[k];
		resid[e] = val[e] - p;
		ss += resid[e] * resid[e];
	}
	gam_t g_s2 = gam_setup(1 + nnz / 2.0);
	double sigma2 = 1 / gam_draw(g_s2, 1 + ss / 2);

	double *wall = malloc(sweeps * sizeof(double)), *cpu = malloc(sweeps * sizeof(double));
	for (int s = 0; s < sweeps; s++) {
		double w0 = wall_now(), c0 = cpu_now();
		if (nmf) {
			for (int i = 0; i < M; i++) nmf_line(&W, Z.x, i, rstart[i], rstart[i + 1], col, NULL, resid, val);
			for (long e = 0; e < nnz; e++) {
				const double *w = W.x + (size_t)row[e] * K, *z = Z.x + (size_t)col[e] * K;
				double p = 0;
				for (int k = 0; k < K; k++) p += w[k] * z[k];
				resid[e] = val[e] - p;
			}
			for (int j = 0; j < N; j++) nmf_line(&Z, W.x, j, cstart[j], cstart[j + 1], crow, cpos, resid, val);
			for (long e = 0; e < nnz; e++) {
				const double *w = W.x + (size_t)row[e] * K, *z = Z.x + (size_t)col[e] * K;
				double p = 0;
				for (int k = 0; k < K; k++) p += w[k] * z[k];
				resid[e] = val[e] - p;
			}
		} else {
			inv_s2 = 1 / sigma2;
			if (W.kind == VOLUME) vol_begin_pass(W.x, M);
			for (int i = 0; i < M; i++) update_line(&W, Z.x, i, rstart[i], rstart[i + 1], col, NULL, resid, NULL);
			for (int j = 0; j < N; j++) update_line(&Z, W.x, j, cstart[j], cstart[j + 1], crow, cpos, resid, cval);
			if (ard) {
				for (int k = 0; k < K; k++) {
					double sum = 0;
					for (size_t e = k; e < (size_t)M * K; e += K) sum += W.x[e];
					for (size_t e = k; e < (size_t)N * K; e += K) sum += Z.x[e];
					ard_lambda[k] = gam_draw(g_ard, beta0 + sum);
				}
			}
			ss = 0;
			for (long e = 0; e < nnz; e++) ss += resid[e] * resid[e];
			sigma2 = 1 / gam_draw(g_s2, 1 + ss / 2);
		}
		wall[s] = wall_now() - w0;
		cpu[s] = cpu_now() - c0;
	}
	double chk = 0;
	for (size_t e = 0; e < (size_t)M * K; e++) chk += W.x[e];
	floor_report(model, &d, sweeps, wall, cpu, sigma2, chk);
	return 0;
}
