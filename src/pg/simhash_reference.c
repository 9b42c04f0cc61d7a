/*
 * simhash_reference.c -- a deployment's own balance reference: the aggregate
 * simhash_reference(body, ...) (with its parallel combine) and
 * simhash(body, reference)
 *
 * A reference is an int4[] of TFP_BALANCE_REF_LEN elements:
 *
 *	 [1] layout version (1)      [2] ngram      [3] shingle
 *	 [4] fold flags: 1 width, 2 case, 4 han (TFP_FOLD_*)
 *	 [5 .. 68] thresholds of bits 0 .. 63, 16.16 fixed-point shares of the
 *			   feature count, in -65536 .. 65536
 *
 * so that it can be stored, dumped and compared like any array, and
 * simhash(body, reference) extracts the features with the options it was
 * made with.  The thresholds: tfp_simhash_balance.c.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "textfp.h"

#define REF_LEN		(4 + 64)
#define REF_LAYOUT	1

/*
 * Rows kept by the aggregate: the rows whose hash has its top `level` bits
 * zero, level raised (and the kept rows thinned) whenever SAMPLE_CAP rows are
 * held.  Which rows are kept depends only on their contents, not on the order
 * of the input; between SAMPLE_CAP / 2 and SAMPLE_CAP rows end up in the
 * sample (all of them for smaller inputs), 264 bytes each.
 */
#define SAMPLE_CAP	65536

typedef struct reference_state
{
	tfp_feature_opts opts;
	int			level;
	size_t		n,
				cap;
	int32	   *q;				/* n x 64 */
	uint64	   *exact;
	uint64	   *hash;
} reference_state;

static uint64
row_hash(const int32 *q, uint64 exact)
{
	uint64		h = tfp_fmix64(exact ^ UINT64CONST(0x74667072656631));	/* "tfpref1" */

	for (int i = 0; i < 64; i++)
		h = tfp_fmix64(h ^ (uint32) q[i]);
	return h;
}

static inline bool
row_kept(uint64 hash, int level)
{
	return level == 0 || (hash >> (64 - level)) == 0;
}

/* drop the rows the current level no longer keeps */
static void
thin(reference_state *st)
{
	size_t		o = 0;

	for (size_t r = 0; r < st->n; r++)
		if (row_kept(st->hash[r], st->level))
		{
			if (o != r)
			{
				memcpy(st->q + o * 64, st->q + r * 64, 64 * sizeof(int32));
				st->exact[o] = st->exact[r];
				st->hash[o] = st->hash[r];
			}
			o++;
		}
	st->n = o;
}

/* room for one more row (n < SAMPLE_CAP), in aggcontext */
static void
reserve_row(reference_state *st, MemoryContext aggcontext)
{
	size_t		cap;

	if (st->n < st->cap)
		return;
	cap = st->cap ? 2 * st->cap : 256;
	if (cap > SAMPLE_CAP)
		cap = SAMPLE_CAP;
	if (st->cap == 0)
	{
		st->q = MemoryContextAlloc(aggcontext, cap * 64 * sizeof(int32));
		st->exact = MemoryContextAlloc(aggcontext, cap * sizeof(uint64));
		st->hash = MemoryContextAlloc(aggcontext, cap * sizeof(uint64));
	}
	else
	{
		st->q = repalloc(st->q, cap * 64 * sizeof(int32));
		st->exact = repalloc(st->exact, cap * sizeof(uint64));
		st->hash = repalloc(st->hash, cap * sizeof(uint64));
	}
	st->cap = cap;
}

/*
 * Keep a row if the current level keeps it and there is room (the sample is
 * full only if 65,536 rows share a 63-bit hash prefix), then raise the level
 * while the sample is full.
 */
static void
add_row(reference_state *st, MemoryContext aggcontext, const int32 *q,
		uint64 exact, uint64 h)
{
	if (!row_kept(h, st->level) || st->n >= SAMPLE_CAP)
		return;
	reserve_row(st, aggcontext);
	memcpy(st->q + st->n * 64, q, 64 * sizeof(int32));
	st->exact[st->n] = exact;
	st->hash[st->n] = h;
	st->n++;
	while (st->n == SAMPLE_CAP && st->level < 63)
	{
		st->level++;
		thin(st);
	}
}

static void
check_same_opts(const tfp_feature_opts *a, const tfp_feature_opts *b)
{
	if (a->ngram != b->ngram || a->shingle != b->shingle || a->fold != b->fold)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("simhash_reference options must be the same on every row"),
				 errdetail("One reference is made with one set of feature options.")));
}

/*
 * simhash_reference_accum(state internal, body text [, ngram int4,
 *		shingle int4, fold_case bool, fold_width bool, fold_han bool])
 */
PG_FUNCTION_INFO_V1(simhash_reference_accum);
Datum
simhash_reference_accum(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext;
	reference_state *st = PG_ARGISNULL(0) ? NULL :
		(reference_state *) PG_GETARG_POINTER(0);
	tfp_feature_opts o;
	int32		q[64];
	uint64		exact;
	const char *s;
	size_t		len;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		elog(ERROR, "simhash_reference_accum called in non-aggregate context");
	if (PG_NARGS() > 2)
	{
		for (int i = 2; i < 7; i++)
			if (PG_ARGISNULL(i))
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("simhash_reference options must not be null"),
						 errdetail("Argument %d is null.", i)));
		textfp_feature_opts(&o, PG_GETARG_INT32(2), PG_GETARG_INT32(3),
							PG_GETARG_BOOL(4), PG_GETARG_BOOL(5),
							PG_GETARG_BOOL(6));
	}
	else
		textfp_feature_opts(&o, 2, 1, true, true, true);

	if (st == NULL)
	{
		st = MemoryContextAllocZero(aggcontext, sizeof(reference_state));
		st->opts = o;
	}
	else
		check_same_opts(&st->opts, &o);
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(st);

	s = textfp_text_utf8(PG_GETARG_TEXT_PP(1), &len);
	if (tfp_simhash_text_ratios(s, len, &o, textfp_interrupt_tick, q, &exact) == 0)
		PG_RETURN_POINTER(st);	/* no features: says nothing about bits */
	add_row(st, aggcontext, q, exact, row_hash(q, exact));
	PG_RETURN_POINTER(st);
}

/*
 * simhash_reference_combine(a internal, b internal) returns internal: the
 * state of both inputs, for parallel aggregation.
 *
 * It equals the state of one aggregate over both inputs (so the reference is
 * the same with or without parallel workers).  Proof: write c_L(X) for the
 * number of rows of input X whose hash has its top L bits zero; c_L falls as
 * L grows.  An aggregate over X ends at level L(X) = the least L with
 * c_L(X) < SAMPLE_CAP (it raises the level exactly when the rows kept reach
 * the cap), holding exactly the rows of X kept at that level.  Since
 * c_L(A + B) >= c_L(A), c_L(B), L(A + B) >= max(L(A), L(B)); so keeping the
 * rows of both states kept at max(L(A), L(B)), then raising the level
 * while the cap is reached, ends at L(A + B) with the rows of A + B kept
 * there.  (Past level 63 the cap truncates: only when 65,536 rows share a
 * 63-bit hash prefix.)
 */
PG_FUNCTION_INFO_V1(simhash_reference_combine);
Datum
simhash_reference_combine(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext;
	reference_state *a = PG_ARGISNULL(0) ? NULL :
		(reference_state *) PG_GETARG_POINTER(0);
	reference_state *b = PG_ARGISNULL(1) ? NULL :
		(reference_state *) PG_GETARG_POINTER(1);

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		elog(ERROR, "simhash_reference_combine called in non-aggregate context");
	if (b == NULL)
		PG_RETURN_POINTER(a);
	if (a == NULL)
	{
		a = MemoryContextAllocZero(aggcontext, sizeof(reference_state));
		a->opts = b->opts;
	}
	else
		check_same_opts(&a->opts, &b->opts);
	if (b->level > a->level)
	{
		a->level = b->level;
		thin(a);
	}
	for (size_t r = 0; r < b->n; r++)
	{
		if ((r & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
		add_row(a, aggcontext, b->q + r * 64, b->exact[r], b->hash[r]);
	}
	PG_RETURN_POINTER(a);
}

/*
 * simhash_reference_serialize(internal) returns bytea, and
 * simhash_reference_deserialize(bytea, internal) returns internal: a state
 * sent from a parallel worker to the leader (same machine, so the rows are
 * copied as they are in memory).
 */
PG_FUNCTION_INFO_V1(simhash_reference_serialize);
Datum
simhash_reference_serialize(PG_FUNCTION_ARGS)
{
	reference_state *st = (reference_state *) PG_GETARG_POINTER(0);
	StringInfoData buf;

	if (!AggCheckCallContext(fcinfo, NULL))
		elog(ERROR, "simhash_reference_serialize called in non-aggregate context");
	pq_begintypsend(&buf);
	pq_sendint32(&buf, st->opts.ngram);
	pq_sendint32(&buf, st->opts.shingle);
	pq_sendint32(&buf, (int32) st->opts.fold);
	pq_sendint32(&buf, st->level);
	pq_sendint32(&buf, (int32) st->n);
	pq_sendbytes(&buf, (const char *) st->q, st->n * 64 * sizeof(int32));
	pq_sendbytes(&buf, (const char *) st->exact, st->n * sizeof(uint64));
	pq_sendbytes(&buf, (const char *) st->hash, st->n * sizeof(uint64));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(simhash_reference_deserialize);
Datum
simhash_reference_deserialize(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	MemoryContext aggcontext;
	StringInfoData buf;
	reference_state *st;
	size_t		n;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		elog(ERROR, "simhash_reference_deserialize called in non-aggregate context");
	buf.data = VARDATA_ANY(b);
	buf.len = VARSIZE_ANY_EXHDR(b);
	buf.maxlen = buf.len;
	buf.cursor = 0;
	st = MemoryContextAllocZero(aggcontext, sizeof(reference_state));
	st->opts.ngram = pq_getmsgint(&buf, 4);
	st->opts.shingle = pq_getmsgint(&buf, 4);
	st->opts.fold = (unsigned) pq_getmsgint(&buf, 4);
	st->level = pq_getmsgint(&buf, 4);
	n = (size_t) pq_getmsgint(&buf, 4);
	if (n > SAMPLE_CAP || st->level < 0 || st->level > 63)
		elog(ERROR, "invalid simhash_reference state");
	if (n > 0)
	{
		st->cap = st->n = n;
		st->q = MemoryContextAlloc(aggcontext, n * 64 * sizeof(int32));
		st->exact = MemoryContextAlloc(aggcontext, n * sizeof(uint64));
		st->hash = MemoryContextAlloc(aggcontext, n * sizeof(uint64));
		pq_copymsgbytes(&buf, (char *) st->q, n * 64 * sizeof(int32));
		pq_copymsgbytes(&buf, (char *) st->exact, n * sizeof(uint64));
		pq_copymsgbytes(&buf, (char *) st->hash, n * sizeof(uint64));
	}
	pq_getmsgend(&buf);
	PG_RETURN_POINTER(st);
}

/* simhash_reference_final(state internal) returns int4[] */
PG_FUNCTION_INFO_V1(simhash_reference_final);
Datum
simhash_reference_final(PG_FUNCTION_ARGS)
{
	reference_state *st = PG_ARGISNULL(0) ? NULL :
		(reference_state *) PG_GETARG_POINTER(0);
	int32		thr[64];
	uint32	   *counts;
	Datum		d[REF_LEN];

	if (st == NULL || st->n == 0)
		PG_RETURN_NULL();		/* no row with features */
	counts = palloc(TFP_BALANCE_SCRATCH * sizeof(uint32));
	tfp_simhash_choose_thresholds(st->q, st->exact, st->n, thr, counts);
	pfree(counts);
	d[0] = Int32GetDatum(REF_LAYOUT);
	d[1] = Int32GetDatum(st->opts.ngram);
	d[2] = Int32GetDatum(st->opts.shingle);
	d[3] = Int32GetDatum((int32) st->opts.fold);
	for (int i = 0; i < 64; i++)
		d[4 + i] = Int32GetDatum(thr[i]);
	PG_RETURN_ARRAYTYPE_P(construct_array(d, REF_LEN, INT4OID, sizeof(int32),
										  true, TYPALIGN_INT));
}

static void
bad_reference(const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid simhash reference"),
			 errdetail("%s", detail),
			 errhint("Make references with the aggregate simhash_reference().")));
}

/* simhash(body text, reference int4[]) returns simhash */
PG_FUNCTION_INFO_V1(simhash_text_reference);
Datum
simhash_text_reference(PG_FUNCTION_ARGS)
{
	ArrayType  *a = PG_GETARG_ARRAYTYPE_P(1);
	const int32 *v;
	tfp_feature_opts o;
	const char *s;
	size_t		len;

	if (ARR_ELEMTYPE(a) != INT4OID || ARR_NDIM(a) != 1 || ARR_HASNULL(a) ||
		ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a)) != REF_LEN)
		bad_reference("A reference is a one-dimensional int4[] of 68 elements without nulls.");
	v = (const int32 *) ARR_DATA_PTR(a);
	if (v[0] != REF_LAYOUT)
		bad_reference("Its first element, the layout version, must be 1.");
	if (v[3] < 0 || v[3] > (TFP_FOLD_WIDTH | TFP_FOLD_CASE | TFP_FOLD_HAN))
		bad_reference("Its fourth element, the fold flags, must be between 0 and 7.");
	for (int i = 0; i < 64; i++)
		if (v[4 + i] < -TFP_REF_SCALE || v[4 + i] > TFP_REF_SCALE)
			bad_reference("Its thresholds (elements 5 to 68) must be between -65536 and 65536.");
	textfp_feature_opts(&o, v[1], v[2], (v[3] & TFP_FOLD_CASE) != 0,
						(v[3] & TFP_FOLD_WIDTH) != 0, (v[3] & TFP_FOLD_HAN) != 0);
	s = textfp_text_utf8(PG_GETARG_TEXT_PP(0), &len);
	PG_RETURN_SIMHASH(tfp_simhash_text_thresholds(s, len, &o, v + 4,
												  textfp_interrupt_tick, NULL));
}
