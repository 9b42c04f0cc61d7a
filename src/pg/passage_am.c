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
#include "catalog/index.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_type.h"
#include "commands/vacuum.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "optimizer/optimizer.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

#include "passage_am.h"
#include "textfp.h"

PG_FUNCTION_INFO_V1(passage_handler);
PG_FUNCTION_INFO_V1(passage_index_stats);

#define PAS_STRATEGY_SHARED	1	/* %& passage_query */

/* ---- pages and metapage ---- */

void
pas_init_page(Page page, uint16 flags)
{
	PasPageOpaqueData *op;

	PageInit(page, BLCKSZ, sizeof(PasPageOpaqueData));
	op = PasPageGetOpaque(page);
	op->next = InvalidBlockNumber;
	op->flags = flags;
	op->page_id = PAS_PAGE_ID;
}

/* A new page at the end of the fork, exclusively locked. */
Buffer
pas_new_buffer(Relation index, ForkNumber fork)
{
#if PG_VERSION_NUM >= 160000
	return ExtendBufferedRel(BMR_REL(index), fork, NULL, EB_LOCK_FIRST);
#else
	Buffer		buf;
	bool		needLock = !RELATION_IS_LOCAL(index);

	if (needLock)
		LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBufferExtended(index, fork, P_NEW, RBM_NORMAL, NULL);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	if (needLock)
		UnlockRelationForExtension(index, ExclusiveLock);
	return buf;
#endif
}

void
pas_check_meta(Relation index, Page page)
{
	PasMetaData *m = PasPageGetMeta(page);

	if (PasPageGetOpaque(page)->page_id != PAS_PAGE_ID ||
		!(PasPageGetOpaque(page)->flags & PAS_PAGE_META) ||
		m->magic != PAS_MAGIC)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is not a passage index",
						RelationGetRelationName(index)),
				 errdetail("Its metapage does not carry the passage magic number.")));
	if (m->format != PAS_FORMAT)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" has passage format %u, this textfp reads %d",
						RelationGetRelationName(index), m->format, PAS_FORMAT),
				 errdetail("REINDEX rebuilds it in the current format.")));
	if (m->nruns > TFP_PASIDX_MAX_RUNS)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a damaged metapage",
						RelationGetRelationName(index)),
				 errdetail("It counts %u runs.", m->nruns)));
}

void
pas_read_meta(Relation index, PasMetaData *meta)
{
	Buffer		buf = ReadBuffer(index, PAS_METAPAGE_BLKNO);
	Page		page;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	pas_check_meta(index, page);
	memcpy(meta, PasPageGetMeta(page), sizeof(PasMetaData));
	UnlockReleaseBuffer(buf);
}

void
pas_init_meta_page(Page page, const PasMetaData *meta)
{
	pas_init_page(page, PAS_PAGE_META);
	memcpy(PasPageGetMeta(page), meta, sizeof(PasMetaData));
	pas_page_set_end(page, (char *) PasPageGetMeta(page) + sizeof(PasMetaData));
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
	m->pending.head = m->pending.tail = InvalidBlockNumber;
	m->merging.head = m->merging.tail = InvalidBlockNumber;
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
	return index->rd_indam != NULL && index->rd_indam->ambuild == passage_build;
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
	HeapTuple	classtup;
	Form_pg_opclass classform;
	CatCList   *oprlist,
			   *proclist;
	bool		ok = true;
	char	   *name;

	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	name = pstrdup(NameStr(classform->opcname));
	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(classform->opcfamily));
	proclist = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(classform->opcfamily));
	for (int i = 0; i < oprlist->n_members; i++)
	{
		Form_pg_amop op = (Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple);

		if (op->amopstrategy != PAS_STRATEGY_SHARED || op->amoppurpose != AMOP_SEARCH)
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("passage operator class \"%s\" has operator %u with invalid strategy number %d",
							name, op->amopopr, op->amopstrategy)));
			ok = false;
		}
	}
	if (proclist->n_members > 0)
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("passage operator class \"%s\" has support functions, the method uses none",
						name)));
		ok = false;
	}
	ReleaseCatCacheList(proclist);
	ReleaseCatCacheList(oprlist);
	ReleaseSysCache(classtup);
	return ok;
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
	Oid			indexoid = PG_GETARG_OID(0);
	Relation	index;
	PasMetaData meta;
	TupleDesc	tupdesc;
	Datum		values[9];
	bool		nulls[9] = {false, false, false, false, false, false, false, false, false};
	Datum		runs[TFP_PASIDX_MAX_RUNS];
	uint64		sorted = 0;
	Oid			heapoid;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	heapoid = IndexGetRelation(indexoid, true);
	if (!OidIsValid(heapoid))
	{
		char	   *name = get_rel_name(indexoid);

		ereport(ERROR,
				(errcode(name ? ERRCODE_WRONG_OBJECT_TYPE : ERRCODE_UNDEFINED_TABLE),
				 name ? errmsg("\"%s\" is not an index", name) :
				 errmsg("relation with OID %u does not exist", indexoid),
				 errdetail("passage_index_stats() reads the metapage of a passage index.")));
	}
	if (pg_class_aclcheck(heapoid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for table %s", get_rel_name(heapoid)),
				 errdetail("Reading an index's statistics needs SELECT on its table.")));
	if (textfp_citus_table_kind(heapoid) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("passage_index_stats() does not read indexes of the Citus %s table %s",
						textfp_citus_table_kind(heapoid), get_rel_name(heapoid)),
				 errdetail("On this node the index belongs to the table's shell; the rows and their index entries are in the shards' indexes."),
				 errhint("Run it on a worker on a shard's index: the index name with _<shard id> appended (citus_shards lists the shards).")));
	index = index_open(indexoid, AccessShareLock);
	if (!pas_is_passage_index(index))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("index \"%s\" is not a passage index", RelationGetRelationName(index)),
				 errdetail("passage_index_stats() reads the metapage of a passage index.")));
	pas_read_meta(index, &meta);
	index_close(index, AccessShareLock);

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
