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
 * runs as a repartitioning between the workers
 * (textfp_citus_pairs_route gives each row's partitions); then one
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

#include "pairs.h"
#include "tfp_pairs.h"

PG_FUNCTION_INFO_V1(textfp_citus_pairs_route);
PG_FUNCTION_INFO_V1(textfp_citus_pairs_acc);
PG_FUNCTION_INFO_V1(textfp_citus_pairs_final);

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
 * on the table's schema (where that table is made), and this node the
 * coordinator.  Otherwise the
 * coordinator reads the rows (simhash_pairs.c).
 */
bool
textfp_citus_pairs_usable(Oid relid)
{
	const char *kind = textfp_citus_table_kind(relid);
	Oid			is_coord;

	if (kind == NULL || strcmp(kind, "distributed") != 0 ||
		citus_pairs_mode != CITUS_PAIRS_WORKERS ||
		XactReadOnly || RecoveryInProgress() ||
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

static void
check_plan(tfp_pairs_plan *plan, int32 radius, int32 nblocks)
{
	if (radius < 0 || radius > TFP_PAIRS_MAX_RADIUS || nblocks <= radius ||
		tfp_pairs_make_plan(plan, 2, radius, nblocks) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("no distributed plan for radius %d with %d blocks", radius, nblocks),
				 errdetail("The radius must be between 0 and %d and the blocks more than the radius, at most 64, with at most %d tables.",
						   TFP_PAIRS_MAX_RADIUS, TFP_PAIRS_MAX_TABLES)));
}

/* ---------------------------------------------------------------- routing */

/* the partition of group g's key (block g's bits v): a 64-bit mix, mod ndest */
static int
route_of(const tfp_pairs_plan *plan, uint64 fp, int g, int ndest)
{
	uint64		v = (fp >> plan->off[g]) &
		(plan->len[g] >= 64 ? ~UINT64CONST(0) : (UINT64CONST(1) << plan->len[g]) - 1);
	uint64		h = ((uint64) g << 56) ^ v;

	h ^= h >> 30;
	h *= UINT64CONST(0xBF58476D1CE4E5B9);
	h ^= h >> 27;
	h *= UINT64CONST(0x94D049BB133111EB);
	h ^= h >> 31;
	return (int) (h % (uint64) ndest);
}

/* the plan of nblocks blocks at radius, kept in fn_extra */
static const tfp_pairs_plan *
cached_plan(FunctionCallInfo fcinfo, int32 radius, int32 nblocks)
{
	tfp_pairs_plan *plan = fcinfo->flinfo->fn_extra;

	if (plan == NULL || plan->radius != radius || plan->nblocks != nblocks)
	{
		tfp_pairs_plan p;

		check_plan(&p, radius, nblocks);
		if (plan == NULL)
			plan = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(tfp_pairs_plan));
		*plan = p;
		fcinfo->flinfo->fn_extra = plan;
	}
	return plan;
}

/* the partitions' distribution values, one per shard of the intermediate table */
static const int32 *
dest_values(ArrayType *arr, int *ndest)
{
	*ndest = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	if (ARR_ELEMTYPE(arr) != INT4OID || ARR_HASNULL(arr) || *ndest < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the destinations must be a non-empty integer array without NULL")));
	return (const int32 *) ARR_DATA_PTR(arr);
}

/*
 * textfp_citus_pairs_route(fp int8, radius int4, nblocks int4, dests int4[],
 * g int4) returns int4: the partition (its value in dests) of group g
 * (0..radius) of the row, or NULL when a lower group of the row goes there
 * too: a row goes once to each of its partitions.  A scalar function over
 * "CROSS JOIN generate_series(0, radius) g" costs less a row than a
 * set-returning one.
 */
Datum
textfp_citus_pairs_route(PG_FUNCTION_ARGS)
{
	uint64		fp = (uint64) PG_GETARG_INT64(0);
	int32		radius = PG_GETARG_INT32(1),
				g = PG_GETARG_INT32(4);
	const tfp_pairs_plan *plan = cached_plan(fcinfo, radius, PG_GETARG_INT32(2));
	int			ndest;
	const int32 *dest = dest_values(PG_GETARG_ARRAYTYPE_P(3), &ndest);
	int			d;

	if (g < 0 || g > radius)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("group %d is not between 0 and the radius %d", g, radius)));
	d = route_of(plan, fp, g, ndest);
	for (int h = 0; h < g; h++)
		if (route_of(plan, fp, h, ndest) == d)
			PG_RETURN_NULL();
	PG_RETURN_INT32(dest[d]);
}

/* ---------------------------------------------------------------- one partition */

typedef struct PartState
{
	MemoryContext cxt;
	tfp_pairs_plan plan;
	int			ndest,
				self;			/* this partition's index in dests */
	size_t		n,
				cap;
	int64	   *id;
	uint64	   *fp;
} PartState;

/*
 * textfp_citus_pairs_acc(state, dest int4, id int8, fp int8, radius,
 * nblocks, dests int4[]): collect a partition's rows (16 bytes each)
 */
Datum
textfp_citus_pairs_acc(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt;
	PartState  *st = PG_ARGISNULL(0) ? NULL : (PartState *) PG_GETARG_POINTER(0);

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		elog(ERROR, "textfp_citus_pairs_acc called in non-aggregate context");
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		PG_RETURN_POINTER(st);
	if (st == NULL)
	{
		const int32 *dest;
		int32		self = PG_GETARG_INT32(1);

		if (PG_ARGISNULL(4) || PG_ARGISNULL(5) || PG_ARGISNULL(6))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("the radius, the number of blocks and the destinations must not be NULL")));
		st = MemoryContextAllocZero(aggcxt, sizeof(PartState));
		st->cxt = aggcxt;
		check_plan(&st->plan, PG_GETARG_INT32(4), PG_GETARG_INT32(5));
		dest = dest_values(PG_GETARG_ARRAYTYPE_P(6), &st->ndest);
		for (st->self = 0; st->self < st->ndest && dest[st->self] != self; st->self++)
			;
		if (st->self == st->ndest)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("partition %d is not one of the destinations", self)));
	}
	if (st->n == st->cap)
	{
		size_t		cap = Max(st->cap * 2, 1024);

		if (st->cap == 0)
		{
			st->id = MemoryContextAllocHuge(st->cxt, cap * sizeof(int64));
			st->fp = MemoryContextAllocHuge(st->cxt, cap * sizeof(uint64));
		}
		else
		{
			st->id = repalloc_huge(st->id, cap * sizeof(int64));
			st->fp = repalloc_huge(st->fp, cap * sizeof(uint64));
		}
		st->cap = cap;
	}
	st->id[st->n] = PG_GETARG_INT64(2);
	st->fp[st->n] = (uint64) PG_GETARG_INT64(3);
	st->n++;
	PG_RETURN_POINTER(st);
}

/* the pairs found, three int8 each (id_a, id_b, distance) */
typedef struct PairBuf
{
	MemoryContext cxt;
	int64	   *v;
	size_t		n,
				cap;
	bool		limited;		/* a worker's: one array of at most 1 GB */
} PairBuf;

static void
buf_add(void *arg, int64 a, int64 b, int dist)
{
	PairBuf    *p = arg;

	if (p->n + 3 > p->cap)
	{
		size_t		cap = Max(p->cap * 2, 3 * 1024);

		if (p->limited && (Size) cap * sizeof(int64) > MaxAllocSize)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("simhash_pairs: more than %zu pairs in one partition of the distributed search",
							MaxAllocSize / sizeof(int64) / 3),
					 errdetail("A worker returns its partition's pairs as one array of at most 1 GB."),
					 errhint("Raise textfp.citus_pairs_shards, or lower the radius.")));
		p->v = p->v == NULL ? MemoryContextAllocHuge(p->cxt, cap * sizeof(int64)) :
			repalloc_huge(p->v, cap * sizeof(int64));
		p->cap = cap;
	}
	p->v[p->n++] = a;
	p->v[p->n++] = b;
	p->v[p->n++] = dist;
}

/*
 * textfp_citus_pairs_final(state) returns int8[]: for each group g, the
 * tables whose lowest block is g over the rows whose group g is routed
 * here (the hash of textfp_citus_pairs_route again; proof in the header
 * comment); the pairs as triples.
 */
Datum
textfp_citus_pairs_final(PG_FUNCTION_ARGS)
{
	PartState  *st = PG_ARGISNULL(0) ? NULL : (PartState *) PG_GETARG_POINTER(0);
	MemoryContext cxt;
	PairBuf		buf = {0};
	ArrayType  *result;

	if (st == NULL || st->n < 2)
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(INT8OID));
	cxt = AllocSetContextCreate(CurrentMemoryContext, "textfp_citus_pairs",
								ALLOCSET_DEFAULT_SIZES);
	buf.cxt = cxt;
	buf.limited = true;
	for (int g = 0; g <= st->plan.radius; g++)
	{
		int64	   *id = MemoryContextAllocHuge(cxt, st->n * sizeof(int64));
		uint64	   *fp = MemoryContextAllocHuge(cxt, st->n * sizeof(uint64));
		size_t		m = 0;

		for (size_t i = 0; i < st->n; i++)
		{
			if (route_of(&st->plan, st->fp[i], g, st->ndest) != st->self)
				continue;
			id[m] = st->id[i];
			fp[m] = st->fp[i];
			m++;
			if ((m & 0xFFFF) == 0)
				CHECK_FOR_INTERRUPTS();
		}
		textfp_pairs_run("simhash_pairs", cxt, id, fp, m, st->plan.radius, st->plan.nblocks, g,
						 buf_add, &buf);
		pfree(id);
		pfree(fp);
	}
	if (buf.n == 0)
		result = construct_empty_array(INT8OID);
	else
	{
		/* int8 is pass-by-value: build the array in one copy */
		Size		bytes = ARR_OVERHEAD_NONULLS(1) + buf.n * sizeof(int64);
		int			dims[1] = {(int) buf.n},
					lbs[1] = {1};

		if (bytes > MaxAllocSize)
		{
			buf.cap = MaxAllocSize;	/* raises the error of buf_add */
			buf_add(&buf, 0, 0, 0);
		}
		result = palloc0(bytes);
		SET_VARSIZE(result, bytes);
		result->ndim = 1;
		result->dataoffset = 0;
		result->elemtype = INT8OID;
		memcpy(ARR_DIMS(result), dims, sizeof(dims));
		memcpy(ARR_LBOUND(result), lbs, sizeof(lbs));
		memcpy(ARR_DATA_PTR(result), buf.v, buf.n * sizeof(int64));
	}
	MemoryContextDelete(cxt);
	PG_RETURN_ARRAYTYPE_P(result);
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
	exec_cmd(psprintf("CREATE UNLOGGED TABLE %s (dest int4, id int8, fp int8)", tmp));
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
	/* the shuffle: Citus repartitions the rows between the workers */
	if (SPI_execute(psprintf("INSERT INTO %s (dest, id, fp) "
							 "SELECT dest, id, fp FROM "
							 "(SELECT t.%s::int8 AS id, t.%s::int8 AS fp, "
							 "%s.textfp_citus_pairs_route(t.%s::int8, %d, %d, '%s'::int4[], g) AS dest "
							 "FROM %s t CROSS JOIN pg_catalog.generate_series(0, %d) g "
							 "WHERE t.%s IS NOT NULL AND t.%s IS NOT NULL) s "
							 "WHERE dest IS NOT NULL",
							 tmp, id, fp, ext, fp, radius, nblocks, dests, src, radius, id, fp),
					false, 0) != SPI_OK_INSERT)
		elog(ERROR, "the shuffle into %s failed", tmp);
	moved = (int64) SPI_processed;
	if (textfp_progress)
		ereport(NOTICE,
				(errmsg("%s: shuffled %lld rows (%.2f a row) (%.0f ms)", fn, (long long) moved,
						(double) moved / n, elapsed_ms(t0))));
	/* the search: one aggregate per shard, on its worker */
	if (SPI_execute(psprintf("SELECT %s.textfp_citus_pairs_agg(dest, id, fp, %d, %d, '%s'::int4[]) "
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
			buf_add(&buf, v[j], v[j + 1], (int) v[j + 2]);
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
