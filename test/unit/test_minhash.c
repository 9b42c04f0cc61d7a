/*
 * test_minhash.c -- unit tests of the MinHash core: definition details
 * (empty sets, singletons, order/duplicate independence, densification),
 * and statistical properties of the estimator on synthetic sets: bias and
 * standard deviation of the error against sqrt(J(1-J)/k).
 * Prints TAP lines; exits 1 if any check fails.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_minhash.h"
#include "tfp_sort.h"

#include "tap.h"

/* splitmix64: deterministic test data */
static uint64_t rng_state = 12345;
static uint64_t
rng(void)
{
	uint64_t	z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint32_t va[TFP_MINHASH_MAX_K], vb[TFP_MINHASH_MAX_K];
static uint8_t fa[TFP_MINHASH_MAX_K], fb[TFP_MINHASH_MAX_K];

static int
sig(const uint64_t *h, size_t n, int k, uint32_t *v, uint8_t *f)
{
	tfp_minhash_acc acc;

	tfp_minhash_init(&acc, k, v, f);
	tfp_minhash_add(&acc, h, n);
	return tfp_minhash_finish(&acc);
}

/*
 * Pairs with union size u and exact Jaccard inter/u: estimate trials times
 * with fresh elements; report mean error and SD ratio to sqrt(J(1-J)/k).
 */
static void
trial(int k, int u, int inter, int trials, double *bias_z, double *sdratio)
{
	static uint64_t A[20000], B[20000];
	double		J = (double) inter / u;
	double		s = 0,
				ss = 0;
	int			t;

	for (t = 0; t < trials; t++)
	{
		int			na = 0,
					nb = 0,
					i;
		double		e;

		/* intersection, then the rest split between A and B */
		for (i = 0; i < u; i++)
		{
			uint64_t	x = rng();

			if (i < inter)
				A[na++] = x, B[nb++] = x;
			else if (i & 1)
				A[na++] = x;
			else
				B[nb++] = x;
		}
		sig(A, na, k, va, fa);
		sig(B, nb, k, vb, fb);
		e = (double) tfp_minhash_matches(va, vb, k) / k - J;
		s += e;
		ss += e * e;
	}
	{
		double		mean = s / trials;
		double		var = ss / trials - mean * mean;
		double		theo = sqrt(J * (1 - J) / k);

		*bias_z = mean / (theo / sqrt(trials));
		*sdratio = sqrt(var) / theo;
	}
}

static int
cmp_i64(const void *x, const void *y)
{
	int64_t		a = *(const int64_t *) x,
				b = *(const int64_t *) y;

	return (a > b) - (a < b);
}

/*
 * tfp_sort_unique_u64 (bucket sort with scratch, introsort without) against
 * qsort + unique, on random, duplicate-heavy, skewed (every value in one
 * bucket), sorted and reversed inputs of 0..3,000 values.
 */
static void
check_sort_unique(void)
{
	static uint64_t v[3000],
				w[3000],
				ref[3000],
				scratch[3000];
	int			ok = 1;

	for (int t = 0; t < 3000 && ok; t++)
	{
		size_t		n = t < 300 ? (size_t) t : (size_t) (rng() % 3000);
		int			kind = t % 5;
		size_t		nr,
					i;

		for (i = 0; i < n; i++)
		{
			uint64_t	x = rng();

			if (kind == 1)
				x %= 50;		/* many duplicates */
			else if (kind == 2)
				x = (x & 0xFFFF) | UINT64_C(0x8000000000000000);	/* one bucket, negative */
			v[i] = x;
		}
		if (kind == 3)
			qsort(v, n, sizeof(uint64_t), cmp_i64);
		else if (kind == 4)
		{
			qsort(v, n, sizeof(uint64_t), cmp_i64);
			for (i = 0; i < n / 2; i++)
			{
				uint64_t	x = v[i];

				v[i] = v[n - 1 - i];
				v[n - 1 - i] = x;
			}
		}
		memcpy(ref, v, n * sizeof(uint64_t));
		qsort(ref, n, sizeof(uint64_t), cmp_i64);
		for (i = 0, nr = 0; i < n; i++)
			if (nr == 0 || ref[i] != ref[nr - 1])
				ref[nr++] = ref[i];
		for (int with_scratch = 0; with_scratch <= 1; with_scratch++)
		{
			size_t		m;

			memcpy(w, v, n * sizeof(uint64_t));
			m = tfp_sort_unique_u64(w, n, with_scratch ? scratch : NULL);
			if (m != nr || memcmp(w, ref, nr * sizeof(uint64_t)) != 0)
				ok = 0;
		}
	}
	check(ok, "tfp_sort_unique_u64 == qsort + unique (6000 arrays of 0..3000 values)");

	/* values below 2^width, unflipped (pinyin DNAs): from 2 values on */
	for (int t = 0; t < 2000 && ok; t++)
	{
		size_t		n = t < 200 ? (size_t) t : (size_t) (rng() % 3000),
					nr,
					m,
					i;
		int			width = 1 + (int) (rng() % 63);

		for (i = 0; i < n; i++)
			v[i] = rng() & ((UINT64_C(1) << width) - 1);
		if (t % 3 == 1)
			for (i = 0; i < n; i++)
				v[i] %= 40;		/* many duplicates */
		memcpy(ref, v, n * sizeof(uint64_t));
		qsort(ref, n, sizeof(uint64_t), cmp_i64);
		for (i = 0, nr = 0; i < n; i++)
			if (nr == 0 || ref[i] != ref[nr - 1])
				ref[nr++] = ref[i];
		memcpy(w, v, n * sizeof(uint64_t));
		m = tfp_sort_unique_below_u64(w, n, scratch, width);
		if (m != nr || memcmp(w, ref, nr * sizeof(uint64_t)) != 0)
			ok = 0;
	}
	check(ok, "tfp_sort_unique_below_u64 == qsort + unique (2000 arrays below 2^1..2^63)");
}

int
main(void)
{
	static uint64_t h[4096];
	char		buf[200];
	int			i,
				ks[3] = {64, 128, 256};

	/* empty set */
	check(sig(h, 0, 128, va, fa) == 0, "empty set gives no signature");

	/* singleton: every position holds the same value, distinct sets differ */
	h[0] = 42;
	sig(h, 1, 128, va, fa);
	for (i = 1; i < 128 && va[i] == va[0]; i++);
	check(i == 128, "singleton: densification copies its value everywhere");
	h[0] = 43;
	sig(h, 1, 128, vb, fb);
	check(tfp_minhash_matches(va, vb, 128) == 0, "two different singletons estimate 0");

	/* order and duplicates do not matter */
	for (i = 0; i < 1000; i++)
		h[i] = rng();
	sig(h, 1000, 256, va, fa);
	for (i = 0; i < 1000; i++)
		h[1000 + i] = h[999 - i];
	sig(h + 1000, 1000, 256, vb, fb);
	check(memcmp(va, vb, sizeof(uint32_t) * 256) == 0, "order of features does not matter");
	sig(h, 2000, 256, vb, fb);
	check(memcmp(va, vb, sizeof(uint32_t) * 256) == 0, "repeated features do not matter");

	/* every value is the minimum of its bin when no bin is empty */
	{
		int			ok = 1,
					b;

		sig(h, 1000, 16, va, fa);
		for (b = 0; b < 16; b++)
		{
			uint32_t	mn = UINT32_MAX;

			for (i = 0; i < 1000; i++)
			{
				uint64_t	g = tfp_fmix64(h[i] ^ TFP_MINHASH_SEED_V1);

				if (tfp_minhash_bin(g, 16) == b && (uint32_t) g < mn)
					mn = (uint32_t) g;
			}
			ok &= (va[b] == mn);
		}
		check(ok, "bin values are bin minima (k = 16, 1000 features)");
	}

	/* k = 1 and k = max work */
	check(sig(h, 10, 1, va, fa) == 1, "k = 1");
	check(sig(h, 3, TFP_MINHASH_MAX_K, va, fa) == 1, "k = max with 3 features densifies");

	/* identical sets estimate 1, disjoint large sets estimate ~0 */
	sig(h, 500, 128, va, fa);
	sig(h, 500, 128, vb, fb);
	check(tfp_minhash_matches(va, vb, 128) == 128, "identical sets estimate 1");
	sig(h + 500, 500, 128, vb, fb);
	check(tfp_minhash_matches(va, vb, 128) <= 1, "disjoint sets estimate 0");

	/*
	 * Statistics: 4000 pairs per cell, so the SD ratio is known to about
	 * +-2.3% (one standard error); the bias test allows 4 standard errors.
	 * Sets of a real ~2 KB document's size (union 600..1500) and small ones.
	 */
	{
		int			unions[3] = {1500, 600, 60};
		double		Js[5] = {0.1, 0.3, 0.5, 0.7, 0.9};
		int			ki,
					ui,
					ji;

		for (ki = 0; ki < 3; ki++)
			for (ui = 0; ui < 3; ui++)
				for (ji = 0; ji < 5; ji++)
				{
					int			k = ks[ki],
								u = unions[ui];
					int			inter = (int) lround(Js[ji] * u);
					double		z,
								r,
								fpc;

					trial(k, u, inter, 4000, &z, &r);
					/* sampling without replacement lowers the variance */
					fpc = u > k ? sqrt(1.0 - (double) (k - 1) / (u - 1)) : 0;
					snprintf(buf, sizeof buf,
							 "k=%d |AuB|=%d J=%.1f: bias %.2f SE, SD/theory %.3f",
							 k, u, Js[ji], z, r);
					check(fabs(z) < 4.0, buf);
					/*
					 * Union >= k: within 10% of sqrt(J(1-J)/k) above, and
					 * not below 0.9 x the without-replacement value.  Union
					 * < k (very short texts): densification copies values,
					 * measured up to ~1.18x for k = 256, |AuB| = 60.
					 */
					if (u >= k)
						check(r <= 1.10 && r >= 0.90 * fpc, "  SD <= 1.10 sqrt(J(1-J)/k), >= 0.90 x without-replacement SD");
					else
						check(r <= 1.25, "  small union: SD <= 1.25 sqrt(J(1-J)/k)");
				}
	}

	check_sort_unique();

	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
