/*
 * citus_pairs_worker.c -- the parts of the distributed all-pairs search of
 * a Citus table (citus_pairs.c: the method and its proof) that run on the
 * workers, inside the shard queries Citus sends there:
 *
 * - textfp_citus_pairs_first(tableoid) and textfp_citus_pairs_pack(...):
 *   the shuffle's source side.  In
 *       SELECT p.* FROM src t CROSS JOIN LATERAL pack(t.tableoid, ...) p
 *       WHERE first(t.tableoid)
 *   Citus runs the query on every shard; first() passes one row of each
 *   shard (a leaf partition of a partitioned one), and pack() then reads
 *   that whole shard itself, with the query's snapshot, and returns its rows
 *   routed and packed: bundles (dest, rows bytea) of up to a few thousand
 *   rows of 16 bytes.  Citus repartitions bundles, not rows: a move costs
 *   per byte, not per row (a row moved alone cost 1.1 us on this host).
 *   A shard with no visible row gives first() no row, and has none to send.
 * - textfp_citus_pairs_agg(dest, rows, ...): one partition's search, over
 *   the bundles routed to it.
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"

#include "citus_pairs.h"

PG_FUNCTION_INFO_V1(textfp_citus_pairs_first);
PG_FUNCTION_INFO_V1(textfp_citus_pairs_pack);
PG_FUNCTION_INFO_V1(textfp_citus_pairs_acc);
PG_FUNCTION_INFO_V1(textfp_citus_pairs_final);

void
textfp_citus_pairs_check_plan(tfp_pairs_plan *plan, int32 radius, int32 nblocks)
{
	if (radius < 0 || radius > TFP_PAIRS_MAX_RADIUS || nblocks <= radius ||
		tfp_pairs_make_plan(plan, 2, radius, nblocks) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("no distributed plan for radius %d with %d blocks", radius, nblocks),
				 errdetail("The radius must be between 0 and %d and the blocks more than the radius, at most 64, with at most %d tables.",
						   TFP_PAIRS_MAX_RADIUS, TFP_PAIRS_MAX_TABLES)));
}

/*
 * the partition of group g's key (block g's bits v): a 64-bit mix, its top
 * 32 bits scaled to [0, ndest) (a multiply, not a division: this runs for
 * every row and group on both sides of the shuffle)
 */
int
textfp_citus_pairs_route_of(const tfp_pairs_plan *plan, uint64 fp, int g, int ndest)
{
	uint64		v = (fp >> plan->off[g]) &
		(plan->len[g] >= 64 ? ~UINT64CONST(0) : (UINT64CONST(1) << plan->len[g]) - 1);
	uint64		h = ((uint64) g << 56) ^ v;

	h ^= h >> 30;
	h *= UINT64CONST(0xBF58476D1CE4E5B9);
	h ^= h >> 27;
	h *= UINT64CONST(0x94D049BB133111EB);
	h ^= h >> 31;
	return (int) (((h >> 32) * (uint64) ndest) >> 32);
}

/* the partitions' distribution values, one per shard of the intermediate table */
static int32 *
dest_values(ArrayType *arr, int *ndest)
{
	*ndest = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	if (ARR_ELEMTYPE(arr) != INT4OID || ARR_HASNULL(arr) || *ndest < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the destinations must be a non-empty integer array without NULL"),
				 errdetail("They are the distribution values of the intermediate table's shards.")));
	return (int32 *) ARR_DATA_PTR(arr);
}

/* ---------------------------------------------------------------- first */

/*
 * textfp_citus_pairs_first(rel oid) returns bool: true for the first row
 * of each relation the statement shows it, false after.  VOLATILE and
 * PARALLEL UNSAFE: its state is this call site's, in one process.
 */
typedef struct FirstSeen
{
	int			n,
				cap;
	Oid			last;
	Oid		   *oids;
} FirstSeen;

Datum
textfp_citus_pairs_first(PG_FUNCTION_ARGS)
{
	Oid			rel = PG_GETARG_OID(0);
	FirstSeen  *s = fcinfo->flinfo->fn_extra;

	if (s == NULL)
	{
		s = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(FirstSeen));
		fcinfo->flinfo->fn_extra = s;
	}
	if (s->n > 0 && s->last == rel)
		PG_RETURN_BOOL(false);
	for (int i = 0; i < s->n; i++)
		if (s->oids[i] == rel)
		{
			s->last = rel;
			PG_RETURN_BOOL(false);
		}
	if (s->n == s->cap)
	{
		s->cap = Max(8, s->cap * 2);
		s->oids = s->oids == NULL ?
			MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, s->cap * sizeof(Oid)) :
			repalloc(s->oids, s->cap * sizeof(Oid));
	}
	s->oids[s->n++] = rel;
	s->last = rel;
	PG_RETURN_BOOL(true);
}

/* ---------------------------------------------------------------- pack */

typedef struct PackState
{
	Relation	rel;
	Snapshot	snap;
	TableScanDesc scan;
	TupleTableSlot *slot;
	ExprContext *econtext;		/* where pack_close is registered */
	AttrNumber	ia,
				fa;
	Oid			idtype;
	tfp_pairs_plan plan;
	int			ndest;
	int32	   *dest;
	int			cap;			/* rows in a full bundle */
	uint8	  **buf;			/* per destination: its bundle being filled */
	int		   *n;
	bool		eof;
	int			flushed;		/* at the end: destinations flushed */
	/* the row being placed: its distinct partitions, the next to fill */
	int64		id;
	uint64		fp;
	int			nroutes,
				next;
	int			routes[TFP_PAIRS_MAX_RADIUS + 1];
	uint64		rows;
} PackState;

static void
pack_close(Datum arg)
{
	PackState  *st = (PackState *) DatumGetPointer(arg);

	if (st->scan)
		table_endscan(st->scan);
	if (st->slot)
		ExecDropSingleTupleTableSlot(st->slot);
	if (st->snap)
		UnregisterSnapshot(st->snap);
	if (st->rel)
		relation_close(st->rel, AccessShareLock);
	st->scan = NULL;
	st->slot = NULL;
	st->snap = NULL;
	st->rel = NULL;
}

static AttrNumber
shard_column(Relation rel, const char *name)
{
	AttrNumber	a = get_attnum(RelationGetRelid(rel), name);

	if (a == InvalidAttrNumber || a < 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						name, RelationGetRelationName(rel)),
				 errdetail("The distributed all-pairs search reads the id and fingerprint columns of each shard.")));
	return a;
}

static PackState *
pack_open(FunctionCallInfo fcinfo, MemoryContext cxt)
{
	Oid			relid = PG_GETARG_OID(0);
	Oid			nsp = get_func_namespace(fcinfo->flinfo->fn_oid);
	PackState  *st = MemoryContextAllocZero(cxt, sizeof(PackState));
	int32	   *dest;
	Oid			fptype;

	textfp_citus_pairs_check_plan(&st->plan, PG_GETARG_INT32(3), PG_GETARG_INT32(4));
	dest = dest_values(PG_GETARG_ARRAYTYPE_P(5), &st->ndest);
	st->dest = MemoryContextAlloc(cxt, st->ndest * sizeof(int32));
	memcpy(st->dest, dest, st->ndest * sizeof(int32));

	st->rel = try_relation_open(relid, AccessShareLock);
	if (st->rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid),
				 errdetail("The distributed all-pairs search packs the rows of a shard of its own statement.")));
	if (st->rel->rd_rel->relkind != RELKIND_RELATION)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table", RelationGetRelationName(st->rel)),
				 errdetail("The distributed all-pairs search packs the rows of a shard (a leaf table).")));
	st->ia = shard_column(st->rel, NameStr(*PG_GETARG_NAME(1)));
	st->fa = shard_column(st->rel, NameStr(*PG_GETARG_NAME(2)));
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK &&
		(pg_attribute_aclcheck(relid, st->ia, GetUserId(), ACL_SELECT) != ACLCHECK_OK ||
		 pg_attribute_aclcheck(relid, st->fa, GetUserId(), ACL_SELECT) != ACLCHECK_OK))
		aclcheck_error(ACLCHECK_NO_PRIV, OBJECT_TABLE, RelationGetRelationName(st->rel));
	/* the heap is read directly: only where no row policy applies */
	if (check_enable_rls(relid, InvalidOid, false) == RLS_ENABLED)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("row-level security is enabled for \"%s\"", RelationGetRelationName(st->rel)),
				 errdetail("The distributed all-pairs search reads shards directly; tables with row-level security are read by the coordinator.")));
	st->idtype = getBaseType(TupleDescAttr(RelationGetDescr(st->rel), st->ia - 1)->atttypid);
	fptype = TupleDescAttr(RelationGetDescr(st->rel), st->fa - 1)->atttypid;
	if (!textfp_is_int_type(st->idtype) || !textfp_is_fp_type(fptype, nsp))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("the columns of \"%s\" must be an integer id and a simhash64 or bigint fingerprint",
						RelationGetRelationName(st->rel)),
				 errdetail("The id column is %s, the fingerprint column %s.",
						   format_type_be(TupleDescAttr(RelationGetDescr(st->rel), st->ia - 1)->atttypid),
						   format_type_be(fptype))));

	/*
	 * bundles of about 1 MB, fewer rows each when there are many
	 * destinations (about 16 MB in all)
	 */
	st->cap = Max(1024, Min(65536, (1 << 20) / st->ndest));
	st->buf = MemoryContextAlloc(cxt, st->ndest * sizeof(uint8 *));
	st->n = MemoryContextAllocZero(cxt, st->ndest * sizeof(int));
	for (int d = 0; d < st->ndest; d++)
		st->buf[d] = MemoryContextAlloc(cxt, (Size) st->cap * CITUS_PAIRS_ROW_BYTES);

	/* the statement's snapshot: the rows its scan of the shard sees */
	st->snap = RegisterSnapshot(GetActiveSnapshot());
	st->slot = table_slot_create(st->rel, NULL);
	st->scan = table_beginscan(st->rel, st->snap, 0, NULL);
	return st;
}

/* the next row with both columns, false at the end; its distinct partitions */
static bool
pack_next_row(PackState *st)
{
	for (;;)
	{
		bool		idnull,
					fpnull;
		Datum		idd,
					fpd;

		if (!table_scan_getnextslot(st->scan, ForwardScanDirection, st->slot))
			return false;
		if ((++st->rows & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		idd = slot_getattr(st->slot, st->ia, &idnull);
		fpd = slot_getattr(st->slot, st->fa, &fpnull);
		if (idnull || fpnull)
			continue;
		st->id = textfp_int_datum(idd, st->idtype);
		st->fp = (uint64) DatumGetInt64(fpd);
		/* a row goes once to each of its groups' partitions */
		st->nroutes = 0;
		for (int g = 0; g <= st->plan.radius; g++)
		{
			int			d = textfp_citus_pairs_route_of(&st->plan, st->fp, g, st->ndest);
			bool		dup = false;

			for (int h = 0; h < st->nroutes; h++)
				dup |= st->routes[h] == d;
			if (!dup)
				st->routes[st->nroutes++] = d;
		}
		st->next = 0;
		return true;
	}
}

/* the bundle of destination d as a result row (dest, rows), emptied */
static Datum
pack_bundle(FuncCallContext *fctx, PackState *st, int d)
{
	Size		len = (Size) st->n[d] * CITUS_PAIRS_ROW_BYTES;
	bytea	   *b = palloc(VARHDRSZ + len);
	Datum		values[2];
	bool		nulls[2] = {false, false};

	SET_VARSIZE(b, VARHDRSZ + len);
	memcpy(VARDATA(b), st->buf[d], len);
	st->n[d] = 0;
	values[0] = Int32GetDatum(st->dest[d]);
	values[1] = PointerGetDatum(b);
	return HeapTupleGetDatum(heap_form_tuple(fctx->tuple_desc, values, nulls));
}

/*
 * textfp_citus_pairs_pack(rel oid, id_column name, fp_column name, radius
 * int4, nblocks int4, dests int4[]) returns setof (dest int4, rows bytea):
 * every row of rel (a shard) with both columns set, once into the bundle of
 * each distinct partition its groups route to (route_of), the bundles as
 * they fill and the rest at the end.  Value per call: at most one bundle
 * per destination is in memory.
 */
Datum
textfp_citus_pairs_pack(PG_FUNCTION_ARGS)
{
	FuncCallContext *fctx;
	PackState  *st;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;
		ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
		TupleDesc	desc;

		fctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(fctx->multi_call_memory_ctx);
		if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "return type must be a row type");
		fctx->tuple_desc = BlessTupleDesc(CreateTupleDescCopy(desc));
		st = pack_open(fcinfo, fctx->multi_call_memory_ctx);
		MemoryContextSwitchTo(old);
		/* the scan ends with the statement if it stops reading early */
		st->econtext = rsinfo->econtext;
		RegisterExprContextCallback(st->econtext, pack_close, PointerGetDatum(st));
		fctx->user_fctx = st;
	}
	fctx = SRF_PERCALL_SETUP();
	st = fctx->user_fctx;
	for (;;)
	{
		/* place the current row in its partitions' bundles */
		while (st->next < st->nroutes)
		{
			int			d = st->routes[st->next];

			if (st->n[d] == st->cap)
				SRF_RETURN_NEXT(fctx, pack_bundle(fctx, st, d));
			textfp_put64le(st->buf[d] + (Size) st->n[d] * CITUS_PAIRS_ROW_BYTES, (uint64) st->id);
			textfp_put64le(st->buf[d] + (Size) st->n[d] * CITUS_PAIRS_ROW_BYTES + 8, st->fp);
			st->n[d]++;
			st->next++;
		}
		if (st->eof || !pack_next_row(st))
			break;
	}
	st->eof = true;
	while (st->flushed < st->ndest)
	{
		int			d = st->flushed++;

		if (st->n[d] > 0)
			SRF_RETURN_NEXT(fctx, pack_bundle(fctx, st, d));
	}
	UnregisterExprContextCallback(st->econtext, pack_close, PointerGetDatum(st));
	pack_close(PointerGetDatum(st));
	SRF_RETURN_DONE(fctx);
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
 * textfp_citus_pairs_acc(state, dest int4, rows bytea, radius, nblocks,
 * dests int4[]): collect a partition's rows from its bundles (16 bytes a
 * row)
 */
Datum
textfp_citus_pairs_acc(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt;
	PartState  *st = PG_ARGISNULL(0) ? NULL : (PartState *) PG_GETARG_POINTER(0);
	bytea	   *b;
	size_t		len,
				k;
	const uint8 *p;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		elog(ERROR, "textfp_citus_pairs_acc called in non-aggregate context");
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_POINTER(st);
	if (st == NULL)
	{
		const int32 *dest;
		int32		self = PG_GETARG_INT32(1);

		if (PG_ARGISNULL(3) || PG_ARGISNULL(4) || PG_ARGISNULL(5))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("the radius, the number of blocks and the destinations must not be NULL"),
					 errdetail("They are the plan of the distributed all-pairs search.")));
		st = MemoryContextAllocZero(aggcxt, sizeof(PartState));
		st->cxt = aggcxt;
		textfp_citus_pairs_check_plan(&st->plan, PG_GETARG_INT32(3), PG_GETARG_INT32(4));
		dest = dest_values(PG_GETARG_ARRAYTYPE_P(5), &st->ndest);
		for (st->self = 0; st->self < st->ndest && dest[st->self] != self; st->self++)
			;
		if (st->self == st->ndest)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("partition %d is not one of the destinations", self),
					 errdetail("A bundle's partition is one of the intermediate table's shards.")));
	}
	b = PG_GETARG_BYTEA_PP(2);
	len = VARSIZE_ANY_EXHDR(b);
	if (len % CITUS_PAIRS_ROW_BYTES != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a bundle of %zu bytes is not a whole number of rows", len),
				 errdetail("A bundle holds rows of %d bytes.", CITUS_PAIRS_ROW_BYTES)));
	k = len / CITUS_PAIRS_ROW_BYTES;
	if (st->n + k > st->cap)
		textfp_rows_resize(st->cxt, &st->id, &st->fp, &st->cap,
						   Max(Max(st->cap * 2, st->n + k), 1024));
	p = (const uint8 *) VARDATA_ANY(b);
	for (size_t i = 0; i < k; i++, p += CITUS_PAIRS_ROW_BYTES)
	{
		st->id[st->n + i] = (int64) textfp_get64le(p);
		st->fp[st->n + i] = textfp_get64le(p + 8);
	}
	st->n += k;
	PG_RETURN_POINTER(st);
}

void
textfp_citus_pairs_buf_add(void *arg, int64 a, int64 b, int dist)
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
 * here (route_of again; proof in citus_pairs.c's header comment); the
 * pairs as triples.
 */
Datum
textfp_citus_pairs_final(PG_FUNCTION_ARGS)
{
	PartState  *st = PG_ARGISNULL(0) ? NULL : (PartState *) PG_GETARG_POINTER(0);
	MemoryContext cxt;
	PairBuf		buf = {0};
	ArrayType  *result;
	int64	   *id;
	uint64	   *fp;

	if (st == NULL || st->n < 2)
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(INT8OID));
	cxt = AllocSetContextCreate(CurrentMemoryContext, "textfp_citus_pairs",
								ALLOCSET_DEFAULT_SIZES);
	buf.cxt = cxt;
	buf.limited = true;
	/* one pair of arrays for every group's rows (at most all of them) */
	id = MemoryContextAllocHuge(cxt, st->n * sizeof(int64));
	fp = MemoryContextAllocHuge(cxt, st->n * sizeof(uint64));
	for (int g = 0; g <= st->plan.radius; g++)
	{
		size_t		m = 0;

		for (size_t i = 0; i < st->n; i++)
		{
			if (textfp_citus_pairs_route_of(&st->plan, st->fp[i], g, st->ndest) != st->self)
				continue;
			id[m] = st->id[i];
			fp[m] = st->fp[i];
			m++;
			if ((m & 0xFFFF) == 0)
				CHECK_FOR_INTERRUPTS();
		}
		textfp_pairs_run("simhash_pairs", cxt, id, fp, m, st->plan.radius, st->plan.nblocks, g,
						 textfp_citus_pairs_buf_add, &buf);
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
			buf.cap = MaxAllocSize; /* raises the error of buf_add */
			textfp_citus_pairs_buf_add(&buf, 0, 0, 0);
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
