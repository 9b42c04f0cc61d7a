/*
 * hamming_build.c -- the "hamming" index access method: build, insert,
 * vacuum (layout in hamming.h)
 *
 * The build reads the heap once, permutes every fingerprint, and writes each
 * of the four tables with one counting sort on its 16-bit chunk (the
 * histogram is the table's directory), as the main run (hamming_run.c).
 * Pages are written without WAL and logged whole at the end
 * (log_newpage_range), as GIN's build does; later changes (inserts into the
 * pending list, VACUUM's dead marks) go through generic WAL, as
 * contrib/bloom's do, and merges (hamming_merge.c) log the pages of their
 * runs whole.
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "hamming.h"
#include "textfp.h"

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

/*
 * Write table t of nt: a counting sort of items on the table's chunk into
 * tmp (stable: within a bucket the rows keep the heap scan's TID order, but
 * for a synchronized scan's wrap-around), then the rows to the run's
 * writer in bucket order.
 */
static uint32
write_table(HamOut *o, const BuildItem *items, BuildItem *tmp, Size n, int nt, int t,
			uint32 *dir)
{
	int			lane = ham_lane(nt, t);
	Size		i;
	uint32		v;

	memset(dir, 0, sizeof(uint32) * HAM_DIR_LEN);
	for (i = 0; i < n; i++)
		dir[ham_chunk(items[i].p, lane) + 1]++;
	for (v = 0; v < HAM_BUCKETS; v++)
		dir[v + 1] += dir[v];
	/* scatter, using dir[v] as the next free slot */
	for (i = 0; i < n; i++)
	{
		uint32		c = ham_chunk(items[i].p, lane);

		tmp[dir[c]++] = items[i];
		if ((i & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	ham_out_table_begin(o, nt, t);
	for (i = 0; i < n; i++)
		ham_out_row(o, ham_chunk(tmp[i].p, lane), ham_rest(tmp[i].p, lane), &tmp[i].tid);
	return ham_out_table_end(o);
}

IndexBuildResult *
hamming_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	IndexBuildResult *result;
	BuildState	bs;
	HamMetaData meta;
	HamRun	   *run;
	HamOut		o;
	Buffer		metabuf;
	double		reltuples;
	MemoryContext cxt,
				old;
	int			t;
	Size		i;
	HamPendingEntry *nulls;

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

	ham_empty_meta(&meta);
	meta.build_stamp = (int64) GetCurrentTimestamp();
	meta.ntables = (uint32) ham_option_tables(index);
	meta.pending.id = meta.next_id++;
	meta.nruns = 1;
	run = &meta.runs[0];
	run->id = meta.next_id++;
	run->nrows = bs.n;
	ham_out_init(&o, index, run->id, false, NULL);
	if (bs.n > 0)
	{
		BuildItem  *tmp;
		uint32	   *dir;

		if (bs.n > (Size) PG_UINT32_MAX - 1)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("too many rows for a hamming index"),
					 errdetail("A hamming index holds at most 4294967294 non-NULL keys.")));
		tmp = MemoryContextAllocHuge(cxt, bs.n * sizeof(BuildItem));
		dir = palloc(sizeof(uint32) * HAM_DIR_LEN);
		for (t = 0; t < (int) meta.ntables; t++)
			run->nentries[t] = write_table(&o, bs.items, tmp, bs.n, (int) meta.ntables, t, dir);
	}
	nulls = palloc0(sizeof(HamPendingEntry) * Max(bs.nnull, 1));
	for (i = 0; i < bs.nnull; i++)
	{
		nulls[i].tid = bs.nulls[i].tid;
		nulls[i].isnull = 1;
	}
	ham_out_chain(&o, HAM_PAGE_NULLS, nulls, bs.nnull, &run->nulls);
	ham_out_map(&o, run);

	metabuf = ReadBuffer(index, HAM_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	ham_init_meta_page(BufferGetPage(metabuf), &meta);
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

void
hamming_buildempty(Relation index)
{
	Buffer		buf = ham_new_buffer(index, INIT_FORKNUM);
	HamMetaData meta;

	ham_empty_meta(&meta);
	meta.ntables = (uint32) ham_option_tables(index);
	meta.pending.id = meta.next_id++;
	START_CRIT_SECTION();
	ham_init_meta_page(BufferGetPage(buf), &meta);
	MarkBufferDirty(buf);
	log_newpage_buffer(buf, true);
	END_CRIT_SECTION();
	UnlockReleaseBuffer(buf);
}

/* ---- insert: append to the pending list ---- */

bool
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
	char	   *end;
	bool		merge;

	memset(&entry, 0, sizeof(entry));
	entry.isnull = isnull[0] ? 1 : 0;
	entry.p = isnull[0] ? 0 : ham_permute((uint64) DatumGetSimhash(values[0]));
	entry.tid = *ht_ctid;

	metabuf = ReadBuffer(index, HAM_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	ham_check_meta(index, BufferGetPage(metabuf));
	meta = HamPageGetMeta(BufferGetPage(metabuf));

	if (meta->pending.tail != InvalidBlockNumber)
	{
		tailbuf = ReadBuffer(index, meta->pending.tail);
		LockBuffer(tailbuf, BUFFER_LOCK_EXCLUSIVE);
		if (ham_page_nentries(BufferGetPage(tailbuf), sizeof(HamPendingEntry)) >=
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
		HamPageGetOpaque(target)->owner = meta->pending.id;
		if (BufferIsValid(tailbuf))
		{
			Page		tail = GenericXLogRegisterBuffer(state, tailbuf, 0);

			HamPageGetOpaque(tail)->next = BufferGetBlockNumber(newbuf);
		}
		else
			meta->pending.head = BufferGetBlockNumber(newbuf);
		meta->pending.tail = BufferGetBlockNumber(newbuf);
	}
	else
		target = GenericXLogRegisterBuffer(state, tailbuf, 0);

	end = (char *) target + ((PageHeader) target)->pd_lower;
	memcpy(end, &entry, sizeof(entry));
	ham_page_set_end(target, end + sizeof(entry));
	meta->pending.n++;
	merge = meta->pending.n >= ham_pending_limit(meta);
	GenericXLogFinish(state);

	if (BufferIsValid(newbuf))
		UnlockReleaseBuffer(newbuf);
	if (BufferIsValid(tailbuf))
		UnlockReleaseBuffer(tailbuf);
	UnlockReleaseBuffer(metabuf);
	/* a pending list over its bound is merged, unless a merge or VACUUM runs */
	if (merge)
		ham_merge(index, false);
	return false;
}

/* ---- vacuum ---- */

/*
 * Ask the callback about a live entry at position k: remember k if its row
 * is gone, count it live otherwise (without a callback: count only).
 */
static inline void
vacuum_ask(ItemPointer tid, uint32 k, IndexBulkDeleteCallback callback,
		   void *cb_state, uint16 *dead, uint32 *ndead, uint64 *live)
{
	if (callback && callback(tid, cb_state))
		dead[(*ndead)++] = (uint16) k;
	else
		(*live)++;
}

/*
 * Mark the remembered entries of the exclusively locked page dead, with
 * generic WAL: offset number 0 on a pending-list page, the dead map's bit on
 * an entry page.
 */
static void
vacuum_mark(Relation index, Buffer buf, bool pending, const uint16 *dead,
			uint32 ndead, double *removed)
{
	GenericXLogState *state;
	Page		wpage;
	uint32		k;

	if (ndead == 0)
		return;
	state = GenericXLogStart(index);
	wpage = GenericXLogRegisterBuffer(state, buf, 0);
	for (k = 0; k < ndead; k++)
	{
		if (pending)
			((HamPendingEntry *) PageGetContents(wpage))[dead[k]].tid.ip_posid =
				InvalidOffsetNumber;
		else
			ham_page_deadmap(wpage)[dead[k] >> 3] |= (uint8) (1 << (dead[k] & 7));
	}
	GenericXLogFinish(state);
	*removed += ndead;
}

/*
 * Mark dead the entries of one page of a chain (pending list, sealed list,
 * a run's NULL keys) whose TIDs the callback names, and count them in
 * *removed; returns the number of live entries left.  Without a callback
 * (VACUUM's cleanup-only call) it only counts.
 */
static uint64
vacuum_pending_page(Relation index, BlockNumber blk, uint32 id,
					IndexBulkDeleteCallback callback, void *cb_state,
					BufferAccessStrategy strategy, double *removed, BlockNumber *next)
{
	Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, blk, RBM_NORMAL, strategy);
	Page		page;
	HamPendingEntry *ent;
	uint32		n,
				k,
				ndead = 0;
	uint64		live = 0;
	uint16		dead[HAM_PENDING_PER_PAGE];

	LockBuffer(buf, callback ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (!ham_page_owned(page, id))
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a damaged chain", RelationGetRelationName(index)),
				 errdetail("Block %u is not a page of chain %u.", blk, id)));
	ent = (HamPendingEntry *) PageGetContents(page);
	n = ham_page_nentries(page, sizeof(HamPendingEntry));
	*next = HamPageGetOpaque(page)->next;
	for (k = 0; k < n; k++)
	{
		if (!ham_tid_dead(&ent[k].tid))
			vacuum_ask(&ent[k].tid, k, callback, cb_state, dead, &ndead, &live);
	}
	vacuum_mark(index, buf, true, dead, ndead, removed);
	UnlockReleaseBuffer(buf);
	return live;
}

static uint64
vacuum_chain(Relation index, const HamChain *c, IndexBulkDeleteCallback callback,
			 void *cb_state, BufferAccessStrategy strategy, double *removed)
{
	BlockNumber blk = c->head;
	uint64		live = 0;

	while (blk != InvalidBlockNumber)
	{
		BlockNumber next;

		vacuum_delay_point();
		live += vacuum_pending_page(index, blk, c->id, callback, cb_state, strategy,
									removed, &next);
		blk = next;
	}
	return live;
}

/*
 * The same for entry page pg of table t of a run; the directory gives the
 * runs of entries whose TIDs decode from a zeroed decoder.  *v: the bucket
 * of the page's first entry or an earlier one (the pages go in order).
 */
static uint64
vacuum_entry_page(Relation index, HamDir *d, int t, uint32 pg, uint32 *v,
				  IndexBulkDeleteCallback callback, void *cb_state,
				  BufferAccessStrategy strategy, double *removed)
{
	Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, d->blocks[d->first_page[t] + pg],
										 RBM_NORMAL, strategy);
	Page		page;
	const uint8 *ent,
			   *deadmap;
	const uint32 *dir = d->dir[t];
	uint32		first = pg * HAM_ENTRIES_PER_PAGE,
				end = (uint32) Min((uint64) first + HAM_ENTRIES_PER_PAGE, d->nentries[t]),
				e = first,
				k,
				ndead = 0;
	uint64		live = 0;
	uint16		dead[HAM_ENTRIES_PER_PAGE];

	LockBuffer(buf, callback ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (!ham_page_owned(page, d->id))
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a damaged run", RelationGetRelationName(index)),
				 errdetail("Block %u is not a page of run %u.", BufferGetBlockNumber(buf), d->id)));
	ent = ham_page_entries(page);
	deadmap = ham_page_deadmap(page);
	while (e < end)
	{
		uint32		run_end = ham_next_run(dir, v, e, end);
		tfp_hamdec	dec = {0};

		for (; e < run_end; e++)
		{
			uint32		blk,
						off;
			ItemPointerData tid;

			k = e - first;
			if (!tfp_hamcode_decode(&dec, ham_entry(ent, k), &blk, &off) ||
				ham_is_dead(deadmap, k))
				continue;
			ItemPointerSet(&tid, blk, (OffsetNumber) off);
			vacuum_ask(&tid, k, callback, cb_state, dead, &ndead, &live);
		}
	}
	vacuum_mark(index, buf, false, dead, ndead, removed);
	UnlockReleaseBuffer(buf);
	return live;
}

/*
 * Walk the index: every table of every run (callback set) or only tables
 * 0 (counting), the runs' NULL keys, the sealed and the pending list.
 * Returns the live rows.  The caller holds the merge lock, so that the
 * runs stay as the metapage names them.
 */
static double
vacuum_walk(IndexVacuumInfo *info, IndexBulkDeleteCallback callback,
			void *cb_state, double *removed)
{
	Relation	index = info->index;
	HamMetaData meta;
	double		live = 0;
	int			t;
	uint32		r;

	ham_read_meta(index, &meta);
	for (r = 0; r < meta.nruns; r++)
	{
		HamDir	   *d;
		double		rm_run = 0;

		live += vacuum_chain(index, &meta.runs[r].nulls, callback, cb_state,
							 info->strategy, removed);
		if (meta.runs[r].nrows == 0)
			continue;
		d = ham_dir_acquire(index, &meta, &meta.runs[r]);
		if (d == NULL)
			elog(ERROR, "run %u of index \"%s\" changed during VACUUM",
				 meta.runs[r].id, RelationGetRelationName(index));
		for (t = 0; t < (callback ? (int) meta.ntables : 1); t++)
		{
			uint32		npages = ham_entry_pages(d->nentries[t]);
			uint32		pg,
						v = 0;
			double		rm = 0;
			double		lv = 0;

			for (pg = 0; pg < npages; pg++)
			{
				vacuum_delay_point();
				lv += vacuum_entry_page(index, d, t, pg, &v, callback, cb_state,
										info->strategy, &rm);
			}
			/* every table holds the same rows: count them once */
			if (t == 0)
			{
				live += lv;
				rm_run = rm;
			}
		}
		*removed += rm_run;
		ham_dir_release(d);
	}
	live += vacuum_chain(index, &meta.merging, callback, cb_state, info->strategy, removed);
	live += vacuum_chain(index, &meta.pending, callback, cb_state, info->strategy, removed);
	return live;
}

IndexBulkDeleteResult *
hamming_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
				   IndexBulkDeleteCallback callback, void *callback_state)
{
	double		removed = 0;

	if (stats == NULL)
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
	/* no merge may copy a page before its dead marks are set (hamming_merge.c) */
	LockPage(info->index, HAM_METAPAGE_BLKNO, ExclusiveLock);
	stats->num_index_tuples = vacuum_walk(info, callback, callback_state, &removed);
	UnlockPage(info->index, HAM_METAPAGE_BLKNO, ExclusiveLock);
	stats->tuples_removed += removed;
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	stats->estimated_count = false;
	return stats;
}

/*
 * VACUUM's last call: the pending rows are merged into the runs (whatever
 * their number), the pages no structure owns go to the free space map, and
 * the live rows are counted.
 */
IndexBulkDeleteResult *
hamming_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	double		removed = 0;
	bool		merged;

	if (info->analyze_only)
		return stats;
	LockPage(info->index, HAM_METAPAGE_BLKNO, ExclusiveLock);
	merged = ham_merge(info->index, true);
	if (stats == NULL)
	{
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
		stats->estimated_count = false;
	}
	if (stats->num_index_tuples == 0 || merged)
		stats->num_index_tuples = vacuum_walk(info, NULL, NULL, &removed);
	stats->pages_free = ham_vacuum_free(info->index, info->strategy);
	UnlockPage(info->index, HAM_METAPAGE_BLKNO, ExclusiveLock);
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	return stats;
}
