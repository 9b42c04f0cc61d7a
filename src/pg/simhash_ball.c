/*
 * simhash_ball.c -- the simhash_ball type (a Hamming ball: centre and
 * radius), the indexable predicate "fp <@ ball", simhash_within(), and their
 * selectivity estimates
 *
 * "x <@ simhash_ball(c, k)" is true exactly when simhash_dist(x, c) <= k, for
 * every int4 k: the constructor clamps the radius to -1 (empty) .. 64 (all),
 * which does not change the answer.  This equivalence is what lets the
 * planner support code (simhash_planner.c) replace simhash_within(x, c, k)
 * and simhash_dist(x, c) <= k by the indexable operator without a recheck of
 * the original clause.
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "libpq/pqformat.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "simhash_index.h"

/* ---- the binomial tail ---- */

double
simhash_radius_selectivity(int k)
{
	double		c = 1.0;		/* C(64, i) */
	double		sum = 0.0;
	int			i;

	if (k < 0)
		return 0.0;
	if (k >= 64)
		return 1.0;
	for (i = 0; i <= k; i++)
	{
		sum += c;
		c = c * (64 - i) / (i + 1);
	}
	return ldexp(sum, -64);
}

/* ---- I/O: "0123456789abcdef/3" ---- */

static SimhashBall *
make_ball(uint64 center, int64 radius)
{
	SimhashBall *b = palloc0(sizeof(SimhashBall));

	b->center = center;
	b->radius = simhash_ball_clamp(radius);
	return b;
}

PG_FUNCTION_INFO_V1(simhash64_ball_in);
Datum
simhash64_ball_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);
	uint64		v = 0;
	long		r = 0;
	int			i;
	bool		ok = true;
	bool		neg = false;
	const char *p;

	for (i = 0; i < 16; i++)
	{
		int			d = textfp_hexval(s[i]);

		if (d < 0)
		{
			ok = false;
			break;
		}
		v = (v << 4) | (uint64) d;
	}
	p = s + 16;
	if (ok && *p == '/')
	{
		p++;
		if (*p == '-')
		{
			neg = true;
			p++;
		}
		if (*p < '0' || *p > '9')
			ok = false;
		while (ok && *p >= '0' && *p <= '9' && r < 1000)
			r = r * 10 + (*p++ - '0');
		if (*p != '\0')
			ok = false;
		if (neg)
			r = -r;
		if (r < SIMHASH_BALL_MIN_RADIUS || r > SIMHASH_BALL_MAX_RADIUS)
			ok = false;
	}
	else
		ok = false;
	if (!ok)
		INPUT_ERROR(fcinfo->context,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"", "simhash64_ball", s),
					 errdetail("A simhash64_ball is written as 16 hexadecimal digits, a slash and a radius between -1 and 64.")));
	PG_RETURN_POINTER(make_ball(v, r));
}

PG_FUNCTION_INFO_V1(simhash64_ball_out);
Datum
simhash64_ball_out(PG_FUNCTION_ARGS)
{
	SimhashBall *b = PG_GETARG_SIMHASH_BALL_P(0);

	PG_RETURN_CSTRING(psprintf("%016llx/%d", (unsigned long long) b->center,
							   (int) b->radius));
}

PG_FUNCTION_INFO_V1(simhash64_ball_recv);
Datum
simhash64_ball_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	uint64		c = (uint64) pq_getmsgint64(buf);
	int32		r = pq_getmsgint(buf, 4);

	PG_RETURN_POINTER(make_ball(c, r));
}

PG_FUNCTION_INFO_V1(simhash64_ball_send);
Datum
simhash64_ball_send(PG_FUNCTION_ARGS)
{
	SimhashBall *b = PG_GETARG_SIMHASH_BALL_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, (int64) b->center);
	pq_sendint32(&buf, b->radius);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* ---- constructors and accessors ---- */

PG_FUNCTION_INFO_V1(simhash_ball_make);
Datum
simhash_ball_make(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(make_ball(PG_GETARG_SIMHASH(0), PG_GETARG_INT32(1)));
}

/* the ball of the strict inequality dist < k, i.e. radius k - 1 (no overflow) */
PG_FUNCTION_INFO_V1(simhash_ball_open);
Datum
simhash_ball_open(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(make_ball(PG_GETARG_SIMHASH(0),
								(int64) PG_GETARG_INT32(1) - 1));
}

PG_FUNCTION_INFO_V1(simhash_ball_center);
Datum
simhash_ball_center(PG_FUNCTION_ARGS)
{
	PG_RETURN_SIMHASH(PG_GETARG_SIMHASH_BALL_P(0)->center);
}

PG_FUNCTION_INFO_V1(simhash_ball_radius);
Datum
simhash_ball_radius(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(PG_GETARG_SIMHASH_BALL_P(0)->radius);
}

/* ---- predicates ---- */

PG_FUNCTION_INFO_V1(simhash_in_ball);
Datum
simhash_in_ball(PG_FUNCTION_ARGS)
{
	simhash		x = PG_GETARG_SIMHASH(0);
	SimhashBall *b = PG_GETARG_SIMHASH_BALL_P(1);

	PG_RETURN_BOOL(simhash_hamming(x, b->center) <= b->radius);
}

PG_FUNCTION_INFO_V1(simhash_ball_contains);
Datum
simhash_ball_contains(PG_FUNCTION_ARGS)
{
	SimhashBall *b = PG_GETARG_SIMHASH_BALL_P(0);
	simhash		x = PG_GETARG_SIMHASH(1);

	PG_RETURN_BOOL(simhash_hamming(x, b->center) <= b->radius);
}

PG_FUNCTION_INFO_V1(simhash_within);
Datum
simhash_within(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(simhash_hamming(PG_GETARG_SIMHASH(0), PG_GETARG_SIMHASH(1))
				   <= PG_GETARG_INT32(2));
}

/* ---- selectivity ---- */

/*
 * Estimate the fraction of the rows of "var" within radius k of "center"
 * (center NULL when unknown at plan time): the frequencies of the column's
 * most common values inside the ball (known centre only), plus the binomial
 * tail for the rest of the column.  Thousands of identical fingerprints show
 * up in the MCV list and are counted; random fingerprints follow the tail.
 */
double
simhash_ball_selectivity(PlannerInfo *root, Node *var, int varRelid,
						 const uint64 *center, int k)
{
	VariableStatData vardata;
	double		tail = simhash_radius_selectivity(k);
	double		sel = tail;

	if (k < 0)
		return 0.0;
	examine_variable(root, var, varRelid, &vardata);
	if (HeapTupleIsValid(vardata.statsTuple))
	{
		Form_pg_statistic stats = (Form_pg_statistic) GETSTRUCT(vardata.statsTuple);
		AttStatsSlot sslot;
		double		nullfrac = stats->stanullfrac;
		double		mcvsum = 0.0;
		double		mcvin = 0.0;

		if (get_attstatsslot(&sslot, vardata.statsTuple, STATISTIC_KIND_MCV,
							 InvalidOid, ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
		{
			int			i;

			for (i = 0; i < sslot.nvalues && i < sslot.nnumbers; i++)
			{
				mcvsum += sslot.numbers[i];
				if (center == NULL)
					continue;
				if (simhash_hamming(DatumGetSimhash(sslot.values[i]), *center) <= k)
					mcvin += sslot.numbers[i];
			}
			free_attstatsslot(&sslot);
		}
		if (center == NULL)
		{
			/*
			 * Unknown centre (a parameter in a generic plan): the tail over
			 * the rows that are not among the most common values.
			 */
			sel = tail * (1.0 - nullfrac - mcvsum);
		}
		else
			sel = mcvin + tail * (1.0 - nullfrac - mcvsum);
	}
	ReleaseVariableStats(vardata);
	CLAMP_PROBABILITY(sel);
	return sel;
}

/* Constant radius of a ball expression, or -2 if unknown. */
static int
ball_expr_radius(Node *ball, uint64 *center, bool *have_center)
{
	*have_center = false;
	if (IsA(ball, Const))
	{
		Const	   *c = (Const *) ball;
		SimhashBall *b;

		if (c->constisnull)
			return -1;
		b = DatumGetSimhashBallP(c->constvalue);
		*center = b->center;
		*have_center = true;
		return b->radius;
	}
	if (IsA(ball, FuncExpr) && list_length(((FuncExpr *) ball)->args) == 2)
	{
		FuncExpr   *f = (FuncExpr *) ball;
		Node	   *cn = linitial(f->args);
		Node	   *kn = lsecond(f->args);
		int			adj = 0;

		if (textfp_func_is(f->funcid, simhash_ball_open))
			adj = -1;
		else if (!textfp_func_is(f->funcid, simhash_ball_make))
			return -2;
		if (IsA(cn, Const) && !((Const *) cn)->constisnull)
		{
			*center = DatumGetSimhash(((Const *) cn)->constvalue);
			*have_center = true;
		}
		if (IsA(kn, Const))
		{
			if (((Const *) kn)->constisnull)
				return -1;
			return simhash_ball_clamp((int64) DatumGetInt32(((Const *) kn)->constvalue) + adj);
		}
	}
	return -2;
}

/* Default radius assumed when the radius is not known at plan time. */
#define SIMHASH_DEFAULT_RADIUS	3

PG_FUNCTION_INFO_V1(simhash_ball_restrict);
Datum
simhash_ball_restrict(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	Node	   *var = linitial(args);
	Node	   *ball = lsecond(args);
	uint64		center = 0;
	bool		have_center;
	int			k;

	/* either "simhash <@ ball" or "ball @> simhash" */
	if (get_typlen(exprType(var)) == sizeof(SimhashBall))
	{
		var = lsecond(args);
		ball = linitial(args);
	}
	ball = estimate_expression_value(root, ball);
	k = ball_expr_radius(ball, &center, &have_center);
	if (k == -2)
		k = SIMHASH_DEFAULT_RADIUS;
	PG_RETURN_FLOAT8(simhash_ball_selectivity(root, var, varRelid,
											  have_center ? &center : NULL, k));
}

PG_FUNCTION_INFO_V1(simhash_ball_joinsel);
Datum
simhash_ball_joinsel(PG_FUNCTION_ARGS)
{
	List	   *args = (List *) PG_GETARG_POINTER(2);
	Node	   *ball = lsecond(args);
	uint64		center;
	bool		have_center;
	int			k;

	if (get_typlen(exprType(ball)) != sizeof(SimhashBall))
		ball = linitial(args);
	k = ball_expr_radius(ball, &center, &have_center);
	if (k == -2)
		k = SIMHASH_DEFAULT_RADIUS;
	PG_RETURN_FLOAT8(simhash_radius_selectivity(k));
}
