/*
 * pinyin.h -- declarations shared by pinyin.c and pinyin_gin.c
 */
#ifndef TEXTFP_PINYIN_H
#define TEXTFP_PINYIN_H

#include "postgres.h"

#include "access/htup_details.h"
#include "utils/array.h"

/* int8[] of n values */

/* the distinct non-null values of an int8[], sorted (palloc'd) */
extern int64 *pinyin_sorted_set(ArrayType *a, int *n);

/* fields of a pinyin_dna_query (22023 if min_shared is null or < 1) */
extern void pinyin_query_fields(HeapTupleHeader q, ArrayType **dna, int32 *m);

#endif							/* TEXTFP_PINYIN_H */
