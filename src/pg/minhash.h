/*
 * minhash.h -- the minhash signature type, shared by src/minhash*.c
 */
#ifndef TEXTFP_MINHASH_H
#define TEXTFP_MINHASH_H

#include "access/htup.h"

#include "textfp.h"
#include "tfp_minhash.h"

/*
 * On-disk layout (varlena, int4-aligned):
 *   header; version (1); ngram, shingle (1..16); flags: TFP_FOLD_* bits of
 *   the feature options, plus MINHASH_EMPTY for a text without features;
 *   k (1..TFP_MINHASH_MAX_K); reserved (0); then k uint32 values, or none
 *   when MINHASH_EMPTY is set.
 */
typedef struct MinHash
{
	int32		vl_len_;
	uint8		version;
	uint8		ngram;
	uint8		shingle;
	uint8		flags;
	uint16		k;
	uint16		reserved;
	uint32		v[FLEXIBLE_ARRAY_MEMBER];
} MinHash;

#define MINHASH_EMPTY		0x80
#define MINHASH_FOLD_MASK	(TFP_FOLD_WIDTH | TFP_FOLD_CASE | TFP_FOLD_HAN)
#define MINHASH_HDRSZ		offsetof(MinHash, v)
#define MinHashIsEmpty(m)	(((m)->flags & MINHASH_EMPTY) != 0)

#define DatumGetMinHashP(X)		((MinHash *) PG_DETOAST_DATUM(X))
#define PG_GETARG_MINHASH_P(n)	DatumGetMinHashP(PG_GETARG_DATUM(n))

/* textfp.minhash_threshold */
extern double textfp_minhash_threshold;

/* minhash_citus.c: the setting on Citus (refuse what it would not reach) */
extern void textfp_minhash_threshold_assign(double newval, void *extra);
extern void textfp_minhash_citus_init(void);

/*
 * The signature and threshold of a minhash_query composite (minhash_query.c);
 * false when its signature is NULL.
 */
extern bool minhash_query_parts(HeapTupleHeader q, MinHash **sig, double *threshold);

/* Raise 22023 unless a and b were made with the same parameters. */
extern void minhash_check_compatible(const MinHash *a, const MinHash *b);

/* Equal positions of two compatible signatures (0 if either is empty). */
static inline int
minhash_match_count(const MinHash *a, const MinHash *b)
{
	if (MinHashIsEmpty(a) || MinHashIsEmpty(b))
		return 0;
	return tfp_minhash_matches(a->v, b->v, a->k);
}

/*
 * The least number of equal positions m (1 <= m <= k + 1) such that an
 * estimate m / k satisfies "estimate >= t and estimate > 0", computed with
 * the same double comparison the operator uses, so that the operator and the
 * index agree on the boundary.  k + 1 means "impossible".
 */
static inline int
minhash_min_matches(double t, int k)
{
	int			m;

	if (!(t > 0))
		return 1;
	if (t > 1)
		return k + 1;
	m = (int) (t * k);
	if (m < 1)
		m = 1;
	while (m > 1 && (double) (m - 1) / (double) k >= t)
		m--;
	while (m <= k && (double) m / (double) k < t)
		m++;
	return m;
}

/* "<prefix><number> " at *p (1..5 digits): the number, or -1 (minhash.c) */
extern int	textfp_parse_field(const char **p, const char *prefix);

/* A growing array of 64-bit hashes (minhash_fn.c). */
typedef struct hash_buf
{
	uint64	   *h;
	size_t		n;
	size_t		cap;
} hash_buf;

/* A feature sink appending to a hash_buf (b->h palloc'd with room for
 * b->cap); checks for interrupts. */
extern void textfp_collect_sink(void *arg, const uint64_t *hashes, size_t n);
/* Sort b's hashes as int8 and drop duplicates. */
extern void textfp_sort_unique(hash_buf *b);
/* The distinct feature hashes of a text, sorted as int8. */
extern void textfp_shingle_set(text *body, const tfp_feature_opts *o, hash_buf *b);

#endif							/* TEXTFP_MINHASH_H */
