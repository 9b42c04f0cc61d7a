/*
 * tfp_minhash.c -- one-permutation MinHash with optimal densification, and
 * the exact set helpers used for verification (definition in tfp_minhash.h)
 */
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_minhash.h"
#include "tfp_sort.h"

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

/*
 * Sorting int64 values (the order of int8 in SQL): introsort with the
 * comparisons inline -- quicksort on the median of three, insertion sort
 * below 16 elements, heapsort where the recursion gets too deep (so the
 * worst case stays O(n log n)).  About ten times faster than qsort() with a
 * comparison callback on a few hundred values.
 */
static void
sift_down_i64(int64_t *a, size_t root, size_t n)
{
	int64_t		v = a[root];

	for (;;)
	{
		size_t		c = 2 * root + 1;

		if (c >= n)
			break;
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[c] <= v)
			break;
		a[root] = a[c];
		root = c;
	}
	a[root] = v;
}

static void
heap_sort_i64(int64_t *a, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down_i64(a, i, n);
	for (size_t i = n; i-- > 1;)
	{
		int64_t		t = a[0];

		a[0] = a[i];
		a[i] = t;
		sift_down_i64(a, 0, i);
	}
}

static void
intro_sort_i64(int64_t *a, size_t n, int depth)
{
	while (n > 16)
	{
		int64_t		x = a[0],
					y = a[n / 2],
					z = a[n - 1],
					pivot;
		size_t		i = 0,
					j = n - 1;

		if (depth-- == 0)
		{
			heap_sort_i64(a, n);
			return;
		}
		/* median of three */
		pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
		/* Hoare partition: a[0..j] <= pivot <= a[j+1..n) */
		for (;;)
		{
			int64_t		t;

			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i >= j)
				break;
			t = a[i];
			a[i] = a[j];
			a[j] = t;
			i++;
			j--;
		}
		/* recurse into the smaller side, loop on the larger */
		if (j + 1 < n - (j + 1))
		{
			intro_sort_i64(a, j + 1, depth);
			a += j + 1;
			n -= j + 1;
		}
		else
		{
			intro_sort_i64(a + j + 1, n - (j + 1), depth);
			n = j + 1;
		}
	}
	tfp_insertion_sort_i64(a, n);
}

/*
 * One pass of MSD radix sort, then a comparison sort per bucket: the values
 * (sign bit flipped, which puts the int64 order into unsigned order) are
 * distributed by their top bits into up to 4,096 buckets, about one value
 * per bucket, and each bucket is sorted in place (insertion sort when small,
 * introsort otherwise, so skewed input is still O(n log n)).  Shingle
 * hashes are uniform, so most buckets hold zero to two values: several times
 * faster than a comparison sort, whose branches are unpredictable here.
 */
#define SIGN_BIT	UINT64_C(0x8000000000000000)
#define MAX_BUCKET_BITS 12

static void
bucket_sort_i64(uint64_t *v, size_t n, uint64_t *tmp)
{
	uint32_t	start[(1 << MAX_BUCKET_BITS) + 1];
	int			bits = 1;
	size_t		nb,
				i;

	while (bits < MAX_BUCKET_BITS && ((size_t) 1 << bits) < n)
		bits++;
	nb = (size_t) 1 << bits;
	memset(start, 0, (nb + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++)
		start[((v[i] ^ SIGN_BIT) >> (64 - bits)) + 1]++;
	for (i = 1; i <= nb; i++)
		start[i] += start[i - 1];
	for (i = 0; i < n; i++)
		tmp[start[(v[i] ^ SIGN_BIT) >> (64 - bits)]++] = v[i];
	/* start[b] is now the end of bucket b, the start of bucket b + 1 */
	for (i = 0; i < nb; i++)
	{
		size_t		lo = i == 0 ? 0 : start[i - 1],
					m = start[i] - lo;

		if (m > 16)
		{
			int			depth = 0;

			for (size_t k = m; k > 1; k >>= 1)
				depth += 2;
			intro_sort_i64((int64_t *) tmp + lo, m, depth);
		}
		else if (m > 1)
			tfp_insertion_sort_i64((int64_t *) tmp + lo, m);
	}
	memcpy(v, tmp, n * sizeof(uint64_t));
}

size_t
tfp_sort_unique_u64(uint64_t *v, size_t n, uint64_t *scratch)
{
	int64_t    *a = (int64_t *) v;
	size_t		i,
				o;
	int			depth = 0;

	if (n < 2)
		return n;
	if (scratch != NULL && n >= 64 && n <= UINT32_MAX)
		bucket_sort_i64(v, n, scratch);
	else
	{
		for (i = n; i > 1; i >>= 1)
			depth += 2;
		intro_sort_i64(a, n, depth);
	}
	for (i = 1, o = 1; i < n; i++)
		if (a[i] != a[o - 1])
			a[o++] = a[i];
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
