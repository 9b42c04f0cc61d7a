/*
 * tfp_simhash.c -- the SimHash accumulator (Charikar 2002; Manku et al. 2007)
 *
 * With unit weights, V[i] = ones[i] - (total - ones[i]), so bit i is 1 iff
 * 2 * ones[i] > total: only the count of 1 bits per position is needed.  Those
 * counts are kept bit-sliced: planes[j] holds bit j of all 64 counters, and
 * adding a hash is a binary ripple-carry over the planes -- on average about
 * two iterations of three word operations, instead of 64 counter updates.
 * Every 2^TFP_SLICE_PLANES - 1 additions the planes are flushed into ones[].
 * Ties (2 * ones[i] = total) take bit i of the tie-breaker T (tfp_core.h).
 */
#include <string.h>

#include "tfp_core.h"

#define SLICE_MAX	((1u << TFP_SLICE_PLANES) - 1)

void
tfp_simhash_init(tfp_simhash_acc *acc)
{
	memset(acc, 0, sizeof(*acc));
}

static void
flush(tfp_simhash_acc *acc)
{
	int			i,
				j;

	for (j = 0; j < TFP_SLICE_PLANES; j++)
	{
		uint64_t	p = acc->planes[j];

		while (p)
		{
			i = __builtin_ctzll(p);
			acc->ones[i] += (uint64_t) 1 << j;
			p &= p - 1;
		}
		acc->planes[j] = 0;
	}
	acc->pending = 0;
}

void
tfp_simhash_add(tfp_simhash_acc *acc, const uint64_t *hashes, size_t n)
{
	size_t		k;

	for (k = 0; k < n; k++)
	{
		uint64_t	carry = hashes[k];
		int			j;

		acc->tie += tfp_fmix64(carry);
		/* pending < SLICE_MAX here, so the carry never leaves the planes */
		for (j = 0; carry != 0; j++)
		{
			uint64_t	t = acc->planes[j] & carry;

			acc->planes[j] ^= carry;
			carry = t;
		}
		if (++acc->pending == SLICE_MAX)
			flush(acc);
	}
	acc->total += n;
}

uint64_t
tfp_simhash_finish(tfp_simhash_acc *acc)
{
	uint64_t	fp = 0;
	int			i;

	flush(acc);
	for (i = 0; i < 64; i++)
	{
		uint64_t	twice = 2 * acc->ones[i];

		if (twice > acc->total ||
			(twice == acc->total && ((acc->tie >> i) & 1)))
			fp |= (uint64_t) 1 << i;
	}
	return fp;
}

void
tfp_simhash_winit(tfp_simhash_wacc *acc)
{
	memset(acc, 0, sizeof(*acc));
}

void
tfp_simhash_wadd(tfp_simhash_wacc *acc, uint64_t hash, double weight)
{
	int			i;

	acc->tie += tfp_fmix64(hash);
	for (i = 0; i < 64; i++)
		acc->v[i] += ((hash >> i) & 1) ? weight : -weight;
}

uint64_t
tfp_simhash_wfinish(const tfp_simhash_wacc *acc)
{
	uint64_t	fp = 0;
	int			i;

	for (i = 0; i < 64; i++)
		if (acc->v[i] > 0 || (acc->v[i] == 0 && ((acc->tie >> i) & 1)))
			fp |= (uint64_t) 1 << i;
	return fp;
}
