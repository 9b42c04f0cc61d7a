/*
 * tfp_pasidx.h -- the entry code and the merge policy of the "passage"
 * index (src/pg/passage_am.h has its layout).  Pure C, header only.
 *
 * KEY.  An entry is a seed of a row's passage fingerprint: the index keeps
 * the top 34 bits of its hash (the key), the unit where its k-gram starts,
 * its two context bytes and the row's heap TID.  A run of the index is
 * bucketed by the top 16 bits of the key (a directory of 65,537 counts);
 * within a bucket the entries are in order of the other 18 bits (the
 * residual), so a key is found by a binary search in its bucket.
 *
 * ENTRY (12 bytes): a 96-bit little-endian number with, from bit 0,
 *   offset   10 bits   the heap TID's offset number (at most 1,023)
 *   block    32 bits   the heap TID's block number
 *   right     8 bits   context bytes
 *   left      8 bits
 *   unit     20 bits   the k-gram's first unit, TFP_PASIDX_UNIT_MAX for
 *                      units at or beyond it (a position not known)
 *   residual 18 bits   the key's low 18 bits
 * A seed of a text of a million units or more keeps "somewhere past the
 * millionth unit" as its position; nothing else is lost.  False matches of
 * 34-bit keys (equal keys of unequal hashes) are rechecked by the caller:
 * the index is exact for the %& operator through the executor's recheck.
 *
 * Size: 12 bytes a seed, about 2 / (w + 1) seeds a unit: with w = 9 a
 * Chinese text of 2 KB (about 680 units) costs 1.6 KB of entries and an
 * English one (about 350 words) 0.8 KB.
 */
#ifndef TFP_PASIDX_H
#define TFP_PASIDX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TFP_PASIDX_ENTRY		12
#define TFP_PASIDX_KEY_BITS		34
#define TFP_PASIDX_BUCKET_BITS	16
#define TFP_PASIDX_RES_BITS		18
#define TFP_PASIDX_BUCKETS		(1u << TFP_PASIDX_BUCKET_BITS)
#define TFP_PASIDX_UNIT_MAX		((UINT32_C(1) << 20) - 1)
#define TFP_PASIDX_OFF_MAX		1023

typedef struct tfp_pasent
{
	uint64_t	key;			/* top 34 bits of the seed's hash */
	uint32_t	unit;			/* saturated at TFP_PASIDX_UNIT_MAX */
	uint8_t		left,
				right;
	uint16_t	off;			/* heap TID */
	uint32_t	blk;
} tfp_pasent;

static inline uint64_t
tfp_pasidx_key(uint64_t hash)
{
	return hash >> (64 - TFP_PASIDX_KEY_BITS);
}

static inline uint32_t
tfp_pasidx_bucket(uint64_t key)
{
	return (uint32_t) (key >> TFP_PASIDX_RES_BITS);
}

static inline uint32_t
tfp_pasidx_residual(uint64_t key)
{
	return (uint32_t) (key & ((UINT64_C(1) << TFP_PASIDX_RES_BITS) - 1));
}

static inline uint32_t
tfp_pasidx_unit(uint32_t unit)
{
	return unit < TFP_PASIDX_UNIT_MAX ? unit : TFP_PASIDX_UNIT_MAX;
}

static inline void
tfp_pasidx_put(unsigned char *p, const tfp_pasent *e)
{
	uint32_t	u = tfp_pasidx_unit(e->unit);
	uint64_t	lo = (uint64_t) (e->off & 0x3FF) |
		((uint64_t) e->blk << 10) |
		((uint64_t) e->right << 42) |
		((uint64_t) e->left << 50) |
		((uint64_t) (u & 0x3F) << 58);
	uint32_t	hi = (u >> 6) | (tfp_pasidx_residual(e->key) << 14);

	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char) (lo >> (8 * i));
	for (int i = 0; i < 4; i++)
		p[8 + i] = (unsigned char) (hi >> (8 * i));
}

/* the residual of an entry, from its last 4 bytes */
static inline uint32_t
tfp_pasidx_get_residual(const unsigned char *p)
{
	uint32_t	hi = (uint32_t) p[8] | ((uint32_t) p[9] << 8) |
		((uint32_t) p[10] << 16) | ((uint32_t) p[11] << 24);

	return hi >> 14;
}

/* decode an entry of bucket b */
static inline void
tfp_pasidx_get(const unsigned char *p, uint32_t b, tfp_pasent *e)
{
	uint64_t	lo = 0;
	uint32_t	hi = 0;

	for (int i = 0; i < 8; i++)
		lo |= (uint64_t) p[i] << (8 * i);
	for (int i = 0; i < 4; i++)
		hi |= (uint32_t) p[8 + i] << (8 * i);
	e->off = (uint16_t) (lo & 0x3FF);
	e->blk = (uint32_t) (lo >> 10);
	e->right = (uint8_t) (lo >> 42);
	e->left = (uint8_t) (lo >> 50);
	e->unit = (uint32_t) (lo >> 58) | ((hi & 0x3FFF) << 6);
	e->key = ((uint64_t) b << TFP_PASIDX_RES_BITS) | (hi >> 14);
}

/* total order of entries: key, then TID, then unit (builds and merges) */
static inline int
tfp_pasidx_cmp(const tfp_pasent *a, const tfp_pasent *b)
{
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->blk != b->blk)
		return a->blk < b->blk ? -1 : 1;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	if (a->unit != b->unit)
		return a->unit < b->unit ? -1 : 1;
	return 0;
}

/* ---------------------------------------------------------------- merges */

/* runs of an index, at most */
#define TFP_PASIDX_MAX_RUNS		8

/* pending entries that make an insert merge */
static inline uint64_t
tfp_pasidx_pending_limit(uint64_t sorted)
{
	uint64_t	l = sorted / 512;

	return l < 32768 ? 32768 : (l > 262144 ? 262144 : l);
}

/*
 * How many of the smallest runs a merge of s sealed entries takes with it:
 * sizes[0..nruns) in decreasing order.  A run joins while it is at most
 * four times what the merge holds so far (so sizes grow geometrically, by
 * about 4, and an entry is rewritten O(log n) times: 14 times on average
 * over 20,000 merges of 32,768 entries, with at most 7 runs, in
 * test_pasidx.c), and more join if the result would leave more than
 * TFP_PASIDX_MAX_RUNS runs.  (With a factor of 2 the runs would reach the
 * bound and every merge would rewrite them all.)
 */
static inline int
tfp_pasidx_merge_inputs(const uint64_t *sizes, int nruns, uint64_t s)
{
	int			take = 0;
	uint64_t	acc = s;

	while (take < nruns && sizes[nruns - 1 - take] <= 4 * acc)
		acc += sizes[nruns - 1 - take++];
	while (nruns - take + 1 > TFP_PASIDX_MAX_RUNS)
		acc += sizes[nruns - 1 - take++];
	return take;
}

#endif							/* TFP_PASIDX_H */
