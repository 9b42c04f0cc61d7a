/*
 * tfp_supershingle.c -- super-shingles of a MinHash signature (definition in
 * tfp_supershingle.h)
 */
#include "tfp_hashes.h"
#include "tfp_sort.h"
#include "tfp_supershingle.h"

size_t
tfp_supershingles(const uint32_t *v, int k, int ngram, int shingle,
				  unsigned fold, int g, uint64_t *out)
{
	uint32_t	params[6] = {TFP_SUPERSHINGLE_VERSION, (uint32_t) k,
	(uint32_t) ngram, (uint32_t) shingle, fold, (uint32_t) g};
	uint64_t	p = tfp_xxh3_u32(params, 6, TFP_SUPERSHINGLE_SEED);
	size_t		r = (size_t) (k / g);

	for (int j = 0; j < g; j++)
		out[j] = tfp_xxh3_u32(v + (size_t) j * r, r, p + (uint64_t) j);
	return tfp_sort_unique_u64(out, (size_t) g, NULL);
}
