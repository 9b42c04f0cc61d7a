/*
 * tfp_simhash.c -- the SimHash accumulator (Charikar 2002; Manku et al. 2007)
 *
 * With unit weights, V[i] = ones[i] - (total - ones[i]), so bit i is 1 iff
 * 2 * ones[i] > total: only the count of 1 bits per position is needed.
 * Those counts are kept as bytes packed eight to a 64-bit word (SWAR): for
 * each byte b of a hash, spread[b] has byte i equal to bit i of b, and one
 * 64-bit add updates eight counters; blocks of 16 hashes are first reduced
 * by a carry-save adder network (see tfp_simhash_add).  No counter exceeds
 * 255: the bytes are flushed into ones[] before they could.  Ties (2 * ones[i] =
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

/* T += the mixed hashes */
static void
sum_tie(uint64_t *tie, const uint64_t *hashes, size_t n)
{
	uint64_t	t = *tie;
	size_t		k;

	for (k = 0; k < n; k++)
		t += tfp_fmix64(hashes[k]);
	*tie = t;
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

/* full adder on words: (hi, lo) = a + b + c, bitwise; half adder: a + b */
#define CSA(hi, lo, a, b, c) \
	do { \
		uint64_t	u_ = (a) ^ (b); \
		(hi) = ((a) & (b)) | (u_ & (c)); \
		(lo) = u_ ^ (c); \
	} while (0)
#define HA(hi, lo, a, b) \
	do { \
		uint64_t	a_ = (a), b_ = (b); \
		(hi) = a_ & b_; \
		(lo) = a_ ^ b_; \
	} while (0)

/* add one 64-bit word, counted `times` times (1..16), to the byte counters */
static inline void
add_lanes(tfp_simhash_acc *acc, uint64_t h, uint64_t times)
{
	acc->lanes[0] += times * spread[h & 0xFF];
	acc->lanes[1] += times * spread[(h >> 8) & 0xFF];
	acc->lanes[2] += times * spread[(h >> 16) & 0xFF];
	acc->lanes[3] += times * spread[(h >> 24) & 0xFF];
	acc->lanes[4] += times * spread[(h >> 32) & 0xFF];
	acc->lanes[5] += times * spread[(h >> 40) & 0xFF];
	acc->lanes[6] += times * spread[(h >> 48) & 0xFF];
	acc->lanes[7] += times * spread[h >> 56];
}

/*
 * Add n hashes.  Blocks of 16 go through a carry-save adder network
 * (Harley-Seal): the accumulator keeps four words of weight 1, 2, 4 and 8
 * (planes[]) whose weighted sum, position by position, is a count not yet
 * in the byte counters; 15 full adders per block fold 16 hashes into them
 * and carry out one word of weight 16, the only word added to the byte
 * counters.  `pending` bounds the largest byte counter (a block adds at
 * most 16, a single hash 1), and the counters are flushed before it could
 * pass 255.  settle() adds the planes at the end.
 */
void
tfp_simhash_add(tfp_simhash_acc *acc, const uint64_t *hashes, size_t n)
{
	size_t		k;
	uint64_t	ones = acc->planes[0],
				twos = acc->planes[1],
				fours = acc->planes[2],
				eights = acc->planes[3];

	if (!acc->lazy_tie)
		sum_tie(&acc->tie, hashes, n);

	for (k = 0; k + 16 <= n; k += 16)
	{
		const uint64_t *h = hashes + k;
		uint64_t	twos_a,
					twos_b,
					fours_a,
					fours_b,
					eights_a,
					eights_b,
					sixteens;

		CSA(twos_a, ones, ones, h[0], h[1]);
		CSA(twos_b, ones, ones, h[2], h[3]);
		CSA(fours_a, twos, twos, twos_a, twos_b);
		CSA(twos_a, ones, ones, h[4], h[5]);
		CSA(twos_b, ones, ones, h[6], h[7]);
		CSA(fours_b, twos, twos, twos_a, twos_b);
		CSA(eights_a, fours, fours, fours_a, fours_b);
		CSA(twos_a, ones, ones, h[8], h[9]);
		CSA(twos_b, ones, ones, h[10], h[11]);
		CSA(fours_a, twos, twos, twos_a, twos_b);
		CSA(twos_a, ones, ones, h[12], h[13]);
		CSA(twos_b, ones, ones, h[14], h[15]);
		CSA(fours_b, twos, twos, twos_a, twos_b);
		CSA(eights_b, fours, fours, fours_a, fours_b);
		CSA(sixteens, eights, eights, eights_a, eights_b);

		if (acc->pending + 16 > FLUSH_EVERY)
			flush(acc);
		add_lanes(acc, sixteens, 16);
		acc->pending += 16;
	}
	acc->planes[0] = ones;
	acc->planes[1] = twos;
	acc->planes[2] = fours;
	acc->planes[3] = eights;
	for (; k < n; k++)
	{
		if (acc->pending + 1 > FLUSH_EVERY)
			flush(acc);
		add_lanes(acc, hashes[k], 1);
		acc->pending += 1;
	}
	acc->total += n;
}

/* Add the carry-save planes to the byte counters, and those to ones[]. */
static void
settle(tfp_simhash_acc *acc)
{
	if (acc->pending + 15 > FLUSH_EVERY)
		flush(acc);
	add_lanes(acc, acc->planes[0], 1);
	add_lanes(acc, acc->planes[1], 2);
	add_lanes(acc, acc->planes[2], 4);
	add_lanes(acc, acc->planes[3], 8);
	memset(acc->planes, 0, sizeof(acc->planes));
	flush(acc);
}

uint64_t
tfp_simhash_finish(tfp_simhash_acc *acc)
{
	uint64_t	fp = 0;
	int			i;

	settle(acc);
	for (i = 0; i < 64; i++)
	{
		uint64_t	twice = 2 * acc->ones[i];

		if (twice == acc->total && acc->lazy_tie)
			acc->needs_tie = 1;
		if (twice > acc->total ||
			(twice == acc->total && ((acc->tie >> i) & 1)))
			fp |= (uint64_t) 1 << i;
	}
	return fp;
}

/*
 * The finish of every text fingerprint: V[i] * 2^16 minus the han and word
 * features' thresholds (NULL: none), sign, ties to T.  Without thresholds
 * the decisions are tfp_simhash_finish()'s (V[i] * 2^16 > 0 iff 2 ones >
 * total).
 */
static uint64_t
finish_thresholds(tfp_simhash_acc *acc, uint64_t nhan, const int32_t *rh,
				  const int32_t *rw)
{
	int64_t		nh = (int64_t) nhan;
	int64_t		nw;
	uint64_t	fp = 0;
	int			i;

	settle(acc);
	nw = (int64_t) acc->total - nh;
	for (i = 0; i < 64; i++)
	{
		/* V[i] * 2^16, minus the expected background, all in int64 */
		int64_t		v = (2 * (int64_t) acc->ones[i] - (int64_t) acc->total) * TFP_REF_SCALE;

		if (rh)
			v -= nh * rh[i];
		if (rw)
			v -= nw * rw[i];
		if (v == 0 && acc->lazy_tie)
			acc->needs_tie = 1;
		if (v > 0 || (v == 0 && ((acc->tie >> i) & 1)))
			fp |= (uint64_t) 1 << i;
	}
	return fp;
}

/* the built-in centering references of these sizes (NULL: none) */
static inline const int32_t *
ref_han(int ngram)
{
	return ngram >= 1 && ngram <= TFP_REF_MAX_NGRAM ? tfp_simhash_ref_han[ngram - 1] : NULL;
}

static inline const int32_t *
ref_word(int shingle)
{
	return shingle >= 1 && shingle <= TFP_REF_MAX_SHINGLE ?
		tfp_simhash_ref_word[shingle - 1] : NULL;
}

uint64_t
tfp_simhash_finish_centered(tfp_simhash_acc *acc, uint64_t nhan, int ngram,
							int shingle)
{
	return finish_thresholds(acc, nhan, ref_han(ngram), ref_word(shingle));
}

/* the sinks of tfp_simhash_text: the accumulator, or T alone */
typedef struct text_sink
{
	tfp_simhash_acc *acc;
	void		(*tick) (void);
} text_sink;

static void
acc_sink(void *arg, const uint64_t *hashes, size_t n)
{
	text_sink  *ts = arg;

	if (ts->tick)
		ts->tick();
	if (n > 0)
		tfp_simhash_add(ts->acc, hashes, n);
}

static void
tie_sink(void *arg, const uint64_t *hashes, size_t n)
{
	text_sink  *ts = arg;

	if (ts->tick)
		ts->tick();
	sum_tie(&ts->acc->tie, hashes, n);
}

/*
 * A text's fingerprint, finished by finish_thresholds() with thresholds rh
 * and rw (NULL: that class of features not centered), the tie-breaker T
 * summed only if a tie needs it.
 */
static uint64_t
simhash_text_with(const char *utf8, size_t len, const tfp_feature_opts *opts,
				  const int32_t *rh, const int32_t *rw, void (*tick) (void),
				  int *reread)
{
	tfp_simhash_acc acc;
	text_sink	ts = {&acc, tick};
	uint64_t	nhan,
				fp;

	tfp_simhash_init(&acc);
	acc.lazy_tie = 1;
	tfp_extract_features_counted(utf8, len, opts, acc_sink, &ts, &nhan);
	fp = finish_thresholds(&acc, nhan, rh, rw);
	if (reread)
		*reread = acc.needs_tie;
	if (acc.needs_tie)
	{
		/* a tie: T is wanted after all */
		tfp_extract_features(utf8, len, opts, tie_sink, &ts);
		acc.lazy_tie = 0;
		fp = finish_thresholds(&acc, nhan, rh, rw);
	}
	return fp;
}

uint64_t
tfp_simhash_text(const char *utf8, size_t len, const tfp_feature_opts *opts,
				 int center, void (*tick) (void), int *reread)
{
	return simhash_text_with(utf8, len, opts,
							 center ? ref_han(opts->ngram) : NULL,
							 center ? ref_word(opts->shingle) : NULL,
							 tick, reread);
}

uint64_t
tfp_simhash_text_thresholds(const char *utf8, size_t len,
							const tfp_feature_opts *opts, const int32_t *thr,
							void (*tick) (void), int *reread)
{
	return simhash_text_with(utf8, len, opts, thr, thr, tick, reread);
}

uint64_t
tfp_simhash_text_ratios(const char *utf8, size_t len,
						const tfp_feature_opts *opts, void (*tick) (void),
						int32_t *q, uint64_t *exact)
{
	tfp_simhash_acc acc;
	text_sink	ts = {&acc, tick};

	tfp_simhash_init(&acc);
	acc.lazy_tie = 1;			/* T is not needed */
	tfp_extract_features(utf8, len, opts, acc_sink, &ts);
	settle(&acc);
	*exact = 0;
	for (int i = 0; i < 64 && acc.total > 0; i++)
	{
		/* floor(V[i] * 2^16 / total), V[i] in [-total, total] */
		int64_t		t = (int64_t) acc.total,
					num = (2 * (int64_t) acc.ones[i] - t) * TFP_REF_SCALE,
					r = num / t;

		if (num % t != 0 && num < 0)
			r--;
		q[i] = (int32_t) r;
		if (num % t == 0)
			*exact |= (uint64_t) 1 << i;
	}
	return acc.total;
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
