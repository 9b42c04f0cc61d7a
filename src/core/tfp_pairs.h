/*
 * tfp_pairs.h -- all pairs of 64-bit fingerprints within a Hamming radius,
 * by Manku, Jain and Das Sarma's batch method (no index), and a union-find
 * for the connected components of a pair graph.  Pure C.
 *
 * The method: the 64 bits are cut into B blocks of 64/B bits (lengths differ
 * by at most one).  Two fingerprints at distance <= r differ in at most r
 * blocks, so they agree on at least t = B - r of them.  Every t-subset S of
 * the blocks is a "table": the bits of S's blocks, packed, are the key of a
 * fingerprint in that table; sorting the keys (radix sort) brings together
 * every pair that agrees on S, and comparing the members of each run of
 * equal keys (popcount) finds the pairs within r.  A pair that agrees on
 * several subsets is reported only by the table of its first t agreeing
 * blocks (tfp_pairs_reported_by; proof in tfp_pairs.c).  t = 0 (B = r) is
 * the single table with the empty key: every pair compared once.
 *
 * Rows are indices 0..n-1 into the caller's fingerprint array.  A table's
 * sort entry is one 64-bit word: the key's top bits above the row index in
 * the low idxbits bits (the key is cut to 64 - idxbits bits when longer:
 * runs then hold more candidates, never fewer, and the report rule checks
 * the whole of S).  When the entries of all n rows do not fit in the
 * caller's buffers, a table is processed in parts: ranges of a 16-bit hash
 * of the key, chosen from a histogram (tfp_pairs_run_table).
 */
#ifndef TFP_PAIRS_H
#define TFP_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#define TFP_PAIRS_MAX_RADIUS	32
#define TFP_PAIRS_MAX_TABLES	4096	/* C(B, r) the cost model may choose */
#define TFP_PAIRS_HIST			65536	/* histogram buckets: 16-bit key hashes */

typedef struct tfp_pairs_plan
{
	int			radius;			/* r */
	int			nblocks;		/* B, r <= B <= 64 */
	int			tblocks;		/* t = B - r */
	uint64_t	ntables;		/* C(B, t) */
	int			idxbits;		/* bits of a row index in an entry */
	double		cost;			/* the cost model's estimate (ns) */
	uint8_t		off[64];		/* block b is bits [off[b], off[b] + len[b]) */
	uint8_t		len[64];
} tfp_pairs_plan;

typedef struct tfp_pairs_table
{
	uint64_t	blocks;			/* S: bit b set = block b is part of the key */
	uint64_t	keymask;		/* fingerprint bits of S's blocks */
	uint64_t	beforemask[64]; /* masks of the blocks below S's highest block */
	int			nbefore;		/* that are not in S */
	int			prefix_bits;	/* p: total length of S's blocks */
	int			sort_lo;		/* entries are sorted on bits [sort_lo, 64) */
	/* packing: key = sum over S's blocks of ((fp >> off) & mask) << shift */
	int			nparts;
	uint8_t		part_off[64];
	uint8_t		part_shift[64];
	uint64_t	part_mask[64];
} tfp_pairs_table;

/*
 * Called for each pair reported: rows i < j (indices), their distance.
 * A non-zero return stops the scan (tfp_pairs_run_table returns at once).
 */
typedef int (*tfp_pair_emit) (void *arg, size_t i, size_t j, int dist);

/* Called every few ten thousand steps of every long loop (interrupts). */
typedef void (*tfp_tick_fn) (void);

/* Estimated cost (ns) of n fingerprints at radius r with B blocks. */
extern double tfp_pairs_cost(uint64_t n, int radius, int nblocks);

/*
 * The plan for n fingerprints at radius r (0..TFP_PAIRS_MAX_RADIUS): the B
 * of least estimated cost; nblocks > 0 forces B (r <= B <= 64, C(B, r) <=
 * TFP_PAIRS_MAX_TABLES).  Returns 0, or -1 for arguments out of range.
 */
extern int	tfp_pairs_make_plan(tfp_pairs_plan *p, uint64_t n, int radius, int nblocks);

/*
 * The tables, every t-subset of the B blocks: first, then next until 0
 * (do ... while: with t = 0 the one table is the empty set, 0).
 */
extern uint64_t tfp_pairs_first_table(const tfp_pairs_plan *p);
extern uint64_t tfp_pairs_next_table(const tfp_pairs_plan *p, uint64_t blocks);
extern void tfp_pairs_table_init(const tfp_pairs_plan *p, uint64_t blocks,
								 tfp_pairs_table *t);

/* The packed key of fp in table t, left-aligned (its top p bits). */
static inline uint64_t
tfp_pairs_key(const tfp_pairs_table *t, uint64_t fp)
{
	uint64_t	k = 0;

	for (int i = 0; i < t->nparts; i++)
		k |= ((fp >> t->part_off[i]) & t->part_mask[i]) << t->part_shift[i];
	return k;
}

/* Whether table t reports the pair fingerprints a, b (see tfp_pairs.c). */
extern int	tfp_pairs_reported_by(const tfp_pairs_table *t, uint64_t a, uint64_t b);

/*
 * All pairs of rows within the plan's radius that table t reports, emitted
 * in the order of their runs.  e and tmp have room for cap entries each;
 * hist for TFP_PAIRS_HIST counters (used only when cap < n).  Returns the
 * number of candidate comparisons, or -1 if one key hash range holds more
 * than cap rows (*heavy receives its size), or -2 if emit asked to stop.
 */
extern int64_t tfp_pairs_run_table(const tfp_pairs_plan *p, const tfp_pairs_table *t,
								   const uint64_t *fp, size_t n,
								   uint64_t *e, uint64_t *tmp, size_t cap,
								   uint32_t *hist, size_t *heavy,
								   tfp_pair_emit emit, void *arg, tfp_tick_fn tick);

/* LSD radix sort of e[0..n) on bits [lo, 64) (stable; tmp has room for n). */
extern void tfp_radix_sort_u64(uint64_t *e, size_t n, uint64_t *tmp, int lo,
							   tfp_tick_fn tick);

/*
 * Union-find over nodes 0..n-1 with a 64-bit key each: union by size with
 * path compression; a root keeps the smallest key of its component.
 */
typedef struct tfp_uf
{
	uint32_t   *parent;
	uint32_t   *size;
	int64_t    *minkey;
} tfp_uf;

extern void tfp_uf_make(tfp_uf *u, uint32_t node, int64_t key);
extern uint32_t tfp_uf_find(tfp_uf *u, uint32_t x);
extern void tfp_uf_union(tfp_uf *u, uint32_t a, uint32_t b);

#endif							/* TFP_PAIRS_H */
