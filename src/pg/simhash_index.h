/*
 * simhash_index.h -- shared declarations of the Hamming-radius search
 * (ball type, GIN/GiST support, planner support)
 */
#ifndef SIMHASH_INDEX_H
#define SIMHASH_INDEX_H

#include "textfp.h"
#include "nodes/nodes.h"

/*
 * simhash_ball: the set of fingerprints within "radius" bits of "center".
 * The radius is kept clamped to -1 (empty ball) .. 64 (the whole space), so
 * that any int4 radius gives the same answer as simhash_dist(x, c) <= radius.
 * Fixed length 16 bytes, passed by reference.
 */
typedef struct SimhashBall
{
	uint64		center;
	int32		radius;
	int32		pad;			/* always zero */
} SimhashBall;

#define SIMHASH_BALL_MIN_RADIUS	(-1)
#define SIMHASH_BALL_MAX_RADIUS	64

#define DatumGetSimhashBallP(X)	((SimhashBall *) DatumGetPointer(X))
#define PG_GETARG_SIMHASH_BALL_P(n) DatumGetSimhashBallP(PG_GETARG_DATUM(n))

static inline int32
simhash_ball_clamp(int64 r)
{
	if (r < SIMHASH_BALL_MIN_RADIUS)
		return SIMHASH_BALL_MIN_RADIUS;
	if (r > SIMHASH_BALL_MAX_RADIUS)
		return SIMHASH_BALL_MAX_RADIUS;
	return (int32) r;
}

/* Strategy numbers shared by the GIN and GiST operator classes. */
#define SIMHASH_STRATEGY_IN_BALL	1	/* simhash <@ simhash_ball */
#define SIMHASH_STRATEGY_DIST		15	/* simhash <-> simhash (ORDER BY) */

/*
 * Selectivity of "dist(x, q) <= k" for uniformly random 64-bit x:
 * sum_{i<=k} C(64, i) / 2^64 (the binomial tail).
 */
extern double simhash_radius_selectivity(int k);

struct PlannerInfo;
extern double simhash_ball_selectivity(struct PlannerInfo *root, Node *var,
									   int varRelid, const uint64 *center, int k);

/* C entry points compared by address (textfp_func_is) */
extern Datum simhash_ball_make(PG_FUNCTION_ARGS);
extern Datum simhash_ball_open(PG_FUNCTION_ARGS);
extern Datum simhash_dist(PG_FUNCTION_ARGS);

/* planner helpers (simhash_planner.c) */
extern bool textfp_func_is(Oid funcid, PGFunction fn);


#endif							/* SIMHASH_INDEX_H */
