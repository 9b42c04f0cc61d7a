/*
 * sets_gin.c -- GIN operator class int8_set_ops for sets of 64-bit hashes
 * (int8[]): "shares at least m values" (%& set_overlap_query, exact) and
 * "Jaccard similarity at least t" (% set_jaccard_query, exact after the
 * recheck), with SpotSigs' size partitions inside the index
 *
 * Keys of a row: its distinct non-null values, and one size key that
 * records in which size class the number of values n falls: the value
 * INT64_MIN + size_class(n).  Size classes: n itself for n <= 16, then four
 * classes per power of two (the classes split [2^b, 2^(b+1)) into quarters),
 * 128 classes in all; the sizes of one class are within a factor 1.25.
 *
 * A Jaccard query over a set Q (|Q| = q) with threshold t looks up Q's
 * values and the size keys of the classes that meet [m, M], the size bounds
 * of set_jaccard_match (sets.c, which proves them): a row qualifies only if
 * it has at least m of Q's values and a size in [m, M].  Like SpotSigs'
 * partitions, whole size classes are skipped, here inside the index: a row
 * far longer than the query (a page that quotes it among much else) shares
 * all its values but is not read from the table.
 *
 * Size keys and values share the int8 key space.  A value of a row equal to
 * a size key can only make a row look like a candidate that is not one
 * (one more value shared, or a size class it does not have), never hide one:
 * Jaccard answers are always rechecked, and an overlap query is rechecked
 * exactly when one of its values lies in the size keys' range (128 values
 * out of 2^64), so both answers are exact.
 */
#include "postgres.h"

#include "access/gin.h"
#include "access/stratnum.h"
#include "fmgr.h"
#include "port/pg_bitutils.h"

#include "textfp.h"
#include "sets.h"

#define SET_OVERLAP_STRATEGY	1
#define SET_JACCARD_STRATEGY	2

#define SIZE_CLASSES		128
#define SIZE_KEY(c)			(PG_INT64_MIN + (int64) (c))
#define IS_SIZE_KEY(v)		((v) < PG_INT64_MIN + SIZE_CLASSES)

/* size class of n >= 1 values (n < 2^31) */
static int
size_class(int64 n)
{
	int			b;

	if (n <= 16)
		return (int) n - 1;
	b = pg_leftmost_one_pos64((uint64) n);	/* >= 4 */
	return 16 + 4 * (b - 4) + (int) ((n >> (b - 2)) & 3);
}

/* what consistent needs to know about a query */
typedef struct set_query_info
{
	int			strategy;
	int32		m;				/* values to share */
	int32		nvalues;		/* keys 0 .. nvalues - 1 are values, the
								 * rest size keys */
	bool		recheck;
} set_query_info;

/* extractValue(int8[], internal nkeys, internal nullFlags) */
PG_FUNCTION_INFO_V1(int8_set_gin_extract_value);
Datum
int8_set_gin_extract_value(PG_FUNCTION_ARGS)
{
	ArrayType  *a = PG_GETARG_ARRAYTYPE_P(0);
	int32	   *nkeys = (int32 *) PG_GETARG_POINTER(1);
	bool	  **nullFlags = (bool **) PG_GETARG_POINTER(2);
	int			n;
	const int64 *v = textfp_set_view(a, &n);
	Datum	   *keys = palloc(sizeof(Datum) * (n + 1));

	for (int i = 0; i < n; i++)
		keys[i] = Int64GetDatum(v[i]);
	*nkeys = n;
	if (n > 0)
		keys[(*nkeys)++] = Int64GetDatum(SIZE_KEY(size_class(n)));
	*nullFlags = NULL;
	PG_RETURN_POINTER(keys);
}

/*
 * extractQuery(query, internal nkeys, int2 strategy, internal
 *				partial_matches, internal extra_data, internal nullFlags,
 *				internal searchMode)
 *
 * No keys in the default search mode is an unsatisfiable query for GIN: a
 * query set with fewer than m values (or empty) matches nothing.
 */
PG_FUNCTION_INFO_V1(int8_set_gin_extract_query);
Datum
int8_set_gin_extract_query(PG_FUNCTION_ARGS)
{
	HeapTupleHeader qt = PG_GETARG_HEAPTUPLEHEADER(0);
	int32	   *nkeys = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	Pointer   **extra_data = (Pointer **) PG_GETARG_POINTER(4);
	bool	  **nullFlags = (bool **) PG_GETARG_POINTER(5);
	int32	   *searchMode = (int32 *) PG_GETARG_POINTER(6);
	set_query_info *info = palloc0(sizeof(set_query_info));
	ArrayType  *q;
	const int64 *v;
	int			n,
				nk,
				lo = 0,
				hi = -1;
	Datum	   *keys;

	*nullFlags = NULL;
	*searchMode = GIN_SEARCH_MODE_DEFAULT;
	*nkeys = 0;
	info->strategy = strategy;
	if (strategy == SET_OVERLAP_STRATEGY)
		info->m = textfp_overlap_query_min_shared(qt);
	else if (strategy == SET_JACCARD_STRATEGY)
		(void) textfp_jaccard_query_threshold(qt);
	else
		elog(ERROR, "int8_set_ops: unknown strategy %d", strategy);
	q = textfp_query_set(qt);
	if (q == NULL)
		PG_RETURN_POINTER(NULL);
	v = textfp_set_view(q, &n);
	if (n == 0)
		PG_RETURN_POINTER(NULL);
	if (strategy == SET_JACCARD_STRATEGY)
	{
		double		t = textfp_jaccard_query_threshold(qt);

		info->m = textfp_jaccard_min_shared(t, n);
		info->recheck = true;
		lo = size_class(info->m);
		hi = size_class(textfp_jaccard_max_size(t, n));
		if (hi == SIZE_CLASSES - 1 && lo == 0)
			hi = -1;			/* every size: no size keys */
	}
	if (info->m > n)
		PG_RETURN_POINTER(NULL);
	keys = palloc(sizeof(Datum) * (n + (hi - lo + 1) + 1));
	for (int i = 0; i < n; i++)
	{
		keys[i] = Int64GetDatum(v[i]);
		if (IS_SIZE_KEY(v[i]))
			info->recheck = true;
	}
	nk = n;
	for (int c = lo; c <= hi; c++)
		keys[nk++] = Int64GetDatum(SIZE_KEY(c));
	info->nvalues = n;
	*extra_data = palloc(sizeof(Pointer) * nk);
	for (int i = 0; i < nk; i++)
		(*extra_data)[i] = (Pointer) info;
	*nkeys = nk;
	PG_RETURN_POINTER(keys);
}

/*
 * consistent(internal check, int2 strategy, query, int4 nkeys, internal
 *			  extra_data, internal recheck, internal queryKeys, internal
 *			  nullFlags)
 *
 * check[i] for i < nvalues: the row has query value i (the values are
 * distinct, so their count is the number of values shared, up to the size
 * key collisions explained at the top); the other keys are the size classes
 * that can hold an answer, and a row has exactly one size key.
 */
PG_FUNCTION_INFO_V1(int8_set_gin_consistent);
Datum
int8_set_gin_consistent(PG_FUNCTION_ARGS)
{
	bool	   *check = (bool *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(5);
	set_query_info *info = (set_query_info *) extra_data[0];
	int32		shared = 0;
	bool		size_ok = (nkeys == info->nvalues);

	for (int i = 0; i < info->nvalues; i++)
		shared += check[i] ? 1 : 0;
	for (int i = info->nvalues; i < nkeys && !size_ok; i++)
		size_ok = check[i];
	*recheck = info->recheck;
	PG_RETURN_BOOL(size_ok && shared >= info->m);
}

/*
 * triConsistent: with t values GIN_TRUE and u GIN_MAYBE the row shares
 * between t and t + u values; its size class is among the query's if one of
 * those keys is GIN_TRUE, may be if one is GIN_MAYBE.  GIN_FALSE only when no
 * possibility qualifies, so no answer is lost; GIN_TRUE only when every
 * possibility qualifies and no recheck is needed.
 */
PG_FUNCTION_INFO_V1(int8_set_gin_triconsistent);
Datum
int8_set_gin_triconsistent(PG_FUNCTION_ARGS)
{
	GinTernaryValue *check = (GinTernaryValue *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	set_query_info *info = (set_query_info *) extra_data[0];
	int32		t = 0,
				u = 0;
	GinTernaryValue size_ok = (nkeys == info->nvalues) ? GIN_TRUE : GIN_FALSE;

	for (int i = 0; i < info->nvalues; i++)
	{
		if (check[i] == GIN_TRUE)
			t++;
		else if (check[i] == GIN_MAYBE)
			u++;
	}
	for (int i = info->nvalues; i < nkeys && size_ok != GIN_TRUE; i++)
	{
		if (check[i] == GIN_TRUE)
			size_ok = GIN_TRUE;
		else if (check[i] == GIN_MAYBE)
			size_ok = GIN_MAYBE;
	}
	if (size_ok == GIN_FALSE || t + u < info->m)
		PG_RETURN_GIN_TERNARY_VALUE(GIN_FALSE);
	if (size_ok == GIN_TRUE && t >= info->m && !info->recheck)
		PG_RETURN_GIN_TERNARY_VALUE(GIN_TRUE);
	PG_RETURN_GIN_TERNARY_VALUE(GIN_MAYBE);
}
