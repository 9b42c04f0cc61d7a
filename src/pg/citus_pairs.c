/*
 * citus_pairs.c -- simhash_pairs / simhash_clusters of a Citus-distributed
 * table, run where the rows are: Manku's batch method with each block
 * permutation's key partitioning the rows across the workers.
 *
 * The single-node search (tfp_pairs.c) cuts the 64 bits into B blocks and
 * runs one sorted table per t-subset S of the blocks (t = B - r), keyed by
 * S's bits; a pair within r is reported by exactly one table, the one of
 * its t lowest agreeing blocks F (proof at tfp_pairs_reported_by).
 *
 * Distributed, with B >= r + 1 (so t >= 1 and every table has a lowest
 * block): group g (0 <= g <= r) is the set of tables whose lowest block is
 * g.  Every table of group g has block g in its key, so rows with equal
 * keys in such a table have equal block g: routing each row, for each g,
 * to the partition hash(g, block g of fp) sends every run of equal keys of
 * every table of group g to one partition.  Each partition runs, for each g
 * it holds rows of, group g's tables on those rows with the unchanged
 * report rule.  Hence:
 * - every pair within r is found: its reporting table F has lowest block
 *   g = min(F) in F, the two agree on block g (F is a subset of the blocks
 *   they agree on), so both rows reach partition hash(g, block g) with
 *   group g, where table F is run and finds them (tfp_pairs.c);
 * - no pair twice: only table F reports it, F belongs to one group g, and
 *   in group g both rows are in that one partition only (a row goes to one
 *   partition per group);
 * - r + 1 copies of a row at most: one per group (fewer when two groups of
 *   a row hash to one partition: a row goes once to each partition, and
 *   the partition finds its groups there again with the same hash).
 *   Together the partitions run every table once, over all rows: the
 *   single node's work, spread.
 *
 * The partitions are the shards of an UNLOGGED distributed table created
 * in the caller's transaction, one shard per node with shards by default
 * (textfp.citus_pairs_shards), filled by one INSERT ... SELECT that Citus
 * runs as a repartitioning between the workers; the rows travel packed,
 * each shard's in bundles per partition (textfp_citus_pairs_pack in
 * citus_pairs_worker.c, which routes them with the hash above); then one
 * aggregate per shard (textfp_citus_pairs_agg, GROUP BY the distribution
 * column, pushed down by Citus) runs the tables on the worker and returns
 * the shard's pairs; the table is dropped.  On an error or cancel the
 * transaction's rollback removes the table and its shards with it.
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/value.h"
#include "parser/parse_func.h"
#include "portability/instr_time.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rls.h"

#include "citus_pairs.h"

enum
{
	CITUS_PAIRS_WORKERS,
	CITUS_PAIRS_COORDINATOR
};
static const struct config_enum_entry citus_pairs_options[] = {
	{"workers", CITUS_PAIRS_WORKERS, false},
	{"coordinator", CITUS_PAIRS_COORDINATOR, false},
	{NULL, 0, false}
};
static int	citus_pairs_mode = CITUS_PAIRS_WORKERS;
static int	citus_pairs_shards = 0;

void
textfp_citus_pairs_init(void)
{
	DefineCustomEnumVariable("textfp.citus_pairs",
							 "Where simhash_pairs and simhash_clusters search a Citus-distributed table.",
							 "workers: Manku's tables partitioned across the workers; coordinator: all rows read by the coordinator.",
							 &citus_pairs_mode, CITUS_PAIRS_WORKERS, citus_pairs_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("textfp.citus_pairs_shards",
							"Shards of the intermediate table of the distributed all-pairs search.",
							"0: one per node that holds shards.",
							&citus_pairs_shards, 0, 0, 4096,
							PGC_USERSET, 0, NULL, NULL, NULL);
}

/*
 * Search relid on its workers?  A distributed table (not a reference or
 * Citus-local one, whose rows are on one node), textfp.citus_pairs =
 * workers, a transaction that may write (the intermediate table), CREATE
 * on the table's schema (where that table is made), no row-level security
 * (the workers read the shards' heaps), and this node the coordinator.
 * Otherwise the coordinator reads the rows (simhash_pairs.c).
 */
bool
textfp_citus_pairs_usable(Oid relid)
{
	const char *kind = textfp_citus_table_kind(relid);
	Oid			is_coord;

	if (kind == NULL || strcmp(kind, "distributed") != 0 ||
		citus_pairs_mode != CITUS_PAIRS_WORKERS ||
		XactReadOnly || RecoveryInProgress() ||
		check_enable_rls(relid, InvalidOid, false) == RLS_ENABLED ||
#if PG_VERSION_NUM >= 160000
		object_aclcheck(NamespaceRelationId, get_rel_namespace(relid), GetUserId(), ACL_CREATE) != ACLCHECK_OK)
#else
		pg_namespace_aclcheck(get_rel_namespace(relid), GetUserId(), ACL_CREATE) != ACLCHECK_OK)
#endif
		return false;
	/* only the coordinator creates distributed tables (workers see the metadata too) */
	is_coord = LookupFuncName(list_make2(makeString("pg_catalog"), makeString("citus_is_coordinator")),
							  0, NULL, true);
	return OidIsValid(is_coord) && DatumGetBool(OidFunctionCall0(is_coord));
}

/* B for n rows at radius r: the cost model's, but at least r + 1 (t >= 1) */
static int
dist_blocks(uint64 n, int32 radius)
{
	tfp_pairs_plan plan;
	double		best = -1;
	int			nb = 0;

	for (int b = radius + 1; b <= 64; b++)
	{
		if (tfp_pairs_make_plan(&plan, n, radius, b) != 0)
			break;				/* C(B, r) too large from here on */
		if (best < 0 || plan.cost < best)
		{
			best = plan.cost;
			nb = b;
		}
	}
	if (nb == 0)
		elog(ERROR, "no plan for radius %d", radius);
	return nb;
}

/* ---------------------------------------------------------------- coordinator */

static int64
exec_count(const char *sql)
{
	bool		isnull;
	Datum		d;

	if (SPI_execute(sql, false, 0) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "query failed: %s", sql);
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	return isnull ? 0 : DatumGetInt64(d);
}

static void
exec_cmd(const char *sql)
{
	int			rc = SPI_execute(sql, false, 0);

	if (rc < 0)
		elog(ERROR, "%s failed: %s", sql, SPI_result_code_string(rc));
}

static double
elapsed_ms(instr_time since)
{
	instr_time	now;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, since);
	return INSTR_TIME_GET_MILLISEC(now);
}

void
textfp_citus_pairs_search(const char *fn, Oid relid, const char *idcol, const char *fpcol,
						  int32 radius, Oid nsp, PairSink sink, void *arg)
{
	static uint32 serial = 0;
	MemoryContext caller = CurrentMemoryContext;
	const char *ext = quote_identifier(get_namespace_name(nsp));
	const char *schema = quote_identifier(get_namespace_name(get_rel_namespace(relid)));
	const char *src = quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												 get_rel_name(relid));
	const char *id = quote_identifier(idcol),
			   *fp = quote_identifier(fpcol);
	char	   *tmp,
			   *dests;
	int64		n,
				nshards,
				moved;
	int			nblocks;
	PairBuf		buf = {0};
	instr_time	t0;

	INSTR_TIME_SET_CURRENT(t0);
	buf.cxt = caller;
	SPI_connect();
	n = exec_count(psprintf("SELECT count(*) FROM %s WHERE %s IS NOT NULL AND %s IS NOT NULL",
							src, id, fp));
	if (n < 2)
	{
		SPI_finish();
		return;
	}
	nblocks = dist_blocks((uint64) n, radius);
	nshards = citus_pairs_shards > 0 ? citus_pairs_shards :
		exec_count("SELECT count(*) FROM pg_catalog.pg_dist_node "
				   "WHERE isactive AND noderole = 'primary' AND shouldhaveshards");
	if (nshards < 1)
		nshards = 1;
	tmp = psprintf("%s.%s", schema,
				   quote_identifier(psprintf("textfp_pairs_%d_%u", MyProcPid, ++serial)));
	/* bundles are random bytes: stored out of line without compression */
	exec_cmd(psprintf("CREATE UNLOGGED TABLE %s (dest int4, rows bytea)", tmp));
	exec_cmd(psprintf("ALTER TABLE %s ALTER COLUMN rows SET STORAGE EXTERNAL", tmp));
	exec_cmd(psprintf("SELECT pg_catalog.create_distributed_table(%s, 'dest', "
					  "colocate_with => 'none', shard_count => %d)",
					  quote_literal_cstr(tmp), (int) nshards));
	/* a distribution value of each shard: the smallest that hashes there */
	if (SPI_execute(psprintf("SELECT pg_catalog.array_agg(v ORDER BY sid)::text FROM "
							 "(SELECT DISTINCT ON (sid) sid, v FROM "
							 "(SELECT pg_catalog.get_shard_id_for_distribution_column(%s, v) AS sid, v "
							 "FROM pg_catalog.generate_series(0, %d) v) x ORDER BY sid, v) y",
							 quote_literal_cstr(tmp), (int) (64 * nshards + 1024)),
					false, 0) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "cannot find the shards of %s", tmp);
	dests = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	if (textfp_progress)
		ereport(NOTICE,
				(errmsg("%s: %lld rows, radius %d: %d blocks, %d groups into %lld shards of %s (%.0f ms)",
						fn, (long long) n, radius, nblocks, radius + 1, (long long) nshards,
						tmp, elapsed_ms(t0))));
	/*
	 * the shuffle: on each shard, its first row calls pack, which reads the
	 * shard and returns its rows in bundles; Citus repartitions the bundles
	 * between the workers (citus_pairs_worker.c)
	 */
	if (SPI_execute(psprintf("INSERT INTO %s (dest, rows) "
							 "SELECT (b).dest, (b).rows FROM "
							 "(SELECT %s.textfp_citus_pairs_pack(t.tableoid, %s, %s, %d, %d, '%s'::int4[]) AS b "
							 "FROM %s t WHERE %s.textfp_citus_pairs_first(t.tableoid)) s",
							 tmp, ext, quote_literal_cstr(idcol), quote_literal_cstr(fpcol),
							 radius, nblocks, dests, src, ext),
					false, 0) != SPI_OK_INSERT)
		elog(ERROR, "the shuffle into %s failed", tmp);
	if (textfp_progress)
	{
		uint64		bundles = SPI_processed;

		moved = exec_count(psprintf("SELECT (sum(pg_catalog.octet_length(rows)) / %d)::int8 FROM %s",
									CITUS_PAIRS_ROW_BYTES, tmp));
		ereport(NOTICE,
				(errmsg("%s: shuffled %lld rows (%.2f a row) in %llu bundles (%.0f ms)", fn,
						(long long) moved, (double) moved / n,
						(unsigned long long) bundles, elapsed_ms(t0))));
	}
	/* the search: one aggregate per shard, on its worker */
	if (SPI_execute(psprintf("SELECT %s.textfp_citus_pairs_agg(dest, rows, %d, %d, '%s'::int4[]) "
							 "FROM %s GROUP BY dest", ext, radius, nblocks, dests, tmp),
					false, 0) != SPI_OK_SELECT)
		elog(ERROR, "the search of %s failed", tmp);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull);
		ArrayType  *a;
		int			k;
		const int64 *v;

		if (isnull)
			continue;
		a = DatumGetArrayTypeP(d);
		k = ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a));
		v = (const int64 *) ARR_DATA_PTR(a);
		for (int j = 0; j + 2 < k; j += 3)
			textfp_citus_pairs_buf_add(&buf, v[j], v[j + 1], (int) v[j + 2]);
		CHECK_FOR_INTERRUPTS();
	}
	if (textfp_progress)
		ereport(NOTICE,
				(errmsg("%s: %zu pairs from the workers (%.0f ms)", fn, buf.n / 3, elapsed_ms(t0))));
	exec_cmd(psprintf("DROP TABLE %s", tmp));
	SPI_finish();
	for (size_t j = 0; j < buf.n; j += 3)
		sink(arg, buf.v[j], buf.v[j + 1], (int) buf.v[j + 2]);
	if (buf.v)
		pfree(buf.v);
}
