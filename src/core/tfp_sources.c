/*
 * tfp_sources.c -- evidence, ranking and frequency of passage sources (see
 * tfp_sources.h).  Pure C.
 */
#include <stdlib.h>
#include <string.h>

#include "tfp_sources.h"

static int
cmp_hit_q(const void *a, const void *b)
{
	const tfp_src_hit *x = a,
			   *y = b;

	if (x->q != y->q)
		return x->q < y->q ? -1 : 1;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return x->qi < y->qi ? -1 : x->qi > y->qi;
}

static inline int64_t
diag(const tfp_src_hit *h)
{
	return (int64_t) h->d - (int64_t) h->q;
}

void
tfp_src_evidence_of(tfp_src_hit *h, size_t n, int k, uint32_t gap, uint32_t band,
					tfp_src_evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	if (n == 0)
		return;
	qsort(h, n, sizeof(tfp_src_hit), cmp_hit_q);
	/* distinct query seeds: every seed has its own unit */
	for (size_t i = 0; i < n; i++)
		if (i == 0 || h[i].q != h[i - 1].q)
			ev->seeds++;

	/*
	 * Chains, greedily in query order: a hit continues the chain whose last
	 * hit is within gap before it and on a diagonal within band; among
	 * several, the one of the nearest diagonal.  A handful of chains are
	 * open at a time (a hit beyond gap of a chain's end closes it).
	 */
	{
#define OPEN 16
		struct
		{
			uint32_t	q0,
						q1,
						d0,
						d1,
						lastq;
			int64_t		lastdiag;
			int			unknown;
		}			open[OPEN];
		int			nopen = 0;

		for (size_t i = 0; i < n; i++)
		{
			int			best = -1;
			int64_t		bestdist = 0;
			int			unknown = h[i].d >= TFP_SRC_UNIT_UNKNOWN;

			for (int c = 0; c < nopen; c++)
			{
				int64_t		dist;

				if (h[i].q - open[c].lastq > gap)
					continue;
				dist = unknown || open[c].unknown ? 0 : llabs(diag(&h[i]) - open[c].lastdiag);
				if (dist <= (int64_t) band && (best < 0 || dist < bestdist))
				{
					best = c;
					bestdist = dist;
				}
			}
			if (best < 0)
			{
				/* a new chain, in place of the oldest if all slots are taken */
				if (nopen == OPEN)
				{
					int			old = 0;

					for (int c = 1; c < nopen; c++)
						if (open[c].lastq < open[old].lastq)
							old = c;
					best = old;
				}
				else
					best = nopen++;
				open[best].q0 = h[i].q;
				open[best].d0 = h[i].d;
				open[best].d1 = h[i].d + (uint32_t) k;
				open[best].unknown = unknown;
				ev->chains++;
			}
			open[best].q1 = h[i].q + (uint32_t) k;
			open[best].lastq = h[i].q;
			open[best].lastdiag = diag(&h[i]);
			if (unknown)
				open[best].unknown = 1;
			if (h[i].d < open[best].d0)
				open[best].d0 = h[i].d;
			if (h[i].d + (uint32_t) k > open[best].d1)
				open[best].d1 = h[i].d + (uint32_t) k;
			if (open[best].q1 - open[best].q0 > ev->span)
			{
				ev->span = open[best].q1 - open[best].q0;
				ev->q0 = open[best].q0;
				ev->q1 = open[best].q1;
				ev->d0 = open[best].unknown ? 0 : open[best].d0;
				ev->d1 = open[best].unknown ? 0 : open[best].d1;
			}
		}
#undef OPEN
	}
}

int
tfp_src_evidence_cmp(const tfp_src_evidence *a, const tfp_src_evidence *b)
{
	if (a->span != b->span)
		return a->span > b->span ? -1 : 1;
	if (a->seeds != b->seeds)
		return a->seeds > b->seeds ? -1 : 1;
	return 0;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *) a,
				y = *(const uint32_t *) b;

	return x < y ? -1 : x > y;
}

uint32_t
tfp_src_frequency(const uint32_t *units, const uint32_t *df, const uint8_t *common,
				  size_t n, uint32_t u0, uint32_t u1, int k, uint32_t cap, uint32_t *scratch)
{
	size_t		m = 0,
				lo = 0,
				hi = n;

	/* the first seed at or after u0 */
	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (units[mid] < u0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < n && (uint64_t) units[i] + (uint64_t) k <= u1; i++)
		scratch[m++] = common[i] ? (cap < UINT32_MAX ? cap + 1 : cap) : df[i];
	if (m == 0)
		return 0;
	qsort(scratch, m, sizeof(uint32_t), cmp_u32);
	return scratch[(m - 1) / 2];
}

size_t
tfp_src_unit_of_byte(const uint32_t *ends, size_t n, uint32_t b)
{
	size_t		lo = 0,
				hi = n;

	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (ends[mid] <= b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void
tfp_src_mask_units(const uint32_t *starts, size_t n, const uint32_t *lines, size_t nlines,
				   uint8_t *mask)
{
	size_t		j = 0;

	for (size_t i = 0; i < n; i++)
	{
		while (j < nlines && lines[2 * j + 1] <= starts[i])
			j++;
		mask[i] = j < nlines && lines[2 * j] <= starts[i];
	}
}

void
tfp_src_window(const uint32_t *starts, const uint32_t *ends, size_t n, uint32_t u0,
			   uint32_t u1, uint32_t r, uint32_t *b0, uint32_t *b1)
{
	size_t		lo = u0 > r ? u0 - r : 0,
				hi = (size_t) u1 + r;

	if (n == 0)
	{
		*b0 = *b1 = 0;
		return;
	}
	if (hi > n)
		hi = n;
	if (lo >= hi)
		lo = hi - 1;
	*b0 = starts[lo];
	*b1 = ends[hi - 1];
}
