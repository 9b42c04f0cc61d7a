/*
 * repeated.c -- textfp_repeated_spans(corpus, ...): every span of a row's
 * text that also occurs in another row, with the first other row it occurs
 * in; textfp_remove_repeated(corpus, ...): every row's text without the
 * spans an earlier row (a smaller id) has already (first occurrence kept:
 * the deduplication of training data).  The definition, the method and
 * its proof of exactness are in src/core/tfp_repeat.h; this file reads the
 * rows, hands their unit keys to the core and maps its unit positions to
 * characters of the texts.
 *
 * The table is read directly, two times (three for the removal): pass 1
 * gives each row's seed hashes, pass 2 its candidate positions, pass 3 the
 * texts to cut.  Every pass reads the rows the statement's snapshot sees,
 * from every leaf partition and inheritance child.  Only plain tables (and
 * partitioned tables of them) are read: a view, a foreign table or a Citus
 * table would need a query, and so would row-level security (its policies
 * filter queries, not heap scans), so those are refused (0A000).
 *
 * Positions are characters of the texts as given (1-based, as substr()
 * counts them) in every server encoding: the core reads the UTF-8 copy of
 * a text (align.h), whose byte offsets are mapped back to characters in
 * pass 2, for the candidate positions only.
 *
 * Rows with a NULL id or text are skipped (and not returned by the
 * removal); the ids must be unique (23505 otherwise): the order of the
 * rows, and so the witnesses and the first occurrences, is theirs.  Spans
 * come out by id, then start; the removal's rows by id, as they are read
 * when the table holds them in id order, else through a tuplesort (spilled
 * to disk beyond work_mem).  Memory: the core's (tfp_repeat.h), 8 bytes a
 * row for the ids, and the longest row's units (16 bytes each).
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_operator_d.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/tuplesort.h"

#include "align.h"
#include "pairs.h"
#include "textfp.h"
#include "tfp_passage.h"
#include "tfp_repeat.h"

PG_FUNCTION_INFO_V1(textfp_repeated_spans);
PG_FUNCTION_INFO_V1(textfp_remove_repeated);

/* a leaf of the corpus: a table with its two columns */
typedef struct RepLeaf
{
	Oid			relid;
	AttrNumber	ia,
				ta;
} RepLeaf;

typedef struct RepState RepState;
typedef void (*RepRow) (RepState *st, int64 id, text *t);

struct RepState
{
	const char *fn;				/* function name, for messages */
	MemoryContext cxt;			/* the search's arrays */
	MemoryContext rowcxt;		/* one row's texts, reset after each */
	uint32		L;
	tfp_passage_opts po;		/* pass 1's winnowing (tfp_repeat_params) */
	tfp_repeat *core;
	RepLeaf    *leaves;
	int			nleaves;
	Oid			idtype;
	double		expect;			/* estimated rows, for progress */
	bool		exact;			/* expect is the count of pass 1 */
	const char *phase;			/* of the progress messages */
	size_t		nread,			/* rows read in this pass */
				next_notice;

	/* the ids: in the order read during pass 1, then sorted */
	int64	   *ids;
	size_t		nrows,
				capids;
	bool		in_order;		/* pass 1 read them in increasing order */

	/* a row's buffers */
	uint64	   *keys;			/* its unit keys */
	size_t		nunits,
				capkeys;
	uint32	   *ustart,			/* pass 2: their byte spans */
			   *uend;
	size_t		capunits;
	uint32	   *offs;			/* character offsets of candidates */
	size_t		capoffs;

	/* pass 3 (removal) */
	tfp_rrange *ranges;
	size_t		capranges;
	text	   *mask;
	TupleDesc	desc;
	Tuplestorestate *ts;
	Tuplesortstate *sort;		/* NULL: the rows come in id order */
	TupleTableSlot *vslot;
	int64		last_id;
	uint64		removed_rows,
				removed_units;
};

/* ------------------------------------------------------------------------
 * Memory of the core: huge allocations in the search's context
 * ------------------------------------------------------------------------ */

static void *
rep_realloc(void *arg, void *p, size_t size)
{
	if (p == NULL)
		return MemoryContextAllocHuge((MemoryContext) arg, size);
	return repalloc_huge(p, size);
}

static void
rep_free(void *arg, void *p)
{
	pfree(p);
}

/* the core could not grow an array (palloc's own failures raise theirs) */
static void
no_memory(RepState *st)
{
	ereport(ERROR,
			(errcode(ERRCODE_OUT_OF_MEMORY),
			 errmsg("%s: out of memory", st->fn),
			 errdetail("The search holds about 44 bytes for every position of a repeated seed hash.")));
}

/* grow a buffer of the search's context to at least need elements */
static void *
grow_buf(RepState *st, void *p, size_t *cap, size_t need, size_t elsize)
{
	size_t		nc;

	if (need <= *cap)
		return p;
	nc = Max(need, *cap * 2);
	nc = Max(nc, 1024);
	*cap = nc;
	if (p == NULL)
		return MemoryContextAllocHuge(st->cxt, nc * elsize);
	return repalloc_huge(p, nc * elsize);
}

/* ------------------------------------------------------------------------
 * The corpus: checks and leaves
 * ------------------------------------------------------------------------ */

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

static void
refuse(RepState *st, Relation rel, const char *why, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s() does not read \"%s\": %s", st->fn, RelationGetRelationName(rel), why),
			 errdetail("%s", detail),
			 errhint("Copy the rows into a table first, e.g. CREATE TABLE t AS SELECT id, body FROM %s;",
					 quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
												RelationGetRelationName(rel)))));
}

static const char *
kind_name(char relkind)
{
	switch (relkind)
	{
		case RELKIND_VIEW:
			return "it is a view";
		case RELKIND_MATVIEW:
			return "it is a materialized view";
		case RELKIND_FOREIGN_TABLE:
			return "it is a foreign table";
		default:
			return "it is not a table";
	}
}

static void
open_corpus(RepState *st, Oid relid, const char *idcol, const char *textcol)
{
	Relation	rel = try_relation_open(relid, AccessShareLock);
	AttrNumber	ia,
				ta;
	Oid			idtype,
				ttype;
	List	   *kids;
	ListCell   *lc;
	const char *ck;

	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	if ((ck = textfp_citus_table_kind(relid)) != NULL)
		refuse(st, rel, psprintf("it is a Citus %s table", ck),
			   "Its rows are in the shards on the workers; this function reads the heap of a local table.");
	if (rel->rd_rel->relkind != RELKIND_RELATION &&
		rel->rd_rel->relkind != RELKIND_PARTITIONED_TABLE)
		refuse(st, rel, kind_name(rel->rd_rel->relkind),
			   "This function reads the heap of a table (or of the partitions of a partitioned table) directly.");
	ia = column_of(rel, idcol);
	ta = column_of(rel, textcol);
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK &&
		(pg_attribute_aclcheck(relid, ia, GetUserId(), ACL_SELECT) != ACLCHECK_OK ||
		 pg_attribute_aclcheck(relid, ta, GetUserId(), ACL_SELECT) != ACLCHECK_OK))
		aclcheck_error(ACLCHECK_NO_PRIV, get_relkind_objtype(rel->rd_rel->relkind),
					   RelationGetRelationName(rel));
	idtype = getBaseType(get_atttype(relid, ia));
	ttype = getBaseType(get_atttype(relid, ta));
	if (!textfp_is_int_type(idtype))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s: column \"%s\" of \"%s\" must be of an integer type, not %s",
						st->fn, idcol, RelationGetRelationName(rel),
						format_type_be(get_atttype(relid, ia))),
				 errdetail("The rows are ordered by id, and ids are returned as bigint; smallint, integer and bigint are accepted.")));
	if (ttype != TEXTOID && ttype != VARCHAROID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s: column \"%s\" of \"%s\" must be of type text, not %s",
						st->fn, textcol, RelationGetRelationName(rel),
						format_type_be(get_atttype(relid, ta))),
				 errdetail("The repeated spans are found in texts (text or varchar).")));
	if (check_enable_rls(relid, InvalidOid, false) == RLS_ENABLED)
		refuse(st, rel, "it has row-level security",
			   "Its rows are read from the heap directly, not through a query the policies would filter.");
	st->idtype = idtype;

	kids = find_all_inheritors(relid, AccessShareLock, NULL);
	st->leaves = MemoryContextAllocZero(st->cxt, sizeof(RepLeaf) * list_length(kids));
	foreach(lc, kids)
	{
		Oid			kid = lfirst_oid(lc);
		Relation	r = table_open(kid, NoLock);
		RepLeaf    *l;

		if (RELATION_IS_OTHER_TEMP(r))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot access temporary tables of other sessions")));
		if (kid != relid && textfp_citus_table_kind(kid) != NULL)
			refuse(st, r, "it is a Citus table",
				   "Its rows are in the shards on the workers; this function reads the heap of a local table.");
		if (r->rd_rel->relkind == RELKIND_PARTITIONED_TABLE)
		{
			table_close(r, NoLock);
			continue;
		}
		if (r->rd_rel->relkind != RELKIND_RELATION)
			refuse(st, r, psprintf("%s (a partition or child of \"%s\")",
								   kind_name(r->rd_rel->relkind), RelationGetRelationName(rel)),
				   "This function reads the heap of every partition directly.");
		if (r->rd_rel->reltuples > 0)
			st->expect += r->rd_rel->reltuples;
		l = &st->leaves[st->nleaves++];
		l->relid = kid;
		l->ia = column_of(r, idcol);
		l->ta = column_of(r, textcol);
		table_close(r, NoLock);
	}
	relation_close(rel, NoLock);
}

/* ------------------------------------------------------------------------
 * Reading: every row of every leaf, in the same order in every pass (no
 * synchronized scan, so that a pass starts at the first block)
 * ------------------------------------------------------------------------ */

static void
progress(RepState *st, bool done)
{
	if (done)
		ereport(NOTICE, (errmsg("%s: %s: read %zu rows, done", st->fn, st->phase, st->nread)));
	else if (st->expect > 0)
		ereport(NOTICE,
				(errmsg("%s: %s: read %zu rows (%.0f%% of %s%.0f)", st->fn, st->phase,
						st->nread, Min(100.0, 100.0 * st->nread / st->expect),
						st->exact ? "" : "about ", st->expect)));
	else
		ereport(NOTICE, (errmsg("%s: %s: read %zu rows", st->fn, st->phase, st->nread)));
	st->next_notice = st->expect > 0 ? st->nread + (size_t) (st->expect / 10) + 1 : st->nread * 2;
}

static void
scan_rows(RepState *st, const char *phase, RepRow fn)
{
	st->phase = phase;
	st->nread = 0;
	st->next_notice = st->expect > 0 ? (size_t) (st->expect / 10) + 1 : 1 << 16;
	for (int i = 0; i < st->nleaves; i++)
	{
		RepLeaf    *l = &st->leaves[i];
		Relation	rel = table_open(l->relid, NoLock);
		TupleTableSlot *slot = table_slot_create(rel, NULL);
		TableScanDesc scan = table_beginscan_strat(rel, GetActiveSnapshot(), 0, NULL,
												   true, false);

		while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
		{
			bool		n1,
						n2;
			Datum		id = slot_getattr(slot, l->ia, &n1),
						t = slot_getattr(slot, l->ta, &n2);
			MemoryContext old;

			CHECK_FOR_INTERRUPTS();
			if (n1 || n2)
				continue;
			old = MemoryContextSwitchTo(st->rowcxt);
			fn(st, textfp_int_datum(id, st->idtype), DatumGetTextPP(t));
			MemoryContextSwitchTo(old);
			MemoryContextReset(st->rowcxt);
			st->nread++;
			if (textfp_progress && st->nread >= st->next_notice)
				progress(st, false);
		}
		table_endscan(scan);
		ExecDropSingleTupleTableSlot(slot);
		table_close(rel, NoLock);
	}
	if (textfp_progress)
		progress(st, true);
}

static void
too_long(RepState *st, int64 id, uint64 nunits)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("%s: the text of row %lld has %llu units, more than the %u a row may have",
					st->fn, (long long) id, (unsigned long long) nunits,
					(unsigned) TFP_PASSAGE_MAX_UNITS),
			 errdetail("Units are Han characters and words.")));
}

/* ---- pass 1: ids and seed hashes ---- */

static void
key_sink(void *arg, const tfp_punit *u, size_t n)
{
	RepState   *st = arg;

	st->keys = grow_buf(st, st->keys, &st->capkeys, st->nunits + n, sizeof(uint64));
	for (size_t i = 0; i < n; i++)
		st->keys[st->nunits++] = u[i].key;
}

static void
pass1_row(RepState *st, int64 id, text *t)
{
	AlignText	at;

	if (st->nrows >= (size_t) UINT32_MAX - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s: more than %u rows", st->fn, UINT32_MAX - 1)));
	st->ids = grow_buf(st, st->ids, &st->capids, st->nrows + 1, sizeof(int64));
	if (st->nrows > 0 && id <= st->ids[st->nrows - 1])
		st->in_order = false;
	st->ids[st->nrows++] = id;
	/*
	 * The unit keys of the UTF-8 copy pass 2 reads too (in every encoding);
	 * the core winnows them (not tfp_passage_seeds(), which weighs words)
	 */
	textfp_align_text(t, &at);
	st->nunits = 0;
	tfp_passage_units(at.utf8, at.len, st->po.reading, key_sink, st, textfp_interrupt_tick);
	if (st->nunits > TFP_PASSAGE_MAX_UNITS)
		too_long(st, id, st->nunits);
	if (tfp_repeat_pass1_keys(st->core, st->keys, st->nunits) != 0)
		no_memory(st);
}

static int
cmp_int64(const void *a, const void *b)
{
	int64		x = *(const int64 *) a,
				y = *(const int64 *) b;

	return x < y ? -1 : x > y;
}

/* sort the ids (unless read in order); they must be unique */
static void
sort_ids(RepState *st, const char *relname)
{
	if (!st->in_order)
		qsort(st->ids, st->nrows, sizeof(int64), cmp_int64);
	for (size_t i = 1; i < st->nrows; i++)
		if (st->ids[i] == st->ids[i - 1])
			ereport(ERROR,
					(errcode(ERRCODE_UNIQUE_VIOLATION),
					 errmsg("%s: id %lld is the id of more than one row of \"%s\"",
							st->fn, (long long) st->ids[i], relname),
					 errdetail("The rows are taken in the order of their ids, which must be unique (rows with a NULL id or text are skipped)."),
					 errhint("Pass a unique column as id_column, e.g. the primary key.")));
}

/* the index of a row in id order */
static uint32
rank_of(RepState *st, int64 id)
{
	size_t		lo = 0,
				hi = st->nrows;

	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (st->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= st->nrows || st->ids[lo] != id)
		elog(ERROR, "%s: row %lld was not read by the first pass", st->fn, (long long) id);
	return (uint32) lo;
}

/* ---- pass 2: candidates, their character offsets ---- */

static void
unit_sink(void *arg, const tfp_punit *u, size_t n)
{
	RepState   *st = arg;
	size_t		need = st->nunits + n,
				cap = st->capunits;

	st->keys = grow_buf(st, st->keys, &st->capkeys, need, sizeof(uint64));
	if (need > cap)
	{
		st->ustart = grow_buf(st, st->ustart, &cap, need, sizeof(uint32));
		cap = st->capunits;
		st->uend = grow_buf(st, st->uend, &cap, need, sizeof(uint32));
		st->capunits = cap;
	}
	for (size_t i = 0; i < n; i++)
	{
		st->keys[st->nunits] = u[i].key;
		st->ustart[st->nunits] = u[i].start;
		st->uend[st->nunits] = u[i].end;
		st->nunits++;
	}
}

/* the character containing byte off of the copy (starts[] map) */
static uint32
char_at(const AlignText *at, uint32 off)
{
	uint32		lo = 0,
				hi = at->nchars;

	while (lo < hi)
	{
		uint32		mid = lo + (hi - lo + 1) / 2;

		if (at->starts[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * Byte offsets of the UTF-8 copy, ascending, to characters of the text:
 * the character a unit starts at (end false), or the number of characters
 * up to the end of a unit (end true: v is just past the unit's last byte).
 */
static void
map_chars(const AlignText *at, uint32 *v, size_t n, bool end)
{
	if (at->bytes)
		return;					/* SQL_ASCII: a byte is a character */
	if (at->starts)
	{
		for (size_t i = 0; i < n; i++)
			v[i] = end ? (v[i] > 0 ? char_at(at, v[i] - 1) + 1 : 0) : char_at(at, v[i]);
		return;
	}
	{
		/* a character is a code point: count the bytes that begin one */
		const unsigned char *s = (const unsigned char *) at->utf8;
		uint32		b = 0,
					c = 0;

		for (size_t i = 0; i < n; i++)
		{
			while (b < v[i])
				c += (s[b++] & 0xC0) != 0x80;
			v[i] = c;
		}
	}
}

static void
pass2_row(RepState *st, int64 id, text *t)
{
	uint32		rank = rank_of(st, id);
	AlignText	at;
	const uint32 *pos;
	uint32	   *aux;
	int64		m;
	uint32		L = st->L;

	textfp_align_text(t, &at);
	st->nunits = 0;
	tfp_passage_units(at.utf8, at.len, st->po.reading, unit_sink, st, textfp_interrupt_tick);
	if (st->nunits > TFP_PASSAGE_MAX_UNITS)
		too_long(st, id, st->nunits);
	m = tfp_repeat_add_row(st->core, rank, st->keys, st->nunits, &pos, &aux);
	if (m < 0)
		elog(ERROR, "%s: row %lld could not be added to the search", st->fn, (long long) id);
	if (m == 0)
		return;
	st->offs = grow_buf(st, st->offs, &st->capoffs, 2 * (size_t) m, sizeof(uint32));
	for (int64 i = 0; i < m; i++)
	{
		st->offs[i] = st->ustart[pos[i]];
		st->offs[m + i] = st->uend[pos[i] + L - 1];
	}
	map_chars(&at, st->offs, m, false);
	map_chars(&at, st->offs + m, m, true);
	for (int64 i = 0; i < m; i++)
	{
		aux[2 * i] = st->offs[i];
		aux[2 * i + 1] = st->offs[m + i];
	}
}

/* ------------------------------------------------------------------------
 * The search, common to both functions
 * ------------------------------------------------------------------------ */

static void
check_args(FunctionCallInfo fcinfo, const char *fn, int nargs, int nullable)
{
	for (int i = 0; i < nargs; i++)
		if (i != nullable && PG_ARGISNULL(i))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s: argument %d must not be null", fn, i + 1),
					 errdetail("Only the mask of textfp_remove_repeated() may be null.")));
}

static void
search(RepState *st, FunctionCallInfo fcinfo, int32 min_units, bool reading)
{
	Oid			relid = PG_GETARG_OID(0);
	tfp_repeat_env env;
	tfp_repeat_stats s;

	if (min_units < 1 || min_units > TFP_REPEAT_MAX_L)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_units must be between 1 and %d, not %d", TFP_REPEAT_MAX_L, min_units),
				 errdetail("min_units is the length of the shortest repeat, in units: Han characters and words.")));
	st->L = (uint32) min_units;
	tfp_repeat_params(st->L, &st->po.k, &st->po.w);
	st->po.reading = reading ? 1 : 0;
	st->in_order = true;
	st->cxt = AllocSetContextCreate(CurrentMemoryContext, "textfp repeated spans",
									ALLOCSET_DEFAULT_SIZES);
	st->rowcxt = AllocSetContextCreate(st->cxt, "textfp repeated spans row",
									   ALLOCSET_DEFAULT_SIZES);
	open_corpus(st, relid, NameStr(*PG_GETARG_NAME(1)), NameStr(*PG_GETARG_NAME(2)));
	env.realloc = rep_realloc;
	env.free = rep_free;
	env.arg = st->cxt;
	env.tick = textfp_interrupt_tick;
	st->core = tfp_repeat_create(st->L, &env);
	if (st->core == NULL)
		no_memory(st);

	scan_rows(st, "pass 1 (seeds)", pass1_row);
	sort_ids(st, get_rel_name(relid));
	if (tfp_repeat_pass1_done(st->core, (uint32) st->nrows) != 0)
		no_memory(st);
	if (textfp_progress)
	{
		tfp_repeat_get_stats(st->core, &s);
		ereport(NOTICE,
				(errmsg("%s: %zu rows, %llu distinct seed hashes (k-grams of %d units, windows of %d), %llu of them in two rows or more",
						st->fn, st->nrows, (unsigned long long) s.pass1_hashes, st->po.k, st->po.w,
						(unsigned long long) s.shared)));
	}
	st->expect = (double) st->nrows;
	st->exact = true;
	scan_rows(st, "pass 2 (candidates)", pass2_row);
	if (textfp_progress)
	{
		tfp_repeat_get_stats(st->core, &s);
		ereport(NOTICE,
				(errmsg("%s: %llu candidate positions; sorting and grouping them",
						st->fn, (unsigned long long) s.candidates)));
	}
	if (tfp_repeat_group(st->core) != 0)
		no_memory(st);
	if (textfp_progress)
	{
		tfp_repeat_get_stats(st->core, &s);
		ereport(NOTICE,
				(errmsg("%s: %llu repeated positions of %d units; at most %llu MB held",
						st->fn, (unsigned long long) s.repeated, st->L,
						(unsigned long long) ((s.peak_bytes + (1 << 20) - 1) >> 20))));
	}
	/* the row buffers are done with */
	if (st->keys)
		pfree(st->keys);
	if (st->ustart)
	{
		pfree(st->ustart);
		pfree(st->uend);
	}
	st->keys = NULL;
	st->ustart = st->uend = NULL;
	st->capkeys = st->capunits = 0;
}

/*
 * textfp_repeated_spans(corpus regclass, id_column name, text_column name,
 *						 min_units int4, reading boolean)
 * RETURNS TABLE(id int8, start int4, length int4, units int4,
 *				 other_id int8, other_start int4)
 */
Datum
textfp_repeated_spans(PG_FUNCTION_ARGS)
{
	RepState	st = {0};
	TupleDesc	desc;
	Tuplestorestate *ts;
	tfp_rspan  *spans = NULL;
	size_t		cap = 0;

	st.fn = "textfp_repeated_spans";
	check_args(fcinfo, st.fn, 5, -1);
	ts = textfp_srf_materialize(fcinfo, &desc);
	search(&st, fcinfo, PG_GETARG_INT32(3), PG_GETARG_BOOL(4));
	for (uint32 r = 0; r < st.nrows; r++)
	{
		size_t		room = tfp_repeat_row_candidates(st.core, r),
					ns;

		if (room == 0)
			continue;
		spans = grow_buf(&st, spans, &cap, room, sizeof(tfp_rspan));
		ns = tfp_repeat_row_spans(st.core, r, spans);
		for (size_t k = 0; k < ns; k++)
		{
			const tfp_rspan *p = &spans[k];
			Datum		v[6];
			bool		nulls[6] = {false, false, false, false, false, false};

			v[0] = Int64GetDatum(st.ids[r]);
			v[1] = Int32GetDatum((int32) p->start_aux + 1);
			v[2] = Int32GetDatum((int32) (p->end_aux - p->start_aux));
			v[3] = Int32GetDatum((int32) p->units);
			v[4] = Int64GetDatum(st.ids[p->other_row]);
			v[5] = Int32GetDatum((int32) p->other_aux + 1);
			tuplestore_putvalues(ts, desc, v, nulls);
		}
		if ((r & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	tfp_repeat_destroy(st.core);
	MemoryContextDelete(st.cxt);
	return (Datum) 0;
}

/* ---- pass 3 (removal): the texts cut ---- */

static void
put_result(RepState *st, int64 id, Datum body, int32 removed)
{
	Datum		v[3] = {Int64GetDatum(id), body, Int32GetDatum(removed)};
	bool		nulls[3] = {false, false, false};

	if (st->sort == NULL)
	{
		tuplestore_putvalues(st->ts, st->desc, v, nulls);
		return;
	}
	ExecClearTuple(st->vslot);
	memcpy(st->vslot->tts_values, v, sizeof(v));
	memcpy(st->vslot->tts_isnull, nulls, sizeof(nulls));
	ExecStoreVirtualTuple(st->vslot);
	tuplesort_puttupleslot(st->sort, st->vslot);
}

static void
pass3_row(RepState *st, int64 id, text *t)
{
	uint32		rank = rank_of(st, id);
	size_t		room = tfp_repeat_row_candidates(st->core, rank),
				nr = 0;
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	StringInfoData buf;
	int			b = 0,			/* byte and character of the walk */
				done = 0;		/* bytes copied */
	uint32		c = 0,
				units = 0;
	bool		bytes = GetDatabaseEncoding() == PG_SQL_ASCII;

	if (st->sort == NULL && st->nread > 0 && id <= st->last_id)
		elog(ERROR, "%s: the table's rows came in another order than in the first pass", st->fn);
	st->last_id = id;
	if (room > 0)
	{
		st->ranges = grow_buf(st, st->ranges, &st->capranges, room, sizeof(tfp_rrange));
		nr = tfp_repeat_row_removed(st->core, rank, st->ranges);
	}
	if (nr == 0)
	{
		put_result(st, id, PointerGetDatum(t), 0);
		return;
	}
	initStringInfo(&buf);
	for (size_t k = 0; k < nr; k++)
	{
		const tfp_rrange *rg = &st->ranges[k];
		int			from,
					to;

		/* characters to bytes of the text as stored */
		while (c < rg->start_aux && b < len)
		{
			b += bytes ? 1 : pg_mblen(s + b);
			c++;
		}
		from = Min(b, len);
		while (c < rg->end_aux && b < len)
		{
			b += bytes ? 1 : pg_mblen(s + b);
			c++;
		}
		to = Min(b, len);
		appendBinaryStringInfo(&buf, s + done, from - done);
		if (st->mask)
			appendBinaryStringInfo(&buf, VARDATA_ANY(st->mask), VARSIZE_ANY_EXHDR(st->mask));
		done = to;
		units += rg->units;
	}
	appendBinaryStringInfo(&buf, s + done, len - done);
	st->removed_rows++;
	st->removed_units += units;
	put_result(st, id, PointerGetDatum(cstring_to_text_with_len(buf.data, buf.len)),
			   (int32) units);
}

/*
 * textfp_remove_repeated(corpus regclass, id_column name, text_column name,
 *						  min_units int4, mask text, reading boolean)
 * RETURNS TABLE(id int8, body text, removed_units int4)
 */
Datum
textfp_remove_repeated(PG_FUNCTION_ARGS)
{
	RepState	st = {0};

	st.fn = "textfp_remove_repeated";
	check_args(fcinfo, st.fn, 6, 4);
	st.ts = textfp_srf_materialize(fcinfo, &st.desc);
	search(&st, fcinfo, PG_GETARG_INT32(3), PG_GETARG_BOOL(5));
	if (!PG_ARGISNULL(4))
		st.mask = PG_GETARG_TEXT_PP(4);
	/*
	 * The rows are returned in id order: as they are read, when the first
	 * pass read them so (no synchronized scans: every pass reads the same
	 * order); else through a sort.
	 */
	if (!st.in_order)
	{
		AttrNumber	col = 1;
		Oid			op = Int8LessOperator,
					coll = InvalidOid;
		bool		nf = false;

		st.sort = tuplesort_begin_heap(st.desc, 1, &col, &op, &coll, &nf, work_mem, NULL,
#if PG_VERSION_NUM >= 150000
									   TUPLESORT_NONE
#else
									   false
#endif
			);
		st.vslot = MakeSingleTupleTableSlot(st.desc, &TTSOpsVirtual);
	}
	st.expect = (double) st.nrows;
	scan_rows(&st, "pass 3 (texts)", pass3_row);
	if (st.sort)
	{
		TupleTableSlot *out = MakeSingleTupleTableSlot(st.desc, &TTSOpsMinimalTuple);

		if (textfp_progress)
			ereport(NOTICE, (errmsg("%s: sorting the rows by id", st.fn)));
		tuplesort_performsort(st.sort);
		while (tuplesort_gettupleslot(st.sort, true, false, out, NULL))
		{
			tuplestore_puttupleslot(st.ts, out);
			CHECK_FOR_INTERRUPTS();
		}
		tuplesort_end(st.sort);
		ExecDropSingleTupleTableSlot(out);
		ExecDropSingleTupleTableSlot(st.vslot);
	}
	if (textfp_progress)
		ereport(NOTICE,
				(errmsg("%s: %llu units removed from %llu of %zu rows", st.fn,
						(unsigned long long) st.removed_units,
						(unsigned long long) st.removed_rows, st.nrows)));
	tfp_repeat_destroy(st.core);
	MemoryContextDelete(st.cxt);
	return (Datum) 0;
}
