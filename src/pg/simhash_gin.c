/*
 * simhash_gin.c -- GIN operator class for simhash: multi-index hashing
 * (Manku, Jain, Das Sarma 2007; Norouzi, Punjani, Fleet 2012)
 *
 * Layout.  The 64 bits are split into m blocks ("blocks" opclass option,
 * 3..16, default 5).  Block j has w_j bits, w_j = ceil(64/m) for
 * j < 64 mod m and floor(64/m) otherwise.  With "interleave" (default on)
 * block j holds the bits j, j+m, j+2m, ... (a fixed permutation, so a run
 * of biased neighbouring bits is spread over all blocks); otherwise block j
 * holds w_j consecutive bits, from the most significant end.  Option "width"
 * (default 0 = off) caps the bits used per block: each block keeps only its
 * first "width" positions and the others are ignored by the index (fewer
 * distinct keys, longer posting lists; the argument below only needs the
 * blocks to be disjoint, not to cover all 64 bits).  Every indexed value
 * yields m keys, int4 (j << 24) | value_j (w_j <= 22 bits).
 *
 * Query "x <@ ball(q, k)": see simhash_gin_plan() for the keys and the
 * number of them a row must match; the proof is at simhash64_gin_consistent().
 * Results are always rechecked against the heap tuple, so the index returns
 * exactly the rows a sequential scan returns.
 */
#include "postgres.h"

#include "access/gin.h"
#include "access/reloptions.h"
#include "access/stratnum.h"
#include "fmgr.h"

#include "simhash_index.h"

#define GIN_DEFAULT_BLOCKS	5
#define GIN_MIN_BLOCKS		3
#define GIN_MAX_BLOCKS		16
/* more probe keys than this and the scan reads the whole index instead */
#define GIN_MAX_PROBES		4096

typedef struct SimhashGinOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			blocks;
	bool		interleave;
	int			width;			/* 0: all bits; else at most this many per block */
} SimhashGinOptions;

typedef struct GinLayout
{
	int			m;
	bool		interleave;
	int			width;			/* cap on the bits used per block, 0 = none */
} GinLayout;

static void
get_layout(FunctionCallInfo fcinfo, GinLayout *l)
{
	l->m = GIN_DEFAULT_BLOCKS;
	l->interleave = true;
	l->width = 0;
#if PG_VERSION_NUM >= 130000
	if (PG_HAS_OPCLASS_OPTIONS())
	{
		SimhashGinOptions *o = (SimhashGinOptions *) PG_GET_OPCLASS_OPTIONS();

		l->m = o->blocks;
		l->interleave = o->interleave;
		l->width = o->width;
	}
#endif
}

/* bits of block j before the width cap */
static inline int
natural_width(int m, int j)
{
	return 64 / m + (j < 64 % m ? 1 : 0);
}

/* bits of block j actually used */
static inline int
block_width(const GinLayout *l, int j)
{
	int			w = natural_width(l->m, j);

	return (l->width > 0 && l->width < w) ? l->width : w;
}

/* Split x into its m block values. */
static void
split_blocks(const GinLayout *l, uint64 x, uint32 *vals)
{
	int			m = l->m;
	int			j;

	if (l->interleave)
	{
		int			b;

		for (j = 0; j < m; j++)
			vals[j] = 0;
		for (b = 0; b < 64; b++)
			vals[b % m] |= (uint32) ((x >> b) & 1) << (b / m);
		/* width cap: keep the low positions j, j+m, ... of each block */
		for (j = 0; j < m; j++)
			vals[j] &= (uint32) ((UINT64CONST(1) << block_width(l, j)) - 1);
	}
	else
	{
		int			shift = 64;

		for (j = 0; j < m; j++)
		{
			int			w = natural_width(m, j);
			int			u = block_width(l, j);

			shift -= w;
			/* width cap: keep the u most significant bits of the block */
			vals[j] = (uint32) ((x >> (shift + w - u)) & ((UINT64CONST(1) << u) - 1));
		}
	}
}

static inline Datum
make_key(int j, uint32 v)
{
	return Int32GetDatum((int32) (((uint32) j << 24) | v));
}

/* sum_{i<=r} C(w, i), saturating at GIN_MAX_PROBES + 1 */
static int
probe_count(int w, int r)
{
	double		c = 1.0,
				sum = 0.0;
	int			i;

	for (i = 0; i <= r && i <= w; i++)
	{
		sum += c;
		c = c * (w - i) / (i + 1);
	}
	return sum > GIN_MAX_PROBES ? GIN_MAX_PROBES + 1 : (int) sum;
}

/*
 * The search plan for radius k: *r is the radius probed around each block
 * value, *need the number of matching keys a row must have; returns the
 * number of keys, or -1 for "read the whole index" (every row is a
 * candidate), 0 for "no row" (k < 0).
 *
 *   k < m:   r = 0, need = m - k (exact block matches)
 *   k >= m:  r = floor(k / m), need = 1 (any block within r bits)
 */
static int
simhash_gin_plan(const GinLayout *l, int k, int *r, int *need)
{
	int			m = l->m;
	int			j,
				n = 0;

	*r = 0;
	*need = 0;
	if (k < 0)
		return 0;
	if (k >= 64)
		return -1;
	if (k < m)
	{
		*need = m - k;
		return m;
	}
	*r = k / m;
	*need = 1;
	for (j = 0; j < m; j++)
	{
		n += probe_count(block_width(l, j), *r);
		if (n > GIN_MAX_PROBES)
		{
			*need = 0;			/* every row is a candidate */
			return -1;
		}
	}
	return n;
}

PG_FUNCTION_INFO_V1(simhash64_gin_extract_value);
Datum
simhash64_gin_extract_value(PG_FUNCTION_ARGS)
{
	simhash		x = PG_GETARG_SIMHASH(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	GinLayout	l;
	uint32		vals[GIN_MAX_BLOCKS];
	Datum	   *keys;
	int			j;

	get_layout(fcinfo, &l);
	split_blocks(&l, x, vals);
	keys = palloc(sizeof(Datum) * l.m);
	for (j = 0; j < l.m; j++)
		keys[j] = make_key(j, vals[j]);
	*nentries = l.m;
	PG_RETURN_POINTER(keys);
}

/* Append every value within r bits of v (w bits wide), flipping bits >= from. */
static void
add_probes(Datum *keys, int *n, int j, uint32 v, int w, int r, int from)
{
	int			b;

	keys[(*n)++] = make_key(j, v);
	if (r == 0)
		return;
	for (b = from; b < w; b++)
		add_probes(keys, n, j, v ^ ((uint32) 1 << b), w, r - 1, b + 1);
}

PG_FUNCTION_INFO_V1(simhash64_gin_extract_query);
Datum
simhash64_gin_extract_query(PG_FUNCTION_ARGS)
{
	SimhashBall *ball = PG_GETARG_SIMHASH_BALL_P(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	Pointer   **extra_data = (Pointer **) PG_GETARG_POINTER(4);
	int32	   *searchMode = (int32 *) PG_GETARG_POINTER(6);
	GinLayout	l;
	int32	   *needp;
	uint32		vals[GIN_MAX_BLOCKS];
	Datum	   *keys;
	int			n,
				r,
				need,
				j,
				got = 0;

	if (strategy != SIMHASH_STRATEGY_IN_BALL)
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	get_layout(fcinfo, &l);
	n = simhash_gin_plan(&l, ball->radius, &r, &need);
	if (n <= 0)
	{
		*nentries = 0;
		if (n < 0)
			*searchMode = GIN_SEARCH_MODE_ALL;
		PG_RETURN_POINTER(NULL);
	}
	split_blocks(&l, ball->center, vals);
	keys = palloc(sizeof(Datum) * n);
	for (j = 0; j < l.m; j++)
		add_probes(keys, &got, j, vals[j], block_width(&l, j), r, 0);
	Assert(got == n);
	*nentries = got;
	/* the consistent functions read "need" here instead of recomputing it */
	needp = palloc(sizeof(int32));
	*needp = need;
	*extra_data = palloc(sizeof(Pointer) * got);
	for (j = 0; j < got; j++)
		(*extra_data)[j] = (Pointer) needp;
	PG_RETURN_POINTER(keys);
}

/*
 * Consistent.  Claim: if dist(x, q) <= k then x has at least "need" of the
 * query's keys (simhash_gin_plan), so rejecting rows with fewer is exact.
 *
 * Proof.  The blocks are disjoint sets of bit positions (both layouts are a
 * permutation of the positions followed by a split into m disjoint runs,
 * possibly truncated by "width"), so dist(x, q) >= sum_j d_j where d_j is
 * the Hamming distance of x's and q's values in block j.
 *  - k < m (r = 0, need = m - k): at most dist(x, q) <= k of the d_j can be
 *    non-zero, so at least m - k blocks have d_j = 0, i.e. x's key (j, v_j)
 *    equals the query key (j, q_j) for at least m - k values of j.
 *  - k >= m (r = floor(k/m), need = 1): if every d_j >= r + 1 then
 *    dist(x, q) >= m (r + 1) > k (as r + 1 > k/m), a contradiction; so some
 *    block has d_j <= r, and x's key for that block is among the probes,
 *    which enumerate every value within r bits of q_j.
 *  - k >= 64 or too many probes: every row is a candidate (need = 0), with
 *    GIN_SEARCH_MODE_ALL.  NULL rows are never returned (strict operator;
 *    GIN's ALL mode does not include NULL items).
 * Matching keys are necessary, not sufficient, so recheck is always set and
 * the executor evaluates simhash_dist(x, q) <= k on the heap tuple.
 */
PG_FUNCTION_INFO_V1(simhash64_gin_consistent);
Datum
simhash64_gin_consistent(PG_FUNCTION_ARGS)
{
	bool	   *check = (bool *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(5);
	int			need,
				i,
				cnt = 0;

	/* no keys: the whole-index scan (need = 0); else the query's plan */
	need = (nkeys > 0) ? *(int32 *) extra_data[0] : 0;
	*recheck = true;
	for (i = 0; i < nkeys && cnt < need; i++)
		if (check[i])
			cnt++;
	PG_RETURN_BOOL(cnt >= need);
}

/* Ternary version of the same test (see simhash64_gin_consistent). */
PG_FUNCTION_INFO_V1(simhash64_gin_triconsistent);
Datum
simhash64_gin_triconsistent(PG_FUNCTION_ARGS)
{
	GinTernaryValue *check = (GinTernaryValue *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	int			need,
				i,
				possible = 0;

	need = (nkeys > 0) ? *(int32 *) extra_data[0] : 0;
	for (i = 0; i < nkeys && possible < need; i++)
		if (check[i] != GIN_FALSE)
			possible++;
	/* never GIN_TRUE: a match must be rechecked on the heap tuple */
	PG_RETURN_GIN_TERNARY_VALUE(possible >= need ? GIN_MAYBE : GIN_FALSE);
}

PG_FUNCTION_INFO_V1(simhash64_gin_options);
Datum
simhash64_gin_options(PG_FUNCTION_ARGS)
{
#if PG_VERSION_NUM >= 130000
	local_relopts *relopts = (local_relopts *) PG_GETARG_POINTER(0);

	init_local_reloptions(relopts, sizeof(SimhashGinOptions));
	add_local_int_reloption(relopts, "blocks",
							"number of blocks the 64 bits are split into",
							GIN_DEFAULT_BLOCKS, GIN_MIN_BLOCKS, GIN_MAX_BLOCKS,
							offsetof(SimhashGinOptions, blocks));
	add_local_bool_reloption(relopts, "interleave",
							 "block j takes bits j, j+blocks, ... instead of consecutive bits",
							 true, offsetof(SimhashGinOptions, interleave));
	add_local_int_reloption(relopts, "width",
							"bits used per block (0: all); fewer bits give longer posting lists",
							0, 0, 22, offsetof(SimhashGinOptions, width));
#endif
	PG_RETURN_VOID();
}
