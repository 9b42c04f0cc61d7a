/*
 * tfp_simhash.c -- the SimHash accumulator (Charikar 2002; Manku et al. 2007)
 *
 * With unit weights, V[i] = ones[i] - (total - ones[i]), so bit i is 1 iff
 * 2 * ones[i] > total: only the count of 1 bits per position is needed.
 * Those counts are kept as bytes packed eight to a 64-bit word (SWAR): for
 * each byte b of a hash, spread[b] has byte i equal to bit i of b, and one
 * 64-bit add updates eight counters.  No counter exceeds 255 because the
 * bytes are flushed into ones[] every 255 additions.  Ties (2 * ones[i] =
 * total) take bit i of the tie-breaker T (tfp_core.h).
 */
#include <string.h>

#include "tfp_core.h"

#define FLUSH_EVERY 255

/* byte i of SPREAD(b) is bit i of b: multiply copies b into every byte, the
 * mask keeps bit i of byte i, and adding 0x7f moves any set bit to bit 7 */
#define SPREAD(b) \
	((((((uint64_t) (b) * UINT64_C(0x0101010101010101)) & UINT64_C(0x8040201008040201)) + \
	   UINT64_C(0x7f7f7f7f7f7f7f7f)) & UINT64_C(0x8080808080808080)) >> 7)
#define S4(b)	SPREAD(b), SPREAD((b) + 1), SPREAD((b) + 2), SPREAD((b) + 3)
#define S16(b)	S4(b), S4((b) + 4), S4((b) + 8), S4((b) + 12)
#define S64(b)	S16(b), S16((b) + 16), S16((b) + 32), S16((b) + 48)

static const uint64_t spread[256] = {S64(0), S64(64), S64(128), S64(192)};

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

	for (j = 0; j < 8; j++)
	{
		uint64_t	w = acc->lanes[j];

		for (i = 0; i < 8; i++)
			acc->ones[8 * j + i] += (w >> (8 * i)) & 0xFF;
		acc->lanes[j] = 0;
	}
	acc->pending = 0;
}

void
tfp_simhash_add(tfp_simhash_acc *acc, const uint64_t *hashes, size_t n)
{
	size_t		k;

	for (k = 0; k < n; k++)
	{
		uint64_t	h = hashes[k];

		acc->tie += tfp_fmix64(h);
		acc->lanes[0] += spread[h & 0xFF];
		acc->lanes[1] += spread[(h >> 8) & 0xFF];
		acc->lanes[2] += spread[(h >> 16) & 0xFF];
		acc->lanes[3] += spread[(h >> 24) & 0xFF];
		acc->lanes[4] += spread[(h >> 32) & 0xFF];
		acc->lanes[5] += spread[(h >> 40) & 0xFF];
		acc->lanes[6] += spread[(h >> 48) & 0xFF];
		acc->lanes[7] += spread[h >> 56];
		if (++acc->pending == FLUSH_EVERY)
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

uint64_t
tfp_simhash_finish_centered(tfp_simhash_acc *acc, uint64_t nhan, int ngram,
							int shingle)
{
	const int32_t *rh = (ngram >= 1 && ngram <= TFP_REF_MAX_NGRAM) ?
		tfp_simhash_ref_han[ngram - 1] : NULL;
	const int32_t *rw = (shingle >= 1 && shingle <= TFP_REF_MAX_SHINGLE) ?
		tfp_simhash_ref_word[shingle - 1] : NULL;
	int64_t		nh = (int64_t) nhan;
	int64_t		nw;
	uint64_t	fp = 0;
	int			i;

	flush(acc);
	nw = (int64_t) acc->total - nh;
	for (i = 0; i < 64; i++)
	{
		/* V[i] * 2^16, minus the expected background, all in int64 */
		int64_t		v = (2 * (int64_t) acc->ones[i] - (int64_t) acc->total) * TFP_REF_SCALE;

		if (rh)
			v -= nh * rh[i];
		if (rw)
			v -= nw * rw[i];
		if (v > 0 || (v == 0 && ((acc->tie >> i) & 1)))
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
