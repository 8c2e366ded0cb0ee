// rowwise.c: a C floor of one Gibbs sweep of each row-wise Gaussian
// sampler of bnmf (GGG, GGGA, GGGW): the same algorithm as the package's
// sweep (mvnChain), written for speed and nothing else, to state the Go
// sweep's time as a ratio to it (scripts/floor-ratio.sh), as priors.c does
// for the entry-wise priors. It computes nothing that is kept.
//
// Per line (row of W, then column of Z) the line is drawn as a block from
// its K-dimensional Gaussian full conditional N(P^-1 b, P^-1),
// P = Lambda + G G^T / sigma^2 and b = Lambda mu + G a / sigma^2, G the
// other factor's rows at the line's n observed entries and a their values:
// copy the lower triangle of the side's prior precision Lambda and its
// linear term Lambda mu; gather the other factor's rows transposed (K
// blocks of n); the K dot products of G with the values and the K (K+1)/2
// dot products of G's blocks with each other for the lower triangle of P,
// each a sum over the n entries; P = L L^T by the row-oriented Cholesky
// factorisation (inner products along L's rows); L^-1 b by forward
// substitution; K standard normals added; L^-T of the sum by back
// substitution along L's rows (an axpy per row). On the Z side the exact
// residuals of the column are then summed from the gathered rows (the rows
// of W leave theirs stale, as the package's do). After both sides the sum
// of squared residuals and sigma^2 from its inverse-gamma conditional.
//
// The row priors. GGG: N(0, I/lambda), fixed. GGGA: N(0, diag(1/lambda)),
// after Z each lambda_k from its Gamma conditional given the sums of
// squares of W's and Z's column k (one shape, set up once). GGGW: before
// each side its mean mu and precision Lambda from their Normal-inverse-
// Wishart conditional given the side's rows: the rows' mean and centred
// scatter (a rank-one update of the lower triangle per row), the prior's
// terms; Psi = L L^T (Cholesky); Lambda ~ Wishart(v, Psi^-1) by Bartlett's
// decomposition, A lower triangular with A_aa^2 ~ chi^2(v - a) (a
// Gamma((v - a)/2, 1/2), one shape per a, set up per draw) and standard
// normals below the diagonal, B^T = (L^-T A)^T row by row (K back
// substitutions), Lambda = B B^T (K rank-one updates of its lower
// triangle); then Lambda = R R^T (Cholesky), mu = mu_n + R^-T e /
// sqrt(beta_n) with K standard normals e, and the linear term Lambda mu.
// The hyperparameters are those of the package's defaults (GGG lambda =
// 0.1; GGGA alpha0 = beta0 = 1; GGGW mu0 = 0, beta0 = 1, v0 = K, W0 = I).
//
// The dot products of P are taken two rows against four blocks at a time
// (as the package's dots2x4), which keeps eight sums in flight and loads
// each block once for both rows; each is still its own sum over the
// entries, as the package's, but gcc may split it over vector lanes in
// any order (-ffast-math).
//
// Random numbers, memory, the entries and the output: floor.h (see
// priors.c). The factors and hyperparameters start from draws of the
// priors and sigma^2 from its conditional, and the sweeps are timed from
// the first, as the package's benchmark does.
//
//	gcc -O3 -march=native -ffast-math -o rowwise rowwise.c -lm   # floor.h beside it
//	HP=1 ./rowwise MODEL M N nnz K sweeps
//	# e.g. HP=1 ./rowwise GGG 943 1473 99723 50 20
//
// MODEL is one of GGG GGGA GGGW. It prints one line as priors.c does.
#include "floor.h"

enum rowmodel { GGG, GGGA, GGGW };

static enum rowmodel model;
static double inv_s2, *scratch;
// each side's row prior: the precision Lambda (K x K, row-major, lower
// triangle read) and the linear term Lambda mu (K)
static double *prec[2], *lin[2];
// GGG
static double ggg_lambda = 0.1;
// GGGA
static double ard_alpha0 = 1, ard_beta0 = 1, *ard_ss;
static gam_t g_ard;
// GGGW, and its scratch: the mean (K), Psi, B^T and Lambda's factor (K x K)
static double niw_mu0 = 0, niw_beta0 = 1, niw_v0, niw_w0 = 1;
static double *niw_mean, *niw_d, *niw_psi, *niw_bt, *niw_chol;

// ---- dense kernels ------------------------------------------------------

static inline double dot(const double *restrict a, const double *restrict b, int n) {
	double s = 0;
	for (int q = 0; q < n; q++) s += a[q] * b[q];
	return s;
}

// chol_lower overwrites the lower triangle of the symmetric k x k matrix a
// with L of a = L L^T, row by row (Cholesky-Banachiewicz); it returns 0
// when a is not positive definite.
static int chol_lower(double *a, int k) {
	for (int j = 0; j < k; j++) {
		const double *rj = a + (size_t)j * k;
		double d = a[j * k + j] - dot(rj, rj, j);
		if (!(d > 0)) return 0;
		d = sqrt(d);
		a[j * k + j] = d;
		double inv = 1 / d;
		for (int i = j + 1; i < k; i++) a[i * k + j] = (a[i * k + j] - dot(a + (size_t)i * k, rj, j)) * inv;
	}
	return 1;
}

// solve_lower overwrites x with L^-1 x (forward substitution).
static void solve_lower(const double *l, int k, double *x) {
	for (int i = 0; i < k; i++) x[i] = (x[i] - dot(l + (size_t)i * k, x, i)) / l[i * k + i];
}

// solve_lower_t overwrites x with L^-T x (back substitution along L's
// rows).
static void solve_lower_t(const double *l, int k, double *restrict x) {
	for (int i = k - 1; i >= 0; i--) {
		const double *restrict li = l + (size_t)i * k;
		double v = x[i] / li[i];
		x[i] = v;
		for (int q = 0; q < i; q++) x[q] -= v * li[q];
	}
}

// gram4 adds scale times the dot products of ga with the four blocks of n
// from g0 to pa[0..3].
static inline void gram4(double *restrict pa, const double *restrict ga, const double *restrict g0, int n, double scale) {
	const double *restrict g1 = g0 + n, *restrict g2 = g1 + n, *restrict g3 = g2 + n;
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	for (int q = 0; q < n; q++) {
		double v = ga[q];
		s0 += v * g0[q];
		s1 += v * g1[q];
		s2 += v * g2[q];
		s3 += v * g3[q];
	}
	pa[0] += scale * s0;
	pa[1] += scale * s1;
	pa[2] += scale * s2;
	pa[3] += scale * s3;
}

// gram_lower adds scale times the lower triangle of G G^T to p, G the k
// blocks of n in g: two rows a, a+1 of p at a time against blocks 0..a
// four at a time (eight sums, each load of a block serving both rows, as
// the sampler's dots2x4), then the rows' last blocks one at a time; a
// last odd row against four blocks at a time.
static void gram_lower(double *restrict p, const double *restrict g, int n, int k, double scale) {
	int a = 0;
	for (; a + 1 < k; a += 2) {
		const double *restrict ga = g + (size_t)a * n, *restrict gb = ga + n;
		double *pa = p + (size_t)a * k, *pb = pa + k;
		int b = 0;
		for (; b + 4 <= a + 1; b += 4) {
			const double *restrict g0 = g + (size_t)b * n, *restrict g1 = g0 + n, *restrict g2 = g1 + n, *restrict g3 = g2 + n;
			double s0 = 0, s1 = 0, s2 = 0, s3 = 0, t0 = 0, t1 = 0, t2 = 0, t3 = 0;
			for (int q = 0; q < n; q++) {
				double u = ga[q], v = gb[q];
				double y0 = g0[q], y1 = g1[q], y2 = g2[q], y3 = g3[q];
				s0 += u * y0;
				t0 += v * y0;
				s1 += u * y1;
				t1 += v * y1;
				s2 += u * y2;
				t2 += v * y2;
				s3 += u * y3;
				t3 += v * y3;
			}
			pa[b] += scale * s0;
			pa[b + 1] += scale * s1;
			pa[b + 2] += scale * s2;
			pa[b + 3] += scale * s3;
			pb[b] += scale * t0;
			pb[b + 1] += scale * t1;
			pb[b + 2] += scale * t2;
			pb[b + 3] += scale * t3;
		}
		for (; b <= a; b++) {
			const double *restrict gq = g + (size_t)b * n;
			pa[b] += scale * dot(ga, gq, n);
			pb[b] += scale * dot(gb, gq, n);
		}
		pb[a + 1] += scale * dot(gb, gb, n);
	}
	if (a < k) {
		const double *restrict ga = g + (size_t)a * n;
		double *pa = p + (size_t)a * k;
		int b = 0;
		for (; b + 4 <= a + 1; b += 4) gram4(pa + b, ga, g + (size_t)b * n, n, scale);
		for (; b <= a; b++) pa[b] += scale * dot(ga, g + (size_t)b * n, n);
	}
}

// ---- the line's draw ----------------------------------------------------

// row_line draws line i of side s (its factor x, lines x K) given the
// other factor; idx[lo:hi] are the other side's lines of its entries and
// val[lo:hi] their values; pos (Z side only) their places in resid, where
// the column's exact residuals go. With scale 0 it draws from the prior.
static void row_line(int s, double *x, const double *other, int i, int lo, int hi, const int32_t *idx,
		     const double *val, const int32_t *pos, double *resid, double scale) {
	int n = hi - lo;
	double *p = scratch, *b = p + (size_t)K * K, *g = b + K, *t = g + (size_t)n * K;
	for (int a = 0; a < K; a++) memcpy(p + (size_t)a * K, prec[s] + (size_t)a * K, (a + 1) * sizeof(double));
	memcpy(b, lin[s], K * sizeof(double));
	const double *v = val + lo;
	if (n > 0 && scale != 0) {
		gather_lines(g, other, idx + lo, n, K);
		for (int a = 0; a < K; a++) b[a] += scale * dot(g + (size_t)a * n, v, n);
		gram_lower(p, g, n, K, scale);
	}
	if (!chol_lower(p, K)) { fprintf(stderr, "rowwise: line %d: the precision is not positive definite\n", i); exit(1); }
	solve_lower(p, K, b);
	for (int a = 0; a < K; a++) b[a] += norm_draw();
	solve_lower_t(p, K, b);
	double *xi = x + (size_t)i * K;
	memcpy(xi, b, K * sizeof(double));
	if (pos && n > 0 && scale != 0) {
		// exact residuals from the gathered rows
		for (int j = 0; j < n; j++) t[j] = 0;
		for (int k = 0; k < K; k++) {
			const double *gk = g + (size_t)k * n;
			double xk = xi[k];
			for (int j = 0; j < n; j++) t[j] += xk * gk[j];
		}
		for (int j = 0; j < n; j++) resid[pos[lo + j]] = v[j] - t[j];
	}
}

// ---- the hyperparameters ------------------------------------------------

// niw_draw draws side s's (mu, Lambda) of GGGW from the Normal-inverse-
// Wishart conditional given its lines rows of x (none at the start), and
// sets its row prior.
static void niw_draw(int s, const double *x, int lines) {
	double fn = lines, *mean = niw_mean, *dv = niw_d, *psi = niw_psi, *bt = niw_bt, *ch = niw_chol;
	memset(mean, 0, K * sizeof(double));
	memset(psi, 0, (size_t)K * K * sizeof(double));
	for (int i = 0; i < lines; i++) {
		const double *row = x + (size_t)i * K;
		for (int a = 0; a < K; a++) mean[a] += row[a];
	}
	if (lines > 0)
		for (int a = 0; a < K; a++) mean[a] /= fn;
	for (int i = 0; i < lines; i++) { // the centred scatter, lower triangle
		const double *row = x + (size_t)i * K;
		for (int a = 0; a < K; a++) dv[a] = row[a] - mean[a];
		for (int a = 0; a < K; a++) {
			double da = dv[a], *pa = psi + (size_t)a * K;
			for (int c = 0; c <= a; c++) pa[c] += da * dv[c];
		}
	}
	double shrink = niw_beta0 * fn / (niw_beta0 + fn);
	for (int a = 0; a < K; a++) {
		double da = mean[a] - niw_mu0;
		for (int c = 0; c <= a; c++) psi[a * K + c] += shrink * da * (mean[c] - niw_mu0);
		psi[a * K + a] += niw_w0;
	}
	for (int a = 0; a < K; a++) mean[a] = (niw_beta0 * niw_mu0 + fn * mean[a]) / (niw_beta0 + fn);
	double beta_n = niw_beta0 + fn, v = niw_v0 + fn;

	// Lambda ~ Wishart(v, Psi^-1) by Bartlett's decomposition
	if (!chol_lower(psi, K)) { fprintf(stderr, "rowwise: Psi is not positive definite\n"); exit(1); }
	memset(bt, 0, (size_t)K * K * sizeof(double));
	for (int a = 0; a < K; a++) {
		bt[a * K + a] = sqrt(gamma_any((v - a) / 2, 0.5));
		for (int c = 0; c < a; c++) bt[c * K + a] = norm_draw(); // A_ac, column c of A
	}
	for (int c = 0; c < K; c++) solve_lower_t(psi, K, bt + (size_t)c * K);
	double *lam = prec[s];
	memset(lam, 0, (size_t)K * K * sizeof(double));
	for (int c = 0; c < K; c++) { // Lambda += (row c of B^T)(row c of B^T)^T, lower triangle
		const double *r = bt + (size_t)c * K;
		for (int a = 0; a < K; a++) {
			double ra = r[a], *la = lam + (size_t)a * K;
			for (int e = 0; e <= a; e++) la[e] += ra * r[e];
		}
	}
	for (int a = 0; a < K; a++)
		for (int c = 0; c < a; c++) lam[c * K + a] = lam[a * K + c];

	// mu = mu_n + (beta_n Lambda)^-1/2 e
	for (int a = 0; a < K; a++) memcpy(ch + (size_t)a * K, lam + (size_t)a * K, (a + 1) * sizeof(double));
	if (!chol_lower(ch, K)) { fprintf(stderr, "rowwise: Lambda is not positive definite\n"); exit(1); }
	for (int a = 0; a < K; a++) dv[a] = norm_draw();
	solve_lower_t(ch, K, dv);
	double sd = 1 / sqrt(beta_n);
	for (int a = 0; a < K; a++) dv[a] = mean[a] + sd * dv[a];
	for (int a = 0; a < K; a++) lin[s][a] = dot(lam + (size_t)a * K, dv, K);
}

// ard_draw draws GGGA's K precisions given W (M x K) and Z (N x K) and
// puts them on the diagonals of both sides' precisions.
static void ard_draw(const double *w, int m, const double *z, int n, int init) {
	memset(ard_ss, 0, K * sizeof(double));
	for (int i = 0; i < m; i++)
		for (int k = 0; k < K; k++) ard_ss[k] += w[(size_t)i * K + k] * w[(size_t)i * K + k];
	for (int j = 0; j < n; j++)
		for (int k = 0; k < K; k++) ard_ss[k] += z[(size_t)j * K + k] * z[(size_t)j * K + k];
	for (int k = 0; k < K; k++) {
		double l = init ? gamma_any(ard_alpha0, ard_beta0) : gam_draw(g_ard, ard_beta0 + ard_ss[k] / 2);
		prec[0][k * K + k] = prec[1][k * K + k] = l;
	}
}

static const char *models[] = {"GGG", "GGGA", "GGGW"};

int main(int argc, char **argv) {
	data_t d;
	int sweeps = floor_setup(argc, argv, "rowwise", models, sizeof models / sizeof models[0], &d);
	const char *name = argv[1];
	model = !strcmp(name, "GGG") ? GGG : !strcmp(name, "GGGA") ? GGGA : GGGW;
	int M = d.M, N = d.N;
	long nnz = d.nnz;

	scratch = malloc(((size_t)K * K + 2 * (size_t)K + (size_t)d.longest * (K + 1)) * sizeof(double));
	double *W = alloc_big((size_t)M * K * sizeof(double)), *Z = alloc_big((size_t)N * K * sizeof(double));
	for (int s = 0; s < 2; s++) {
		prec[s] = calloc((size_t)K * K, sizeof(double));
		lin[s] = calloc(K, sizeof(double));
	}
	ard_ss = malloc(K * sizeof(double));
	g_ard = gam_setup(ard_alpha0 + (M + N) / 2.0);
	niw_v0 = K;
	niw_mean = malloc(K * sizeof(double));
	niw_d = malloc(K * sizeof(double));
	niw_psi = malloc((size_t)K * K * sizeof(double));
	niw_bt = malloc((size_t)K * K * sizeof(double));
	niw_chol = malloc((size_t)K * K * sizeof(double));

	// the hyperparameters and rows from the priors
	switch (model) {
	case GGG:
		for (int s = 0; s < 2; s++)
			for (int k = 0; k < K; k++) prec[s][k * K + k] = ggg_lambda;
		break;
	case GGGA: ard_draw(W, 0, Z, 0, 1); break;
	case GGGW: niw_draw(0, W, 0); niw_draw(1, Z, 0); break;
	}
	for (int i = 0; i < M; i++) row_line(0, W, Z, i, d.rstart[i], d.rstart[i + 1], d.col, d.val, NULL, NULL, 0);
	for (int j = 0; j < N; j++) row_line(1, Z, W, j, d.cstart[j], d.cstart[j + 1], d.crow, d.cval, NULL, NULL, 0);

	double *resid = alloc_big(nnz * sizeof(double)), ss = 0;
	for (long e = 0; e < nnz; e++) {
		resid[e] = d.val[e] - dot(W + (size_t)d.row[e] * K, Z + (size_t)d.col[e] * K, K);
		ss += resid[e] * resid[e];
	}
	gam_t g_s2 = gam_setup(1 + nnz / 2.0);
	double sigma2 = 1 / gam_draw(g_s2, 1 + ss / 2);

	double *wall = malloc(sweeps * sizeof(double)), *cpu = malloc(sweeps * sizeof(double));
	for (int s = 0; s < sweeps; s++) {
		double w0 = wall_now(), c0 = cpu_now();
		inv_s2 = 1 / sigma2;
		if (model == GGGW) niw_draw(0, W, M);
		for (int i = 0; i < M; i++) row_line(0, W, Z, i, d.rstart[i], d.rstart[i + 1], d.col, d.val, NULL, resid, inv_s2);
		if (model == GGGW) niw_draw(1, Z, N);
		for (int j = 0; j < N; j++) row_line(1, Z, W, j, d.cstart[j], d.cstart[j + 1], d.crow, d.cval, d.cpos, resid, inv_s2);
		if (model == GGGA) ard_draw(W, M, Z, N, 0);
		ss = 0;
		for (long e = 0; e < nnz; e++) ss += resid[e] * resid[e];
		sigma2 = 1 / gam_draw(g_s2, 1 + ss / 2);
		wall[s] = wall_now() - w0;
		cpu[s] = cpu_now() - c0;
	}
	double chk = 0;
	for (size_t e = 0; e < (size_t)M * K; e++) chk += W[e];
	floor_report(name, &d, sweeps, wall, cpu, sigma2, chk);
	return 0;
}
