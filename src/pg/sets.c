/*
 * sets.c -- queries over sets of 64-bit hashes (int8[]): "shares at least m
 * values" (int8[] %& set_overlap_query) and "Jaccard similarity at least t"
 * (int8[] % set_jaccard_query), for spot signatures, sentence hashes,
 * super-shingles and any other such set; the GIN class int8_set_ops that
 * answers both is in sets_gin.c
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "funcapi.h"
#include "utils/array.h"

#include "minhash.h"
#include "tfp_sort.h"
#include "pinyin.h"
#include "sets.h"

const int64 *
textfp_set_view(ArrayType *a, int *n)
{
	if (ARR_ELEMTYPE(a) != INT8OID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("array of int8 expected")));
	if (!ARR_HASNULL(a))
	{
		int			nitems = ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a));
		const int64 *v = (const int64 *) ARR_DATA_PTR(a);
		int			i;

		for (i = 1; i < nitems; i++)
			if (v[i - 1] >= v[i])
				break;
		if (i >= nitems)
		{
			*n = nitems;
			return v;
		}
	}
	return pinyin_sorted_set(a, n);
}

void
textfp_collect_distinct(void *buf, const uint64 *h, size_t n)
{
	hash_buf   *b = (hash_buf *) buf;

	/*
	 * Full: drop the duplicates first; if that frees half of the buffer,
	 * append without growing (each such sort is paid for by the cap / 2
	 * appends before the next one), else let it grow.
	 */
	if (b->n + n > b->cap && b->cap >= 65536)
	{
		textfp_sort_unique(b);
		if (b->n <= b->cap / 2 && b->n + n <= b->cap)
		{
			memcpy(b->h + b->n, h, n * sizeof(uint64));
			b->n += n;
			textfp_interrupt_tick();
			return;
		}
	}
	textfp_collect_sink(b, h, n);
}

void
textfp_check_threshold(double t)
{
	if (!(t > 0 && t <= 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("threshold must be greater than 0 and at most 1, not %g", t),
				 errdetail("The threshold is a Jaccard similarity.")));
}

int32
textfp_jaccard_min_shared(double t, int32 n)
{
	/* the least m with m / n >= t (and m >= 1), by the same double division */
	return minhash_min_matches(t, n);
}

int32
textfp_jaccard_max_size(double t, int32 n)
{
	double		x = (double) n / t;
	int64		l;

	if (x >= (double) PG_INT32_MAX)
		return PG_INT32_MAX;
	l = (int64) x;
	if (l < n)
		l = n;
	while (l < PG_INT32_MAX && (double) n / (double) (l + 1) >= t)
		l++;
	while (l > n && (double) n / (double) l < t)
		l--;
	return (int32) l;
}

ArrayType *
textfp_query_set(HeapTupleHeader q)
{
	bool		isnull;
	Datum		d = GetAttributeByNum(q, 1, &isnull);

	return isnull ? NULL : DatumGetArrayTypeP(d);
}

int32
textfp_overlap_query_min_shared(HeapTupleHeader q)
{
	bool		isnull;
	Datum		d = GetAttributeByNum(q, 2, &isnull);

	if (isnull || DatumGetInt32(d) < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_shared must be at least 1"),
				 errdetail("A set_overlap_query asks for sets sharing at least min_shared values.")));
	return DatumGetInt32(d);
}

double
textfp_jaccard_query_threshold(HeapTupleHeader q)
{
	bool		isnull;
	Datum		d = GetAttributeByNum(q, 2, &isnull);

	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("threshold must not be null"),
				 errdetail("A set_jaccard_query asks for sets whose Jaccard similarity is at least the threshold.")));
	textfp_check_threshold(DatumGetFloat8(d));
	return DatumGetFloat8(d);
}

/* a query composite of the function's result type: (argument 0, second) */
Datum
textfp_make_query(FunctionCallInfo fcinfo, Datum second)
{
	TupleDesc	td;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (get_call_result_type(fcinfo, NULL, &td) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	td = BlessTupleDesc(td);
	values[0] = PG_GETARG_DATUM(0);
	values[1] = second;
	return HeapTupleGetDatum(heap_form_tuple(td, values, nulls));
}

/* set_overlap_query(set int8[], min_shared int4) returns set_overlap_query */
PG_FUNCTION_INFO_V1(set_overlap_query_make);
Datum
set_overlap_query_make(PG_FUNCTION_ARGS)
{
	int32		m = PG_GETARG_INT32(1);

	if (m < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_shared must be at least 1, not %d", m),
				 errdetail("A set_overlap_query asks for sets sharing at least min_shared values.")));
	PG_RETURN_DATUM(textfp_make_query(fcinfo, Int32GetDatum(m)));
}

/* set_jaccard_query(set int8[], threshold float8) returns set_jaccard_query */
PG_FUNCTION_INFO_V1(set_jaccard_query_make);
Datum
set_jaccard_query_make(PG_FUNCTION_ARGS)
{
	float8		t = PG_GETARG_FLOAT8(1);

	textfp_check_threshold(t);
	PG_RETURN_DATUM(textfp_make_query(fcinfo, Float8GetDatum(t)));
}

/*
 * The sets of a row (a) and of a query (q) as sorted distinct values; false
 * if the query has no set or an empty one (then nothing matches).
 */
static bool
row_and_query(ArrayType *a, ArrayType *q, const int64 **x, int *na,
			  const int64 **y, int *nq)
{
	if (q == NULL)
		return false;
	*y = textfp_set_view(q, nq);
	if (*nq == 0)
		return false;
	*x = textfp_set_view(a, na);
	return true;
}

/*
 * int8[] %& set_overlap_query: the array shares at least min_shared distinct
 * non-null values with the query's set
 */
PG_FUNCTION_INFO_V1(set_overlap_match);
Datum
set_overlap_match(PG_FUNCTION_ARGS)
{
	ArrayType  *a = PG_GETARG_ARRAYTYPE_P(0);
	HeapTupleHeader qt = PG_GETARG_HEAPTUPLEHEADER(1);
	int32		m = textfp_overlap_query_min_shared(qt);
	const int64 *x,
			   *y;
	int			na,
				nq;

	if (!row_and_query(a, textfp_query_set(qt), &x, &na, &y, &nq) || nq < m || na < m)
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(tfp_intersect_count_u64((const uint64_t *) x, na,
										   (const uint64_t *) y, nq) >= (size_t) m);
}

/*
 * int8[] % set_jaccard_query: J(A, Q) = |A n Q| / |A u Q| >= t, as a double
 * division (0 when both sets are empty, so never true: t > 0).
 *
 * The size bounds, SpotSigs' partition bound (Theobald et al. 2008:
 * J(A, B) <= |A| / |B| for |A| <= |B|), used here to answer without
 * intersecting, and by int8_set_ops (sets_gin.c) to skip rows in the index:
 *
 *  1. |A n Q| >= m = textfp_jaccard_min_shared(t, |Q|), hence |A| >= m.
 *     |A u Q| >= |Q|, so |A n Q| / |A u Q| <= |A n Q| / |Q| as real
 *     numbers, and correctly rounded division is monotone, so
 *     fl(|A n Q| / |A u Q|) <= fl(|A n Q| / |Q|).  If the answer is true,
 *     t <= fl(|A n Q| / |Q|), and m is the least count whose quotient by |Q|
 *     reaches t (fl(x / |Q|) grows with x): |A n Q| >= m.
 *  2. |A| <= M = textfp_jaccard_max_size(t, |Q|) when |A| >= |Q|.
 *     |A n Q| <= |Q| and |A u Q| >= |A|, so fl(|A n Q| / |A u Q|) <=
 *     fl(|Q| / |A|), which falls as |A| grows; M is the largest size at which
 *     it still reaches t: beyond M the answer is false.
 */
PG_FUNCTION_INFO_V1(set_jaccard_match);
Datum
set_jaccard_match(PG_FUNCTION_ARGS)
{
	ArrayType  *a = PG_GETARG_ARRAYTYPE_P(0);
	HeapTupleHeader qt = PG_GETARG_HEAPTUPLEHEADER(1);
	double		t = textfp_jaccard_query_threshold(qt);
	const int64 *x,
			   *y;
	int			na,
				nq;
	size_t		inter;

	if (!row_and_query(a, textfp_query_set(qt), &x, &na, &y, &nq) ||
		na < textfp_jaccard_min_shared(t, nq) || na > textfp_jaccard_max_size(t, nq))
		PG_RETURN_BOOL(false);
	inter = tfp_intersect_count_u64((const uint64_t *) x, na, (const uint64_t *) y, nq);
	PG_RETURN_BOOL((double) inter / (double) ((size_t) na + nq - inter) >= t);
}

/*
 * set_jaccard_min_shared(n int4, threshold float8) returns int4 and
 * set_jaccard_max_size(n int4, threshold float8) returns int4: the bounds
 * proved at set_jaccard_match, for queries that partition or index rows by
 * set size (n >= 1; 22023 otherwise)
 */
static int32
query_size_arg(FunctionCallInfo fcinfo)
{
	int32		n = PG_GETARG_INT32(0);

	if (n < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("n must be at least 1, not %d", n),
				 errdetail("n is the number of values of the query set.")));
	textfp_check_threshold(PG_GETARG_FLOAT8(1));
	return n;
}

PG_FUNCTION_INFO_V1(set_jaccard_min_shared);
Datum
set_jaccard_min_shared(PG_FUNCTION_ARGS)
{
	int32		n = query_size_arg(fcinfo);

	PG_RETURN_INT32(textfp_jaccard_min_shared(PG_GETARG_FLOAT8(1), n));
}

PG_FUNCTION_INFO_V1(set_jaccard_max_size);
Datum
set_jaccard_max_size(PG_FUNCTION_ARGS)
{
	int32		n = query_size_arg(fcinfo);

	PG_RETURN_INT32(textfp_jaccard_max_size(PG_GETARG_FLOAT8(1), n));
}
