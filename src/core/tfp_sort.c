/*
 * tfp_sort.c -- sorting and intersecting sets of 64-bit values (tfp_sort.h)
 */
#include <string.h>

#include "tfp_sort.h"

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

/* introsort of a[0..n), with a recursion budget of 2 log2(n) */
static void
sort_i64(int64_t *a, size_t n)
{
	int			depth = 0;

	for (size_t k = n; k > 1; k >>= 1)
		depth += 2;
	intro_sort_i64(a, n, depth);
}

/*
 * One pass of MSD radix sort, then a comparison sort within the buckets:
 * the values are distributed by their top bits into up to 4,096 buckets,
 * about one value per bucket, and sorted within them (insertion sort when
 * small, introsort for a bucket of more than 16, so skewed input is still
 * O(n log n)).  The
 * keys are the values with `flip` xored in, in [0, 2^width): with the sign
 * bit flipped (width 64) any int64 order becomes unsigned order; values
 * known to be non-negative and below 2^width need no flip.  Uniform values
 * (shingle hashes, window DNAs) leave most buckets with zero to two: several
 * times faster than a comparison sort, whose branches are unpredictable
 * here.  The values are written back to v without their repeats: returns
 * the count of distinct values (n >= 1).
 */
#define SIGN_BIT	UINT64_C(0x8000000000000000)
#define MAX_BUCKET_BITS 12

static size_t
bucket_sort_unique_i64(uint64_t *v, size_t n, uint64_t *tmp, uint64_t flip, int width)
{
	uint32_t	start[(1 << MAX_BUCKET_BITS) + 1];
	int			bits = 1,
				shift;
	size_t		nb,
				i,
				o = 1;
	int			big = 0;		/* a bucket of more than 16 */

	while (bits < MAX_BUCKET_BITS && ((size_t) 1 << bits) < n)
		bits++;
	shift = width > bits ? width - bits : 0;
	nb = (size_t) 1 << bits;
	memset(start, 0, (nb + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++)
		start[((v[i] ^ flip) >> shift) + 1]++;
	for (i = 1; i <= nb; i++)
	{
		big |= start[i] > 16;
		start[i] += start[i - 1];
	}
	for (i = 0; i < n; i++)
		tmp[start[(v[i] ^ flip) >> shift]++] = v[i];
	/*
	 * start[b] is now the end of bucket b, the start of bucket b + 1.  The
	 * large buckets (skewed input) are sorted alone; then one insertion
	 * sort over all of tmp, whose values are out of order only within
	 * their buckets (a few moves), and the repeats left out as tmp is
	 * copied back.  No branch per bucket on its size: most buckets hold 0,
	 * 1 or 2 values at random, and such branches were mispredicted.
	 */
	for (i = 0; big && i < nb; i++)
	{
		size_t		lo = i == 0 ? 0 : start[i - 1],
					m = start[i] - lo;

		if (m > 16)
			sort_i64((int64_t *) tmp + lo, m);
	}
	tfp_insertion_sort_i64((int64_t *) tmp, n);
	v[0] = tmp[0];
	for (i = 1; i < n; i++)
	{
		v[o] = tmp[i];
		o += tmp[i] != tmp[i - 1];
	}
	return o;
}

/*
 * Sort and deduplicate v[0..n): by the bucket sort on keys v ^ flip in
 * [0, 2^width) when there is scratch and n >= bucket_from, else in place;
 * returns the new count.
 */
static size_t
sort_unique(uint64_t *v, size_t n, uint64_t *scratch, size_t bucket_from,
			uint64_t flip, int width)
{
	int64_t    *a = (int64_t *) v;
	size_t		o = 1;

	if (n < 2)
		return n;
	if (scratch != NULL && n >= bucket_from && n <= UINT32_MAX)
		return bucket_sort_unique_i64(v, n, scratch, flip, width);
	sort_i64(a, n);
	for (size_t i = 1; i < n; i++)
		if (a[i] != a[o - 1])
			a[o++] = a[i];
	return o;
}

size_t
tfp_sort_unique_u64(uint64_t *v, size_t n, uint64_t *scratch)
{
	return sort_unique(v, n, scratch, 64, SIGN_BIT, 64);
}

size_t
tfp_sort_unique_below_u64(uint64_t *v, size_t n, uint64_t *scratch, int width)
{
	return sort_unique(v, n, scratch, 2, 0, width);
}

size_t
tfp_intersect_count_u64(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t		i = 0,
				j = 0,
				c = 0;

	/* without branches on the values (which of the two moves is a coin
	 * toss for unrelated sets): each step moves past the lesser, both when
	 * they are equal */
	while (i < na && j < nb)
	{
		int64_t		x = (int64_t) a[i],
					y = (int64_t) b[j];

		c += x == y;
		i += x <= y;
		j += y <= x;
	}
	return c;
}
