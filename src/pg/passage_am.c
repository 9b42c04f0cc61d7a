/*
 * passage_am.c -- the "passage" index access method: handler, pages and
 * metapage, options, validation, cost estimate, the seeds of an indexed
 * value, and passage_index_stats() (build, insert and vacuum are in
 * passage_build.c, runs in passage_run.c, merges in passage_merge.c, scans
 * in passage_scan.c, the layout in passage_am.h)
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/reloptions.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_type.h"
#include "commands/vacuum.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "optimizer/optimizer.h"
#include "utils/selfuncs.h"

#include "passage_am.h"

PG_FUNCTION_INFO_V1(passage_handler);
PG_FUNCTION_INFO_V1(passage_index_stats);

#define PAS_STRATEGY_SHARED	1	/* %& passage_query */

/* ---- the metapage (its pages: am_pages.c) ---- */

StaticAssertDecl(offsetof(PasMetaData, magic) == offsetof(AmMetaHead, magic) &&
				 offsetof(PasMetaData, format) == offsetof(AmMetaHead, format),
				 "the passage metapage begins as am_pages.h says");

/* a pending entry's row, if it is live (AmMethod.pending_tid) */
static bool
pas_pending_tid(const void *entry, ItemPointer tid)
{
	tfp_pasent	e;

	if (pas_pending_dead(entry))
		return false;
	pas_item_entry(entry, &e);
	ItemPointerSet(tid, e.blk, e.off);
	return true;
}

/* VACUUM's mark of a dead pending entry: its offset bits 0 */
static void
pas_pending_kill(void *entry)
{
	PasPendingEntry *e = entry;

	e->code[0] = 0;
	e->code[1] &= (unsigned char) ~0x03;
}

const AmMethod pas_method = {
	.name = "passage",
	.page_id = PAS_PAGE_ID,
	.ambuild = passage_build,
	.magic = PAS_MAGIC,
	.format = PAS_FORMAT,
	.check_meta = pas_check_meta,
	.pending_limit = pas_pending_limit,
	.meta_size = sizeof(PasMetaData),
	.build_stamp_off = offsetof(PasMetaData, build_stamp),
	.next_id_off = offsetof(PasMetaData, next_id),
	.nruns_off = offsetof(PasMetaData, nruns),
	.merges_off = offsetof(PasMetaData, merges),
	.runs_off = offsetof(PasMetaData, runs),
	.run_size = sizeof(PasRun),
	.pending_off = offsetof(PasMetaData, pending),
	.merging_off = offsetof(PasMetaData, merging),
	.pending_size = sizeof(PasPendingEntry),
	.pending_tid = pas_pending_tid,
	.pending_kill = pas_pending_kill,
};

void
pas_check_meta(Relation index, Page page)
{
	am_check_meta(index, page, &pas_method);
	if (PasPageGetMeta(page)->nruns > TFP_PASIDX_MAX_RUNS)
		am_meta_damaged(index, PasPageGetMeta(page)->nruns, "runs");
}

void
pas_read_meta(Relation index, PasMetaData *meta)
{
	am_read_meta(index, &pas_method, meta);
}

static relopt_kind pas_relopt_kind;
static bool pas_relopt_ready = false;

/*
 * Storage parameters: k and w of the fingerprint (5 and 9; any shared run
 * of length w + k is found, w + k - 1 of Han characters) and reading (homophones one unit).  They
 * take effect at the next build; queries must use the same.
 */
static bytea *
passage_options(Datum reloptions, bool validate)
{
	static const relopt_parse_elt tab[] = {
		{"k", RELOPT_TYPE_INT, offsetof(PasOptions, k)},
		{"w", RELOPT_TYPE_INT, offsetof(PasOptions, w)},
		{"reading", RELOPT_TYPE_BOOL, offsetof(PasOptions, reading)}
	};

	if (!pas_relopt_ready)
	{
		pas_relopt_kind = add_reloption_kind();
		add_int_reloption(pas_relopt_kind, "k",
						  "Units per hashed k-gram of a passage index's fingerprints",
						  TFP_PASSAGE_DEFAULT_K, 1, TFP_PASSAGE_MAX_K, AccessExclusiveLock);
		add_int_reloption(pas_relopt_kind, "w",
						  "k-grams per winnowing window of a passage index's fingerprints",
						  TFP_PASSAGE_DEFAULT_W, 1, TFP_PASSAGE_MAX_W, AccessExclusiveLock);
		add_bool_reloption(pas_relopt_kind, "reading",
						   "Han characters read as their pinyin (homophones are one unit)",
						   true, AccessExclusiveLock);
		pas_relopt_ready = true;
	}
	return (bytea *) build_reloptions(reloptions, validate, pas_relopt_kind,
									  sizeof(PasOptions), tab, lengthof(tab));
}

void
pas_empty_meta(PasMetaData *m, Relation index)
{
	PasOptions *opts = (PasOptions *) index->rd_options;

	memset(m, 0, sizeof(*m));
	m->magic = PAS_MAGIC;
	m->format = PAS_FORMAT;
	m->k = (uint8) (opts ? opts->k : TFP_PASSAGE_DEFAULT_K);
	m->w = (uint8) (opts ? opts->w : TFP_PASSAGE_DEFAULT_W);
	m->reading = opts ? (opts->reading ? 1 : 0) : 1;
	m->next_id = 1;
	am_chain_empty(&m->pending, 0);
	am_chain_empty(&m->merging, 0);
}

tfp_passage_opts
pas_meta_opts(const PasMetaData *m)
{
	tfp_passage_opts o;

	o.k = m->k;
	o.w = m->w;
	o.reading = m->reading;
	return o;
}

bool
pas_is_passage_index(Relation index)
{
	return am_is_method(index, &pas_method);
}

/*
 * The seeds of an indexed value with the index's options: a text is
 * fingerprinted, a passage_fingerprint must have been made with them.
 */
tfp_pseed *
pas_value_seeds(Relation index, Datum value, const tfp_passage_opts *o, size_t *n)
{
	if (index->rd_opcintype[0] == TEXTOID)
		return passage_text_seeds(DatumGetTextPP(value), o, n, NULL);
	else
	{
		PassageFp  *fp = DatumGetPassageFp(value);
		tfp_passage_opts have = passage_fp_opts(fp);

		if (have.k != o->k || have.w != o->w || have.reading != o->reading)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("a passage fingerprint of k=%d w=%d reading=%d cannot be stored in index \"%s\" of k=%d w=%d reading=%d",
							have.k, have.w, have.reading, RelationGetRelationName(index),
							o->k, o->w, o->reading),
					 errdetail("An index holds fingerprints of one set of options."),
					 errhint("Make the column with passage_fp(body, %d, %d, %s) or build the index WITH (k = %d, w = %d, reading = %s).",
							 o->k, o->w, o->reading ? "true" : "false",
							 have.k, have.w, have.reading ? "true" : "false")));
		*n = fp->n;
		return passage_fp_seeds_of(fp);
	}
}

/* ---- planner, validation ---- */

static void
passage_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
					 Cost *indexStartupCost, Cost *indexTotalCost,
					 Selectivity *indexSelectivity, double *indexCorrelation,
					 double *indexPages)
{
	GenericCosts costs;

	MemSet(&costs, 0, sizeof(costs));
	genericcostestimate(root, path, loop_count, &costs);
	/* a look-up reads a few pages per query seed, not a share of the index */
	costs.numIndexPages = Min(costs.numIndexPages, 400);
	*indexStartupCost = costs.indexStartupCost;
	*indexTotalCost = Min(costs.indexTotalCost,
						  costs.indexStartupCost + 400 * random_page_cost +
						  costs.numIndexTuples * cpu_index_tuple_cost);
	*indexSelectivity = costs.indexSelectivity;
	*indexCorrelation = 0;
	*indexPages = costs.numIndexPages;
}

/*
 * An operator class of this method has exactly the search operator
 * "%& passage_query" (left: text or passage_fingerprint) as strategy 1,
 * and no support functions.
 */
static bool
passage_validate(Oid opclassoid)
{
	static const AmOperator ops[] = {{PAS_STRATEGY_SHARED, AMOP_SEARCH}};

	return am_validate(opclassoid, pas_method.name, ops, lengthof(ops));
}

Datum
passage_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *am = makeNode(IndexAmRoutine);

	am->amstrategies = PAS_STRATEGY_SHARED;
	am->amsupport = 0;
	am->amoptsprocnum = 0;
	am->amcanorder = false;
	am->amcanorderbyop = false;
	am->amcanbackward = false;
	am->amcanunique = false;
	am->amcanmulticol = false;
	am->amoptionalkey = false;
	am->amsearcharray = false;
	am->amsearchnulls = false;
	am->amstorage = false;
	am->amclusterable = false;
	am->ampredlocks = false;
	am->amcanparallel = false;
	am->amcaninclude = false;
	am->amusemaintenanceworkmem = true;
	am->amparallelvacuumoptions = VACUUM_OPTION_PARALLEL_BULKDEL;
	am->amkeytype = InvalidOid;

	am->ambuild = passage_build;
	am->ambuildempty = passage_buildempty;
	am->aminsert = passage_insert;
	am->ambulkdelete = passage_bulkdelete;
	am->amvacuumcleanup = passage_vacuumcleanup;
	am->amcanreturn = NULL;
	am->amcostestimate = passage_costestimate;
	am->amoptions = passage_options;
	am->amproperty = NULL;
	am->ambuildphasename = NULL;
	am->amvalidate = passage_validate;
	am->ambeginscan = passage_beginscan;
	am->amrescan = passage_rescan;
	am->amgettuple = NULL;
	am->amgetbitmap = passage_getbitmap;
	am->amendscan = passage_endscan;
	am->ammarkpos = NULL;
	am->amrestrpos = NULL;
	am->amestimateparallelscan = NULL;
	am->aminitparallelscan = NULL;
	am->amparallelrescan = NULL;

	PG_RETURN_POINTER(am);
}

/*
 * passage_index_stats(index regclass): the fingerprint options, the rows
 * indexed by the build and inserts since, the entries of the sorted runs
 * and of the pending list (including entries VACUUM has marked dead), the
 * runs, the merges since the build, read from the metapage.
 */
Datum
passage_index_stats(PG_FUNCTION_ARGS)
{
	PasMetaData meta;
	TupleDesc	tupdesc;
	Datum		values[9];
	bool		nulls[9] = {false, false, false, false, false, false, false, false, false};
	Datum		runs[TFP_PASIDX_MAX_RUNS];
	uint64		sorted = 0;

	am_stats_meta(fcinfo, &pas_method, &meta, &tupdesc);
	for (uint32 r = 0; r < meta.nruns; r++)
	{
		runs[r] = Int64GetDatum((int64) meta.runs[r].nentries);
		sorted += meta.runs[r].nentries;
	}
	values[0] = Int32GetDatum(meta.k);
	values[1] = Int32GetDatum(meta.w);
	values[2] = BoolGetDatum(meta.reading != 0);
	values[3] = Int64GetDatum((int64) meta.rows);
	values[4] = Int64GetDatum((int64) sorted);
	values[5] = Int64GetDatum((int64) (meta.pending.n + meta.merging.n));
	values[6] = Int32GetDatum((int32) meta.nruns);
	values[7] = PointerGetDatum(construct_array(runs, (int) meta.nruns, INT8OID, 8,
												FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	values[8] = Int64GetDatum((int64) meta.merges);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
