/*
 * sets.h -- sets of 64-bit hashes in int8[] columns (spot signatures, sentence
 * hashes, super-shingles, ...): shared by sets.c and the fingerprint
 * functions that return such sets
 */
#ifndef TEXTFP_SETS_H
#define TEXTFP_SETS_H

#include "postgres.h"

#include "access/htup_details.h"
#include "utils/array.h"

/*
 * The distinct non-null values of an int8[], sorted as int64: the array's
 * own data when it already is such a set (as the fingerprint functions
 * return them), else a sorted copy.  *n receives their number.
 */
extern const int64 *textfp_set_view(ArrayType *a, int *n);

/*
 * Jaccard threshold t (0 < t <= 1) and a query set of n >= 1 values: the
 * least number of shared values m such that m / n >= t, and the largest size
 * of a set B such that n / |B| >= t (both computed with the double division
 * the operator uses; see set_jaccard_match for why they bound the answers).
 */
extern int32 textfp_jaccard_min_shared(double t, int32 n);
extern int32 textfp_jaccard_max_size(double t, int32 n);

/* Check a Jaccard threshold: 22023 unless 0 < t <= 1. */
extern void textfp_check_threshold(double t);

/* Fields of a set_overlap_query or set_jaccard_query row: the set (NULL if
 * null), min_shared (22023 unless >= 1), threshold (22023 unless in (0, 1]) */
extern ArrayType *textfp_query_set(HeapTupleHeader q);
extern int32 textfp_overlap_query_min_shared(HeapTupleHeader q);
extern double textfp_jaccard_query_threshold(HeapTupleHeader q);

/*
 * Append n hashes to a set being collected (a hash_buf of minhash.h, passed
 * as void *): when the buffer is full and holds 65,536 values or more, its
 * duplicates are dropped before it grows, so a long repetitive text needs
 * memory for its distinct values, not for every occurrence.  Checks for
 * interrupts.
 */
extern void textfp_collect_distinct(void *buf, const uint64 *h, size_t n);

#endif							/* TEXTFP_SETS_H */
