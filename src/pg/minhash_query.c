/*
 * minhash_query.c -- "sig % minhash_query(q, threshold)": the minhash %
 * operator with its threshold carried by the right operand instead of the
 * session setting textfp.minhash_threshold.
 *
 * A setting stays on the node where it is set: Citus (or postgres_fdw)
 * sends a query to other nodes without it, and there "sig % q" answers
 * with their own threshold (0.5 by default).  A threshold in the operand
 * travels with the query.  The operator is exactly "sig % q" with
 * textfp.minhash_threshold set to the threshold (the same count of equal
 * positions, minhash_min_matches), and minhash_lsh_ops answers it as
 * strategy 2 with the same candidate rule (minhash_gin.c).
 */
#include "postgres.h"

#include "funcapi.h"
#include "utils/builtins.h"

#include "minhash.h"

/* 22023 unless 0 <= t <= 1 (the range of textfp.minhash_threshold) */
static void
check_minhash_threshold(double t)
{
	if (!(t >= 0 && t <= 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("threshold must be between 0 and 1, not %g", t),
				 errdetail("The threshold is an estimated Jaccard similarity, as textfp.minhash_threshold.")));
}

/*
 * The signature and threshold of a minhash_query; false when the signature
 * is NULL (a query that matches nothing).  A NULL or out-of-range threshold
 * is an error: a composite built without minhash_query() is checked here.
 */
bool
minhash_query_parts(HeapTupleHeader q, MinHash **sig, double *threshold)
{
	bool		isnull;
	Datum		d = GetAttributeByNum(q, 2, &isnull);

	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("threshold must not be null"),
				 errdetail("A minhash_query asks for signatures whose estimated Jaccard similarity is at least the threshold.")));
	*threshold = DatumGetFloat8(d);
	check_minhash_threshold(*threshold);
	d = GetAttributeByNum(q, 1, &isnull);
	if (isnull)
		return false;
	*sig = DatumGetMinHashP(d);
	return true;
}

/* minhash_query(sig minhash, threshold float8) returns minhash_query */
PG_FUNCTION_INFO_V1(minhash_query);
Datum
minhash_query(PG_FUNCTION_ARGS)
{
	check_minhash_threshold(PG_GETARG_FLOAT8(1));
	PG_RETURN_DATUM(textfp_make_query(fcinfo, PG_GETARG_DATUM(1)));
}

/*
 * a % minhash_query(q, t): minhash_jaccard(a, q) >= t and > 0, the test of
 * minhash_similar() with t for textfp.minhash_threshold
 */
PG_FUNCTION_INFO_V1(minhash_similar_query);
Datum
minhash_similar_query(PG_FUNCTION_ARGS)
{
	MinHash    *a = PG_GETARG_MINHASH_P(0);
	MinHash    *q;
	double		t;

	if (!minhash_query_parts(PG_GETARG_HEAPTUPLEHEADER(1), &q, &t))
		PG_RETURN_BOOL(false);
	minhash_check_compatible(a, q);
	PG_RETURN_BOOL(minhash_match_count(a, q) >= minhash_min_matches(t, a->k));
}
