/*
 * minhash_citus.c -- textfp.minhash_threshold never silently stays on the
 * Citus coordinator
 *
 * "sig % q" (minhash_similar(minhash, minhash), and the minhash_lsh_ops
 * index scans that answer it) reads the threshold from the session setting
 * textfp.minhash_threshold.  On a Citus table the operator runs on the
 * workers, in their connections, with their value of the setting: a session
 * that SET it on the coordinator would get the workers' answer (0.5 unless
 * their configuration says otherwise), and no word of it.  Such a statement
 * fails instead (0A000), naming sig % minhash_query(q, t), whose operand
 * carries the threshold to every shard.
 *
 * When: the session's value is not the built-in default 0.5 (the value a
 * worker's connection has unless its configuration sets another: a cluster
 * configured alike on every node keeps the default and works), Citus is
 * installed in the database (pg_dist_partition exists), the statement reads
 * a Citus table of any kind (textfp_citus_table_kind: distributed,
 * reference, or Citus-local, which Citus reads in this session only while
 * citus.enable_local_execution is on, else through a connection of its own)
 * and holds minhash % minhash anywhere (subqueries, CTEs, sublinks).
 *
 * Where it is checked:
 *  1. the planner hook below, which sees the statement as written, before
 *     Citus plans it: Citus is preloaded (shared_preload_libraries), textfp
 *     is loaded later, so its hook is the outer one and runs first;
 *  2. minhash_similar's support function, for the one statement that is
 *     being planned when textfp is loaded (the hook was not there yet): the
 *     planner calls it while simplifying the operator (standard_planner,
 *     and Citus's fast-path planner for a one-shard query, which simplifies
 *     the qualifiers without a PlannerInfo), which loads the library.  With
 *     a PlannerInfo it looks at that query's range tables; without one (and
 *     not inside a statement the hook has checked) it cannot see the
 *     tables, and refuses while Citus is installed: the conservative side.
 *  3. a change of the setting invalidates the session's cached plans
 *     (ResetPlanCache), so that a prepared statement planned at the default
 *     is planned, and checked, again.
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"
#include "optimizer/planner.h"
#include "utils/lsyscache.h"
#include "utils/plancache.h"
#include "utils/syscache.h"

#include "minhash.h"
#include "textfp.h"

/* the built-in default of textfp.minhash_threshold (src/pg/minhash.c) */
#define THRESHOLD_DEFAULT 0.5

static planner_hook_type prev_planner_hook = NULL;

/* > 0 while the hook has checked the statement being planned */
static int	checked_depth = 0;

typedef struct GuardCtx
{
	bool		citus;			/* reads a Citus table */
	bool		similar;		/* holds minhash % minhash */
} GuardCtx;

static bool
threshold_may_differ(void)
{
	return textfp_minhash_threshold != THRESHOLD_DEFAULT &&
		OidIsValid(get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE));
}

static bool
rtable_reads_citus(List *rtable)
{
	ListCell   *lc;

	foreach(lc, rtable)
	{
		RangeTblEntry *rte = (RangeTblEntry *) lfirst(lc);

		if (rte->rtekind == RTE_RELATION && textfp_citus_table_kind(rte->relid) != NULL)
			return true;
	}
	return false;
}

/* Is funcid textfp's minhash_similar(minhash, minhash)?  (By name and
 * argument types, the type minhash in the function's own schema: the check
 * runs only when the setting may differ.) */
static bool
is_minhash_similar(Oid funcid)
{
	char	   *name = get_func_name(funcid);
	Oid		   *args;
	int			nargs;
	Oid			minhash;

	if (name == NULL || strcmp(name, "minhash_similar") != 0)
		return false;
	(void) get_func_signature(funcid, &args, &nargs);
	if (nargs != 2 || args[0] != args[1])
		return false;
	minhash = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum("minhash"),
							  ObjectIdGetDatum(get_func_namespace(funcid)));
	return OidIsValid(minhash) && args[0] == minhash;
}

static bool
guard_walker(Node *node, GuardCtx *c)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
	{
		Query	   *q = (Query *) node;

		if (!c->citus && rtable_reads_citus(q->rtable))
			c->citus = true;
		return query_tree_walker(q, guard_walker, (void *) c, 0);
	}
	if (!c->similar)
	{
		if (IsA(node, OpExpr))
		{
			OpExpr	   *o = (OpExpr *) node;

			set_opfuncid(o);
			c->similar = is_minhash_similar(o->opfuncid);
		}
		else if (IsA(node, FuncExpr))
			c->similar = is_minhash_similar(((FuncExpr *) node)->funcid);
	}
	return expression_tree_walker(node, guard_walker, (void *) c);
}

static void
refuse(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("textfp.minhash_threshold does not reach the Citus workers"),
			 errdetail("This session set textfp.minhash_threshold to %g, but the workers evaluate "
					   "\"sig %% q\" on the shards with their own setting (%g unless their configuration "
					   "says otherwise), so the answer would be theirs.",
					   textfp_minhash_threshold, THRESHOLD_DEFAULT),
			 errhint("Write sig %% minhash_query(q, %g): its operand carries the threshold to every shard.",
					 textfp_minhash_threshold)));
}

static PlannedStmt *
textfp_planner(Query *parse, const char *query_string, int cursorOptions,
			   ParamListInfo boundParams)
{
	PlannedStmt *result;

	if (threshold_may_differ())
	{
		GuardCtx	c = {false, false};

		(void) guard_walker((Node *) parse, &c);
		if (c.citus && c.similar)
			refuse();
	}
	checked_depth++;
	PG_TRY();
	{
		result = prev_planner_hook ?
			prev_planner_hook(parse, query_string, cursorOptions, boundParams) :
			standard_planner(parse, query_string, cursorOptions, boundParams);
	}
	PG_FINALLY();
	{
		checked_depth--;
	}
	PG_END_TRY();
	return result;
}

/* minhash_similar_support(internal): see 2. in the header */
PG_FUNCTION_INFO_V1(minhash_similar_support);
Datum
minhash_similar_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (IsA(rawreq, SupportRequestSimplify) && checked_depth == 0 && threshold_may_differ())
	{
		SupportRequestSimplify *req = (SupportRequestSimplify *) rawreq;
		bool		citus = req->root == NULL;

		for (PlannerInfo *r = req->root; r != NULL && !citus; r = r->parent_root)
			citus = r->parse != NULL && rtable_reads_citus(r->parse->rtable);
		if (citus)
			refuse();
	}
	PG_RETURN_POINTER(NULL);
}

/* the setting's assign hook (src/pg/minhash.c): see 3. in the header */
void
textfp_minhash_threshold_assign(double newval, void *extra)
{
	(void) extra;
	if (newval != textfp_minhash_threshold)
		ResetPlanCache();
}

void
textfp_minhash_citus_init(void)
{
	prev_planner_hook = planner_hook;
	planner_hook = textfp_planner;
}
