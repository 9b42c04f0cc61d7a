/*
 * minhash_gin.c -- minhash_lsh_ops: a GIN operator class indexing the LSH
 * bands of minhash signatures, for "a % b" (estimated Jaccard >= the
 * threshold textfp.minhash_threshold)
 *
 * A signature of k values is cut into `bands` bands of `rows` consecutive
 * values (opclass options; bands = 0, the default, means floor(k / rows)),
 * and every band becomes one int4 key: a hash of the band number, the
 * signature's parameters (version, k, ngram, shingle, fold) and the band's
 * values.  A query retrieves the rows sharing at least `need` keys with it,
 * and every candidate is rechecked with the % operator itself.
 *
 * For two signatures with Jaccard similarity s, a band is equal with
 * probability about s^rows, so a row becomes a candidate (need = 1) with
 * probability 1 - (1 - s^rows)^bands, the classic LSH curve.  With the
 * defaults (rows = 3, bands = 42 for k = 128) the curve is 0.996 at s = 0.5,
 * the default threshold, and 4e-4 at s = 0.02.
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
} MinHashLshOptions;

#define DEFAULT_ROWS	3

PG_FUNCTION_INFO_V1(minhash_gin_options);
Datum
minhash_gin_options(PG_FUNCTION_ARGS)
{
	local_relopts *relopts = (local_relopts *) PG_GETARG_POINTER(0);

	init_local_reloptions(relopts, sizeof(MinHashLshOptions));
	add_local_int_reloption(relopts, "bands",
							"number of LSH bands (0: k / rows)",
							0, 0, TFP_MINHASH_MAX_K,
							offsetof(MinHashLshOptions, bands));
	add_local_int_reloption(relopts, "rows",
							"number of signature values per LSH band",
							DEFAULT_ROWS, 1, TFP_MINHASH_MAX_K,
							offsetof(MinHashLshOptions, rows));
	PG_RETURN_VOID();
}

/* The band layout for signature m under the index options; checked. */
static void
band_layout(FunctionCallInfo fcinfo, const MinHash *m, int *bands, int *rows)
{
	int			b = 0,
				r = DEFAULT_ROWS;

	if (PG_HAS_OPCLASS_OPTIONS())
	{
		MinHashLshOptions *opts = (MinHashLshOptions *) PG_GET_OPCLASS_OPTIONS();

		b = opts->bands;
		r = opts->rows;
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

/* The int4 keys of the bands of a non-empty signature. */
static Datum *
band_keys(const MinHash *m, int bands, int rows)
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
		keys[j] = Int32GetDatum((int32) (h >> 32));
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
				rows;

	band_layout(fcinfo, m, &bands, &rows);
	if (MinHashIsEmpty(m))
	{
		/* an empty text is similar to nothing: no keys */
		*nentries = 0;
		PG_RETURN_POINTER(NULL);
	}
	*nentries = bands;
	PG_RETURN_POINTER(band_keys(m, bands, rows));
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
 * are equal, and an equal band has an equal key.  So requiring
 * need = b - (k - m) shared keys loses no row that satisfies the operator:
 * when b - (k - m) >= 1, i.e. t >= (k - b + 1) / k, the index returns
 * exactly what a sequential scan returns.  Below that bound we require one
 * shared band (need = 1): that is the LSH approximation, which may miss a
 * row (probability (1 - s^rows)^bands for similarity s), never returns a
 * wrong one (every candidate is rechecked with the operator).  An empty
 * query, or m > k (t > 1), can match nothing: no keys, no rows.
 */
PG_FUNCTION_INFO_V1(minhash_gin_extract_query);
Datum
minhash_gin_extract_query(PG_FUNCTION_ARGS)
{
	MinHash    *q = PG_GETARG_MINHASH_P(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	Pointer   **extra_data = (Pointer **) PG_GETARG_POINTER(4);
	int32	   *searchMode = (int32 *) PG_GETARG_POINTER(6);
	int			bands,
				rows,
				m,
				need,
				j;
	int32	   *needp;

	if (strategy != 1)
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	*searchMode = GIN_SEARCH_MODE_DEFAULT;
	band_layout(fcinfo, q, &bands, &rows);
	m = minhash_min_matches(textfp_minhash_threshold, q->k);
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
	PG_RETURN_POINTER(band_keys(q, bands, rows));
}

/*
 * consistent: true (with recheck) iff at least `need` query keys are present
 * in the row; see extractQuery for why no satisfying row is lost.  Counting
 * present keys can only over-count equal bands (two bands of the query with
 * the same 32-bit key), which is harmless: the operator rechecks.
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
