/*
 * passage_build.c -- the "passage" index access method: build, insert,
 * vacuum (layout in passage_am.h)
 *
 * The build reads the heap once, fingerprints every row and collects its
 * seeds as entries in memory, at most maintenance_work_mem of them: a full
 * buffer is sorted (a counting sort on the bucket, then each bucket by
 * key) and written to a temporary file; at the end the sorted chunks are
 * merged into the main run (passage_run.c).  Pages are written without WAL
 * and logged whole at the end (log_newpage_range), as GIN's build does;
 * later changes (inserts into the pending list, VACUUM's dead marks) go
 * through generic WAL, as contrib/bloom's do, and merges
 * (passage_merge.c) log the pages of their runs whole.
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/buffile.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "passage_am.h"

/* ---- entries in memory: the code and its bucket ---- */

void
pas_item_make(PasPendingEntry *it, const tfp_pseed *s, const ItemPointerData *tid)
{
	tfp_pasent	e;

	e.key = tfp_pasidx_key(s->hash);
	e.unit = s->unit;
	e.left = s->left;
	e.right = s->right;
	e.blk = ItemPointerGetBlockNumberNoCheck(tid);
	e.off = ItemPointerGetOffsetNumberNoCheck(tid);
	tfp_pasidx_put(it->code, &e);
	it->bucket = (uint16) tfp_pasidx_bucket(e.key);
	it->pad = 0;
}

int
pas_item_cmp(const void *x, const void *y)
{
	const PasPendingEntry *a = x,
			   *b = y;
	uint32		ra,
				rb;
	uint64		la = 0,
				lb = 0;

	if (a->bucket != b->bucket)
		return a->bucket < b->bucket ? -1 : 1;
	ra = tfp_pasidx_get_residual(a->code);
	rb = tfp_pasidx_get_residual(b->code);
	if (ra != rb)
		return ra < rb ? -1 : 1;
	memcpy(&la, a->code, 8);
	memcpy(&lb, b->code, 8);
	if (la != lb)
		return la < lb ? -1 : 1;
	return memcmp(a->code + 8, b->code + 8, 4);
}

/*
 * Sort items[0..n) (pas_item_cmp): a counting sort on the bucket into tmp,
 * then every bucket by the whole order; the result is in items.
 */
void
pas_items_sort(PasPendingEntry *items, PasPendingEntry *tmp, Size n)
{
	Size	   *start = palloc0(sizeof(Size) * (TFP_PASIDX_BUCKETS + 1));

	for (Size i = 0; i < n; i++)
		start[items[i].bucket + 1]++;
	for (uint32 b = 0; b < TFP_PASIDX_BUCKETS; b++)
		start[b + 1] += start[b];
	{
		Size	   *next = palloc(sizeof(Size) * TFP_PASIDX_BUCKETS);

		memcpy(next, start, sizeof(Size) * TFP_PASIDX_BUCKETS);
		for (Size i = 0; i < n; i++)
		{
			tmp[next[items[i].bucket]++] = items[i];
			if ((i & 0xFFFFF) == 0)
				CHECK_FOR_INTERRUPTS();
		}
		pfree(next);
	}
	for (uint32 b = 0; b < TFP_PASIDX_BUCKETS; b++)
	{
		Size		m = start[b + 1] - start[b];

		if (m > 1)
			qsort(tmp + start[b], m, sizeof(PasPendingEntry), pas_item_cmp);
		if ((b & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	memcpy(items, tmp, n * sizeof(PasPendingEntry));
	pfree(start);
}

void
pas_item_entry(const PasPendingEntry *it, tfp_pasent *e)
{
	tfp_pasidx_get(it->code, it->bucket, e);
}

/* ---- build ---- */

typedef struct BuildState
{
	Relation	index;
	tfp_passage_opts o;
	PasPendingEntry *items;
	Size		n,
				cap;
	BufFile   **chunks;			/* sorted chunks written out */
	Size	   *chunk_n;
	int			nchunks,
				capchunks;
	uint64		rows;
	uint64		entries;
	MemoryContext rowcxt;
} BuildState;

/* sort the buffer and write it out as a chunk */
static void
spill(BuildState *bs)
{
	PasPendingEntry *tmp = MemoryContextAllocHuge(CurrentMemoryContext,
												  Max(bs->n, 1) * sizeof(PasPendingEntry));
	BufFile    *f;

	pas_items_sort(bs->items, tmp, bs->n);
	pfree(tmp);
	if (bs->nchunks == bs->capchunks)
	{
		bs->capchunks = bs->capchunks ? bs->capchunks * 2 : 16;
		bs->chunks = bs->chunks ? repalloc(bs->chunks, bs->capchunks * sizeof(BufFile *)) :
			palloc(bs->capchunks * sizeof(BufFile *));
		bs->chunk_n = bs->chunk_n ? repalloc(bs->chunk_n, bs->capchunks * sizeof(Size)) :
			palloc(bs->capchunks * sizeof(Size));
	}
	f = BufFileCreateTemp(false);
	BufFileWrite(f, bs->items, bs->n * sizeof(PasPendingEntry));
	bs->chunks[bs->nchunks] = f;
	bs->chunk_n[bs->nchunks] = bs->n;
	bs->nchunks++;
	bs->n = 0;
}

static void
build_callback(Relation index, ItemPointer tid, Datum *values, bool *isnull,
			   bool tupleIsAlive, void *state)
{
	BuildState *bs = (BuildState *) state;
	MemoryContext old;
	tfp_pseed  *s;
	size_t		n;

	if (isnull[0])
		return;
	old = MemoryContextSwitchTo(bs->rowcxt);
	s = pas_value_seeds(index, values[0], &bs->o, &n);
	MemoryContextSwitchTo(old);
	for (size_t i = 0; i < n; i++)
	{
		if (bs->n == bs->cap)
			spill(bs);
		pas_item_make(&bs->items[bs->n++], &s[i], tid);
	}
	bs->rows++;
	bs->entries += n;
	MemoryContextReset(bs->rowcxt);
}

/* a sorted chunk being read */
typedef struct ChunkReader
{
	BufFile    *f;
	Size		left;			/* items not yet read into buf */
	PasPendingEntry buf[256];
	int			pos,
				len;
} ChunkReader;

static bool
chunk_next(ChunkReader *r, PasPendingEntry **it)
{
	if (r->pos == r->len)
	{
		Size		k = Min(r->left, (Size) lengthof(r->buf));

		if (k == 0)
			return false;
#if PG_VERSION_NUM >= 160000
		BufFileReadExact(r->f, r->buf, k * sizeof(PasPendingEntry));
#else
		if (BufFileRead(r->f, r->buf, k * sizeof(PasPendingEntry)) != k * sizeof(PasPendingEntry))
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read a temporary file of a passage index build")));
#endif
		r->left -= k;
		r->pos = 0;
		r->len = (int) k;
	}
	*it = &r->buf[r->pos++];
	return true;
}

/* the k-way merge of the chunks into the run */
static void
merge_chunks(BuildState *bs, PasOut *o)
{
	int			nc = bs->nchunks;
	ChunkReader *rd = palloc(sizeof(ChunkReader) * nc);
	PasPendingEntry **cur = palloc(sizeof(PasPendingEntry *) * nc);
	int		   *heap = palloc(sizeof(int) * nc);
	int			nh = 0;
	uint64		done = 0;

	for (int c = 0; c < nc; c++)
	{
		if (BufFileSeek(bs->chunks[c], 0, 0, SEEK_SET) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not rewind a temporary file of a passage index build")));
		rd[c].f = bs->chunks[c];
		rd[c].left = bs->chunk_n[c];
		rd[c].pos = rd[c].len = 0;
		if (chunk_next(&rd[c], &cur[c]))
		{
			/* sift up */
			int			i = nh++;

			heap[i] = c;
			while (i > 0 && pas_item_cmp(cur[heap[(i - 1) / 2]], cur[heap[i]]) > 0)
			{
				int			p = (i - 1) / 2,
							t = heap[p];

				heap[p] = heap[i];
				heap[i] = t;
				i = p;
			}
		}
	}
	while (nh > 0)
	{
		int			c = heap[0];
		tfp_pasent	e;
		int			i = 0;

		pas_item_entry(cur[c], &e);
		pas_out_entry(o, &e, false);
		if ((++done & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		if (!chunk_next(&rd[c], &cur[c]))
			heap[0] = heap[--nh];
		/* sift down */
		for (;;)
		{
			int			l = 2 * i + 1,
						r = l + 1,
						m = i;

			if (l < nh && pas_item_cmp(cur[heap[l]], cur[heap[m]]) < 0)
				m = l;
			if (r < nh && pas_item_cmp(cur[heap[r]], cur[heap[m]]) < 0)
				m = r;
			if (m == i)
				break;
			{
				int			t = heap[m];

				heap[m] = heap[i];
				heap[i] = t;
			}
			i = m;
		}
	}
	for (int c = 0; c < nc; c++)
		BufFileClose(bs->chunks[c]);
}

IndexBuildResult *
passage_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	BuildState	bs;
	PasMetaData meta;
	PasOut		o;
	double		reltuples;
	MemoryContext cxt,
				old;

	am_build_begin(index);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "passage build",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	memset(&bs, 0, sizeof(bs));
	bs.index = index;
	pas_empty_meta(&meta, index);
	bs.o = pas_meta_opts(&meta);
	/* entries of maintenance_work_mem: half for them, half for sorting */
	bs.cap = Max((Size) maintenance_work_mem * 1024 / (2 * sizeof(PasPendingEntry)), 4096);
	bs.items = MemoryContextAllocHuge(cxt, bs.cap * sizeof(PasPendingEntry));
	bs.rowcxt = AllocSetContextCreate(cxt, "passage build row", ALLOCSET_DEFAULT_SIZES);

	reltuples = table_index_build_scan(heap, index, indexInfo, true, true,
									   build_callback, (void *) &bs, NULL);

	meta.build_stamp = (int64) GetCurrentTimestamp();
	meta.pending.id = meta.next_id++;
	meta.rows = bs.rows;
	if (bs.entries > 0)
	{
		meta.nruns = 1;
		pas_out_init(&o, index, meta.next_id++, false, NULL);
		if (bs.nchunks == 0)
		{
			PasPendingEntry *tmp = MemoryContextAllocHuge(cxt, bs.n * sizeof(PasPendingEntry));

			pas_items_sort(bs.items, tmp, bs.n);
			pfree(tmp);
			for (Size i = 0; i < bs.n; i++)
			{
				tfp_pasent	e;

				pas_item_entry(&bs.items[i], &e);
				pas_out_entry(&o, &e, false);
			}
		}
		else
		{
			if (bs.n > 0)
				spill(&bs);
			pfree(bs.items);
			merge_chunks(&bs, &o);
		}
		pas_out_finish(&o, &meta.runs[0]);
	}

	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return am_build_end(index, &pas_method, &meta, reltuples, (double) bs.rows);
}

void
passage_buildempty(Relation index)
{
	PasMetaData meta;

	pas_empty_meta(&meta, index);
	meta.pending.id = meta.next_id++;
	am_build_empty(index, &pas_method, &meta);
}

/* ---- insert: append the row's entries to the pending list ---- */

bool
passage_insert(Relation index, Datum *values, bool *isnull,
			   ItemPointer ht_ctid, Relation heapRel,
			   IndexUniqueCheck checkUnique,
#if PG_VERSION_NUM >= 140000
			   bool indexUnchanged,
#endif
			   IndexInfo *indexInfo)
{
	Buffer		metabuf;
	PasMetaData *meta;
	tfp_passage_opts o;
	tfp_pseed  *s;
	size_t		n,
				done = 0;
	bool		merge;
	MemoryContext cxt,
				old;

	if (isnull[0])
		return false;
	cxt = AllocSetContextCreate(CurrentMemoryContext, "passage insert", ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(cxt);

	/* the options, then the seeds without a lock held */
	metabuf = ReadBuffer(index, AM_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_SHARE);
	pas_check_meta(index, BufferGetPage(metabuf));
	o = pas_meta_opts(PasPageGetMeta(BufferGetPage(metabuf)));
	LockBuffer(metabuf, BUFFER_LOCK_UNLOCK);
	s = pas_value_seeds(index, values[0], &o, &n);

	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	pas_check_meta(index, BufferGetPage(metabuf));
	/* one generic WAL record per page filled: the metapage, the tail, a new page */
	do
	{
		Buffer		tailbuf,
					newbuf;
		GenericXLogState *state;
		Page		target;
		PasPendingEntry *end;
		uint32		room,
					k;

		meta = PasPageGetMeta(BufferGetPage(metabuf));
		am_pending_lock(index, &meta->pending, sizeof(PasPendingEntry), PAS_PENDING_PER_PAGE,
						&tailbuf, &newbuf);

		state = GenericXLogStart(index);
		meta = PasPageGetMeta(GenericXLogRegisterBuffer(state, metabuf, 0));
		target = am_pending_target(state, PAS_PAGE_ID, &meta->pending, tailbuf, newbuf);
		room = PAS_PENDING_PER_PAGE - am_page_nentries(target, sizeof(PasPendingEntry));
		k = (uint32) Min((size_t) room, n - done);
		end = (PasPendingEntry *) ((char *) target + ((PageHeader) target)->pd_lower);
		for (uint32 i = 0; i < k; i++)
			pas_item_make(&end[i], &s[done + i], ht_ctid);
		am_page_set_end(target, end + k);
		meta->pending.n += k;
		if (done == 0)
			meta->rows++;
		done += k;
		GenericXLogFinish(state);
		am_pending_unlock(tailbuf, newbuf);
	} while (done < n);
	meta = PasPageGetMeta(BufferGetPage(metabuf));
	merge = meta->pending.n >= pas_pending_limit(meta);
	UnlockReleaseBuffer(metabuf);

	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	/* a pending list over its bound is merged, unless a merge or VACUUM runs */
	if (merge)
		pas_merge(index, false);
	return false;
}

/* ---- vacuum ---- */

/* the entry pages of a run */
static uint64
vacuum_run(Relation index, PasDir *d, IndexBulkDeleteCallback callback,
		   void *cb_state, BufferAccessStrategy strategy, double *removed)
{
	uint32		npages = pas_entry_pages(d->nentries);
	uint64		live = 0;
	uint16		dead[PAS_ENTRIES_PER_PAGE];
	uint32		b = 0;

	for (uint32 pg = 0; pg < npages; pg++)
	{
		Buffer		buf;
		Page		page;
		const uint8 *ent,
				   *deadmap;
		uint32		first = pg * PAS_ENTRIES_PER_PAGE,
					end = (uint32) Min((uint64) first + PAS_ENTRIES_PER_PAGE, d->nentries),
					ndead = 0;

		vacuum_delay_point();
		buf = am_vacuum_read(index, d->base.blocks[pg], callback != NULL, strategy, PAS_PAGE_ID,
							 d->base.id, "run");
		page = BufferGetPage(buf);
		ent = pas_page_entries(page);
		deadmap = am_page_deadmap(page);
		for (uint32 e = first; e < end; e++)
		{
			uint32		k = e - first;
			tfp_pasent	x;
			ItemPointerData tid;

			while (d->dir[b + 1] <= e)
				b++;
			if (am_is_dead(deadmap, k))
				continue;
			tfp_pasidx_get(ent + (Size) k * TFP_PASIDX_ENTRY, b, &x);
			ItemPointerSet(&tid, x.blk, x.off);
			am_vacuum_ask(&tid, k, callback, cb_state, dead, &ndead, &live);
		}
		am_vacuum_mark(index, buf, NULL, dead, ndead, removed);
		UnlockReleaseBuffer(buf);
	}
	return live;
}

/*
 * Walk the index: every run, the sealed and the pending list.  Returns the
 * live entries.  The caller holds the merge lock, so that the runs stay as
 * the metapage names them.
 */
static double
vacuum_walk(IndexVacuumInfo *info, IndexBulkDeleteCallback callback,
			void *cb_state, double *removed)
{
	Relation	index = info->index;
	PasMetaData meta;
	double		live = 0;

	pas_read_meta(index, &meta);
	for (uint32 r = 0; r < meta.nruns; r++)
	{
		PasDir	   *d = pas_dir_acquire(index, &meta, &meta.runs[r]);

		if (d == NULL)
			elog(ERROR, "run %u of index \"%s\" changed during VACUUM",
				 meta.runs[r].id, RelationGetRelationName(index));
		live += vacuum_run(index, d, callback, cb_state, info->strategy, removed);
		pas_dir_release(d);
	}
	live += am_vacuum_chain(index, &pas_method, &meta.merging, callback, cb_state,
							info->strategy, removed);
	live += am_vacuum_chain(index, &pas_method, &meta.pending, callback, cb_state,
							info->strategy, removed);
	return live;
}

IndexBulkDeleteResult *
passage_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
				   IndexBulkDeleteCallback callback, void *callback_state)
{
	double		removed = 0;

	if (stats == NULL)
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
	/* no merge may copy a page before its dead marks are set */
	LockPage(info->index, AM_METAPAGE_BLKNO, ExclusiveLock);
	vacuum_walk(info, callback, callback_state, &removed);
	UnlockPage(info->index, AM_METAPAGE_BLKNO, ExclusiveLock);
	stats->tuples_removed += removed;
	stats->num_index_tuples = Max(info->num_heap_tuples, 0);
	stats->estimated_count = info->estimated_count;
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	return stats;
}

/*
 * VACUUM's last call: the pending entries are merged into the runs
 * (whatever their number), the pages no structure owns go to the free
 * space map.  A row has many entries, so the index reports the table's
 * rows as its own, as GIN does (tuples_removed counts entries).
 */
IndexBulkDeleteResult *
passage_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	if (info->analyze_only)
		return stats;
	LockPage(info->index, AM_METAPAGE_BLKNO, ExclusiveLock);
	pas_merge(info->index, true);
	if (stats == NULL)
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
	stats->num_index_tuples = Max(info->num_heap_tuples, 0);
	stats->estimated_count = info->estimated_count;
	stats->pages_free = am_vacuum_free(info->index, &pas_method, info->strategy);
	UnlockPage(info->index, AM_METAPAGE_BLKNO, ExclusiveLock);
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	return stats;
}
