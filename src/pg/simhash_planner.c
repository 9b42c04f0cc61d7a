/*
 * simhash_planner.c -- planner support: simhash_within() and the literal
 * form "simhash_dist(fp, q) <= k" use the Hamming indexes
 *
 * 1. simhash_within(x, q, k) has a support function: SupportRequestIndexCondition
 *    turns it into the indexable "x <@ simhash_ball(q, k)" (exactly
 *    equivalent, so not lossy), SupportRequestSelectivity estimates it.
 *
 * 2. simhash_dist(a, b) has a support function too, but it simplifies
 *    nothing: its only job is that the planner calls it (SupportRequestSimplify,
 *    during expression preprocessing, before any path is built), which loads
 *    textfp.so in a fresh session; _PG_init then installs
 *    simhash_rel_pathlist() as set_rel_pathlist_hook (chained).  The hook
 *    looks at each base relation's restriction and join clauses of the form
 *        simhash_dist(a, b) <= k,  simhash_dist(a, b) < k,
 *        k >= simhash_dist(a, b),  k > simhash_dist(a, b)    (also with <->)
 *    where a (or b) is the key column of a GIN or GiST index of a textfp
 *    Hamming operator class and the other operand and k do not depend on the
 *    relation (constants, parameters, outer columns); it adds an index path
 *    (GiST) and a bitmap heap path whose index condition is
 *    "a <@ simhash_ball(b, k)" (simhash_ball_open(b, k) for "<"), exactly
 *    equivalent to the clause, and corrects the clause's selectivity
 *    estimate.  A join clause gives a parameterized path (nested loop with
 *    the index on the inner side).  Limits: see docs/hamming.md.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "simhash_index.h"

static set_rel_pathlist_hook_type prev_set_rel_pathlist_hook = NULL;

/* is_pseudo_constant_for_index() takes the planner's root from PostgreSQL 14 */
static inline bool
pseudo_constant_for_index(PlannerInfo *root, Node *expr, IndexOptInfo *index)
{
#if PG_VERSION_NUM >= 140000
	return is_pseudo_constant_for_index(root, expr, index);
#else
	(void) root;
	return is_pseudo_constant_for_index(expr, index);
#endif
}

bool
textfp_func_is(Oid funcid, PGFunction fn)
{
	FmgrInfo	fi;

	if (!OidIsValid(funcid))
		return false;
	fmgr_info(funcid, &fi);
	return fi.fn_addr == fn;
}

/* The SQL objects of the indexable form, looked up in the extension's schema. */
typedef struct BallObjects
{
	Oid			balltype;
	Oid			inop;			/* simhash <@ simhash_ball */
	Oid			ballfn;			/* simhash_ball(simhash, int4) */
	Oid			openfn;			/* simhash_ball_open(simhash, int4) */
} BallObjects;

static bool
lookup_ball_objects(Oid sibling_func, Oid simhashtype, BallObjects *o)
{
	Oid			nsp = get_func_namespace(sibling_func);
	char	   *nspname = get_namespace_name(nsp);
	Oid			argtypes[2];

	if (nspname == NULL)
		return false;
	/* "simhash_ball" is the 1.0 name, for a database not yet updated */
	o->balltype = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
								  CStringGetDatum("simhash64_ball"),
								  ObjectIdGetDatum(nsp));
	if (!OidIsValid(o->balltype))
		o->balltype = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
									  CStringGetDatum("simhash_ball"),
									  ObjectIdGetDatum(nsp));
	if (!OidIsValid(o->balltype))
		return false;
	o->inop = OpernameGetOprid(list_make2(makeString(nspname), makeString("<@")),
							   simhashtype, o->balltype);
	argtypes[0] = simhashtype;
	argtypes[1] = INT4OID;
	o->ballfn = LookupFuncName(list_make2(makeString(nspname), makeString("simhash_ball")),
							   2, argtypes, true);
	o->openfn = LookupFuncName(list_make2(makeString(nspname), makeString("simhash_ball_open")),
							   2, argtypes, true);
	return OidIsValid(o->inop) && OidIsValid(o->ballfn) && OidIsValid(o->openfn);
}

/* "key <@ simhash_ball(q, k)" (or simhash_ball_open for a strict bound) */
static Expr *
make_ball_clause(const BallObjects *o, Node *key, Node *q, Node *k, bool open)
{
	Expr	   *ball = (Expr *) makeFuncExpr(open ? o->openfn : o->ballfn, o->balltype,
											 list_make2(q, k), InvalidOid, InvalidOid,
											 COERCE_EXPLICIT_CALL);

	return make_opclause(o->inop, BOOLOID, false, (Expr *) key, ball,
						 InvalidOid, InvalidOid);
}

/* Constant int4 value of an expression, if the planner can tell. */
static bool
const_int4(PlannerInfo *root, Node *n, int *v)
{
	n = estimate_expression_value(root, n);
	if (IsA(n, Const) && !((Const *) n)->constisnull &&
		((Const *) n)->consttype == INT4OID)
	{
		*v = DatumGetInt32(((Const *) n)->constvalue);
		return true;
	}
	return false;
}

static bool
const_simhash(PlannerInfo *root, Node *n, uint64 *v)
{
	n = estimate_expression_value(root, n);
	if (IsA(n, Const) && !((Const *) n)->constisnull)
	{
		*v = DatumGetSimhash(((Const *) n)->constvalue);
		return true;
	}
	return false;
}

/* Selectivity of dist(var, q) <= k (k unknown: radius 3). */
static double
dist_selectivity(PlannerInfo *root, Node *var, Node *q, Node *kexpr, int adj,
				 int varRelid, bool is_join)
{
	int			k = 3;
	uint64		center;

	if (const_int4(root, kexpr, &k))
		k = simhash_ball_clamp((int64) k + adj);
	if (is_join)
		return simhash_radius_selectivity(k);
	return simhash_ball_selectivity(root, var, varRelid,
									const_simhash(root, q, &center) ? &center : NULL, k);
}

/* ---- simhash_within() ---- */

PG_FUNCTION_INFO_V1(simhash_within_support);
Datum
simhash_within_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (IsA(rawreq, SupportRequestSelectivity))
	{
		SupportRequestSelectivity *req = (SupportRequestSelectivity *) rawreq;
		Node	   *a,
				   *b;

		if (list_length(req->args) != 3)
			PG_RETURN_POINTER(NULL);
		a = linitial(req->args);
		b = lsecond(req->args);
		/* the column side is the one with variables */
		if (!contain_var_clause(a) && contain_var_clause(b))
		{
			Node	   *t = a;

			a = b;
			b = t;
		}
		req->selectivity = dist_selectivity(req->root, a, b, lthird(req->args), 0,
											req->varRelid, req->is_join);
		PG_RETURN_POINTER(req);
	}
	if (IsA(rawreq, SupportRequestIndexCondition))
	{
		SupportRequestIndexCondition *req = (SupportRequestIndexCondition *) rawreq;
		FuncExpr   *f = (FuncExpr *) req->node;
		BallObjects o;
		Node	   *key,
				   *q,
				   *k;

		if (!IsA(f, FuncExpr) || list_length(f->args) != 3 || req->indexarg > 1)
			PG_RETURN_POINTER(NULL);
		key = list_nth(f->args, req->indexarg);
		q = list_nth(f->args, 1 - req->indexarg);
		k = lthird(f->args);
		if (!pseudo_constant_for_index(req->root, q, req->index) ||
			!pseudo_constant_for_index(req->root, k, req->index))
			PG_RETURN_POINTER(NULL);
		if (!lookup_ball_objects(f->funcid, exprType(key), &o))
			PG_RETURN_POINTER(NULL);
		if (get_op_opfamily_strategy(o.inop, req->opfamily) != SIMHASH_STRATEGY_IN_BALL)
			PG_RETURN_POINTER(NULL);
		req->lossy = false;
		PG_RETURN_POINTER(list_make1(make_ball_clause(&o, key, q, k, false)));
	}
	PG_RETURN_POINTER(NULL);
}

/* ---- simhash_dist(): load the library at plan time ---- */

PG_FUNCTION_INFO_V1(simhash_dist_support);
Datum
simhash_dist_support(PG_FUNCTION_ARGS)
{
	/* Being called is the point (see the file header); nothing to simplify. */
	PG_RETURN_POINTER(NULL);
}

/* ---- the set_rel_pathlist hook ---- */

/* If n is simhash_dist(a, b) (function or <-> operator), its two arguments. */
static bool
is_dist_call(Node *n, Node **a, Node **b, Oid *fnout)
{
	Oid			funcid;
	List	   *args;

	if (IsA(n, FuncExpr))
	{
		funcid = ((FuncExpr *) n)->funcid;
		args = ((FuncExpr *) n)->args;
	}
	else if (IsA(n, OpExpr))
	{
		set_opfuncid((OpExpr *) n);
		funcid = ((OpExpr *) n)->opfuncid;
		args = ((OpExpr *) n)->args;
	}
	else
		return false;
	if (list_length(args) != 2 || exprType(n) != INT4OID)
		return false;
	if (!textfp_func_is(funcid, simhash_dist))
		return false;
	*a = linitial(args);
	*b = lsecond(args);
	*fnout = funcid;
	return true;
}

/*
 * Parse "dist(a, b) <= k" and its variants.  Returns the dist call's
 * function OID or InvalidOid; *open is set for a strict bound.
 */
static Oid
parse_dist_bound(Node *clause, Node **a, Node **b, Node **k, bool *open)
{
	OpExpr	   *op;
	Node	   *l,
			   *r;
	Oid			fn,
				distfn = InvalidOid;
	bool		le,
				lt;

	if (!IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return InvalidOid;
	op = (OpExpr *) clause;
	set_opfuncid(op);
	fn = op->opfuncid;
	if (fn != F_INT4LE && fn != F_INT4LT && fn != F_INT4GE && fn != F_INT4GT)
		return InvalidOid;
	l = linitial(op->args);
	r = lsecond(op->args);
	if (is_dist_call(l, a, b, &distfn))
	{
		le = (fn == F_INT4LE);
		lt = (fn == F_INT4LT);
		*k = r;
	}
	else if (is_dist_call(r, a, b, &distfn))
	{
		/* k >= dist  <=>  dist <= k;  k > dist  <=>  dist < k */
		le = (fn == F_INT4GE);
		lt = (fn == F_INT4GT);
		*k = l;
	}
	else
		return InvalidOid;
	if (!le && !lt)
		return InvalidOid;
	*open = lt;
	return distfn;
}

static bool
outside_rel(PlannerInfo *root, RelOptInfo *rel, Node *n)
{
	Relids		varnos;

	if (contain_volatile_functions(n))
		return false;
#if PG_VERSION_NUM >= 140000
	varnos = pull_varnos(root, n);
#else
	varnos = pull_varnos(n);
#endif
	return !bms_overlap(varnos, rel->relids);
}

static void
add_dist_paths(PlannerInfo *root, RelOptInfo *rel, RestrictInfo *rinfo,
			   bool is_join)
{
	Node	   *a,
			   *b,
			   *k;
	bool		open;
	Oid			distfn;
	BallObjects o;
	ListCell   *lc;
	bool		have_objects = false;
	bool		fixed_estimate = false;
	Relids		required_outer = NULL;

	if (rinfo->pseudoconstant)
		return;
	distfn = parse_dist_bound((Node *) rinfo->clause, &a, &b, &k, &open);
	if (!OidIsValid(distfn))
		return;
	if (!outside_rel(root, rel, k))
		return;
	if (is_join)
	{
		if (!join_clause_is_movable_to(rinfo, rel))
			return;
		required_outer = bms_difference(rinfo->clause_relids, rel->relids);
		if (bms_is_empty(required_outer))
			return;
	}
	if (!restriction_is_securely_promotable(rinfo, rel))
		return;

	foreach(lc, rel->indexlist)
	{
		IndexOptInfo *index = (IndexOptInfo *) lfirst(lc);
		int			col;

		if (index->amcostestimate == NULL)
			continue;			/* not a scannable index (see above) */

		for (col = 0; col < index->nkeycolumns; col++)
		{
			Node	   *key,
					   *q;
			IndexClause *ic;
			RestrictInfo *newri;
			IndexPath  *ipath;
			Expr	   *clause;

			if (match_index_to_operand(a, col, index) && outside_rel(root, rel, b))
			{
				key = a;
				q = b;
			}
			else if (match_index_to_operand(b, col, index) && outside_rel(root, rel, a))
			{
				key = b;
				q = a;
			}
			else
				continue;
			if (!have_objects)
			{
				if (!lookup_ball_objects(distfn, exprType(key), &o))
					return;
				have_objects = true;
			}
			if (get_op_opfamily_strategy(o.inop, index->opfamily[col]) !=
				SIMHASH_STRATEGY_IN_BALL)
				continue;

			/* the default estimate of "expression <= k" is 1/3: correct it */
			if (!fixed_estimate)
			{
				double		sel = dist_selectivity(root, key, q, k, open ? -1 : 0,
												   0, is_join);

				rinfo->norm_selec = sel;
				rinfo->outer_selec = sel;
				fixed_estimate = true;
				if (!is_join)
				{
					double		oldrows = rel->rows;
					ListCell   *pc;

					set_baserel_size_estimates(root, rel);
					foreach(pc, rel->pathlist)
					{
						Path	   *p = (Path *) lfirst(pc);

						if (p->param_info == NULL)
							p->rows = rel->rows;
					}
					foreach(pc, rel->partial_pathlist)
					{
						Path	   *p = (Path *) lfirst(pc);

						if (p->param_info == NULL && oldrows > 0)
							p->rows = clamp_row_est(p->rows * rel->rows / oldrows);
					}
				}
			}

			clause = make_ball_clause(&o, key, q, k, open);
#if PG_VERSION_NUM >= 140000
			newri = make_simple_restrictinfo(root, clause);
#else
			newri = make_simple_restrictinfo(clause);
#endif
			newri->security_level = rinfo->security_level;
			ic = makeNode(IndexClause);
			ic->rinfo = rinfo;
			ic->indexquals = list_make1(newri);
			ic->lossy = false;
			ic->indexcol = col;
			ic->indexcols = NIL;

			ipath = create_index_path(root, index, list_make1(ic), NIL, NIL, NIL,
									  ForwardScanDirection,
									  false, required_outer, 1.0, false);
			if (index->amhasgettuple)
				add_path(rel, (Path *) ipath);
			if (index->amhasgetbitmap)
				add_path(rel, (Path *) create_bitmap_heap_path(root, rel, (Path *) ipath,
															   required_outer, 1.0, 0));
		}
	}
}

static void
simhash_rel_pathlist(PlannerInfo *root, RelOptInfo *rel, Index rti,
					 RangeTblEntry *rte)
{
	ListCell   *lc;

	if (prev_set_rel_pathlist_hook)
		prev_set_rel_pathlist_hook(root, rel, rti, rte);

	/*
	 * Plain relations only, as the core planner's index paths: not the
	 * parent of an inheritance tree or a partitioned table (rte->inh), whose
	 * rows are scanned through its children, each of which comes here on its
	 * own.  From PostgreSQL 16 a partitioned table's indexlist holds its
	 * partitioned indexes, which have no cost function (amcostestimate is
	 * NULL): an index path on one crashed the planner.
	 */
	if (rte->rtekind != RTE_RELATION || rte->inh || rel->indexlist == NIL ||
		(rel->reloptkind != RELOPT_BASEREL &&
		 rel->reloptkind != RELOPT_OTHER_MEMBER_REL))
		return;
	foreach(lc, rel->baserestrictinfo)
		add_dist_paths(root, rel, (RestrictInfo *) lfirst(lc), false);
	foreach(lc, rel->joininfo)
		add_dist_paths(root, rel, (RestrictInfo *) lfirst(lc), true);
}

void
textfp_hamming_init(void)
{
	prev_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = simhash_rel_pathlist;
}
