/*
 * simhash_gist.c -- GiST operator class for simhash: Hamming-radius search
 * (x <@ ball) and nearest neighbours (ORDER BY x <-> q)
 *
 * A key (simhash_gkey) is a pair (val, mask): the bits set in mask are the
 * positions on which every fingerprint of the subtree agrees, and val holds
 * their common values (val & ~mask = 0).  A leaf key has mask = all ones, so
 * val is the fingerprint itself.
 *
 * Lower bound.  For every x in the subtree, x agrees with val on the mask
 * positions, so x and q differ at least on the mask positions where val and
 * q differ: dist(x, q) >= popcount((val ^ q) & mask).  At a leaf the bound
 * is the exact distance, so neither search needs a recheck.
 */
#include "postgres.h"

#include "access/gist.h"
#include "access/stratnum.h"
#include "utils/sortsupport.h"

#include "simhash_index.h"

typedef struct SimhashGKey
{
	uint64		val;
	uint64		mask;
} SimhashGKey;

#define ALL_ONES	(~UINT64CONST(0))

static inline int
gkey_bound(const SimhashGKey *k, uint64 q)
{
	return tfp_hamming64((k->val ^ q) & k->mask, 0);
}

static inline void
gkey_merge(SimhashGKey *acc, const SimhashGKey *k)
{
	acc->mask &= k->mask & ~(acc->val ^ k->val);
	acc->val &= acc->mask;
}

/* ---- the storage type's I/O (for display only) ---- */

PG_FUNCTION_INFO_V1(simhash64_gkey_in);
Datum
simhash64_gkey_in(PG_FUNCTION_ARGS)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("cannot accept a value of type %s", "simhash64_gkey"),
			 errdetail("simhash64_gkey is the internal key type of the GiST operator class.")));
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(simhash64_gkey_out);
Datum
simhash64_gkey_out(PG_FUNCTION_ARGS)
{
	SimhashGKey *k = (SimhashGKey *) PG_GETARG_POINTER(0);

	PG_RETURN_CSTRING(psprintf("%016llx&%016llx", (unsigned long long) k->val,
							   (unsigned long long) k->mask));
}

/* ---- support functions ---- */

PG_FUNCTION_INFO_V1(simhash64_gist_compress);
Datum
simhash64_gist_compress(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);

	if (entry->leafkey)
	{
		GISTENTRY  *retval = palloc(sizeof(GISTENTRY));
		SimhashGKey *k = palloc(sizeof(SimhashGKey));

		k->val = DatumGetSimhash(entry->key);
		k->mask = ALL_ONES;
		gistentryinit(*retval, PointerGetDatum(k), entry->rel, entry->page,
					  entry->offset, false);
		PG_RETURN_POINTER(retval);
	}
	PG_RETURN_POINTER(entry);
}

PG_FUNCTION_INFO_V1(simhash64_gist_decompress);
Datum
simhash64_gist_decompress(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(PG_GETARG_POINTER(0));
}

/* index-only scans: a leaf key holds the fingerprint itself */
PG_FUNCTION_INFO_V1(simhash64_gist_fetch);
Datum
simhash64_gist_fetch(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	SimhashGKey *k = (SimhashGKey *) DatumGetPointer(entry->key);
	GISTENTRY  *retval = palloc(sizeof(GISTENTRY));

	gistentryinit(*retval, SimhashGetDatum(k->val), entry->rel, entry->page,
				  entry->offset, false);
	PG_RETURN_POINTER(retval);
}

PG_FUNCTION_INFO_V1(simhash64_gist_union);
Datum
simhash64_gist_union(PG_FUNCTION_ARGS)
{
	GistEntryVector *ev = (GistEntryVector *) PG_GETARG_POINTER(0);
	int		   *size = (int *) PG_GETARG_POINTER(1);
	SimhashGKey *acc = palloc(sizeof(SimhashGKey));
	int			i;

	*acc = *(SimhashGKey *) DatumGetPointer(ev->vector[0].key);
	for (i = 1; i < ev->n; i++)
		gkey_merge(acc, (SimhashGKey *) DatumGetPointer(ev->vector[i].key));
	*size = sizeof(SimhashGKey);
	PG_RETURN_POINTER(acc);
}

/* penalty: the number of common bits the subtree would lose */
PG_FUNCTION_INFO_V1(simhash64_gist_penalty);
Datum
simhash64_gist_penalty(PG_FUNCTION_ARGS)
{
	GISTENTRY  *origentry = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *newentry = (GISTENTRY *) PG_GETARG_POINTER(1);
	float	   *penalty = (float *) PG_GETARG_POINTER(2);
	SimhashGKey *o = (SimhashGKey *) DatumGetPointer(origentry->key);
	SimhashGKey u = *o;

	gkey_merge(&u, (SimhashGKey *) DatumGetPointer(newentry->key));
	*penalty = (float) (tfp_hamming64(o->mask, 0) - tfp_hamming64(u.mask, 0));
	PG_RETURN_POINTER(penalty);
}

/*
 * picksplit: split on the bit position that divides the entries most evenly
 * among those that know it (mask bit set); entries that do not know it go
 * to the smaller side.  Without any dividing bit (all equal), split halves.
 */
PG_FUNCTION_INFO_V1(simhash64_gist_picksplit);
Datum
simhash64_gist_picksplit(PG_FUNCTION_ARGS)
{
	GistEntryVector *ev = (GistEntryVector *) PG_GETARG_POINTER(0);
	GIST_SPLITVEC *v = (GIST_SPLITVEC *) PG_GETARG_POINTER(1);
	OffsetNumber maxoff = ev->n - 1;
	OffsetNumber i;
	int			ones[64] = {0},
				known[64] = {0};
	int			b,
				best = -1,
				bestbal = 0;
	SimhashGKey *l = palloc(sizeof(SimhashGKey));
	SimhashGKey *r = palloc(sizeof(SimhashGKey));
	bool		lfirst = true,
				rfirst = true;

	for (i = FirstOffsetNumber; i <= maxoff; i++)
	{
		SimhashGKey *k = (SimhashGKey *) DatumGetPointer(ev->vector[i].key);

		for (b = 0; b < 64; b++)
			if ((k->mask >> b) & 1)
			{
				known[b]++;
				ones[b] += (int) ((k->val >> b) & 1);
			}
	}
	for (b = 63; b >= 0; b--)
	{
		int			bal = Min(ones[b], known[b] - ones[b]);

		if (bal > bestbal)
		{
			bestbal = bal;
			best = b;
		}
	}

	v->spl_left = palloc(sizeof(OffsetNumber) * (maxoff + 1));
	v->spl_right = palloc(sizeof(OffsetNumber) * (maxoff + 1));
	v->spl_nleft = v->spl_nright = 0;
	for (i = FirstOffsetNumber; i <= maxoff; i++)
	{
		SimhashGKey *k = (SimhashGKey *) DatumGetPointer(ev->vector[i].key);
		bool		left;

		if (best < 0)
			left = (i - FirstOffsetNumber) < (maxoff / 2);
		else if ((k->mask >> best) & 1)
			left = ((k->val >> best) & 1) == 0;
		else
			left = v->spl_nleft <= v->spl_nright;
		if (left)
		{
			v->spl_left[v->spl_nleft++] = i;
			if (lfirst)
				*l = *k;
			else
				gkey_merge(l, k);
			lfirst = false;
		}
		else
		{
			v->spl_right[v->spl_nright++] = i;
			if (rfirst)
				*r = *k;
			else
				gkey_merge(r, k);
			rfirst = false;
		}
	}
	/* a degenerate split (possible only without a dividing bit) */
	if (v->spl_nleft == 0 || v->spl_nright == 0)
		elog(ERROR, "simhash64_gist_picksplit produced an empty side");
	v->spl_ldatum = PointerGetDatum(l);
	v->spl_rdatum = PointerGetDatum(r);
	PG_RETURN_POINTER(v);
}

PG_FUNCTION_INFO_V1(simhash64_gist_same);
Datum
simhash64_gist_same(PG_FUNCTION_ARGS)
{
	SimhashGKey *a = (SimhashGKey *) PG_GETARG_POINTER(0);
	SimhashGKey *b = (SimhashGKey *) PG_GETARG_POINTER(1);
	bool	   *result = (bool *) PG_GETARG_POINTER(2);

	*result = (a->val == b->val && a->mask == b->mask);
	PG_RETURN_POINTER(result);
}

/*
 * consistent for x <@ ball(q, k): a subtree can hold a match only if its
 * lower bound (file header) is <= k; at a leaf the bound is the distance
 * itself, so no recheck.
 */
PG_FUNCTION_INFO_V1(simhash64_gist_consistent);
Datum
simhash64_gist_consistent(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	SimhashBall *ball = PG_GETARG_SIMHASH_BALL_P(1);
	StrategyNumber strategy = (StrategyNumber) PG_GETARG_UINT16(2);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(4);
	SimhashGKey *k = (SimhashGKey *) DatumGetPointer(entry->key);

	if (strategy != SIMHASH_STRATEGY_IN_BALL)
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	*recheck = false;
	PG_RETURN_BOOL(gkey_bound(k, ball->center) <= ball->radius);
}

/* distance for ORDER BY x <-> q: the lower bound, exact at leaves */
PG_FUNCTION_INFO_V1(simhash64_gist_distance);
Datum
simhash64_gist_distance(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	simhash		q = PG_GETARG_SIMHASH(1);
	StrategyNumber strategy = (StrategyNumber) PG_GETARG_UINT16(2);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(4);
	SimhashGKey *k = (SimhashGKey *) DatumGetPointer(entry->key);

	if (strategy != SIMHASH_STRATEGY_DIST)
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	*recheck = false;
	PG_RETURN_FLOAT8((float8) gkey_bound(k, q));
}

/* sorted build (PostgreSQL 14+): leaves in value order share long prefixes */
static int
gkey_fastcmp(Datum x, Datum y, SortSupport ssup)
{
	uint64		a = ((SimhashGKey *) DatumGetPointer(x))->val;
	uint64		b = ((SimhashGKey *) DatumGetPointer(y))->val;

	return (a > b) - (a < b);
}

PG_FUNCTION_INFO_V1(simhash64_gist_sortsupport);
Datum
simhash64_gist_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = gkey_fastcmp;
	PG_RETURN_VOID();
}
