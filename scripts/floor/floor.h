// floor.h: what the C floors of bnmf's sweeps share (priors.c, the
// entry-wise priors and NMF; rowwise.c, the samplers that draw a row at a
// time; poisson.c, the Poisson samplers): memory backed by huge pages, the
// generator, the normal and exponential ziggurats, Marsaglia and Tsang's
// gamma, the synthetic entries of the package's sweep benchmark, the
// command line and the line of output. Each floor is one file built on its
// own, with this header beside it:
//
//	gcc -O3 -march=native -ffast-math -o priors priors.c -lm
//
// Every function is static: a floor is one translation unit and gcc
// inlines what it likes.
#ifndef BNMF_FLOOR_H
#define BNMF_FLOOR_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

// ---- memory ------------------------------------------------------------

static int use_huge;

static void *alloc_big(size_t bytes) {
	if (!use_huge || bytes < ((size_t)4 << 20)) {
		void *p = malloc(bytes);
		if (!p) { perror("malloc"); exit(1); }
		return p;
	}
	size_t align = (size_t)2 << 20, size = (bytes + align - 1) / align * align;
	void *p = aligned_alloc(align, size);
	if (!p) { perror("aligned_alloc"); exit(1); }
	madvise(p, size, MADV_HUGEPAGE);
	return p;
}

// ---- generator: xoshiro256++ --------------------------------------------

static uint64_t st0, st1, st2, st3;

static inline uint64_t rol64(uint64_t v, int s) { return (v << s) | (v >> (64 - s)); }

static inline uint64_t bits64(void) {
	uint64_t out = rol64(st0 + st3, 23) + st0;
	uint64_t t = st1 << 17;
	st2 ^= st0;
	st3 ^= st1;
	st1 ^= st2;
	st0 ^= st3;
	st2 ^= t;
	st3 = rol64(st3, 45);
	return out;
}

static void seed_gen(uint64_t s) {
	// splitmix64 to fill the state
	uint64_t *w[4] = {&st0, &st1, &st2, &st3};
	for (int i = 0; i < 4; i++) {
		s += 0x9E3779B97F4A7C15ull;
		uint64_t z = s;
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		*w[i] = z ^ (z >> 31);
	}
}

// uniform01 is in [0, 1).
static inline double uniform01(void) { return (double)(bits64() >> 11) * (1.0 / 9007199254740992.0); }

// ---- ziggurats ----------------------------------------------------------
//
// A ziggurat of 256 layers of equal area v under a decreasing density f
// on [0, inf): edge[0] = v / f(r) is the width of the base layer (which
// holds the tail beyond r), edge[1] = r, edge[i+1] = f^-1(f(edge[i]) +
// v / edge[i]), edge[256] = 0. Layer i spans [0, edge[i]] between the
// heights fy[i] = f(edge[i]) and fy[i+1]; a point under edge[i+1] is
// inside the density for sure.

typedef struct {
	double edge[257], fy[257];
} zig_t;

static zig_t zn, ze;

static double fnorm(double x) { return exp(-0.5 * x * x); }
static double fnorm_inv(double y) { return sqrt(-2 * log(y)); }
static double fexp(double x) { return exp(-x); }
static double fexp_inv(double y) { return -log(y); }

static void zig_build(zig_t *z, double r, double v, double (*f)(double), double (*finv)(double)) {
	z->edge[0] = v / f(r);
	z->edge[1] = r;
	for (int i = 1; i < 255; i++) {
		double y = f(z->edge[i]) + v / z->edge[i];
		z->edge[i + 1] = y < 1 ? finv(y) : 0;
	}
	z->edge[256] = 0;
	for (int i = 0; i <= 256; i++) z->fy[i] = f(z->edge[i]);
	z->fy[0] = f(r); // the base layer's height
}

static double norm_tail(void) {
	const double r = zn.edge[1];
	for (;;) {
		double a = -log(1 - uniform01()) / r, b = -log(1 - uniform01());
		if (b + b > a * a) return r + a;
	}
}

static inline double norm_draw(void) {
	for (;;) {
		uint64_t b = bits64();
		int layer = (int)(b & 255);
		double sign = (b & 256) ? -1.0 : 1.0;
		double x = (double)(b >> 11) * (1.0 / 9007199254740992.0) * zn.edge[layer];
		if (x < zn.edge[layer + 1]) return sign * x;
		if (layer == 0) return sign * norm_tail();
		double y = zn.fy[layer] + uniform01() * (zn.fy[layer + 1] - zn.fy[layer]);
		if (y < exp(-0.5 * x * x)) return sign * x;
	}
}

static inline double exp_draw_inl(void) {
	double base = 0;
	for (;;) {
		uint64_t b = bits64();
		int layer = (int)(b & 255);
		double x = (double)(b >> 11) * (1.0 / 9007199254740992.0) * ze.edge[layer];
		if (x < ze.edge[layer + 1]) return base + x;
		if (layer == 0) { base += ze.edge[1]; continue; } // memoryless tail
		double y = ze.fy[layer] + uniform01() * (ze.fy[layer + 1] - ze.fy[layer]);
		if (y < exp(-x)) return base + x;
	}
}

static double exp_draw(void) { return exp_draw_inl(); }

// ---- gamma --------------------------------------------------------------

// gam_t is Gamma(shape, .) for a fixed shape >= 1 (Marsaglia-Tsang).
typedef struct { double d, c; } gam_t;

static inline gam_t gam_setup(double shape) {
	gam_t g = {shape - 1.0 / 3, 0};
	g.c = 1 / (3 * sqrt(g.d));
	return g;
}

static inline double gam_draw(gam_t g, double rate) {
	for (;;) {
		double z = norm_draw(), t = 1 + g.c * z;
		if (t <= 0) continue;
		double v = t * t * t, u = uniform01(), z2 = z * z;
		if (u < 1 - 0.0331 * z2 * z2) return g.d * v / rate;
		if (log(u) < 0.5 * z2 + g.d * (1 - v + log(v))) return g.d * v / rate;
	}
}

// gamma_any draws Gamma(shape, rate) for any shape > 0 (boosting shapes
// under 1), set up per call, as the initial draws need.
static double gamma_any(double shape, double rate) {
	if (shape >= 1) return gam_draw(gam_setup(shape), rate);
	double y = gam_draw(gam_setup(shape + 1), 1);
	return y * exp(-exp_draw() / shape) / rate;
}

// ---- the entries --------------------------------------------------------

// data_t is the observed entries, by rows (row-major order: row, col, val
// and the start of each row in rstart) and by columns (the start of each
// column in cstart; crow, the entries' rows, cpos, their places in the
// row-major order, cval, their values), the length of the longest line
// and the mean value.
typedef struct {
	int M, N;
	long nnz;
	int32_t *row, *col, *rstart, *cstart, *crow, *cpos;
	double *val, *cval, mean;
	int longest;
} data_t;

static int K;

// floor_setup checks the command line "MODEL M N nnz K sweeps" of program
// prog against its models, sets K, the huge pages (HP=1), the generator
// and the ziggurats, and builds the entries: nnz distinct cells drawn
// uniformly, with values 1 to 5, as the package's sweep benchmark builds
// them. It returns the number of sweeps, or exits with the usage line.
static int floor_setup(int argc, char **argv, const char *prog, const char *const *models, int nmodels, data_t *d) {
	if (argc != 7) {
		fprintf(stderr, "usage: %s MODEL M N nnz K sweeps\nMODEL:", prog);
		for (int i = 0; i < nmodels; i++) fprintf(stderr, " %s", models[i]);
		fprintf(stderr, "\n");
		exit(2);
	}
	int known = 0;
	for (int i = 0; i < nmodels; i++) known |= strcmp(argv[1], models[i]) == 0;
	if (!known) {
		fprintf(stderr, "%s: unknown model %s\n", prog, argv[1]);
		exit(2);
	}
	int M = atoi(argv[2]), N = atoi(argv[3]), sweeps = atoi(argv[6]);
	long nnz = atol(argv[4]);
	K = atoi(argv[5]);
	if (M < 1 || N < 1 || nnz < 1 || nnz > (long)M * N || K < 1 || sweeps < 1) {
		fprintf(stderr, "%s: need M, N, K, sweeps >= 1 and 1 <= nnz <= M N\n", prog);
		exit(2);
	}
	use_huge = getenv("HP") && atoi(getenv("HP")) != 0;
	seed_gen(20261125);
	zig_build(&zn, 3.6541528853610088, 0.00492867323399, fnorm, fnorm_inv);
	zig_build(&ze, 7.69711747013104972, 0.0039496598225815571993, fexp, fexp_inv);

	d->M = M;
	d->N = N;
	d->nnz = nnz;
	// nnz distinct cells in row-major order, values 1..5
	d->row = alloc_big(nnz * sizeof(int32_t));
	d->col = alloc_big(nnz * sizeof(int32_t));
	d->val = alloc_big(nnz * sizeof(double));
	{
		uint8_t *taken = calloc((size_t)M * N, 1);
		for (long c = 0; c < nnz;) {
			size_t cell = (size_t)(bits64() % ((uint64_t)M * N));
			if (!taken[cell]) { taken[cell] = 1; c++; }
		}
		long c = 0;
		for (size_t cell = 0; cell < (size_t)M * N; cell++)
			if (taken[cell]) {
				d->row[c] = (int32_t)(cell / N);
				d->col[c] = (int32_t)(cell % N);
				d->val[c] = (double)(1 + bits64() % 5);
				c++;
			}
		free(taken);
	}
	d->rstart = calloc(M + 1, sizeof(int32_t));
	d->cstart = calloc(N + 1, sizeof(int32_t));
	d->crow = alloc_big(nnz * sizeof(int32_t));
	d->cpos = alloc_big(nnz * sizeof(int32_t));
	d->cval = alloc_big(nnz * sizeof(double));
	for (long e = 0; e < nnz; e++) { d->rstart[d->row[e] + 1]++; d->cstart[d->col[e] + 1]++; }
	for (int i = 0; i < M; i++) d->rstart[i + 1] += d->rstart[i];
	for (int j = 0; j < N; j++) d->cstart[j + 1] += d->cstart[j];
	{
		int32_t *next = malloc((N + 1) * sizeof(int32_t));
		memcpy(next, d->cstart, (N + 1) * sizeof(int32_t));
		for (long e = 0; e < nnz; e++) {
			int32_t p = next[d->col[e]]++;
			d->crow[p] = d->row[e];
			d->cpos[p] = (int32_t)e;
			d->cval[p] = d->val[e];
		}
		free(next);
	}
	d->longest = 0;
	for (int i = 0; i < M; i++) if (d->rstart[i + 1] - d->rstart[i] > d->longest) d->longest = d->rstart[i + 1] - d->rstart[i];
	for (int j = 0; j < N; j++) if (d->cstart[j + 1] - d->cstart[j] > d->longest) d->longest = d->cstart[j + 1] - d->cstart[j];
	d->mean = 0;
	for (long e = 0; e < nnz; e++) d->mean += d->val[e];
	d->mean /= nnz;
	return sweeps;
}

// ---- timing and the output line -----------------------------------------

static double wall_now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double cpu_now(void) {
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
	double u = *(const double *)a, v = *(const double *)b;
	return (u > v) - (u < v);
}

// floor_report sorts the sweeps' wall and CPU seconds and prints the one
// line of output: the model, the shape, the best and median milliseconds
// per sweep, sigma^2 at the end (0 where the model has none) and a
// checksum of W, which keeps the work from being optimised away.
static void floor_report(const char *model, const data_t *d, int sweeps, double *wall, double *cpu, double sigma2, double chk) {
	qsort(wall, sweeps, sizeof(double), by_value);
	qsort(cpu, sweeps, sizeof(double), by_value);
	printf("floor model=%s hp=%d M=%d N=%d nnz=%ld K=%d sweeps=%d best_ms=%.3f median_ms=%.3f cpu_best_ms=%.3f "
	       "cpu_median_ms=%.3f sigma2=%.4g chk=%.4g\n",
	       model, use_huge, d->M, d->N, d->nnz, K, sweeps, wall[0] * 1e3, wall[sweeps / 2] * 1e3, cpu[0] * 1e3,
	       cpu[sweeps / 2] * 1e3, sigma2, chk);
}

// gather_lines writes the rows of other (K values each) named by ix[0..n)
// transposed into g: K blocks of n, g[k*n + q] = other[ix[q]*K + k], four
// rows at a time. The floors gather a line's other-factor rows so before
// its dot products.
static inline void gather_lines(double *g, const double *other, const int32_t *ix, int n, int K) {
	int q = 0;
	for (; q + 4 <= n; q += 4) {
		const double *r0 = other + (size_t)ix[q] * K, *r1 = other + (size_t)ix[q + 1] * K;
		const double *r2 = other + (size_t)ix[q + 2] * K, *r3 = other + (size_t)ix[q + 3] * K;
		double *o = g + q;
		for (int k = 0; k < K; k++, o += n) {
			o[0] = r0[k];
			o[1] = r1[k];
			o[2] = r2[k];
			o[3] = r3[k];
		}
	}
	for (; q < n; q++) {
		const double *r0 = other + (size_t)ix[q] * K;
		for (int k = 0; k < K; k++) g[(size_t)k * n + q] = r0[k];
	}
}

#endif
