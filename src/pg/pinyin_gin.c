/*
 * pinyin_gin.c -- GIN operator class pinyin_dna_ops for int8[] (window DNAs):
 * "shares at least m distinct values with the query" (operator %&)
 *
 * Keys are the distinct non-null int8 values of an array (storage int8,
 * compared with btint8cmp).  The query pinyin_dna_query(dna, m) gives the
 * distinct non-null values of dna as query keys and m through extra_data.
 */
#include "postgres.h"

#include "access/gin.h"
#include "access/stratnum.h"
#include "fmgr.h"
#include "miscadmin.h"

#include "textfp.h"
#include "pinyin.h"

#define PINYIN_DNA_STRATEGY 1

static Datum *
keys_of(ArrayType *a, int32 *nkeys)
{
	int			n;
	int64	   *v = pinyin_sorted_set(a, &n);
	Datum	   *keys = palloc(sizeof(Datum) * (n > 0 ? n : 1));

	for (int i = 0; i < n; i++)
		keys[i] = Int64GetDatum(v[i]);
	*nkeys = n;
	return keys;
}

/* extractValue(int8[], internal nkeys, internal nullFlags) */
PG_FUNCTION_INFO_V1(pinyin_dna_gin_extract_value);
Datum
pinyin_dna_gin_extract_value(PG_FUNCTION_ARGS)
{
	ArrayType  *a = PG_GETARG_ARRAYTYPE_P(0);
	int32	   *nkeys = (int32 *) PG_GETARG_POINTER(1);
	bool	  **nullFlags = (bool **) PG_GETARG_POINTER(2);

	*nullFlags = NULL;
	PG_RETURN_POINTER(keys_of(a, nkeys));
}

/*
 * extractQuery(pinyin_dna_query, internal nkeys, int2 strategy,
 *				internal partial_matches, internal extra_data,
 *				internal nullFlags, internal searchMode)
 *
 * A row can share at most nkeys distinct values with the query, so when
 * m > nkeys no row qualifies: we return no keys with the default search
 * mode, which GIN treats as an unsatisfiable query.
 */
PG_FUNCTION_INFO_V1(pinyin_dna_gin_extract_query);
Datum
pinyin_dna_gin_extract_query(PG_FUNCTION_ARGS)
{
	HeapTupleHeader q = PG_GETARG_HEAPTUPLEHEADER(0);
	int32	   *nkeys = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	Pointer   **extra_data = (Pointer **) PG_GETARG_POINTER(4);
	bool	  **nullFlags = (bool **) PG_GETARG_POINTER(5);
	int32	   *searchMode = (int32 *) PG_GETARG_POINTER(6);
	ArrayType  *dna;
	int32		m;
	int32	   *mp;
	Datum	   *keys;

	if (strategy != PINYIN_DNA_STRATEGY)
		elog(ERROR, "pinyin_dna_ops: unknown strategy %d", strategy);
	pinyin_query_fields(q, &dna, &m);
	*nullFlags = NULL;
	*searchMode = GIN_SEARCH_MODE_DEFAULT;
	if (dna == NULL)
	{
		*nkeys = 0;
		PG_RETURN_POINTER(NULL);
	}
	keys = keys_of(dna, nkeys);
	if (m > *nkeys)
	{
		*nkeys = 0;
		PG_RETURN_POINTER(keys);
	}
	mp = palloc(sizeof(int32));
	*mp = m;
	*extra_data = palloc(sizeof(Pointer) * *nkeys);
	for (int i = 0; i < *nkeys; i++)
		(*extra_data)[i] = (Pointer) mp;
	PG_RETURN_POINTER(keys);
}

/* queries with this many keys check for interrupts in every consistent call */
#define INTERRUPT_KEYS 1024

/*
 * consistent(internal check, int2 strategy, pinyin_dna_query, int4 nkeys,
 *			  internal extra_data, internal recheck, internal queryKeys,
 *			  internal nullFlags)
 *
 * check[i] is true iff the row's array contains query key i; the keys are
 * the distinct values of the query, so the number of true entries is
 * exactly the number of distinct values shared with the query: the answer
 * is exact (no recheck).
 */
PG_FUNCTION_INFO_V1(pinyin_dna_gin_consistent);
Datum
pinyin_dna_gin_consistent(PG_FUNCTION_ARGS)
{
	bool	   *check = (bool *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(5);
	int32		m = *(int32 *) extra_data[0];
	int32		k = 0;

	*recheck = false;
	/* each call is O(nkeys), and GIN may call it nkeys times (see below) */
	if (nkeys >= INTERRUPT_KEYS)
		CHECK_FOR_INTERRUPTS();
	for (int i = 0; i < nkeys; i++)
		if (check[i])
			k++;
	PG_RETURN_BOOL(k >= m);
}

/*
 * triConsistent(internal check, int2 strategy, pinyin_dna_query,
 *				 int4 nkeys, internal extra_data, internal queryKeys,
 *				 internal nullFlags)
 *
 * Bound: with t keys GIN_TRUE and u GIN_MAYBE, the row shares between t and
 * t + u of the query's distinct values (each GIN_FALSE key is absent, each
 * GIN_TRUE present, each GIN_MAYBE either).  So t >= m means every
 * possibility qualifies (GIN_TRUE), t + u < m means none does (GIN_FALSE),
 * anything else is GIN_MAYBE.  Never GIN_FALSE for a row that has m shared
 * values: the pruning loses no result.
 */
PG_FUNCTION_INFO_V1(pinyin_dna_gin_triconsistent);
Datum
pinyin_dna_gin_triconsistent(PG_FUNCTION_ARGS)
{
	GinTernaryValue *check = (GinTernaryValue *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	int32		m = *(int32 *) extra_data[0];
	int32		t = 0,
				u = 0;

	/*
	 * GIN's scan start calls this once per query key, each call O(nkeys): a
	 * query of n distinct values costs O(n^2) before the first row (0.7 s at
	 * 4,000 values, 3.7 s at 16,000).  Stay cancellable however long it takes.
	 */
	if (nkeys >= INTERRUPT_KEYS)
		CHECK_FOR_INTERRUPTS();
	for (int i = 0; i < nkeys; i++)
	{
		if (check[i] == GIN_TRUE)
			t++;
		else if (check[i] == GIN_MAYBE)
			u++;
	}
	if (t >= m)
		PG_RETURN_GIN_TERNARY_VALUE(GIN_TRUE);
	if (t + u >= m)
		PG_RETURN_GIN_TERNARY_VALUE(GIN_MAYBE);
	PG_RETURN_GIN_TERNARY_VALUE(GIN_FALSE);
}
