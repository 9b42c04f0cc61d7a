/*
 * hamming.c -- the "hamming" index access method: handler, the permutation,
 * pages and metapage, cost estimate, options, validation, statistics (build,
 * insert and vacuum are in hamming_build.c, scans in hamming_scan.c and
 * hamming_rounds.c, the layout in hamming.h)
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/genam.h"
#include "access/reloptions.h"
#include "catalog/pg_amop.h"
#include "commands/vacuum.h"
#include "fmgr.h"
#include "funcapi.h"
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

#include "hamming.h"
#include "simhash_index.h"

PG_FUNCTION_INFO_V1(hamming_handler);
PG_FUNCTION_INFO_V1(hamming_index_stats);

/* ---- the permutation ---- */

static uint64 perm_table[8][256];
static bool perm_ready = false;

static void
perm_init(void)
{
	int			byte,
				v,
				b;

	for (byte = 0; byte < 8; byte++)
		for (v = 0; v < 256; v++)
		{
			uint64		out = 0;

			for (b = 0; b < 8; b++)
				if (v & (1 << b))
				{
					int			src = byte * 8 + b;	/* x bit 4*i + t ... */

					/* ... goes to P bit 16*t + i */
					out |= UINT64CONST(1) << (16 * (src % 4) + src / 4);
				}
			perm_table[byte][v] = out;
		}
	perm_ready = true;
}

uint64
ham_permute(uint64 x)
{
	uint64		p = 0;
	int			byte;

	if (!perm_ready)
		perm_init();
	for (byte = 0; byte < 8; byte++)
		p |= perm_table[byte][(x >> (8 * byte)) & 0xFF];
	return p;
}

/* the inverse: x bit 4*i + t from P bit 16*t + i */
uint64
ham_unpermute(uint64 p)
{
	uint64		x = 0;
	int			t,
				i;

	for (t = 0; t < 4; t++)
		for (i = 0; i < 16; i++)
			if ((p >> (16 * t + i)) & 1)
				x |= UINT64CONST(1) << (4 * i + t);
	return x;
}

/* ---- the metapage (its pages: am_pages.c) ---- */

StaticAssertDecl(offsetof(HamMetaData, magic) == offsetof(AmMetaHead, magic) &&
				 offsetof(HamMetaData, format) == offsetof(AmMetaHead, format),
				 "the hamming metapage begins as am_pages.h says");

/* a pending entry's row, if it is live (AmMethod.pending_tid) */
static bool
ham_pending_tid(const void *entry, ItemPointer tid)
{
	const HamPendingEntry *e = entry;

	*tid = e->tid;
	return !ham_tid_dead(&e->tid);
}

/* VACUUM's mark of a dead pending entry: offset number 0 */
static void
ham_pending_kill(void *entry)
{
	((HamPendingEntry *) entry)->tid.ip_posid = InvalidOffsetNumber;
}

const AmMethod ham_method = {
	.name = "hamming",
	.page_id = HAM_PAGE_ID,
	.ambuild = hamming_build,
	.magic = HAM_MAGIC,
	.format = HAM_FORMAT,
	.check_meta = ham_check_meta,
	.pending_limit = ham_pending_limit,
	.meta_size = sizeof(HamMetaData),
	.build_stamp_off = offsetof(HamMetaData, build_stamp),
	.next_id_off = offsetof(HamMetaData, next_id),
	.nruns_off = offsetof(HamMetaData, nruns),
	.merges_off = offsetof(HamMetaData, merges),
	.runs_off = offsetof(HamMetaData, runs),
	.run_size = sizeof(HamRun),
	.pending_off = offsetof(HamMetaData, pending),
	.merging_off = offsetof(HamMetaData, merging),
	.pending_size = sizeof(HamPendingEntry),
	.pending_tid = ham_pending_tid,
	.pending_kill = ham_pending_kill,
};

void
ham_check_meta(Relation index, Page page)
{
	HamMetaData *m = HamPageGetMeta(page);

	am_check_meta(index, page, &ham_method);
	if (m->ntables != 2 && m->ntables != 4)
		am_meta_damaged(index, m->ntables, "tables");
	if (m->nruns > HAM_MAX_RUNS)
		am_meta_damaged(index, m->nruns, "runs");
}

void
ham_read_meta(Relation index, HamMetaData *meta)
{
	am_read_meta(index, &ham_method, meta);
}

void
ham_empty_meta(HamMetaData *m)
{
	memset(m, 0, sizeof(*m));
	m->magic = HAM_MAGIC;
	m->format = HAM_FORMAT;
	m->ntables = HAM_DEFAULT_TABLES;
	m->next_id = 1;
	am_chain_empty(&m->pending, 0);
	am_chain_empty(&m->merging, 0);
}

/* ---- planner, options, validation ---- */

static void
hamming_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
					 Cost *indexStartupCost, Cost *indexTotalCost,
					 Selectivity *indexSelectivity, double *indexCorrelation,
					 double *indexPages)
{
	GenericCosts costs;

	MemSet(&costs, 0, sizeof(costs));
	genericcostestimate(root, path, loop_count, &costs);
	*indexStartupCost = costs.indexStartupCost;
	*indexTotalCost = costs.indexTotalCost;
	*indexSelectivity = costs.indexSelectivity;
	*indexCorrelation = costs.indexCorrelation;
	*indexPages = costs.numIndexPages;
}

static relopt_kind ham_relopt_kind;
static bool ham_relopt_ready = false;

/*
 * Storage parameter "tables": 4 (the default: the fastest searches, 36
 * bytes per row) or 2 (18 bytes per row: radius searches stay fast, nearest
 * neighbours far off take longer).  It takes effect at the next build.
 */
static bytea *
hamming_options(Datum reloptions, bool validate)
{
	static const relopt_parse_elt tab[] = {
		{"tables", RELOPT_TYPE_INT, offsetof(HamOptions, tables)}
	};
	HamOptions *opts;

	if (!ham_relopt_ready)
	{
		ham_relopt_kind = add_reloption_kind();
		add_int_reloption(ham_relopt_kind, "tables",
						  "Number of tables of a hamming index (4 or 2)",
						  HAM_DEFAULT_TABLES, 2, HAM_TABLES, ShareUpdateExclusiveLock);
		ham_relopt_ready = true;
	}
	opts = (HamOptions *) build_reloptions(reloptions, validate, ham_relopt_kind,
										   sizeof(HamOptions), tab, lengthof(tab));
	if (opts && opts->tables != 2 && opts->tables != 4)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("value %d out of bounds for option \"tables\"", opts->tables),
				 errdetail("A hamming index has 4 tables or 2.")));
	return (bytea *) opts;
}

/* the number of tables a build of the index makes */
int
ham_option_tables(Relation index)
{
	HamOptions *opts = (HamOptions *) index->rd_options;

	return opts ? opts->tables : HAM_DEFAULT_TABLES;
}

/*
 * An operator class of this method has exactly the search operator
 * "simhash64 <@ simhash64_ball" as strategy 1 and the ordering operator
 * "simhash64 <-> simhash64" as strategy 15, and no support functions.
 */
static bool
hamming_validate(Oid opclassoid)
{
	static const AmOperator ops[] = {
		{SIMHASH_STRATEGY_IN_BALL, AMOP_SEARCH},
		{SIMHASH_STRATEGY_DIST, AMOP_ORDER}
	};

	return am_validate(opclassoid, ham_method.name, ops, lengthof(ops));
}

/* distance_orderable: the column's operator family has an ordering operator */
static bool
hamming_property(Oid index_oid, int attno, IndexAMProperty prop,
				 const char *propname, bool *res, bool *isnull)
{
	Oid			opclass,
				opfamily;
	CatCList   *oprlist;
	int			i;

	if (attno == 0 || prop != AMPROP_DISTANCE_ORDERABLE)
		return false;
	opclass = get_index_column_opclass(index_oid, attno);
	if (!OidIsValid(opclass))
	{
		*isnull = true;
		return true;
	}
	opfamily = get_opclass_family(opclass);
	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(opfamily));
	*res = false;
	for (i = 0; i < oprlist->n_members; i++)
		if (((Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple))->amoppurpose == AMOP_ORDER)
			*res = true;
	ReleaseCatCacheList(oprlist);
	*isnull = false;
	return true;
}

Datum
hamming_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *am = makeNode(IndexAmRoutine);

	am->amstrategies = SIMHASH_STRATEGY_DIST;
	am->amsupport = 0;
	am->amoptsprocnum = 0;
	am->amcanorder = false;
	am->amcanorderbyop = true;
	am->amcanbackward = false;
	am->amcanunique = false;
	am->amcanmulticol = false;
	am->amoptionalkey = true;
	am->amsearcharray = false;
	am->amsearchnulls = false;
	am->amstorage = false;
	am->amclusterable = false;
	am->ampredlocks = false;
	am->amcanparallel = false;
	am->amcaninclude = false;
	am->amusemaintenanceworkmem = false;
	am->amparallelvacuumoptions = VACUUM_OPTION_PARALLEL_BULKDEL;
	am->amkeytype = InvalidOid;

	am->ambuild = hamming_build;
	am->ambuildempty = hamming_buildempty;
	am->aminsert = hamming_insert;
	am->ambulkdelete = hamming_bulkdelete;
	am->amvacuumcleanup = hamming_vacuumcleanup;
	am->amcanreturn = NULL;
	am->amcostestimate = hamming_costestimate;
	am->amoptions = hamming_options;
	am->amproperty = hamming_property;
	am->ambuildphasename = NULL;
	am->amvalidate = hamming_validate;
	am->ambeginscan = hamming_beginscan;
	am->amrescan = hamming_rescan;
	am->amgettuple = hamming_gettuple;
	am->amgetbitmap = hamming_getbitmap;
	am->amendscan = hamming_endscan;
	am->ammarkpos = NULL;
	am->amrestrpos = NULL;
	am->amestimateparallelscan = NULL;
	am->aminitparallelscan = NULL;
	am->amparallelrescan = NULL;

	PG_RETURN_POINTER(am);
}

/*
 * hamming_index_stats(index regclass): the rows of the sorted part and of
 * the pending list (rows inserted since the last merge, including the
 * sealed list a merge is reading, and entries VACUUM has marked dead
 * there), the tables of the layout, the runs of the sorted part and their
 * rows, and the merges since the build, read from the metapage.
 */
Datum
hamming_index_stats(PG_FUNCTION_ARGS)
{
	HamMetaData meta;
	TupleDesc	tupdesc;
	Datum		values[7];
	bool		nulls[7] = {false, false, false, false, false, false, false};
	Datum		runrows[HAM_MAX_RUNS];
	uint64		npending;
	uint32		r;

	am_stats_meta(fcinfo, &ham_method, &meta, &tupdesc);
	npending = meta.pending.n + meta.merging.n;
	for (r = 0; r < meta.nruns; r++)
		runrows[r] = Int64GetDatum((int64) meta.runs[r].nrows);
	values[0] = Int64GetDatum((int64) ham_sorted_rows(&meta));
	values[1] = Int64GetDatum((int64) npending);
	values[2] = Int64GetDatum((int64) ((meta.pending.n + HAM_PENDING_PER_PAGE - 1) / HAM_PENDING_PER_PAGE +
									   (meta.merging.n + HAM_PENDING_PER_PAGE - 1) / HAM_PENDING_PER_PAGE));
	values[3] = Int32GetDatum((int32) meta.ntables);
	values[4] = Int32GetDatum((int32) meta.nruns);
	values[5] = PointerGetDatum(construct_array(runrows, (int) meta.nruns, INT8OID, 8,
												FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	values[6] = Int64GetDatum((int64) meta.merges);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
