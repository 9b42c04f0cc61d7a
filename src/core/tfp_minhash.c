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
