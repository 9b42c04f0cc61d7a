/*
 * tfp_imatch.c -- I-Match and randomized I-Match (definition in tfp_imatch.h)
 */
#include "tfp_core.h"
#include "tfp_hashes.h"
#include "tfp_imatch.h"
#include "tfp_sort.h"

size_t
tfp_imatch_filter(const tfp_termset *s, uint64_t *terms, size_t n)
{
	size_t		k = 0;

	for (size_t j = 0; j < n; j++)
	{
		uint64_t	t = terms[j];

		terms[k] = t;
		k += (size_t) tfp_termset_contains(s, t);
	}
	return k;
}

uint64_t
tfp_imatch_hash(const uint64_t *kept, size_t n, unsigned sub)
{
	return tfp_xxh3_u64(kept, n, TFP_IMATCH_SEED + sub);
}

uint32_t
tfp_imatch_drop_threshold(double f)
{
	/* f * 2^32 is exact in binary floating point; floor of a value below
	 * 2^32 fits */
	double		d = f * 4294967296.0;

	if (!(d > 0))
		return 0;
	if (d >= 4294967295.0)
		return UINT32_MAX;
	return (uint32_t) d;
}

size_t
tfp_imatch_randomized(const uint64_t *kept, size_t n, int nlex, uint32_t drop,
					  uint64_t *scratch, uint64_t *out)
{
	size_t		nout = 0;

	if (n == 0)
		return 0;
	out[nout++] = tfp_imatch_hash(kept, n, 0);
	for (int i = 1; i <= nlex; i++)
	{
		uint64_t	seed = TFP_IMATCH_SUBSEED + (uint64_t) i;
		size_t		m = 0;

		for (size_t j = 0; j < n; j++)
		{
			/* kept[] is sorted: so is its subsequence */
			scratch[m] = kept[j];
			m += (size_t) ((uint32_t) (tfp_fmix64(kept[j] ^ seed) >> 32) >= drop);
		}
		if (m > 0)
			out[nout++] = tfp_imatch_hash(scratch, m, (unsigned) i);
	}
	tfp_insertion_sort_i64((int64_t *) out, nout);
	{
		size_t		k = 0;

		for (size_t j = 0; j < nout; j++)
			if (k == 0 || out[j] != out[k - 1])
				out[k++] = out[j];
		nout = k;
	}
	return nout;
}
