/*
 * tfp_minhash.c -- one-permutation MinHash with optimal densification, and
 * the exact set helpers used for verification (definition in tfp_minhash.h)
 */
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_minhash.h"

void
tfp_minhash_init(tfp_minhash_acc *acc, int k, uint32_t *vals, uint8_t *full)
{
	acc->k = k;
	acc->nonempty = 0;
	acc->vals = vals;
	acc->full = full;
	memset(full, 0, (size_t) k);
	memset(vals, 0xFF, (size_t) k * sizeof(uint32_t));
}

void
tfp_minhash_add(tfp_minhash_acc *acc, const uint64_t *hashes, size_t n)
{
	uint32_t   *vals = acc->vals;
	uint8_t    *full = acc->full;
	uint64_t	k = (uint64_t) acc->k;
	size_t		j;

	for (j = 0; j < n; j++)
	{
		uint64_t	g = tfp_fmix64(hashes[j] ^ TFP_MINHASH_SEED_V1);
		uint32_t	bin = (uint32_t) (((g >> 32) * k) >> 32);
		uint32_t	v = (uint32_t) g;

		/* branch-free: vals[] start at UINT32_MAX, full[] records the bins
		 * hit (counted in tfp_minhash_finish) */
		full[bin] = 1;
		vals[bin] = v < vals[bin] ? v : vals[bin];
	}
}

int
tfp_minhash_finish(tfp_minhash_acc *acc)
{
	int			k = acc->k;
	int			i;

	acc->nonempty = 0;
	for (i = 0; i < k; i++)
		acc->nonempty += acc->full[i];
	if (acc->nonempty == 0)
		return 0;
	if (acc->nonempty == (uint32_t) k)
		return 1;
	for (i = 0; i < k; i++)
	{
		uint64_t	a;

		if (acc->full[i])
			continue;
		/*
		 * Probe until a bin that was non-empty before densification (copied
		 * bins are not sources: full[] is not updated here).  Terminates with
		 * probability 1; the expected number of probes is k / nonempty.
		 */
		for (a = 1;; a++)
		{
			uint64_t	g = tfp_fmix64(TFP_MINHASH_PROBE_V1 + ((uint64_t) i << 32) + a);
			int			p = tfp_minhash_bin(g, k);

			if (acc->full[p])
			{
				acc->vals[i] = acc->vals[p];
				break;
			}
		}
	}
	return 1;
}

int
tfp_minhash_matches(const uint32_t *a, const uint32_t *b, int k)
{
	int			m = 0;
	int			i;

	for (i = 0; i < k; i++)
		m += (a[i] == b[i]);
	return m;
}

static int
cmp_u64(const void *x, const void *y)
{
	int64_t		a = *(const int64_t *) x;
	int64_t		b = *(const int64_t *) y;

	return (a > b) - (a < b);
}

size_t
tfp_sort_unique_u64(uint64_t *v, size_t n)
{
	size_t		i,
				o;

	if (n < 2)
		return n;
	qsort(v, n, sizeof(uint64_t), cmp_u64);
	for (i = 1, o = 1; i < n; i++)
		if (v[i] != v[o - 1])
			v[o++] = v[i];
	return o;
}

size_t
tfp_intersect_count_u64(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t		i = 0,
				j = 0,
				c = 0;

	while (i < na && j < nb)
	{
		if ((int64_t) a[i] < (int64_t) b[j])
			i++;
		else if ((int64_t) a[i] > (int64_t) b[j])
			j++;
		else
		{
			c++;
			i++;
			j++;
		}
	}
	return c;
}
