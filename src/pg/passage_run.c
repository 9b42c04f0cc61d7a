/*
 * passage_run.c -- the runs of the "passage" index: writing one (the
 * build's and a merge's), its directory and map cached per backend, and
 * freeing one (layout in passage_am.h)
 *
 * A run is written page by page: its entry pages (entries come in key
 * order; the directory counts them per bucket as they pass), then its
 * directory pages, then its map (a chain of block numbers: the entry
 * pages, then the directory pages).  Every page carries the run's id as
 * its owner.  The build extends the relation and logs the whole range at
 * its end; a merge takes pages from the free space map first, checks under
 * the page's exclusive lock that no structure of the metapage owns it (the
 * map is not WAL-logged and may be stale after a crash), and logs each
 * page whole before the metapage update that publishes the run: after a
 * crash the run's pages are either replayed before that update or belong
 * to no run (VACUUM frees them).
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xloginsert.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/indexfsm.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "passage_am.h"

/* may a page from the free space map be taken: owned by no live structure */
static bool
page_free(const PasOut *o, Page page)
{
	const PasMetaData *m = o->live;
	PasPageOpaqueData *op;

	if (PageIsNew(page))
		return true;
	op = PasPageGetOpaque(page);
	if (op->page_id != PAS_PAGE_ID || (op->flags & PAS_PAGE_META))
		return false;
	if (op->owner == o->id || op->owner == m->pending.id || op->owner == m->merging.id)
		return false;
	for (uint32 r = 0; r < m->nruns; r++)
		if (op->owner == m->runs[r].id)
			return false;
	return true;
}

/* a page for the run, exclusively locked and initialized; recorded in the map */
static Buffer
out_page(PasOut *o, uint16 flags)
{
	Buffer		buf = InvalidBuffer;

	if (o->live)
	{
		for (;;)
		{
			BlockNumber blk = GetFreeIndexPage(o->index);

			if (blk == InvalidBlockNumber)
				break;
			if (blk == PAS_METAPAGE_BLKNO)
				continue;
			buf = ReadBuffer(o->index, blk);
			if (ConditionalLockBuffer(buf))
			{
				if (page_free(o, BufferGetPage(buf)))
					break;
				UnlockReleaseBuffer(buf);
			}
			else
				ReleaseBuffer(buf);
			buf = InvalidBuffer;
		}
	}
	if (!BufferIsValid(buf))
		buf = pas_new_buffer(o->index, MAIN_FORKNUM);
	pas_init_page(BufferGetPage(buf), flags);
	PasPageGetOpaque(BufferGetPage(buf))->owner = o->id;
	if (flags & (PAS_PAGE_DATA | PAS_PAGE_DIR))
	{
		if (o->nmap == o->mapcap)
		{
			o->mapcap = o->mapcap ? o->mapcap * 2 : 1024;
			o->map = o->map ? repalloc_huge(o->map, o->mapcap * sizeof(BlockNumber)) :
				palloc(o->mapcap * sizeof(BlockNumber));
		}
		o->map[o->nmap++] = BufferGetBlockNumber(buf);
	}
	return buf;
}

/* the page is written: dirty, logged whole (merges), released */
static void
out_done(PasOut *o, Buffer buf)
{
	START_CRIT_SECTION();
	MarkBufferDirty(buf);
	if (o->wal && RelationNeedsWAL(o->index))
		log_newpage_buffer(buf, true);
	END_CRIT_SECTION();
	UnlockReleaseBuffer(buf);
}

void
pas_out_init(PasOut *o, Relation index, uint32 id, bool wal, const PasMetaData *live)
{
	memset(o, 0, sizeof(*o));
	o->index = index;
	o->id = id;
	o->wal = wal;
	o->live = live;
	o->buf = InvalidBuffer;
	o->dir = palloc0(sizeof(uint32) * PAS_DIR_LEN);
}

static void
out_flush(PasOut *o)
{
	if (BufferIsValid(o->buf))
	{
		Page		page = BufferGetPage(o->buf);

		pas_page_set_end(page, pas_page_entries(page) + (Size) o->slot * TFP_PASIDX_ENTRY);
		out_done(o, o->buf);
		o->buf = InvalidBuffer;
	}
}

/* one more entry: entries come in key order */
void
pas_out_entry(PasOut *o, const tfp_pasent *e, bool dead)
{
	Page		page;
	uint32		b = tfp_pasidx_bucket(e->key);

	if (o->e >= PG_UINT32_MAX - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many entries for a passage index"),
				 errdetail("A run of a passage index holds at most 4294967294 entries (seeds)."),
				 errhint("Split the table (partitions or Citus shards each have their own index).")));
	Assert(b >= o->bucket);
	o->bucket = b;
	o->dir[b + 1]++;
	if (!BufferIsValid(o->buf) || o->slot == PAS_ENTRIES_PER_PAGE)
	{
		out_flush(o);
		o->buf = out_page(o, PAS_PAGE_DATA);
		memset(pas_page_deadmap(BufferGetPage(o->buf)), 0, PAS_DEADMAP_BYTES);
		o->slot = 0;
		CHECK_FOR_INTERRUPTS();
	}
	page = BufferGetPage(o->buf);
	tfp_pasidx_put(pas_page_entries(page) + (Size) o->slot * TFP_PASIDX_ENTRY, e);
	if (dead)
		pas_page_deadmap(page)[o->slot >> 3] |= (uint8) (1 << (o->slot & 7));
	o->slot++;
	o->e++;
}

/* the last entry page, the directory pages and the map; fills *run */
void
pas_out_finish(PasOut *o, PasRun *run)
{
	Size		i = 0;
	BlockNumber next = InvalidBlockNumber;

	out_flush(o);
	for (uint32 b = 0; b < TFP_PASIDX_BUCKETS; b++)
		o->dir[b + 1] += o->dir[b];
	Assert(o->dir[TFP_PASIDX_BUCKETS] == o->e);
	for (Size pos = 0; pos < PAS_DIR_LEN; pos += PAS_DIR_PER_PAGE)
	{
		Buffer		buf = out_page(o, PAS_PAGE_DIR);
		Page		page = BufferGetPage(buf);
		Size		k = Min((Size) PAS_DIR_PER_PAGE, PAS_DIR_LEN - pos);

		memcpy(PageGetContents(page), o->dir + pos, k * sizeof(uint32));
		pas_page_set_end(page, (char *) PageGetContents(page) + k * sizeof(uint32));
		out_done(o, buf);
	}
	/* the map, written backwards so that each page knows its successor */
	run->nmap = (uint32) o->nmap;
	while (i < o->nmap)
	{
		Size		k = (o->nmap - i - 1) % PAS_DIR_PER_PAGE + 1;
		Size		from = o->nmap - i - k;
		Buffer		buf = out_page(o, PAS_PAGE_MAP);
		Page		page = BufferGetPage(buf);

		memcpy(PageGetContents(page), o->map + from, k * sizeof(BlockNumber));
		pas_page_set_end(page, (char *) PageGetContents(page) + k * sizeof(BlockNumber));
		PasPageGetOpaque(page)->next = next;
		next = BufferGetBlockNumber(buf);
		out_done(o, buf);
		i += k;
	}
	run->map_head = next;
	run->id = o->id;
	run->nentries = o->e;
}

/* ---- the directory cache ---- */

static PasDir *dir_cache = NULL;
static MemoryContext dir_cxt = NULL;
static bool dir_callback_registered = false;

/* no scan outlives its transaction: at its end no directory is in use */
static void
dir_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PARALLEL_ABORT)
		for (PasDir *d = dir_cache; d; d = d->next)
			d->refcount = 0;
}

static void
dir_forget(PasDir **pp)
{
	PasDir	   *d = *pp;

	*pp = d->next;
	pfree(d->blocks);
	pfree(d);
}

/*
 * Read the run's map and directory into d; false if a page is not the
 * run's (it was freed and reused since the caller read the metapage).
 */
static bool
dir_load(Relation index, const PasRun *run, PasDir *d)
{
	BlockNumber blk = run->map_head;
	Size		n = 0,
				off;

	while (blk != InvalidBlockNumber && n < run->nmap)
	{
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		uint32		k;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!pas_page_owned(page, run->id) || !(PasPageGetOpaque(page)->flags & PAS_PAGE_MAP))
		{
			UnlockReleaseBuffer(buf);
			return false;
		}
		k = pas_page_nentries(page, sizeof(BlockNumber));
		k = (uint32) Min((Size) k, run->nmap - n);
		memcpy(d->blocks + n, PageGetContents(page), k * sizeof(BlockNumber));
		n += k;
		blk = PasPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
	}
	if (n != run->nmap || run->nmap < PAS_DIR_PAGES ||
		run->nmap - PAS_DIR_PAGES != pas_entry_pages(run->nentries))
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a damaged map", RelationGetRelationName(index)),
				 errdetail("Run %u lists %zu pages, the metapage %u for %llu entries.", run->id, n,
						   run->nmap, (unsigned long long) run->nentries)));
	off = run->nmap - PAS_DIR_PAGES;
	for (Size pos = 0; pos < PAS_DIR_LEN; pos += PAS_DIR_PER_PAGE)
	{
		Buffer		buf = ReadBuffer(index, d->blocks[off++]);
		Page		page;
		Size		k = Min((Size) PAS_DIR_PER_PAGE, PAS_DIR_LEN - pos);

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!pas_page_owned(page, run->id))
		{
			UnlockReleaseBuffer(buf);
			return false;
		}
		if (!(PasPageGetOpaque(page)->flags & PAS_PAGE_DIR))
			ereport(ERROR,
					(errcode(ERRCODE_INDEX_CORRUPTED),
					 errmsg("index \"%s\" has a damaged directory", RelationGetRelationName(index)),
					 errdetail("Block %u should be a directory page.", BufferGetBlockNumber(buf))));
		memcpy(&d->dir[pos], PageGetContents(page), k * sizeof(uint32));
		UnlockReleaseBuffer(buf);
	}
	if (d->dir[TFP_PASIDX_BUCKETS] != run->nentries)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a damaged directory", RelationGetRelationName(index)),
				 errdetail("Run %u counts %u entries, the metapage %llu.", run->id,
						   d->dir[TFP_PASIDX_BUCKETS], (unsigned long long) run->nentries)));
	return true;
}

/*
 * The directory and map of a run of the metapage copy "meta", from the
 * cache or read; NULL if the run's pages have been reused since (the
 * caller reads the metapage again).
 */
PasDir *
pas_dir_acquire(Relation index, const PasMetaData *meta, const PasRun *run)
{
	PasDir	   *d,
			  **pp;

	for (d = dir_cache; d; d = d->next)
		if (d->relid == RelationGetRelid(index) &&
			d->build_stamp == meta->build_stamp && d->id == run->id)
		{
			d->refcount++;
			return d;
		}
	/* forget unused directories of this index's runs that are gone */
	for (pp = &dir_cache; *pp;)
	{
		bool		live = false;

		d = *pp;
		for (uint32 r = 0; r < meta->nruns; r++)
			live |= (d->build_stamp == meta->build_stamp && d->id == meta->runs[r].id);
		if (d->relid == RelationGetRelid(index) && d->refcount <= 0 && !live)
			dir_forget(pp);
		else
			pp = &d->next;
	}
	if (!dir_callback_registered)
	{
		RegisterXactCallback(dir_xact_callback, NULL);
		dir_callback_registered = true;
	}
	if (dir_cxt == NULL)
		dir_cxt = AllocSetContextCreate(TopMemoryContext, "textfp passage directories",
										ALLOCSET_DEFAULT_SIZES);
	d = MemoryContextAllocHuge(dir_cxt, sizeof(PasDir));
	memset(d, 0, offsetof(PasDir, dir));
	d->relid = RelationGetRelid(index);
	d->build_stamp = meta->build_stamp;
	d->id = run->id;
	d->nentries = run->nentries;
	d->nblocks = run->nmap;
	d->blocks = MemoryContextAllocHuge(dir_cxt, sizeof(BlockNumber) * Max(d->nblocks, 1));
	d->next = dir_cache;
	dir_cache = d;
	if (!dir_load(index, run, d))
	{
		dir_forget(&dir_cache);
		return NULL;
	}
	d->refcount = 1;
	return d;
}

void
pas_dir_release(PasDir *d)
{
	if (d)
		d->refcount--;
}

/* pin entry page "pageno" of the run; the caller checks its owner under its lock */
Buffer
pas_read_entry_page(Relation index, PasDir *d, uint32 pageno)
{
	return ReadBuffer(index, d->blocks[pageno]);
}

/* the pages of a chain to the free space map (the chain is no longer published) */
void
pas_free_chain(Relation index, const PasChain *c)
{
	BlockNumber blk = c->head;

	while (blk != InvalidBlockNumber)
	{
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		BlockNumber next = InvalidBlockNumber;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (pas_page_owned(page, c->id))
			next = PasPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
		RecordFreeIndexPage(index, blk);
		blk = next;
	}
}

/* the pages of a run: its entry and directory pages, and its map */
void
pas_free_run(Relation index, PasDir *d, const PasRun *run)
{
	PasChain	map;

	for (Size i = 0; i < d->nblocks; i++)
		RecordFreeIndexPage(index, d->blocks[i]);
	memset(&map, 0, sizeof(map));
	map.head = run->map_head;
	map.id = run->id;
	pas_free_chain(index, &map);
}
