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
	BuildState	bs;
	HamMetaData meta;
	HamRun	   *run;
	HamOut		o;
	double		reltuples;
	MemoryContext cxt,
				old;
	int			t;
	Size		i;
	HamPendingEntry *nulls;

	am_build_begin(index);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "hamming build",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	memset(&bs, 0, sizeof(bs));

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

	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return am_build_end(index, &ham_method, &meta, reltuples, (double) (bs.n + bs.nnull));
}

void
hamming_buildempty(Relation index)
{
	HamMetaData meta;

	ham_empty_meta(&meta);
	meta.ntables = (uint32) ham_option_tables(index);
	meta.pending.id = meta.next_id++;
	am_build_empty(index, &ham_method, &meta);
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
				tailbuf,
				newbuf;
	GenericXLogState *state;
	HamMetaData *meta;
	HamPendingEntry entry;
	Page		target;
	char	   *end;
	bool		merge;

	memset(&entry, 0, sizeof(entry));
	entry.isnull = isnull[0] ? 1 : 0;
	entry.p = isnull[0] ? 0 : ham_permute((uint64) DatumGetSimhash(values[0]));
	entry.tid = *ht_ctid;

	metabuf = ReadBuffer(index, AM_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	ham_check_meta(index, BufferGetPage(metabuf));
	meta = HamPageGetMeta(BufferGetPage(metabuf));
	am_pending_lock(index, &meta->pending, sizeof(HamPendingEntry), HAM_PENDING_PER_PAGE,
					&tailbuf, &newbuf);

	state = GenericXLogStart(index);
	meta = HamPageGetMeta(GenericXLogRegisterBuffer(state, metabuf, 0));
	target = am_pending_target(state, HAM_PAGE_ID, &meta->pending, tailbuf, newbuf);
	end = (char *) target + ((PageHeader) target)->pd_lower;
	memcpy(end, &entry, sizeof(entry));
	am_page_set_end(target, end + sizeof(entry));
	meta->pending.n++;
	merge = meta->pending.n >= ham_pending_limit(meta);
	GenericXLogFinish(state);

	am_pending_unlock(tailbuf, newbuf);
	UnlockReleaseBuffer(metabuf);
	/* a pending list over its bound is merged, unless a merge or VACUUM runs */
	if (merge)
		ham_merge(index, false);
	return false;
}

/* ---- vacuum ---- */

/*
 * Mark dead the entries of entry page pg of table t of a run whose TIDs
 * the callback names (am_vacuum_chain's work for a chain), count them in
 * *removed, and return the live ones left.  The directory gives the runs
 * of entries whose TIDs decode from a zeroed decoder.  *v: the bucket of
 * the page's first entry or an earlier one (the pages go in order).
 */
static uint64
vacuum_entry_page(Relation index, HamDir *d, int t, uint32 pg, uint32 *v,
				  IndexBulkDeleteCallback callback, void *cb_state,
				  BufferAccessStrategy strategy, double *removed)
{
	Buffer		buf = am_vacuum_read(index, d->base.blocks[d->first_page[t] + pg],
									 callback != NULL, strategy, HAM_PAGE_ID, d->base.id,
									 "run");
	Page		page = BufferGetPage(buf);
	const uint8 *ent = ham_page_entries(page),
			   *deadmap = am_page_deadmap(page);
	const uint32 *dir = d->dir[t];
	uint32		first = pg * HAM_ENTRIES_PER_PAGE,
				end = (uint32) Min((uint64) first + HAM_ENTRIES_PER_PAGE, d->nentries[t]),
				e = first,
				k,
				ndead = 0;
	uint64		live = 0;
	uint16		dead[HAM_ENTRIES_PER_PAGE];

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
				am_is_dead(deadmap, k))
				continue;
			ItemPointerSet(&tid, blk, (OffsetNumber) off);
			am_vacuum_ask(&tid, k, callback, cb_state, dead, &ndead, &live);
		}
	}
	am_vacuum_mark(index, buf, NULL, dead, ndead, removed);
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

		live += am_vacuum_chain(index, &ham_method, &meta.runs[r].nulls, callback, cb_state,
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
	live += am_vacuum_chain(index, &ham_method, &meta.merging, callback, cb_state,
							info->strategy, removed);
	live += am_vacuum_chain(index, &ham_method, &meta.pending, callback, cb_state,
							info->strategy, removed);
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
	LockPage(info->index, AM_METAPAGE_BLKNO, ExclusiveLock);
	stats->num_index_tuples = vacuum_walk(info, callback, callback_state, &removed);
	UnlockPage(info->index, AM_METAPAGE_BLKNO, ExclusiveLock);
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
	LockPage(info->index, AM_METAPAGE_BLKNO, ExclusiveLock);
	merged = ham_merge(info->index, true);
	if (stats == NULL)
	{
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
		stats->estimated_count = false;
	}
	if (stats->num_index_tuples == 0 || merged)
		stats->num_index_tuples = vacuum_walk(info, NULL, NULL, &removed);
	stats->pages_free = am_vacuum_free(info->index, &ham_method, info->strategy);
	UnlockPage(info->index, AM_METAPAGE_BLKNO, ExclusiveLock);
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	return stats;
}
