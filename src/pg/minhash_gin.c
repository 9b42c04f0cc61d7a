/*
 * minhash_gin.c -- the GIN operator classes indexing the LSH bands of
 * minhash signatures, for "a % b" (estimated Jaccard >= the threshold
 * textfp.minhash_threshold): minhash_lsh_ops, the default since 1.1, and
 * minhash_lsh_1_0_ops, the class of 1.0 (named minhash_lsh_ops there), kept
 * for the indexes 1.0 built.
 *
 * A signature of k values is cut into `bands` bands of `rows` consecutive
 * values (opclass options; bands = 0, the default, means floor(k / rows)),
 * and every band becomes one int4 key: the top `key_bits` bits of a 64-bit
 * hash of the band number, the signature's parameters (version, k, ngram,
 * shingle, fold) and the band's values.  A query retrieves the rows sharing
 * at least `need` keys with it, and every candidate is rechecked with the %
 * operator itself.
 *
 * For two signatures with Jaccard similarity s, a band is equal with
 * probability about s^rows, so a row becomes a candidate (need = 1) with
 * probability 1 - (1 - s^rows)^bands, the classic LSH curve.  With the
 * defaults (rows = 3, bands = 42 for k = 128) the curve is 0.996 at s = 0.5,
 * the default threshold, and 4e-4 at s = 0.02.  Wider bands need more of
 * them for the same recall at 0.5 (rows = 4: 87 bands, more than k = 128
 * holds), narrower ones let unrelated texts through (rows = 2: 4e-4 per
 * band at s = 0.02), so the layout stays and the key width is what changes
 * between the classes.
 *
 * The classes differ only in the default of key_bits.  1.0 kept 32 bits:
 * with 42 bands nearly every key of a million rows is unique, GIN stores
 * one entry tuple of ~40 bytes per band and row (1.7 GB for a heap of
 * 558 MB) and its build accumulator holds 42M keys.  minhash_lsh_ops keeps
 * DEFAULT_KEY_BITS: 2^20 keys, each with ~40 rows in a compressed posting
 * list of a few bytes per row.  Equal bands still have equal keys, which is
 * all the exactness bound needs (see minhash_gin_extract_query); unequal
 * bands share a key more often, which only adds candidates that the recheck
 * removes.  Measured at 1M signatures (test/bench/minhash.sh, README
 * "MinHash LSH search"): 332 MB instead of 1,729 MB, built in 94 s instead
 * of 205 s, for ~1,700 more candidates per query (p50 5.9 ms instead of
 * 1.2 ms); 20 is the widest width that keeps the index under the heap and
 * the build under 2 minutes (22 bits: 379 MB, 122 s, p50 2.0 ms).
 */
#include "postgres.h"

#include "access/gin.h"
#include "access/reloptions.h"
#include "access/stratnum.h"

#include "minhash.h"

#define MINHASH_KEY_SEED	UINT64_C(0x746670316c736862)	/* "tfp1lshb" */

typedef struct MinHashLshOptions
{
	int32		vl_len_;
	int			bands;			/* 0: k / rows */
	int			rows;
	int			key_bits;		/* bits of the band hash kept in a key */
} MinHashLshOptions;

#define DEFAULT_ROWS		3
#define DEFAULT_KEY_BITS	20	/* minhash_lsh_ops; test/bench/minhash.sh */
#define KEY_BITS_1_0		32	/* minhash_lsh_1_0_ops: the keys of 1.0 */
#define MIN_KEY_BITS		8

/*
 * The options of both classes, with the class's default key width.  The
 * options of an index are stored as text and parsed again by this function,
 * so an index of 1.0 (no key_bits) gets KEY_BITS_1_0, the keys it holds.
 */
static void
lsh_options(local_relopts *relopts, int default_key_bits)
{
	init_local_reloptions(relopts, sizeof(MinHashLshOptions));
	add_local_int_reloption(relopts, "bands",
							"number of LSH bands (0: k / rows)",
							0, 0, TFP_MINHASH_MAX_K,
							offsetof(MinHashLshOptions, bands));
	add_local_int_reloption(relopts, "rows",
							"number of signature values per LSH band",
							DEFAULT_ROWS, 1, TFP_MINHASH_MAX_K,
							offsetof(MinHashLshOptions, rows));
	add_local_int_reloption(relopts, "key_bits",
							"bits of each band's hash kept in its index key",
							default_key_bits, MIN_KEY_BITS, 32,
							offsetof(MinHashLshOptions, key_bits));
}

/* minhash_lsh_1_0_ops (minhash_lsh_ops in 1.0): 32-bit keys by default */
PG_FUNCTION_INFO_V1(minhash_gin_options);
Datum
minhash_gin_options(PG_FUNCTION_ARGS)
{
	lsh_options((local_relopts *) PG_GETARG_POINTER(0), KEY_BITS_1_0);
	PG_RETURN_VOID();
}

/* minhash_lsh_ops since 1.1: DEFAULT_KEY_BITS-bit keys by default */
PG_FUNCTION_INFO_V1(minhash_lsh_options);
Datum
minhash_lsh_options(PG_FUNCTION_ARGS)
{
	lsh_options((local_relopts *) PG_GETARG_POINTER(0), DEFAULT_KEY_BITS);
	PG_RETURN_VOID();
}

/*
 * The band layout and key width for signature m under the index options;
 * checked.  Without options (never the case with an options function, kept
 * for safety) the layout is that of 1.0.
 */
static void
band_layout(FunctionCallInfo fcinfo, const MinHash *m, int *bands, int *rows,
			int *key_bits)
{
	int			b = 0,
				r = DEFAULT_ROWS;

	*key_bits = KEY_BITS_1_0;
	if (PG_HAS_OPCLASS_OPTIONS())
	{
		MinHashLshOptions *opts = (MinHashLshOptions *) PG_GET_OPCLASS_OPTIONS();

		b = opts->bands;
		r = opts->rows;
		*key_bits = opts->key_bits;
	}
	if (b == 0)
		b = m->k / r;
	if (b < 1 || (int64) b * r > m->k)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("minhash signature is too short for the index's bands"),
				 errdetail("The index uses %d band(s) of %d row(s), %d values; the signature has k = %d.",
						   Max(b, 1), r, Max(b, 1) * r, m->k),
				 errhint("Use a larger k, or fewer bands or rows in the operator class options.")));
	*bands = b;
	*rows = r;
}

/*
 * The int4 keys of the bands of a non-empty signature: the top key_bits bits
 * of each band's 64-bit hash (with 32, the keys of 1.0).
 */
static Datum *
band_keys(const MinHash *m, int bands, int rows, int key_bits)
{
	Datum	   *keys = palloc(sizeof(Datum) * bands);
	uint64		params = (uint64) m->version | ((uint64) m->ngram << 8) |
		((uint64) m->shingle << 16) |
		((uint64) (m->flags & MINHASH_FOLD_MASK) << 24) |
		((uint64) m->k << 32);
	int			j,
				i;

	for (j = 0; j < bands; j++)
	{
		uint64		h = tfp_fmix64(MINHASH_KEY_SEED ^ ((uint64) j * UINT64_C(0x9e3779b97f4a7c15)) ^ params);
		const uint32 *v = m->v + (size_t) j * rows;

		for (i = 0; i < rows; i++)
			h = tfp_fmix64(h ^ v[i]) + (uint64) i;
		keys[j] = Int32GetDatum((int32) (uint32) (h >> (64 - key_bits)));
	}
	return keys;
}

PG_FUNCTION_INFO_V1(minhash_gin_extract_value);
Datum
minhash_gin_extract_value(PG_FUNCTION_ARGS)
{
	MinHash    *m = PG_GETARG_MINHASH_P(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	int			bands,
				rows,
				key_bits;

	band_layout(fcinfo, m, &bands, &rows, &key_bits);
	if (MinHashIsEmpty(m))
	{
		/* an empty text is similar to nothing: no keys */
		*nentries = 0;
		PG_RETURN_POINTER(NULL);
	}
	*nentries = bands;
	PG_RETURN_POINTER(band_keys(m, bands, rows, key_bits));
}

/*
 * extractQuery: the query's band keys, and in extra_data the number `need`
 * of them a row must share to be a candidate.
 *
 * Let k be the query's k, m = minhash_min_matches(t, k) the least number of
 * equal positions for which "a % b" holds (estimate >= t and > 0), and b the
 * number of bands.  Rows with other parameters than the query have other
 * keys (the parameters are hashed into every key) and could only raise an
 * error in the operator, so consider a row with the same parameters for
 * which a % q holds: at most k - m of its positions differ from the
 * query's.  A band differs only if one of its positions differs, and bands
 * are disjoint, so at most k - m bands differ and at least b - (k - m) bands
 * are equal, and an equal band has an equal key: the key is a function of
 * the band, whatever its width (key_bits).  Narrower keys only make
 * unequal bands share keys more often, which adds candidates, never loses
 * one, and the operator rechecks them.  So requiring
 * need = b - (k - m) shared keys loses no row that satisfies the operator:
 * when b - (k - m) >= 1, i.e. t >= (k - b + 1) / k, the index returns
 * exactly what a sequential scan returns.  Below that bound we require one
 * shared band (need = 1): that is the LSH approximation, which may miss a
 * row (probability (1 - s^rows)^bands for similarity s), never returns a
 * wrong one (every candidate is rechecked with the operator).  An empty
 * query, or m > k (t > 1), can match nothing: no keys, no rows.
 *
 * Strategy 2 (% minhash_query(q, t), minhash_query.c) is the same search
 * with the operand's t for textfp.minhash_threshold; a NULL signature in
 * the operand matches nothing.
 */
PG_FUNCTION_INFO_V1(minhash_gin_extract_query);
Datum
minhash_gin_extract_query(PG_FUNCTION_ARGS)
{
	MinHash    *q = NULL;
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	Pointer   **extra_data = (Pointer **) PG_GETARG_POINTER(4);
	int32	   *searchMode = (int32 *) PG_GETARG_POINTER(6);
	int			bands,
				rows,
				key_bits,
				m,
				need,
				j;
	int32	   *needp;
	double		t = textfp_minhash_threshold;

	*searchMode = GIN_SEARCH_MODE_DEFAULT;
	if (strategy == 2)
	{
		/* % minhash_query(q, t): the same rule with the operand's t */
		if (!minhash_query_parts(DatumGetHeapTupleHeader(PG_GETARG_DATUM(0)), &q, &t))
		{
			*nentries = 0;
			PG_RETURN_POINTER(NULL);
		}
	}
	else if (strategy != 1)
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	else
		q = PG_GETARG_MINHASH_P(0);
	band_layout(fcinfo, q, &bands, &rows, &key_bits);
	m = minhash_min_matches(t, q->k);
	if (MinHashIsEmpty(q) || m > q->k)
	{
		*nentries = 0;
		PG_RETURN_POINTER(NULL);
	}
	need = Max(1, bands - (q->k - m));
	needp = palloc(sizeof(int32));
	*needp = need;
	*extra_data = palloc(sizeof(Pointer) * bands);
	for (j = 0; j < bands; j++)
		(*extra_data)[j] = (Pointer) needp;
	*nentries = bands;
	PG_RETURN_POINTER(band_keys(q, bands, rows, key_bits));
}

/*
 * consistent: true (with recheck) iff at least `need` query keys are present
 * in the row; see extractQuery for why no satisfying row is lost.  Counting
 * present keys can only over-count equal bands: two bands of the query with
 * the same key (frequent with narrow keys; GIN keeps both entries, since
 * each carries extra_data) both count when the row has that key.  That only
 * adds candidates, which the operator rechecks.
 */
PG_FUNCTION_INFO_V1(minhash_gin_consistent);
Datum
minhash_gin_consistent(PG_FUNCTION_ARGS)
{
	bool	   *check = (bool *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(5);
	int32		need = *(int32 *) extra_data[0];
	int32		n = 0,
				i;

	for (i = 0; i < nkeys; i++)
		if (check[i])
			n++;
	*recheck = true;
	PG_RETURN_BOOL(n >= need);
}

/* triConsistent: GIN_MAYBE if present + maybe keys could reach `need`. */
PG_FUNCTION_INFO_V1(minhash_gin_triconsistent);
Datum
minhash_gin_triconsistent(PG_FUNCTION_ARGS)
{
	GinTernaryValue *check = (GinTernaryValue *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	int32		need = *(int32 *) extra_data[0];
	int32		n = 0,
				i;

	for (i = 0; i < nkeys; i++)
		if (check[i] != GIN_FALSE)
			n++;
	PG_RETURN_GIN_TERNARY_VALUE(n >= need ? GIN_MAYBE : GIN_FALSE);
}
