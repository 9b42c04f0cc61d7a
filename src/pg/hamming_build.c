/*
 * hamming_build.c -- the "hamming" index access method: build, insert,
 * vacuum (layout in hamming.h)
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
#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
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
		ham_page_set_end(page, &e[k]);
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

/* the entry pages of a table being written (tfp_hamwriter's output) */
typedef struct EntryWriter
{
	Relation	index;
	Buffer		buf;			/* current page, or invalid */
	uint32		slot;			/* its next free slot */
	uint64		e;				/* entries written */
	BlockNumber first;			/* the table's first entry page */
} EntryWriter;

static void
writer_flush(EntryWriter *w)
{
	if (BufferIsValid(w->buf))
	{
		Page		page = BufferGetPage(w->buf);

		ham_page_set_end(page, ham_page_entries(page) + (Size) w->slot * TFP_HAMCODE_ENTRY);
		MarkBufferDirty(w->buf);
		UnlockReleaseBuffer(w->buf);
		w->buf = InvalidBuffer;
	}
}

/* Append an entry; a full page is closed and a new one begun. */
static void
writer_put(void *arg, uint64_t rest, uint32_t code, int dead)
{
	EntryWriter *w = (EntryWriter *) arg;
	Page		page;

	if (w->e >= PG_UINT32_MAX - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many entries for a hamming index"),
				 errdetail("A table of a hamming index holds at most 4294967294 entries.")));
	if (!BufferIsValid(w->buf) || w->slot == HAM_ENTRIES_PER_PAGE)
	{
		writer_flush(w);
		w->buf = ham_new_buffer(w->index, MAIN_FORKNUM);
		page = BufferGetPage(w->buf);
		ham_init_page(page, HAM_PAGE_DATA);
		memset(ham_page_deadmap(page), 0, HAM_DEADMAP_BYTES);
		if (w->first == InvalidBlockNumber)
			w->first = BufferGetBlockNumber(w->buf);
		w->slot = 0;
		CHECK_FOR_INTERRUPTS();
	}
	page = BufferGetPage(w->buf);
	tfp_hamcode_put(ham_page_entries(page) + (Size) w->slot * TFP_HAMCODE_ENTRY, rest, code);
	if (dead)
		ham_page_deadmap(page)[w->slot >> 3] |= (uint8) (1 << (w->slot & 7));
	w->slot++;
	w->e++;
}

/*
 * Write table t of nt: a counting sort of items on the table's chunk into
 * tmp (stable: within a bucket the rows keep the heap scan's TID order, but
 * for a synchronized scan's wrap-around), the entry pages, coded by
 * tfp_hamwriter, then the directory pages.
 */
static void
write_table(Relation index, const BuildItem *items, BuildItem *tmp, Size n,
			int nt, int t, uint32 *dir, HamMetaData *meta)
{
	int			lane = ham_lane(nt, t);
	Size		i;
	uint32		v;
	Size		pos;
	EntryWriter w;
	tfp_hamwriter hw;

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

	/* entry pages; dir[v] becomes the first entry of bucket v */
	memset(&w, 0, sizeof(w));
	w.index = index;
	w.buf = InvalidBuffer;
	w.first = InvalidBlockNumber;
	memset(&hw, 0, sizeof(hw));
	hw.per_page = HAM_ENTRIES_PER_PAGE;
	hw.dir = dir;
	hw.put = writer_put;
	hw.arg = &w;
	for (i = 0; i < n; i++)
		tfp_hamwriter_row(&hw, ham_chunk(tmp[i].p, lane), ham_rest(tmp[i].p, lane),
						  ItemPointerGetBlockNumberNoCheck(&tmp[i].tid),
						  ItemPointerGetOffsetNumberNoCheck(&tmp[i].tid));
	tfp_hamwriter_finish(&hw, HAM_BUCKETS);
	writer_flush(&w);
	Assert(hw.e == w.e);
	meta->data_start[t] = w.first;
	meta->nentries[t] = (uint32) w.e;

	/* directory pages */
	for (pos = 0; pos < HAM_DIR_LEN; pos += HAM_DIR_PER_PAGE)
	{
		Buffer		buf = ham_new_buffer(index, MAIN_FORKNUM);
		Page		page = BufferGetPage(buf);
		Size		k = Min((Size) HAM_DIR_PER_PAGE, HAM_DIR_LEN - pos);

		ham_init_page(page, HAM_PAGE_DIR);
		memcpy(PageGetContents(page), dir + pos, k * sizeof(uint32));
		ham_page_set_end(page, (char *) PageGetContents(page) + k * sizeof(uint32));
		if (pos == 0)
			meta->dir_start[t] = BufferGetBlockNumber(buf);
		MarkBufferDirty(buf);
		UnlockReleaseBuffer(buf);
	}
}

IndexBuildResult *
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

	ham_empty_meta(&meta);
	meta.build_stamp = (int64) GetCurrentTimestamp();
	meta.nsorted = bs.n;
	meta.ntables = (uint32) ham_option_tables(index);
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
			write_table(index, bs.items, tmp, bs.n, (int) meta.ntables, t, dir, &meta);
	}
	if (bs.nnull > 0)
	{
		write_pending(index, bs.nulls, bs.nnull, true,
					  &meta.pending_head, &meta.pending_tail);
		meta.npending = bs.nnull;
	}

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

	memset(&entry, 0, sizeof(entry));
	entry.isnull = isnull[0] ? 1 : 0;
	entry.p = isnull[0] ? 0 : ham_permute((uint64) DatumGetSimhash(values[0]));
	entry.tid = *ht_ctid;

	metabuf = ReadBuffer(index, HAM_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	ham_check_meta(index, BufferGetPage(metabuf));
	meta = HamPageGetMeta(BufferGetPage(metabuf));

	if (meta->pending_tail != InvalidBlockNumber)
	{
		tailbuf = ReadBuffer(index, meta->pending_tail);
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

	end = (char *) target + ((PageHeader) target)->pd_lower;
	memcpy(end, &entry, sizeof(entry));
	ham_page_set_end(target, end + sizeof(entry));
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
 * Mark dead the entries of one pending-list page whose TIDs the callback
 * names, and count them in *removed; returns the number of live entries
 * left.  Without a callback (VACUUM's cleanup-only call) it only counts.
 */
static uint64
vacuum_pending_page(Relation index, BlockNumber blk,
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

/*
 * The same for entry page pg of table t of the sorted part; the directory
 * gives the runs whose TIDs decode from a zeroed decoder.  *v: the bucket
 * of the page's first entry or an earlier one (the pages go in order).
 */
static uint64
vacuum_entry_page(Relation index, const HamMetaData *meta, const uint32 *dir,
				  int t, uint32 pg, uint32 *v, IndexBulkDeleteCallback callback,
				  void *cb_state, BufferAccessStrategy strategy, double *removed)
{
	Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, meta->data_start[t] + pg,
										 RBM_NORMAL, strategy);
	Page		page;
	const uint8 *ent,
			   *deadmap;
	uint32		first = pg * HAM_ENTRIES_PER_PAGE,
				end = (uint32) Min((uint64) first + HAM_ENTRIES_PER_PAGE, meta->nentries[t]),
				e = first,
				k,
				ndead = 0;
	uint64		live = 0;
	uint16		dead[HAM_ENTRIES_PER_PAGE];

	LockBuffer(buf, callback ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
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
	if (meta.nsorted > 0)
	{
		HamDir	   *dir = ham_dir_acquire(index, &meta);

		for (t = 0; t < (callback ? (int) meta.ntables : 1); t++)
		{
			uint32		npages = ham_entry_pages(meta.nentries[t]);
			uint32		pg,
						v = 0;
			double		rm = 0;
			double		lv = 0;

			for (pg = 0; pg < npages; pg++)
			{
				vacuum_delay_point();
				lv += vacuum_entry_page(index, &meta, dir->dir[t], t, pg, &v, callback,
										cb_state, info->strategy, &rm);
			}
			/* every table holds the same rows: count them once */
			if (t == 0)
			{
				live += lv;
				rm_sorted = rm;
			}
		}
		ham_dir_release(dir);
	}
	blk = meta.pending_head;
	while (blk != InvalidBlockNumber)
	{
		BlockNumber next;

		vacuum_delay_point();
		live += vacuum_pending_page(index, blk, callback, cb_state,
									info->strategy, &rm_pending, &next);
		blk = next;
	}
	*removed += rm_sorted + rm_pending;
	return live;
}

IndexBulkDeleteResult *
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

IndexBulkDeleteResult *
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
