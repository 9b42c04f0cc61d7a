/*
 * simhash_pairs.c -- simhash_pairs(): every pair of rows whose fingerprints
 * lie within a Hamming radius, by the sorted block-subset tables of
 * tfp_pairs.c, from a query (read through a cursor in batches) or straight
 * from a table's heap (every leaf partition / inheritance child).
 *
 * Rows with a NULL id or fingerprint are skipped; rows with equal ids are
 * never paired; so the result is the bag of the self-join
 *   a.id < b.id AND simhash_dist(a.fp, b.fp) <= radius
 * (with duplicate ids a pair of ids can come out once per pair of rows).
 *
 * Memory: the ids and fingerprints (16 bytes a row) and the sort buffers
 * (16 bytes an entry) stay within maintenance_work_mem: when all entries do
 * not fit, each table is processed in parts (tfp_pairs_run_table); when the
 * rows themselves do not fit, the search stops with an error.
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/namespace.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "citus_pairs.h"
#include "tfp_pairs.h"

PG_FUNCTION_INFO_V1(simhash_pairs_query);
PG_FUNCTION_INFO_V1(simhash_pairs_rel);

bool		textfp_progress = false;

#define BATCH_ROWS	10000		/* rows per cursor fetch */
#define MIN_PART	1024		/* fewest entries a table part may hold */

/* the rows read: ids and fingerprints, and what the budget allows */
typedef struct PairsInput
{
	MemoryContext cxt;
	int64	   *id;
	uint64	   *fp;
	size_t		n,
				cap,
				maxrows;		/* rows that fit in maintenance_work_mem */
	double		expect;			/* estimated rows (0: unknown), for progress */
	size_t		next_notice;
	const char *fn;				/* function name, for messages */
	Oid			nsp;			/* the extension's schema */
	Oid			idtype;			/* type of a query's id column */
	bool		on_workers;		/* a Citus table searched on its workers */
} PairsInput;

void
textfp_pairs_init(void)
{
	DefineCustomBoolVariable("textfp.progress",
							 "Reports the phases of textfp's long searches (simhash_pairs, clusters) as NOTICE messages.",
							 "About every 10% of reading and of the tables.",
							 &textfp_progress,
							 false,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	textfp_citus_pairs_init();
}

bool
textfp_is_int_type(Oid type)
{
	return type == INT2OID || type == INT4OID || type == INT8OID;
}

int64
textfp_int_datum(Datum d, Oid type)
{
	if (type == INT2OID)
		return DatumGetInt16(d);
	if (type == INT4OID)
		return DatumGetInt32(d);
	return DatumGetInt64(d);
}

Tuplestorestate *
textfp_srf_materialize(FunctionCallInfo fcinfo, TupleDesc *desc)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext old;
	Tuplestorestate *ts;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		!(rsinfo->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("set-valued function called in context that cannot accept a set")));
	old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	if (get_call_result_type(fcinfo, NULL, desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	*desc = CreateTupleDescCopy(*desc);
	ts = tuplestore_begin_heap((rsinfo->allowedModes & SFRM_Materialize_Random) != 0,
							   false, work_mem);
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = ts;
	rsinfo->setDesc = *desc;
	MemoryContextSwitchTo(old);
	return ts;
}

static Size
budget_bytes(void)
{
	return (Size) maintenance_work_mem * 1024;
}

static void
progress_read(PairsInput *in)
{
	if (in->expect > 0)
		ereport(NOTICE,
				(errmsg("%s: read %zu rows (%.0f%% of about %.0f)", in->fn, in->n,
						Min(100.0, 100.0 * in->n / in->expect), in->expect)));
	else
		ereport(NOTICE, (errmsg("%s: read %zu rows", in->fn, in->n)));
	in->next_notice = in->expect > 0 ? in->n + (size_t) (in->expect / 10) + 1 : in->n * 2;
}

void
textfp_rows_resize(MemoryContext cxt, int64 **id, uint64 **fp, size_t *cap, size_t newcap)
{
	if (*cap == 0)
	{
		*id = MemoryContextAllocHuge(cxt, newcap * sizeof(int64));
		*fp = MemoryContextAllocHuge(cxt, newcap * sizeof(uint64));
	}
	else
	{
		*id = repalloc_huge(*id, newcap * sizeof(int64));
		*fp = repalloc_huge(*fp, newcap * sizeof(uint64));
	}
	*cap = newcap;
}

static void
input_add(PairsInput *in, int64 id, uint64 fp)
{
	if (in->n == in->cap)
	{
		size_t		cap = Max(in->cap * 2, 1024);

		if (in->n >= in->maxrows)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s: more than %zu rows do not fit in maintenance_work_mem",
							in->fn, in->maxrows),
					 errdetail("Each row takes 16 bytes, and the sort needs at least %d kB more; maintenance_work_mem is %d kB.",
							   MIN_PART * 16 / 1024, maintenance_work_mem),
					 errhint("Raise maintenance_work_mem, or search fewer rows at once.")));
		cap = Min(cap, in->maxrows);
		textfp_rows_resize(in->cxt, &in->id, &in->fp, &in->cap, cap);
	}
	in->id[in->n] = id;
	in->fp[in->n] = fp;
	in->n++;
	if ((in->n & 0xFFFF) == 0)
		CHECK_FOR_INTERRUPTS();
	if (textfp_progress && in->n >= in->next_notice)
		progress_read(in);
}

/* the extension's fingerprint type (in the extension's schema) or bigint */
bool
textfp_is_fp_type(Oid type, Oid nsp)
{
	type = getBaseType(type);
	return type == INT8OID ||
		type == GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
								CStringGetDatum("simhash64"), ObjectIdGetDatum(nsp));
}

static void
check_types(PairsInput *in, Oid idtype, Oid fptype, Oid nsp, const char *what)
{
	if (!textfp_is_int_type(getBaseType(idtype)))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s: the id %s must be of an integer type, not %s",
						in->fn, what, format_type_be(idtype)),
				 errdetail("The ids are returned as bigint; smallint, integer and bigint are accepted.")));
	if (!textfp_is_fp_type(fptype, nsp))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s: the fingerprint %s must be of type simhash64 or bigint, not %s",
						in->fn, what, format_type_be(fptype)),
				 errdetail("The Hamming distance is taken between 64-bit fingerprints.")));
}

void
textfp_query_rows(const char *query, QueryCheck check, QueryRow row, void *arg)
{
	SPIPlanPtr	plan;
	Portal		portal;

	SPI_connect();
	plan = SPI_prepare(query, 0, NULL);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
	portal = SPI_cursor_open(NULL, plan, NULL, NULL, false);
	check(arg, portal->tupDesc);
	for (;;)
	{
		SPI_cursor_fetch(portal, true, BATCH_ROWS);
		if (SPI_processed == 0)
			break;
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			HeapTuple	tup = SPI_tuptable->vals[i];
			bool		n1,
						n2 = true;
			Datum		a = SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &n1),
						b = 0;

			/* a one-column query: b is NULL (the check decides what it accepts) */
			if (SPI_tuptable->tupdesc->natts >= 2)
				b = SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &n2);

			row(arg, a, n1, b, n2);
		}
		SPI_freetuptable(SPI_tuptable);
	}
	SPI_cursor_close(portal);
	SPI_finish();
}

/* the (id, fp) columns of a query: two, of the right types */
static void
query_check(void *arg, TupleDesc td)
{
	PairsInput *in = arg;

	if (td->natts != 2)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s: the query must return two columns (id, fingerprint), not %d",
						in->fn, td->natts)));
	check_types(in, TupleDescAttr(td, 0)->atttypid, TupleDescAttr(td, 1)->atttypid,
				in->nsp, "column");
	in->idtype = getBaseType(TupleDescAttr(td, 0)->atttypid);
}

static void
query_row(void *arg, Datum id, bool n1, Datum fp, bool n2)
{
	PairsInput *in = arg;

	if (!n1 && !n2)
		input_add(in, textfp_int_datum(id, in->idtype), (uint64) DatumGetInt64(fp));
}

/* Read (id, fp) rows of a query through a cursor. */
static void
read_query(PairsInput *in, const char *query)
{
	textfp_query_rows(query, query_check, query_row, in);
}

/* Read one heap (a leaf) directly: the columns found by name. */
static void
read_heap(PairsInput *in, Oid relid, const char *idcol, const char *fpcol, Oid idtype)
{
	Relation	rel = table_open(relid, NoLock);
	AttrNumber	ia = get_attnum(relid, idcol),
				fa = get_attnum(relid, fpcol);
	TupleTableSlot *slot = table_slot_create(rel, NULL);
	TableScanDesc scan;

	if (ia == InvalidAttrNumber || fa == InvalidAttrNumber)
		elog(ERROR, "column of inheritance parent missing in child \"%s\"",
			 RelationGetRelationName(rel));
	scan = table_beginscan(rel, GetActiveSnapshot(), 0, NULL);
	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		bool		n1,
					n2;
		Datum		id = slot_getattr(slot, ia, &n1),
					fp = slot_getattr(slot, fa, &n2);

		if (!n1 && !n2)
			input_add(in, textfp_int_datum(id, idtype), (uint64) DatumGetInt64(fp));
	}
	table_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	table_close(rel, NoLock);
}

/* a bundle of the shards of a distributed table (citus_pairs_worker.c) */
static void
packed_row(void *arg, Datum a, bool a_null, Datum b, bool b_null)
{
	PairsInput *in = arg;
	bytea	   *v;
	const uint8 *p;
	size_t		len;

	if (a_null)
		return;
	v = DatumGetByteaPP(a);
	p = (const uint8 *) VARDATA_ANY(v);
	len = VARSIZE_ANY_EXHDR(v);
	if (len % CITUS_PAIRS_ROW_BYTES != 0)
		elog(ERROR, "a bundle of %zu bytes is not a whole number of rows", len);
	for (size_t k = 0; k < len; k += CITUS_PAIRS_ROW_BYTES)
		input_add(in, (int64) textfp_get64le(p + k), textfp_get64le(p + k + 8));
	if ((Pointer) v != DatumGetPointer(a))
		pfree(v);
}

static void
packed_check(void *arg, TupleDesc desc)
{
	if (desc->natts < 1 || TupleDescAttr(desc, 0)->atttypid != BYTEAOID)
		elog(ERROR, "the packed rows of a distributed table are not a bytea column");
}

/*
 * The rows of a Citus-distributed table read by this node: each shard packs
 * its rows on its worker, once each into one partition
 * (textfp_citus_pairs_pack with one destination), and they come here as
 * bundles of 16 bytes a row instead of a row each (about 4 times faster at
 * 10 million rows: docs/citus.md).
 */
static void
read_packed(PairsInput *in, Relation rel, const char *idcol, const char *fpcol, Oid nsp)
{
	const char *ext = quote_identifier(get_namespace_name(nsp));

	if (textfp_progress)
		ereport(NOTICE, (errmsg("%s: reading the rows of the shards in bundles", in->fn)));
	textfp_query_rows(psprintf("SELECT (b).rows FROM "
								 "(SELECT %s.textfp_citus_pairs_pack(t.tableoid, %s, %s, 0, 1, '{0}'::int4[]) AS b "
								 "FROM %s t WHERE %s.textfp_citus_pairs_first(t.tableoid)) s",
								 ext, quote_literal_cstr(idcol), quote_literal_cstr(fpcol),
								 quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
															RelationGetRelationName(rel)),
								 ext),
					  packed_check, packed_row, in);
}

static AttrNumber
column_of(Relation rel, const char *name)
{
	AttrNumber	a = get_attnum(RelationGetRelid(rel), name);

	if (a == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						name, RelationGetRelationName(rel))));
	return a;
}

/*
 * Read the (id, fp) columns of a relation as "SELECT id, fp FROM rel"
 * would: SELECT privilege on the table or both columns, every inheritance
 * child and leaf partition.  Plain tables (and partitioned tables of plain
 * leaves) without row-level security are scanned directly; anything else
 * (views, foreign tables, row security, Citus tables: citus.c) goes through
 * that query.
 */
static void
read_rel(PairsInput *in, Oid relid, const char *idcol, const char *fpcol, Oid nsp)
{
	Relation	rel = try_relation_open(relid, AccessShareLock);
	AttrNumber	ia,
				fa;
	Oid			idtype;
	bool		direct;
	List	   *kids;
	ListCell   *lc;
	const char *citus_kind;

	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	citus_kind = textfp_citus_table_kind(relid);
	ia = column_of(rel, idcol);
	fa = column_of(rel, fpcol);
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK &&
		(pg_attribute_aclcheck(relid, ia, GetUserId(), ACL_SELECT) != ACLCHECK_OK ||
		 pg_attribute_aclcheck(relid, fa, GetUserId(), ACL_SELECT) != ACLCHECK_OK))
		aclcheck_error(ACLCHECK_NO_PRIV, get_relkind_objtype(rel->rd_rel->relkind),
					   RelationGetRelationName(rel));
	idtype = get_atttype(relid, ia);
	check_types(in, idtype, get_atttype(relid, fa), nsp, "column");
	idtype = getBaseType(idtype);
	/* a distributed table: Manku's tables on its workers (citus_pairs.c) */
	if (textfp_citus_pairs_usable(relid))
	{
		in->on_workers = true;
		relation_close(rel, NoLock);
		return;
	}

	direct = (rel->rd_rel->relkind == RELKIND_RELATION ||
			  rel->rd_rel->relkind == RELKIND_PARTITIONED_TABLE) &&
		check_enable_rls(relid, InvalidOid, false) != RLS_ENABLED;
	kids = find_all_inheritors(relid, AccessShareLock, NULL);
	foreach(lc, kids)
	{
		char		k = get_rel_relkind(lfirst_oid(lc));

		if (k != RELKIND_RELATION && k != RELKIND_PARTITIONED_TABLE)
			direct = false;
		/* a Citus table's heap here is an empty shell: Citus plans the query */
		if (textfp_citus_table_kind(lfirst_oid(lc)) != NULL)
			direct = false;
	}
	if (direct)
	{
		if (textfp_progress)
		{
			foreach(lc, kids)
			{
				Relation	r = table_open(lfirst_oid(lc), NoLock);

				if (r->rd_rel->reltuples > 0)
					in->expect += r->rd_rel->reltuples;
				table_close(r, NoLock);
			}
			in->next_notice = in->expect > 0 ? (size_t) (in->expect / 10) + 1 : 1 << 20;
		}
		foreach(lc, kids)
		{
			Oid			kid = lfirst_oid(lc);
			Relation	r = table_open(kid, NoLock);
			bool		leaf = r->rd_rel->relkind == RELKIND_RELATION;

			if (RELATION_IS_OTHER_TEMP(r))
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("cannot access temporary tables of other sessions")));
			table_close(r, NoLock);
			if (leaf)
				read_heap(in, kid, idcol, fpcol, idtype);
		}
	}
	else if (citus_kind != NULL && strcmp(citus_kind, "distributed") == 0 &&
			 check_enable_rls(relid, InvalidOid, false) != RLS_ENABLED)
		read_packed(in, rel, idcol, fpcol, nsp);
	else
	{
		char	   *q = psprintf("SELECT %s, %s FROM %s",
								 quote_identifier(idcol), quote_identifier(fpcol),
								 quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
															RelationGetRelationName(rel)));

		read_query(in, q);
	}
	relation_close(rel, NoLock);
}

/* row indices to ids: equal ids are not paired, the smaller id first */
typedef struct EmitState
{
	const int64 *id;
	PairSink	sink;
	void	   *arg;
	uint64		pairs;
} EmitState;

static int
emit_ids(void *arg, size_t i, size_t j, int dist)
{
	EmitState  *s = arg;
	int64		a = s->id[i],
				b = s->id[j];

	if (a == b)
		return 0;
	s->pairs++;
	if (a < b)
		s->sink(s->arg, a, b, dist);
	else
		s->sink(s->arg, b, a, dist);
	return 0;
}

/*
 * The tables of the plan for n rows at radius (nblocks 0: the plan's choice
 * of B); lowblock >= 0 runs only the tables whose lowest block is lowblock
 * (the share of one partition in the distributed search, citus_pairs.c),
 * -1 all of them.  Buffers in cxt, within maintenance_work_mem beside the
 * n rows' 16 bytes.
 */
void
textfp_pairs_run(const char *fn, MemoryContext cxt, const int64 *id, const uint64 *fp,
				 size_t n, int32 radius, int nblocks, int lowblock,
				 PairSink sink, void *arg)
{
	tfp_pairs_plan plan;
	Size		budget = budget_bytes(),
				rows = (Size) n * 16,
				avail = budget > rows ? budget - rows : 0;
	size_t		cap = n,
				heavy = 0;
	uint64	   *e,
			   *tmp;
	uint32	   *hist = NULL;
	EmitState	es = {id, sink, arg, 0};
	uint64		s,
				done = 0,
				ntables,
				next_notice = 0;
	int64		cmp = 0;

	if (n < 2)
		return;
	if (tfp_pairs_make_plan(&plan, n, radius, nblocks) != 0)
		elog(ERROR, "no plan for radius %d with %d blocks", radius, nblocks);
	if ((Size) n * 16 > avail)
	{
		/* in parts: room for the histogram, then the entries */
		avail = avail > TFP_PAIRS_HIST * sizeof(uint32) ? avail - TFP_PAIRS_HIST * sizeof(uint32) : 0;
		cap = avail / 16;
		if (cap < MIN_PART)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s: %zu rows leave no room for sorting in maintenance_work_mem",
							fn, n),
					 errdetail("The rows take %zu kB and the sort at least %d kB more; maintenance_work_mem is %d kB.",
							   rows / 1024, (int) ((MIN_PART * 16 + TFP_PAIRS_HIST * sizeof(uint32)) / 1024),
							   maintenance_work_mem),
					 errhint("Raise maintenance_work_mem.")));
		hist = MemoryContextAllocHuge(cxt, TFP_PAIRS_HIST * sizeof(uint32));
	}
	e = MemoryContextAllocHuge(cxt, cap * sizeof(uint64));
	tmp = MemoryContextAllocHuge(cxt, cap * sizeof(uint64));
	ntables = plan.ntables;
	if (lowblock >= 0)
	{
		/* tables whose lowest block is lowblock: C(B - 1 - lowblock, t - 1) */
		ntables = 0;
		s = tfp_pairs_first_table(&plan);
		do
			ntables += s != 0 && pg_rightmost_one_pos64(s) == lowblock;
		while ((s = tfp_pairs_next_table(&plan, s)) != 0);
	}
	if (textfp_progress)
		ereport(NOTICE,
				(errmsg("%s: %zu rows, radius %d: %d blocks, %llu tables%s", fn, n,
						radius, plan.nblocks, (unsigned long long) ntables,
						cap < n ? psprintf(", each in parts of at most %zu rows", cap) : "")));
	s = tfp_pairs_first_table(&plan);
	do
	{
		tfp_pairs_table t;
		int64		c;

		if (lowblock >= 0 && (s == 0 || pg_rightmost_one_pos64(s) != lowblock))
			continue;
		tfp_pairs_table_init(&plan, s, &t);
		c = tfp_pairs_run_table(&plan, &t, fp, n, e, tmp, cap, hist, &heavy,
								emit_ids, &es, textfp_interrupt_tick);
		if (c == -1)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s: %zu rows share one key of %d bits, more than the %zu that fit in maintenance_work_mem",
							fn, heavy, t.prefix_bits, cap),
					 errdetail("Rows with equal key bits must be compared in one part."),
					 errhint("Raise maintenance_work_mem.")));
		cmp += c;
		done++;
		if (textfp_progress && (done * 10 >= next_notice * ntables || done == ntables))
		{
			ereport(NOTICE,
					(errmsg("%s: table %llu of %llu done, %lld comparisons, %llu pairs", fn,
							(unsigned long long) done, (unsigned long long) ntables,
							(long long) cmp, (unsigned long long) es.pairs)));
			next_notice = done * 10 / ntables + 1;
		}
	} while ((s = tfp_pairs_next_table(&plan, s)) != 0);
	pfree(e);
	pfree(tmp);
	if (hist)
		pfree(hist);
}

void
textfp_pairs_search(FunctionCallInfo fcinfo, bool rel_form, int32 radius,
					PairSink sink, void *arg)
{
	PairsInput	in = {0};
	Oid			nsp = get_func_namespace(fcinfo->flinfo->fn_oid);

	in.fn = get_func_name(fcinfo->flinfo->fn_oid);
	in.nsp = nsp;
	if (radius < 0 || radius > TFP_PAIRS_MAX_RADIUS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("radius must be between 0 and %d, not %d", TFP_PAIRS_MAX_RADIUS, radius),
				 errdetail("The radius is the largest Hamming distance of a pair, in bits.")));
	/* rows that fit beside the least room for sorting */
	in.maxrows = budget_bytes() / 16;
	in.maxrows = in.maxrows > MIN_PART * 2 ? in.maxrows - MIN_PART : MIN_PART;
	in.next_notice = 1 << 20;
	in.cxt = AllocSetContextCreate(CurrentMemoryContext, "simhash_pairs",
								   ALLOCSET_DEFAULT_SIZES);
	if (rel_form)
		read_rel(&in, PG_GETARG_OID(0), NameStr(*PG_GETARG_NAME(1)),
				 NameStr(*PG_GETARG_NAME(2)), nsp);
	else
		read_query(&in, text_to_cstring(PG_GETARG_TEXT_PP(0)));
	if (in.on_workers)
	{
		textfp_citus_pairs_search(in.fn, PG_GETARG_OID(0), NameStr(*PG_GETARG_NAME(1)),
								  NameStr(*PG_GETARG_NAME(2)), radius, nsp, sink, arg);
		MemoryContextDelete(in.cxt);
		return;
	}
	if (textfp_progress)
		ereport(NOTICE, (errmsg("%s: read %zu rows, done", in.fn, in.n)));
	/* give back the arrays' growth room: the budget counts n rows */
	if (in.n > 0 && in.n < in.cap)
	{
		in.id = repalloc_huge(in.id, in.n * sizeof(int64));
		in.fp = repalloc_huge(in.fp, in.n * sizeof(uint64));
		in.cap = in.n;
	}
	textfp_pairs_run(in.fn, in.cxt, in.id, in.fp, in.n, radius, 0, -1, sink, arg);
	MemoryContextDelete(in.cxt);
}

/* simhash_pairs(): the pairs as rows (id_a, id_b, distance) */
typedef struct RowSink
{
	Tuplestorestate *ts;
	TupleDesc	desc;
} RowSink;

static void
put_row(void *arg, int64 a, int64 b, int dist)
{
	RowSink    *s = arg;
	Datum		v[3] = {Int64GetDatum(a), Int64GetDatum(b), Int32GetDatum(dist)};
	bool		nulls[3] = {false, false, false};

	tuplestore_putvalues(s->ts, s->desc, v, nulls);
}

static Datum
pairs_rows(FunctionCallInfo fcinfo, bool rel_form, int32 radius)
{
	RowSink		s;

	s.ts = textfp_srf_materialize(fcinfo, &s.desc);
	textfp_pairs_search(fcinfo, rel_form, radius, put_row, &s);
	return (Datum) 0;
}

Datum
simhash_pairs_query(PG_FUNCTION_ARGS)
{
	return pairs_rows(fcinfo, false, PG_GETARG_INT32(1));
}

Datum
simhash_pairs_rel(PG_FUNCTION_ARGS)
{
	return pairs_rows(fcinfo, true, PG_GETARG_INT32(3));
}
