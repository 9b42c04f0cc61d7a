/*
 * hamming.c -- the "hamming" index access method: handler, build, insert,
 * vacuum, cost estimate (the scans are in hamming_scan.c; the layout in
 * hamming.h)
 *
 * The build reads the heap once, permutes every fingerprint, and writes each
 * of the four tables with one counting sort on its 16-bit chunk (the
 * histogram is the table's directory).  Pages are written without WAL and
 * logged whole at the end (log_newpage_range), as GIN's build does; later
 * changes (inserts into the pending list, VACUUM's dead marks) go through
 * generic WAL, as contrib/bloom's do.
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "access/htup_details.h"
#include "access/genam.h"
#include "access/reloptions.h"
#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_opclass.h"
#include "commands/vacuum.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/indexfsm.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "hamming.h"
#include "simhash_index.h"
#include "textfp.h"

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

/* ---- pages ---- */

void
ham_init_page(Page page, uint16 flags)
{
	HamPageOpaqueData *op;

	PageInit(page, BLCKSZ, sizeof(HamPageOpaqueData));
	op = HamPageGetOpaque(page);
	op->next = InvalidBlockNumber;
	op->flags = flags;
	op->page_id = HAM_PAGE_ID;
}

/* A new page at the end of the fork, exclusively locked. */
Buffer
ham_new_buffer(Relation index, ForkNumber fork)
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

static void
check_meta(Relation index, Page page)
{
	HamMetaData *m = HamPageGetMeta(page);

	if (HamPageGetOpaque(page)->page_id != HAM_PAGE_ID ||
		!(HamPageGetOpaque(page)->flags & HAM_PAGE_META) ||
		m->magic != HAM_MAGIC)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is not a hamming index",
						RelationGetRelationName(index)),
				 errdetail("Its metapage does not carry the hamming magic number.")));
	if (m->format != HAM_FORMAT)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" has hamming format %u, this textfp reads %d",
						RelationGetRelationName(index), m->format, HAM_FORMAT),
				 errdetail("REINDEX rebuilds it in the current format.")));
}

void
ham_read_meta(Relation index, HamMetaData *meta)
{
	Buffer		buf = ReadBuffer(index, HAM_METAPAGE_BLKNO);
	Page		page;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	check_meta(index, page);
	memcpy(meta, HamPageGetMeta(page), sizeof(HamMetaData));
	UnlockReleaseBuffer(buf);
}

static void
init_meta_page(Page page, const HamMetaData *meta)
{
	ham_init_page(page, HAM_PAGE_META);
	memcpy(HamPageGetMeta(page), meta, sizeof(HamMetaData));
	((PageHeader) page)->pd_lower =
		(char *) HamPageGetMeta(page) + sizeof(HamMetaData) - (char *) page;
}

static void
empty_meta(HamMetaData *m)
{
	int			t;

	memset(m, 0, sizeof(*m));
	m->magic = HAM_MAGIC;
	m->format = HAM_FORMAT;
	for (t = 0; t < HAM_TABLES; t++)
		m->dir_start[t] = m->data_start[t] = InvalidBlockNumber;
	m->pending_head = m->pending_tail = InvalidBlockNumber;
}

/* ---- build ---- */

typedef struct BuildItem
{
	uint64		p;
	ItemPointerData tid;
} BuildItem;

typedef struct BuildState
{
	BuildItem  *items;
	Size		n;
	Size		cap;
	BuildItem  *nulls;
	Size		nnull;
	Size		capnull;
} BuildState;

static void
build_push(BuildItem **arr, Size *n, Size *cap, uint64 p, ItemPointer tid)
{
	if (*n == *cap)
	{
		Size		newcap = *cap < 1024 ? 1024 : *cap * 2;

		if (newcap > MaxAllocHugeSize / sizeof(BuildItem))
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("too many rows for a hamming index")));
		*arr = *arr ? repalloc_huge(*arr, newcap * sizeof(BuildItem)) :
			MemoryContextAllocHuge(CurrentMemoryContext, newcap * sizeof(BuildItem));
		*cap = newcap;
	}
	(*arr)[*n].p = p;
	(*arr)[*n].tid = *tid;
	(*n)++;
}

static void
build_callback(Relation index, ItemPointer tid, Datum *values, bool *isnull,
			   bool tupleIsAlive, void *state)
{
	BuildState *bs = (BuildState *) state;

	if (isnull[0])
		build_push(&bs->nulls, &bs->nnull, &bs->capnull, 0, tid);
	else
		build_push(&bs->items, &bs->n, &bs->cap,
				   ham_permute((uint64) DatumGetSimhash(values[0])), tid);
}

/* Write pending-list pages holding the given items; returns head and tail. */
static void
write_pending(Relation index, const BuildItem *items, Size n, bool isnull,
			  BlockNumber *head, BlockNumber *tail)
{
	Size		i = 0;
	Buffer		prev = InvalidBuffer;

	*head = *tail = InvalidBlockNumber;
	while (i < n)
	{
		Buffer		buf = ham_new_buffer(index, MAIN_FORKNUM);
		Page		page = BufferGetPage(buf);
		HamPendingEntry *e;
		uint32		k;

		ham_init_page(page, HAM_PAGE_PENDING);
		e = (HamPendingEntry *) PageGetContents(page);
		for (k = 0; k < HAM_PENDING_PER_PAGE && i < n; k++, i++)
		{
			memset(&e[k], 0, sizeof(HamPendingEntry));
			e[k].p = items[i].p;
			e[k].tid = items[i].tid;
			e[k].isnull = isnull ? 1 : 0;
		}
		((PageHeader) page)->pd_lower = (char *) &e[k] - (char *) page;
		MarkBufferDirty(buf);
		if (BufferIsValid(prev))
		{
			HamPageGetOpaque(BufferGetPage(prev))->next = BufferGetBlockNumber(buf);
			MarkBufferDirty(prev);
			UnlockReleaseBuffer(prev);
		}
		else
			*head = BufferGetBlockNumber(buf);
		*tail = BufferGetBlockNumber(buf);
		prev = buf;
	}
	if (BufferIsValid(prev))
		UnlockReleaseBuffer(prev);
}

/*
 * Write table t: a counting sort of items on chunk t into tmp, the
 * directory pages, then the entry pages.
 */
static void
write_table(Relation index, const BuildItem *items, BuildItem *tmp, Size n,
			int t, uint32 *dir, HamMetaData *meta)
{
	Size		i;
	uint32		v;
	Size		pos;

	memset(dir, 0, sizeof(uint32) * HAM_DIR_LEN);
	for (i = 0; i < n; i++)
		dir[ham_chunk(items[i].p, t) + 1]++;
	for (v = 0; v < HAM_BUCKETS; v++)
		dir[v + 1] += dir[v];
	/* scatter, using dir[v] as the next free slot, then restore it */
	for (i = 0; i < n; i++)
	{
		uint32		c = ham_chunk(items[i].p, t);

		tmp[dir[c]++] = items[i];
		if ((i & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	for (v = HAM_BUCKETS; v > 0; v--)
		dir[v] = dir[v - 1];
	dir[0] = 0;

	/* directory pages */
	for (pos = 0; pos < HAM_DIR_LEN; pos += HAM_DIR_PER_PAGE)
	{
		Buffer		buf = ham_new_buffer(index, MAIN_FORKNUM);
		Page		page = BufferGetPage(buf);
		Size		k = Min((Size) HAM_DIR_PER_PAGE, HAM_DIR_LEN - pos);

		ham_init_page(page, HAM_PAGE_DIR);
		memcpy(PageGetContents(page), dir + pos, k * sizeof(uint32));
		((PageHeader) page)->pd_lower =
			(char *) PageGetContents(page) + k * sizeof(uint32) - (char *) page;
		if (pos == 0)
			meta->dir_start[t] = BufferGetBlockNumber(buf);
		MarkBufferDirty(buf);
		UnlockReleaseBuffer(buf);
	}

	/* entry pages */
	meta->data_start[t] = InvalidBlockNumber;
	for (pos = 0; pos < n; pos += HAM_ENTRIES_PER_PAGE)
	{
		Buffer		buf = ham_new_buffer(index, MAIN_FORKNUM);
		Page		page = BufferGetPage(buf);
		HamEntry   *e = (HamEntry *) PageGetContents(page);
		Size		k,
					cnt = Min((Size) HAM_ENTRIES_PER_PAGE, n - pos);

		ham_init_page(page, HAM_PAGE_DATA);
		for (k = 0; k < cnt; k++)
		{
			uint64		r = ham_rest(tmp[pos + k].p, t);

			e[k].rest[0] = (uint16) r;
			e[k].rest[1] = (uint16) (r >> 16);
			e[k].rest[2] = (uint16) (r >> 32);
			e[k].tid = tmp[pos + k].tid;
		}
		((PageHeader) page)->pd_lower = (char *) &e[cnt] - (char *) page;
		if (pos == 0)
			meta->data_start[t] = BufferGetBlockNumber(buf);
		MarkBufferDirty(buf);
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
}

static IndexBuildResult *
hamming_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	IndexBuildResult *result;
	BuildState	bs;
	HamMetaData meta;
	Buffer		metabuf;
	double		reltuples;
	MemoryContext cxt,
				old;
	int			t;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data",
			 RelationGetRelationName(index));

	cxt = AllocSetContextCreate(CurrentMemoryContext, "hamming build",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	memset(&bs, 0, sizeof(bs));

	/* block 0: the metapage, filled in last */
	metabuf = ham_new_buffer(index, MAIN_FORKNUM);
	Assert(BufferGetBlockNumber(metabuf) == HAM_METAPAGE_BLKNO);
	UnlockReleaseBuffer(metabuf);

	reltuples = table_index_build_scan(heap, index, indexInfo, true, true,
									   build_callback, (void *) &bs, NULL);

	empty_meta(&meta);
	meta.build_stamp = (int64) GetCurrentTimestamp();
	meta.nsorted = bs.n;
	if (bs.n > 0)
	{
		BuildItem  *tmp = MemoryContextAllocHuge(cxt, bs.n * sizeof(BuildItem));
		uint32	   *dir = palloc(sizeof(uint32) * HAM_DIR_LEN);

		if (bs.n > (Size) PG_UINT32_MAX - 1)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("too many rows for a hamming index"),
					 errdetail("A hamming index holds at most 4294967294 non-NULL keys.")));
		for (t = 0; t < HAM_TABLES; t++)
			write_table(index, bs.items, tmp, bs.n, t, dir, &meta);
	}
	if (bs.nnull > 0)
	{
		write_pending(index, bs.nulls, bs.nnull, true,
					  &meta.pending_head, &meta.pending_tail);
		meta.npending = bs.nnull;
	}

	metabuf = ReadBuffer(index, HAM_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	init_meta_page(BufferGetPage(metabuf), &meta);
	MarkBufferDirty(metabuf);
	UnlockReleaseBuffer(metabuf);

	if (RelationNeedsWAL(index))
		log_newpage_range(index, MAIN_FORKNUM, 0,
						  RelationGetNumberOfBlocks(index), true);

	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);

	result = (IndexBuildResult *) palloc(sizeof(IndexBuildResult));
	result->heap_tuples = reltuples;
	result->index_tuples = (double) (bs.n + bs.nnull);
	return result;
}

static void
hamming_buildempty(Relation index)
{
	Buffer		buf = ham_new_buffer(index, INIT_FORKNUM);
	HamMetaData meta;

	empty_meta(&meta);
	START_CRIT_SECTION();
	init_meta_page(BufferGetPage(buf), &meta);
	MarkBufferDirty(buf);
	log_newpage_buffer(buf, true);
	END_CRIT_SECTION();
	UnlockReleaseBuffer(buf);
}

/* ---- insert: append to the pending list ---- */

static bool
hamming_insert(Relation index, Datum *values, bool *isnull,
			   ItemPointer ht_ctid, Relation heapRel,
			   IndexUniqueCheck checkUnique,
#if PG_VERSION_NUM >= 140000
			   bool indexUnchanged,
#endif
			   IndexInfo *indexInfo)
{
	Buffer		metabuf,
				tailbuf = InvalidBuffer,
				newbuf = InvalidBuffer;
	GenericXLogState *state;
	Page		metapage;
	HamMetaData *meta;
	HamPendingEntry entry;
	Page		target;
	PageHeader	hdr;

	memset(&entry, 0, sizeof(entry));
	entry.isnull = isnull[0] ? 1 : 0;
	entry.p = isnull[0] ? 0 : ham_permute((uint64) DatumGetSimhash(values[0]));
	entry.tid = *ht_ctid;

	metabuf = ReadBuffer(index, HAM_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	check_meta(index, BufferGetPage(metabuf));
	meta = HamPageGetMeta(BufferGetPage(metabuf));

	if (meta->pending_tail != InvalidBlockNumber)
	{
		tailbuf = ReadBuffer(index, meta->pending_tail);
		LockBuffer(tailbuf, BUFFER_LOCK_EXCLUSIVE);
		hdr = (PageHeader) BufferGetPage(tailbuf);
		if ((hdr->pd_lower - MAXALIGN(SizeOfPageHeaderData)) / sizeof(HamPendingEntry) >=
			HAM_PENDING_PER_PAGE)
			newbuf = ham_new_buffer(index, MAIN_FORKNUM);
	}
	else
		newbuf = ham_new_buffer(index, MAIN_FORKNUM);

	state = GenericXLogStart(index);
	metapage = GenericXLogRegisterBuffer(state, metabuf, 0);
	meta = HamPageGetMeta(metapage);
	if (BufferIsValid(newbuf))
	{
		target = GenericXLogRegisterBuffer(state, newbuf, GENERIC_XLOG_FULL_IMAGE);
		ham_init_page(target, HAM_PAGE_PENDING);
		if (BufferIsValid(tailbuf))
		{
			Page		tail = GenericXLogRegisterBuffer(state, tailbuf, 0);

			HamPageGetOpaque(tail)->next = BufferGetBlockNumber(newbuf);
		}
		else
			meta->pending_head = BufferGetBlockNumber(newbuf);
		meta->pending_tail = BufferGetBlockNumber(newbuf);
	}
	else
		target = GenericXLogRegisterBuffer(state, tailbuf, 0);

	hdr = (PageHeader) target;
	memcpy((char *) target + hdr->pd_lower, &entry, sizeof(entry));
	hdr->pd_lower += sizeof(entry);
	meta->npending++;
	GenericXLogFinish(state);

	if (BufferIsValid(newbuf))
		UnlockReleaseBuffer(newbuf);
	if (BufferIsValid(tailbuf))
		UnlockReleaseBuffer(tailbuf);
	UnlockReleaseBuffer(metabuf);
	return false;
}

/* ---- vacuum ---- */

/*
 * Mark dead the entries of one page whose TIDs the callback names; returns
 * the number of live entries left.  live_only: count without changing.
 */
static uint64
vacuum_page(Relation index, BlockNumber blk, bool pending,
			IndexBulkDeleteCallback callback, void *cb_state,
			BufferAccessStrategy strategy, double *removed, BlockNumber *next)
{
	Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, blk, RBM_NORMAL, strategy);
	Page		page;
	uint32		n,
				k;
	size_t		esize = pending ? sizeof(HamPendingEntry) : sizeof(HamEntry);
	uint64		live = 0;
	bool		any = false;

	LockBuffer(buf, callback ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	n = (((PageHeader) page)->pd_lower - MAXALIGN(SizeOfPageHeaderData)) / esize;
	if (next)
		*next = HamPageGetOpaque(page)->next;
	/* first pass: find out whether anything is to be marked */
	for (k = 0; k < n; k++)
	{
		ItemPointer tid = pending ?
		&((HamPendingEntry *) PageGetContents(page))[k].tid :
		&((HamEntry *) PageGetContents(page))[k].tid;

		if (ham_tid_dead(tid))
			continue;
		if (callback && callback(tid, cb_state))
			any = true;
		else
			live++;
	}
	if (any)
	{
		GenericXLogState *state = GenericXLogStart(index);
		Page		wpage = GenericXLogRegisterBuffer(state, buf, 0);

		for (k = 0; k < n; k++)
		{
			ItemPointer tid = pending ?
			&((HamPendingEntry *) PageGetContents(wpage))[k].tid :
			&((HamEntry *) PageGetContents(wpage))[k].tid;

			if (!ham_tid_dead(tid) && callback(tid, cb_state))
			{
				tid->ip_posid = InvalidOffsetNumber;
				*removed += 1;
			}
		}
		GenericXLogFinish(state);
	}
	UnlockReleaseBuffer(buf);
	return live;
}

/*
 * Walk the index: every table of the sorted part (callback set) or only
 * table 0 (counting), and the pending list.  Returns the live rows.
 */
static double
vacuum_walk(IndexVacuumInfo *info, IndexBulkDeleteCallback callback,
			void *cb_state, double *removed)
{
	Relation	index = info->index;
	HamMetaData meta;
	double		live = 0,
				rm_sorted = 0,
				rm_pending = 0;
	int			t;
	BlockNumber blk;

	ham_read_meta(index, &meta);
	for (t = 0; t < (callback ? HAM_TABLES : 1); t++)
	{
		BlockNumber npages;
		double		rm = 0;
		double		lv = 0;

		if (meta.nsorted == 0)
			break;
		npages = (BlockNumber) ((meta.nsorted + HAM_ENTRIES_PER_PAGE - 1) /
								HAM_ENTRIES_PER_PAGE);
		for (blk = 0; blk < npages; blk++)
		{
			vacuum_delay_point();
			lv += vacuum_page(index, meta.data_start[t] + blk, false, callback,
							  cb_state, info->strategy, &rm, NULL);
		}
		/* every table holds the same rows: count them once */
		if (t == 0)
		{
			live += lv;
			rm_sorted = rm;
		}
	}
	blk = meta.pending_head;
	while (blk != InvalidBlockNumber)
	{
		BlockNumber next;

		vacuum_delay_point();
		live += vacuum_page(index, blk, true, callback, cb_state,
							info->strategy, &rm_pending, &next);
		blk = next;
	}
	*removed += rm_sorted + rm_pending;
	return live;
}

static IndexBulkDeleteResult *
hamming_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
				   IndexBulkDeleteCallback callback, void *callback_state)
{
	double		removed = 0;

	if (stats == NULL)
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
	stats->num_index_tuples = vacuum_walk(info, callback, callback_state, &removed);
	stats->tuples_removed += removed;
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	stats->estimated_count = false;
	return stats;
}

static IndexBulkDeleteResult *
hamming_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	double		removed = 0;

	if (info->analyze_only)
		return stats;
	if (stats == NULL)
	{
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
		stats->num_index_tuples = vacuum_walk(info, NULL, NULL, &removed);
		stats->estimated_count = false;
	}
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	return stats;
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

static bytea *
hamming_options(Datum reloptions, bool validate)
{
	if (!ham_relopt_ready)
	{
		ham_relopt_kind = add_reloption_kind();
		ham_relopt_ready = true;
	}
	/* no storage parameters: any given one is "unrecognized" (22023) */
	return (bytea *) build_reloptions(reloptions, validate, ham_relopt_kind,
									  sizeof(int32), NULL, 0);
}

/*
 * An operator class of this method has exactly the search operator
 * "simhash64 <@ simhash64_ball" as strategy 1 and the ordering operator
 * "simhash64 <-> simhash64" as strategy 15, and no support functions.
 */
static bool
hamming_validate(Oid opclassoid)
{
	HeapTuple	classtup;
	Form_pg_opclass classform;
	CatCList   *oprlist,
			   *proclist;
	bool		ok = true;
	int			i;
	char	   *name;

	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	name = pstrdup(NameStr(classform->opcname));
	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(classform->opcfamily));
	proclist = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(classform->opcfamily));

	for (i = 0; i < oprlist->n_members; i++)
	{
		Form_pg_amop op = (Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple);

		if (!((op->amopstrategy == SIMHASH_STRATEGY_IN_BALL && op->amoppurpose == AMOP_SEARCH) ||
			  (op->amopstrategy == SIMHASH_STRATEGY_DIST && op->amoppurpose == AMOP_ORDER)))
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("hamming operator class \"%s\" has operator %u with invalid strategy number %d",
							name, op->amopopr, op->amopstrategy)));
			ok = false;
		}
	}
	if (proclist->n_members > 0)
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("hamming operator class \"%s\" has support functions, the method uses none",
						name)));
		ok = false;
	}
	ReleaseCatCacheList(proclist);
	ReleaseCatCacheList(oprlist);
	ReleaseSysCache(classtup);
	return ok;
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
 * the pending list (rows inserted since the build, NULL keys, and entries
 * VACUUM has marked dead there), read from the metapage.
 */
Datum
hamming_index_stats(PG_FUNCTION_ARGS)
{
	Oid			indexoid = PG_GETARG_OID(0);
	Relation	index;
	HamMetaData meta;
	TupleDesc	tupdesc;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};
	Oid			heapoid;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	heapoid = IndexGetRelation(indexoid, true);
	if (!OidIsValid(heapoid))
	{
		char	   *name = get_rel_name(indexoid);

		if (name == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation with OID %u does not exist", indexoid),
					 errdetail("hamming_index_stats() reads the metapage of a hamming index.")));
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not an index", name),
				 errdetail("hamming_index_stats() reads the metapage of a hamming index.")));
	}
	if (pg_class_aclcheck(heapoid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for table %s", get_rel_name(heapoid)),
				 errdetail("Reading an index's statistics needs SELECT on its table.")));
	index = index_open(indexoid, AccessShareLock);
	if (index->rd_indam == NULL || index->rd_indam->ambuild != hamming_build)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("index \"%s\" is not a hamming index", RelationGetRelationName(index)),
				 errdetail("hamming_index_stats() reads the metapage of a hamming index.")));
	ham_read_meta(index, &meta);
	index_close(index, AccessShareLock);

	values[0] = Int64GetDatum((int64) meta.nsorted);
	values[1] = Int64GetDatum((int64) meta.npending);
	values[2] = Int64GetDatum((int64) (meta.npending + HAM_PENDING_PER_PAGE - 1) / HAM_PENDING_PER_PAGE);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
