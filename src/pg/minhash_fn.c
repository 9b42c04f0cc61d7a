/*
 * minhash_fn.c -- minhash(): MinHash signatures of texts; shingles() and
 * shingle_jaccard(): the exact shingle sets and their Jaccard similarity,
 * for verification
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "minhash.h"
#include "tfp_sort.h"

extern MinHash *minhash_make(int k, int ngram, int shingle, unsigned fold, bool empty);

static void
minhash_sink(void *arg, const uint64_t *hashes, size_t n)
{
	textfp_interrupt_tick();
	if (n > 0)
		tfp_minhash_add((tfp_minhash_acc *) arg, hashes, n);
}

/*
 * minhash(body text, k int4, ngram int4, shingle int4, fold_case bool,
 *		   fold_width bool, fold_han bool) returns minhash
 */
PG_FUNCTION_INFO_V1(minhash_text);
Datum
minhash_text(PG_FUNCTION_ARGS)
{
	text	   *body = PG_GETARG_TEXT_PP(0);
	int32		k = PG_GETARG_INT32(1);
	tfp_feature_opts o;
	tfp_minhash_acc acc;
	const char *s;
	size_t		len;
	MinHash    *m;
	uint8	   *full;

	if (k < 1 || k > TFP_MINHASH_MAX_K)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be between 1 and %d, not %d", TFP_MINHASH_MAX_K, k),
				 errdetail("k is the number of values in a minhash signature.")));
	textfp_feature_opts(&o, PG_GETARG_INT32(2), PG_GETARG_INT32(3),
						PG_GETARG_BOOL(4), PG_GETARG_BOOL(5), PG_GETARG_BOOL(6));
	s = textfp_text_utf8(body, &len);
	m = minhash_make(k, o.ngram, o.shingle, o.fold, false);
	full = palloc(k);
	tfp_minhash_init(&acc, k, m->v, full);
	tfp_extract_features(s, len, &o, minhash_sink, &acc);
	if (!tfp_minhash_finish(&acc))
	{
		pfree(m);
		m = minhash_make(k, o.ngram, o.shingle, o.fold, true);
	}
	pfree(full);
	PG_RETURN_POINTER(m);
}

/* Collect feature hashes into a growing array (hash_buf, minhash.h). */
void
textfp_collect_sink(void *arg, const uint64_t *hashes, size_t n)
{
	hash_buf   *b = (hash_buf *) arg;

	textfp_interrupt_tick();
	if (n == 0)
		return;
	if (b->n + n > b->cap)
	{
		size_t		cap = Max(b->cap * 2, b->n + n);

		if (cap > MaxAllocHugeSize / sizeof(uint64))
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("text has too many shingles"),
					 errdetail("More than %zu features.", MaxAllocHugeSize / sizeof(uint64))));
		b->h = repalloc_huge(b->h, cap * sizeof(uint64));
		b->cap = cap;
	}
	memcpy(b->h + b->n, hashes, n * sizeof(uint64));
	b->n += n;
}

/* Sort and deduplicate the hashes of b (a bucket sort, with scratch space). */
void
textfp_sort_unique(hash_buf *b)
{
	uint64	   *scratch = NULL;

	if (b->n >= 64)
		scratch = palloc_extended(b->n * sizeof(uint64), MCXT_ALLOC_HUGE);
	b->n = tfp_sort_unique_u64(b->h, b->n, scratch);
	if (scratch)
		pfree(scratch);
}

/* The distinct feature hashes of a UTF-8 text, sorted as int8 (palloc'd;
 * *n of them); *nhan and *total (if not NULL): how many features the text
 * has, and how many of them are Han features. */
uint64 *
textfp_shingle_set_utf8(const char *s, size_t len, const tfp_feature_opts *o, size_t *n,
						uint64 *nhan, uint64 *total)
{
	hash_buf	b;
	uint64_t	h,
				t;

	b.cap = 256;
	b.n = 0;
	b.h = palloc(b.cap * sizeof(uint64));
	t = tfp_extract_features_counted(s, len, o, textfp_collect_sink, &b, &h);
	textfp_sort_unique(&b);
	*n = b.n;
	if (nhan)
		*nhan = h;
	if (total)
		*total = t;
	return b.h;
}

/* The feature hashes of a UTF-8 text in text order (palloc'd, *n). */
uint64 *
textfp_feature_seq_utf8(const char *s, size_t len, const tfp_feature_opts *o, size_t *n)
{
	return textfp_feature_seq_counted_utf8(s, len, o, n, NULL);
}

/* The same, and how many of them are Han features (*nhan, if not NULL). */
uint64 *
textfp_feature_seq_counted_utf8(const char *s, size_t len, const tfp_feature_opts *o,
								size_t *n, uint64 *nhan)
{
	hash_buf	b;
	uint64_t	h;

	b.cap = 256;
	b.n = 0;
	b.h = palloc(b.cap * sizeof(uint64));
	tfp_extract_features_counted(s, len, o, textfp_collect_sink, &b, &h);
	*n = b.n;
	if (nhan)
		*nhan = h;
	return b.h;
}

/* The distinct values of v[0..n), sorted as int8 (a palloc'd copy, *nout). */
uint64 *
textfp_sorted_set(const uint64 *v, size_t n, size_t *nout)
{
	hash_buf	b;

	b.cap = Max(n, 1);
	b.n = n;
	b.h = palloc_extended(b.cap * sizeof(uint64), MCXT_ALLOC_HUGE);
	memcpy(b.h, v, n * sizeof(uint64));
	textfp_sort_unique(&b);
	*nout = b.n;
	return b.h;
}

/* The distinct feature hashes of a text, sorted as int8. */
void
textfp_shingle_set(text *body, const tfp_feature_opts *o, hash_buf *b)
{
	const char *s;
	size_t		len;

	s = textfp_text_utf8(body, &len);
	b->h = textfp_shingle_set_utf8(s, len, o, &b->n, NULL, NULL);
	b->cap = b->n;
}

/*
 * shingles(body text, ngram int4, shingle int4, fold_case bool,
 *			fold_width bool, fold_han bool) returns int8[]
 */
PG_FUNCTION_INFO_V1(shingles_text);
Datum
shingles_text(PG_FUNCTION_ARGS)
{
	tfp_feature_opts o;
	hash_buf	b;
	ArrayType  *r;

	textfp_feature_opts(&o, PG_GETARG_INT32(1), PG_GETARG_INT32(2),
						PG_GETARG_BOOL(3), PG_GETARG_BOOL(4), PG_GETARG_BOOL(5));
	textfp_shingle_set(PG_GETARG_TEXT_PP(0), &o, &b);
	if (b.n > (MaxAllocSize - ARR_OVERHEAD_NONULLS(1)) / sizeof(int64))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("text has too many shingles for an array"),
				 errdetail("It has %zu distinct shingles; an int8[] holds at most %zu.",
						   b.n, (size_t) ((MaxAllocSize - ARR_OVERHEAD_NONULLS(1)) / sizeof(int64)))));
	r = textfp_int8_array((const int64 *) b.h, (int) b.n);
	PG_RETURN_ARRAYTYPE_P(r);
}

static double
jaccard_sets(const hash_buf *a, const hash_buf *b)
{
	size_t		inter;

	if (a->n == 0 && b->n == 0)
		return 0.0;				/* empty texts are similar to nothing */
	inter = tfp_intersect_count_u64(a->h, a->n, b->h, b->n);
	return (double) inter / (double) (a->n + b->n - inter);
}

/*
 * shingle_jaccard(a text, b text, ngram int4, shingle int4, fold_case bool,
 *				   fold_width bool, fold_han bool) returns float8
 */
PG_FUNCTION_INFO_V1(shingle_jaccard_text);
Datum
shingle_jaccard_text(PG_FUNCTION_ARGS)
{
	tfp_feature_opts o;
	hash_buf	a,
				b;

	textfp_feature_opts(&o, PG_GETARG_INT32(2), PG_GETARG_INT32(3),
						PG_GETARG_BOOL(4), PG_GETARG_BOOL(5), PG_GETARG_BOOL(6));
	textfp_shingle_set(PG_GETARG_TEXT_PP(0), &o, &a);
	textfp_shingle_set(PG_GETARG_TEXT_PP(1), &o, &b);
	PG_RETURN_FLOAT8(jaccard_sets(&a, &b));
}

/* An int8[] without nulls as a sorted, duplicate-free set. */
static void
int8_array_set(ArrayType *arr, const char *what, hash_buf *b)
{
	int			n;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be a one-dimensional array", what),
				 errdetail("The array has %d dimensions.", ARR_NDIM(arr))));
	if (ARR_HASNULL(arr) && array_contains_nulls(arr))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not contain nulls", what),
				 errdetail("A shingle set is a set of int8 hashes.")));
	n = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	b->n = b->cap = (size_t) n;
	b->h = palloc((Max(n, 1)) * sizeof(uint64));
	if (n)
		memcpy(b->h, ARR_DATA_PTR(arr), n * sizeof(uint64));
	textfp_sort_unique(b);
}

/* shingle_jaccard(a int8[], b int8[]) returns float8: exact, of the sets */
PG_FUNCTION_INFO_V1(shingle_jaccard_sets);
Datum
shingle_jaccard_sets(PG_FUNCTION_ARGS)
{
	hash_buf	a,
				b;

	int8_array_set(PG_GETARG_ARRAYTYPE_P(0), "a", &a);
	int8_array_set(PG_GETARG_ARRAYTYPE_P(1), "b", &b);
	PG_RETURN_FLOAT8(jaccard_sets(&a, &b));
}
