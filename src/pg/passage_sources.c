/*
 * passage_sources.c -- textfp_sources(query, corpus, ...): the stored
 * documents a text took passages from, each with its passages, ranked by
 * the share of the text they cover
 *
 *  1. The query's seeds (passage_hits.c), with the options of the corpus's
 *     passage indexes (or the defaults when the tables are read instead).
 *  2. Their hits in every table of the corpus (a leaf partition each):
 *     rows with a seed of equal key and context byte.  By the guarantee of
 *     src/core/tfp_passage.h every stored row sharing a run of length t =
 *     w + k (w + k - 1 of Han characters) with the query has one, but for
 *     runs made only of seeds over
 *     max_docs (common text) and boilerplate lines of the lexicon.
 *  3. The rows with hits are candidates, best evidence first
 *     (tfp_sources.h); each of the first max_candidates is fetched (as the
 *     snapshot sees it) and aligned with the query (tfp_align, homophones
 *     equal: option reading), and is a source when a passage of at least
 *     min_length (Han characters, a word counting as two) is found.
 *  4. Sources are ranked by the share of the query inside their passages,
 *     then by their longest passage, then by id; a row per passage of the
 *     first max_sources, with how common the passage is.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "pairs.h"
#include "passage_am.h"
#include "passage_sources.h"
#include "termset_cache.h"
#include "textfp.h"

PG_FUNCTION_INFO_V1(textfp_sources);

typedef struct Source
{
	int64		id;
	double		share;
	uint64		longest;
	tfp_align_result r;			/* passages, characters mapped */
	uint32	   *freq;			/* per passage */
} Source;

/* the byte spans of a text's units */
typedef struct Spans
{
	uint32	   *starts,
			   *ends;
	size_t		n,
				cap;
} Spans;

static void
spans_sink(void *arg, const tfp_punit *u, size_t n)
{
	Spans	   *sp = (Spans *) arg;

	if (sp->n + n > sp->cap)
	{
		sp->cap = Max(sp->cap * 2, sp->n + n);
		sp->starts = repalloc_huge(sp->starts, sp->cap * sizeof(uint32));
		sp->ends = repalloc_huge(sp->ends, sp->cap * sizeof(uint32));
	}
	for (size_t i = 0; i < n; i++)
	{
		sp->starts[sp->n] = u[i].start;
		sp->ends[sp->n] = u[i].end;
		sp->n++;
	}
}

/*
 * A weak candidate (its longest chain of hits shorter than min_length
 * units: a hit or two) is first aligned in windows around that chain, in
 * both texts: radius units more on each side, radius at least min_length,
 * so a passage of min_length through the chain lies in the windows as far
 * as min_length reaches.  Only when a passage is found there is the whole
 * pair aligned.  The windows cost a tenth of the pair; most weak
 * candidates share a phrase, not a passage.  A pair whose only passages of
 * min_length lie away from every hit is not confirmed this way: such a
 * passage holds no run of t units (else it would have a hit of its own).
 */
static bool
window_confirms(const AlignText *st, const SrcQuery *q, const tfp_src_evidence *ev,
				const tfp_align_opts *ao, MemoryContext tmp)
{
	MemoryContext old = MemoryContextSwitchTo(tmp);
	Spans		sp;
	uint32		radius = (uint32) Max(ao->min_length, 32) + (uint32) q->o.k,
				qb0,
				qb1,
				db0,
				db1;
	tfp_align_result r;
	int			rc;
	bool		found;

	sp.cap = 256;
	sp.n = 0;
	sp.starts = palloc(sp.cap * sizeof(uint32));
	sp.ends = palloc(sp.cap * sizeof(uint32));
	tfp_passage_units(st->utf8, st->len, q->o.reading, spans_sink, &sp, textfp_interrupt_tick);
	tfp_src_window(q->starts, q->ends, q->nunits, ev->q0, ev->q1, radius, &qb0, &qb1);
	tfp_src_window(sp.starts, sp.ends, sp.n, ev->d0, ev->d1, radius, &db0, &db1);
	rc = tfp_align(st->utf8 + db0, db1 - db0, q->text.utf8 + qb0, qb1 - qb0, ao,
				   &textfp_align_env, &r);
	found = rc != TFP_ALIGN_OK || r.n > 0;
	MemoryContextSwitchTo(old);
	MemoryContextReset(tmp);
	return found;
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

/* the passage index of a table on the column, or NULL */
static Relation
passage_index_of(Relation rel, AttrNumber att)
{
	List	   *ids = RelationGetIndexList(rel);
	ListCell   *lc;
	Relation	found = NULL;

	foreach(lc, ids)
	{
		Relation	ix = index_open(lfirst_oid(lc), AccessShareLock);

		if (found == NULL && pas_is_passage_index(ix) && ix->rd_index->indisvalid &&
			ix->rd_index->indnatts == 1 && ix->rd_index->indkey.values[0] == att &&
			ix->rd_opcintype[0] == TEXTOID && RelationGetIndexPredicate(ix) == NIL)
			found = ix;
		else
			index_close(ix, AccessShareLock);
	}
	list_free(ids);
	return found;
}

/* the tables of the corpus, checked: SELECT, no row security, plain heaps */
static SrcLeaf *
corpus_leaves(Oid relid, const char *idcol, const char *textcol, bool use_index, int *nleaves)
{
	Relation	rel = try_relation_open(relid, AccessShareLock);
	AttrNumber	ia,
				ta;
	List	   *kids;
	ListCell   *lc;
	SrcLeaf    *leaves;
	int			n = 0;

	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	if (rel->rd_rel->relkind != RELKIND_RELATION &&
		rel->rd_rel->relkind != RELKIND_PARTITIONED_TABLE)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table", RelationGetRelationName(rel)),
				 errdetail("textfp_sources() reads a table or a partitioned table and its passage indexes.")));
	ia = column_of(rel, idcol);
	ta = column_of(rel, textcol);
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK &&
		(pg_attribute_aclcheck(relid, ia, GetUserId(), ACL_SELECT) != ACLCHECK_OK ||
		 pg_attribute_aclcheck(relid, ta, GetUserId(), ACL_SELECT) != ACLCHECK_OK))
		aclcheck_error(ACLCHECK_NO_PRIV, get_relkind_objtype(rel->rd_rel->relkind),
					   RelationGetRelationName(rel));
	if (!textfp_is_int_type(getBaseType(get_atttype(relid, ia))))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of \"%s\" is not of an integer type", idcol,
						RelationGetRelationName(rel)),
				 errdetail("textfp_sources() returns the ids of the sources as bigint.")));
	if (getBaseType(get_atttype(relid, ta)) != TEXTOID &&
		getBaseType(get_atttype(relid, ta)) != VARCHAROID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of \"%s\" is not of type text", textcol,
						RelationGetRelationName(rel)),
				 errdetail("textfp_sources() aligns the query with the stored texts.")));
	kids = find_all_inheritors(relid, AccessShareLock, NULL);
	leaves = palloc0(sizeof(SrcLeaf) * list_length(kids));
	foreach(lc, kids)
	{
		Oid			kid = lfirst_oid(lc);
		Relation	r = table_open(kid, NoLock);
		SrcLeaf    *l;

		if (RELATION_IS_OTHER_TEMP(r))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot access temporary tables of other sessions")));
		if (check_enable_rls(kid, InvalidOid, false) == RLS_ENABLED)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("textfp_sources() does not read \"%s\": it has row-level security",
							RelationGetRelationName(r)),
					 errdetail("Its rows are read through its passage index, not through a query the policies would filter.")));
		if (r->rd_rel->relkind != RELKIND_RELATION)
		{
			if (r->rd_rel->relkind != RELKIND_PARTITIONED_TABLE)
				ereport(ERROR,
						(errcode(ERRCODE_WRONG_OBJECT_TYPE),
						 errmsg("partition \"%s\" of \"%s\" is not a table",
								RelationGetRelationName(r), RelationGetRelationName(rel)),
						 errdetail("textfp_sources() reads tables and their passage indexes.")));
			table_close(r, NoLock);
			continue;
		}
		l = &leaves[n++];
		l->rel = r;
		l->idatt = column_of(r, idcol);
		l->textatt = column_of(r, textcol);
		l->idtype = getBaseType(get_atttype(kid, l->idatt));
		if (use_index)
		{
			l->index = passage_index_of(r, l->textatt);
			if (l->index == NULL)
				ereport(ERROR,
						(errcode(ERRCODE_UNDEFINED_OBJECT),
						 errmsg("table \"%s\" has no passage index on column \"%s\"",
								RelationGetRelationName(r), textcol),
						 errdetail("textfp_sources() finds candidate sources through a passage index on the text column of every table of the corpus."),
#if PG_VERSION_NUM >= 150000
						 errhint("CREATE INDEX ON %s USING passage (%s); or call textfp_sources(..., use_index => false) to read the whole table.",
								 quote_qualified_identifier(get_namespace_name(RelationGetNamespace(r)),
															RelationGetRelationName(r)),
								 quote_identifier(textcol))
#else
						 errhint("The passage index needs PostgreSQL 15 or later; call textfp_sources(..., use_index => false) to read the whole table.")
#endif
						 ));
		}
	}
	table_close(rel, NoLock);
	*nleaves = n;
	return leaves;
}

/* the options of the corpus's indexes (all the same), or the defaults */
static tfp_passage_opts
corpus_opts(SrcLeaf *leaves, int n)
{
	tfp_passage_opts o = {TFP_PASSAGE_DEFAULT_K, TFP_PASSAGE_DEFAULT_W, 1};

	for (int i = 0; i < n; i++)
	{
		PasMetaData m;
		tfp_passage_opts mo;

		if (leaves[i].index == NULL)
			continue;
		pas_read_meta(leaves[i].index, &m);
		mo = pas_meta_opts(&m);
		if (i > 0 && (mo.k != o.k || mo.w != o.w || mo.reading != o.reading))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("the passage indexes of the corpus have different options"),
					 errdetail("Index \"%s\" has k=%d w=%d reading=%d, an earlier one k=%d w=%d reading=%d.",
							   RelationGetRelationName(leaves[i].index), mo.k, mo.w, mo.reading,
							   o.k, o.w, o.reading)));
		o = mo;
	}
	return o;
}

static int
cmp_source(const void *a, const void *b)
{
	const Source *x = a,
			   *y = b;

	if (x->share != y->share)
		return x->share > y->share ? -1 : 1;
	if (x->longest != y->longest)
		return x->longest > y->longest ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void
check_arg(bool cond, const char *msg, const char *detail)
{
	if (!cond)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s", msg), errdetail("%s", detail)));
}

/* the arguments every entry point shares: query, corpus, columns, limits */
typedef struct SrcArgs
{
	int32		min_length,
				max_sources,
				max_docs,
				max_candidates;
	bool		use_index;
	const tfp_termset *lexicon;
} SrcArgs;

static void
src_args(FunctionCallInfo fcinfo, SrcArgs *a)
{
	a->min_length = PG_GETARG_INT32(4);
	a->max_sources = PG_GETARG_INT32(5);
	a->max_docs = PG_GETARG_INT32(6);
	a->use_index = PG_GETARG_BOOL(8);
	a->max_candidates = PG_GETARG_INT32(9);
	a->lexicon = NULL;
	check_arg(a->min_length >= 1 && a->min_length <= TFP_ALIGN_MAX_MIN_LENGTH,
			  psprintf("min_length must be between 1 and %d, not %d", TFP_ALIGN_MAX_MIN_LENGTH, a->min_length),
			  "min_length is the shortest passage reported, in Han characters (a word counts as two).");
	check_arg(a->max_sources >= 1,
			  psprintf("max_sources must be at least 1, not %d", a->max_sources),
			  "max_sources is the number of sources returned, best first.");
	check_arg(a->max_docs >= 0,
			  psprintf("max_docs must be 0 or more, not %d", a->max_docs),
			  "A seed found in more than max_docs rows of the corpus is too common to look up (0: no limit).");
	check_arg(a->max_candidates >= 1,
			  psprintf("max_candidates must be at least 1, not %d", a->max_candidates),
			  "max_candidates is the number of rows with hits that are aligned with the query, best evidence first.");
	if (!PG_ARGISNULL(7))
	{
		const textfp_termset_cache *c = textfp_boilerplate_arg(fcinfo, 7);

		if (c->nterms > 0)
			a->lexicon = &c->set;
	}
}

/*
 * The query's seeds and their df in the corpus (the leaves of a table on
 * this node): over its indexes, added up first when there are several; by
 * reading, as the hits are gathered.  gdf: the df given (the shards of a
 * Citus table), its length checked against the seeds.
 */
static void
src_prepare(SrcQuery *q, text *query, SrcLeaf *leaves, int nleaves, const SrcArgs *a,
			ArrayType *gdf)
{
	tfp_passage_opts o = corpus_opts(leaves, nleaves);

	src_query_prepare(q, query, &o, a->lexicon);
	if (gdf != NULL)
	{
		int			n = ArrayGetNItems(ARR_NDIM(gdf), ARR_DIMS(gdf));

		if (ARR_ELEMTYPE(gdf) != INT4OID || ARR_HASNULL(gdf) || n != (int) q->nseeds)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("df must hold one integer per seed of the query (%zu), without nulls",
							q->nseeds),
					 errdetail("textfp_citus_sources() passes the df textfp_sources_df() found on every shard, added up.")));
		for (int i = 0; i < n; i++)
			check_arg(((int32 *) ARR_DATA_PTR(gdf))[i] >= 0, "df must not be negative",
					  "A df is a count of index entries.");
		src_set_df(q, (const uint32 *) ARR_DATA_PTR(gdf), (uint32) a->max_docs);
	}
	else if (nleaves > 1 && a->use_index)
	{
		for (int i = 0; i < nleaves; i++)
			src_df_index(&leaves[i], q);
		src_set_df(q, NULL, (uint32) a->max_docs);
	}
}

static void
close_leaves(SrcLeaf *leaves, int nleaves)
{
	for (int i = 0; i < nleaves; i++)
	{
		if (leaves[i].index)
			index_close(leaves[i].index, AccessShareLock);
		table_close(leaves[i].rel, NoLock);
	}
}

/*
 * A Citus table: the source query of every shard, merged on this node
 * (textfp_citus_sources(), src/sql/81_passage_index.sql), its rows
 * returned as ours
 */
static Datum
sources_citus(FunctionCallInfo fcinfo)
{
	TupleDesc	desc;
	Tuplestorestate *ts = textfp_srf_materialize(fcinfo, &desc);
	Oid			nsp = get_func_namespace(fcinfo->flinfo->fn_oid);
	Oid			types[10] = {TEXTOID, REGCLASSOID, NAMEOID, NAMEOID, INT4OID, INT4OID, INT4OID,
		GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum("textfp_boilerplate"),
						ObjectIdGetDatum(nsp)), BOOLOID, INT4OID};
	Datum		args[10];
	char		nulls[10];
	char	   *sql;

	for (int i = 0; i < 10; i++)
	{
		args[i] = PG_GETARG_DATUM(i);
		nulls[i] = PG_ARGISNULL(i) ? 'n' : ' ';
	}
	sql = psprintf("SELECT * FROM %s.textfp_citus_sources($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
				   quote_identifier(get_namespace_name(nsp)));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args(sql, 10, types, args, nulls, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "textfp_citus_sources() failed");
	if (SPI_tuptable->tupdesc->natts != desc->natts)
		elog(ERROR, "textfp_citus_sources() returned %d columns, not %d",
			 SPI_tuptable->tupdesc->natts, desc->natts);
	for (uint64 i = 0; i < SPI_processed; i++)
		tuplestore_puttuple(ts, SPI_tuptable->vals[i]);
	SPI_finish();
	return (Datum) 0;
}

/*
 * textfp_sources_df(query text, corpus regclass, id_column name,
 *					 text_column name, boilerplate textfp_boilerplate,
 *					 use_index boolean) RETURNS int4[]
 *
 * The df of each seed of the query in the table (a shard, for
 * textfp_citus_sources()), in the order of the seeds.
 */
PG_FUNCTION_INFO_V1(textfp_sources_df);
Datum
textfp_sources_df(PG_FUNCTION_ARGS)
{
	SrcArgs		a;
	SrcLeaf    *leaves;
	int			nleaves;
	SrcQuery	q;
	Datum	   *d;

	for (int i = 0; i < 6; i++)
		if (i != 4 && PG_ARGISNULL(i))
			PG_RETURN_NULL();
	memset(&a, 0, sizeof(a));
	a.use_index = PG_GETARG_BOOL(5);
	if (!PG_ARGISNULL(4))
	{
		const textfp_termset_cache *c = textfp_boilerplate_arg(fcinfo, 4);

		if (c->nterms > 0)
			a.lexicon = &c->set;
	}
	leaves = corpus_leaves(PG_GETARG_OID(1), NameStr(*PG_GETARG_NAME(2)),
						   NameStr(*PG_GETARG_NAME(3)), a.use_index, &nleaves);
	{
		tfp_passage_opts o = corpus_opts(leaves, nleaves);

		src_query_prepare(&q, PG_GETARG_TEXT_PP(0), &o, a.lexicon);
	}
	for (int i = 0; i < nleaves; i++)
	{
		if (leaves[i].index)
			src_df_index(&leaves[i], &q);
		else
		{
			SrcHits		h;

			memset(&h, 0, sizeof(h));
			src_hits_scan(&h, i, &leaves[i], &q);
		}
	}
	d = palloc(sizeof(Datum) * Max(q.nseeds, 1));
	for (size_t i = 0; i < q.nseeds; i++)
		d[i] = Int32GetDatum((int32) Min(q.df[i], (uint32) PG_INT32_MAX));
	close_leaves(leaves, nleaves);
	PG_RETURN_ARRAYTYPE_P(construct_array(d, (int) q.nseeds, INT4OID, 4, true, TYPALIGN_INT));
}

/*
 * textfp_sources(query text, corpus regclass, id_column name, text_column
 *				  name, min_length int4, max_sources int4, max_docs int4,
 *				  boilerplate textfp_boilerplate, use_index boolean,
 *				  max_candidates int4)
 * RETURNS TABLE(rank, source_id, share, source_passages, passage,
 *				 source_start, source_length, query_start, query_length,
 *				 matched, similarity, frequency)
 *
 * and, as textfp_sources_shard(..., df int4[]), one more column,
 * passage_units (the passage's length in the query, by which sources
 * tie), with the df of the query's seeds given
 */
Datum
textfp_sources(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Tuplestorestate *ts;
	SrcArgs		a;
	int32		min_length,
				max_sources,
				max_docs,
				max_candidates;
	bool		shard = PG_NARGS() == 11;
	SrcLeaf    *leaves;
	int			nleaves;
	SrcQuery	q;
	SrcHits		h;
	Source	   *src;
	int			nsrc = 0;
	tfp_align_opts ao;
	uint32	   *scratch;
	Snapshot	snap = GetActiveSnapshot();
	MemoryContext tmpcxt = AllocSetContextCreate(CurrentMemoryContext, "textfp_sources window",
												 ALLOCSET_DEFAULT_SIZES);

	for (int i = 0; i < PG_NARGS(); i++)
		if (i != 7 && PG_ARGISNULL(i))
		{
			if (i >= 2)
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("the arguments of textfp_sources() but boilerplate must not be null")));
			/* a NULL query or corpus: no sources */
			(void) textfp_srf_materialize(fcinfo, &desc);
			return (Datum) 0;
		}
	src_args(fcinfo, &a);
	min_length = a.min_length;
	max_sources = a.max_sources;
	max_docs = a.max_docs;
	max_candidates = a.max_candidates;
	if (textfp_citus_table_kind(PG_GETARG_OID(1)) != NULL)
	{
		if (shard)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("textfp_sources_shard() reads a shard, not the Citus table %s",
							get_rel_name(PG_GETARG_OID(1))),
					 errdetail("textfp_citus_sources() calls it on every shard of a distributed table.")));
		/* the shell has the columns, privileges and indexes of the shards */
		leaves = corpus_leaves(PG_GETARG_OID(1), NameStr(*PG_GETARG_NAME(2)),
							   NameStr(*PG_GETARG_NAME(3)), a.use_index, &nleaves);
		close_leaves(leaves, nleaves);
		return sources_citus(fcinfo);
	}

	leaves = corpus_leaves(PG_GETARG_OID(1), NameStr(*PG_GETARG_NAME(2)),
						   NameStr(*PG_GETARG_NAME(3)), a.use_index, &nleaves);
	src_prepare(&q, PG_GETARG_TEXT_PP(0), leaves, nleaves, &a,
				shard ? PG_GETARG_ARRAYTYPE_P(10) : NULL);
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < nleaves; i++)
	{
		if (leaves[i].index)
			src_hits_index(&h, i, &leaves[i], &q, (uint32) max_docs);
		else
			src_hits_scan(&h, i, &leaves[i], &q);
	}
	src_hits_finish(&h, &q, (uint32) max_docs);
	src_candidates(&h, &q);

	/* 3. confirm by alignment */
	memset(&ao, 0, sizeof(ao));
	ao.min_length = min_length;
	ao.seed = TFP_ALIGN_DEFAULT_SEED;
	ao.max_gap = TFP_ALIGN_DEFAULT_MAX_GAP;
	ao.fold = TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN;
	ao.reading = q.o.reading;
	src = palloc0(sizeof(Source) * Max(Min(h.ncands, (Size) max_candidates), 1));
	scratch = palloc(sizeof(uint32) * Max(q.nseeds, 1));
	{
		TupleTableSlot **slots = palloc0(sizeof(TupleTableSlot *) * nleaves);
		IndexFetchTableData **fetch = palloc0(sizeof(IndexFetchTableData *) * nleaves);

		for (Size c = 0; c < h.ncands && c < (Size) max_candidates; c++)
		{
			SrcCand    *cand = &h.cands[c];
			SrcLeaf    *l = &leaves[cand->leaf];
			bool		call_again = false,
						all_dead = false,
						isnull;
			Datum		idv,
						tv;
			AlignText	st;
			Source	   *s = &src[nsrc];
			int			rc;
			ItemPointerData tid = cand->tid;

			CHECK_FOR_INTERRUPTS();
			if (slots[cand->leaf] == NULL)
			{
				slots[cand->leaf] = table_slot_create(l->rel, NULL);
				fetch[cand->leaf] = table_index_fetch_begin(l->rel);
			}
			if (!table_index_fetch_tuple(fetch[cand->leaf], &tid, snap, slots[cand->leaf],
										 &call_again, &all_dead))
				continue;
			idv = slot_getattr(slots[cand->leaf], l->idatt, &isnull);
			if (isnull)
				continue;
			tv = slot_getattr(slots[cand->leaf], l->textatt, &isnull);
			if (isnull)
				continue;
			textfp_align_text(DatumGetTextPP(tv), &st);
			if (cand->ev.span < (uint32) min_length && cand->ev.d1 > 0 &&
				!window_confirms(&st, &q, &cand->ev, &ao, tmpcxt))
				continue;
			rc = tfp_align(st.utf8, st.len, q.text.utf8, q.text.len, &ao, &textfp_align_env, &s->r);
			if (rc == TFP_ALIGN_ETOOBIG)
				continue;		/* a stored text too long to align: not a source */
			if (rc != TFP_ALIGN_OK)
				ereport(ERROR,
						(errcode(ERRCODE_OUT_OF_MEMORY),
						 errmsg("out of memory"),
						 errdetail("Aligning the query with a stored text needed more memory than could be allocated.")));
			if (s->r.n == 0)
				continue;
			textfp_align_map_chars(&st, &s->r, 0);
			textfp_align_map_chars(&q.text, &s->r, 1);
			s->id = textfp_int_datum(idv, l->idtype);
			s->share = s->r.b_total ? (double) s->r.b_covered / (double) s->r.b_total : 0;
			s->freq = palloc(sizeof(uint32) * s->r.n);
			for (size_t k = 0; k < s->r.n; k++)
			{
				tfp_align_passage *p = &s->r.p[k];
				uint32		u0 = (uint32) tfp_src_unit_of_byte(q.ends, q.nunits, p->b_start),
							u1 = p->b_end > 0 ?
					(uint32) tfp_src_unit_of_byte(q.ends, q.nunits, p->b_end - 1) + 1 : 0;

				s->longest = Max(s->longest, p->b_len);
				s->freq[k] = tfp_src_frequency(q.seed_units, q.df, q.common, q.nseeds, u0, u1,
											   q.o.k, (uint32) max_docs, scratch);
			}
			nsrc++;
		}
		for (int i = 0; i < nleaves; i++)
			if (slots[i])
			{
				table_index_fetch_end(fetch[i]);
				ExecDropSingleTupleTableSlot(slots[i]);
			}
	}
	qsort(src, nsrc, sizeof(Source), cmp_source);

	/* 4. the rows */
	ts = textfp_srf_materialize(fcinfo, &desc);
	for (int i = 0; i < nsrc && i < max_sources; i++)
	{
		Source	   *s = &src[i];

		for (size_t k = 0; k < s->r.n; k++)
		{
			tfp_align_passage *p = &s->r.p[k];
			Datum		v[13];
			bool		nulls[13] = {0};

			v[0] = Int32GetDatum(i + 1);
			v[1] = Int64GetDatum(s->id);
			v[2] = Float8GetDatum(s->share);
			v[3] = Int32GetDatum((int32) s->r.n);
			v[4] = Int32GetDatum((int32) k + 1);
			v[5] = Int32GetDatum((int32) p->a_cstart + 1);
			v[6] = Int32GetDatum((int32) p->a_clen);
			v[7] = Int32GetDatum((int32) p->b_cstart + 1);
			v[8] = Int32GetDatum((int32) p->b_clen);
			v[9] = Int32GetDatum((int32) p->matched);
			v[10] = Float8GetDatum(2.0 * p->matched / ((double) p->a_len + p->b_len));
			v[11] = Int32GetDatum((int32) s->freq[k]);
			v[12] = Int32GetDatum((int32) p->b_len);
			tuplestore_putvalues(ts, desc, v, nulls);
		}
	}
	close_leaves(leaves, nleaves);
	return (Datum) 0;
}
