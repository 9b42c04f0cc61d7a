/*
 * am_runs.c -- the runs of textfp's index access methods, "hamming" and
 * "passage" (am_pages.h): writing one (AmOut), and the per-backend cache
 * of their maps and directories
 *
 * Runs are written page by page: the build extends the relation and logs
 * the whole range at its end; a merge takes pages from the free space map
 * first, checks under the page's exclusive lock that no structure of the
 * metapage owns it (the free space map is not WAL-logged and may be stale
 * after a crash), and logs each page whole (log_newpage_buffer) before the
 * metapage update that publishes the run: after a crash the run's pages
 * are either replayed before that update or belong to no run, and VACUUM
 * frees them (am_vacuum_free).
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xloginsert.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/indexfsm.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "am_pages.h"

/* ---- writing a run ---- */

/*
 * A writer of pages owned by id: entries of esize bytes, per_page on an
 * entry page; with "live", a copy of the metapage (merges), free pages
 * that no structure of it owns are taken first.
 */
void
am_out_init(AmOut *o, Relation index, const AmMethod *am, uint32 id, bool wal,
			const void *live, Size esize, uint32 per_page)
{
	memset(o, 0, sizeof(*o));
	o->index = index;
	o->page_id = am->page_id;
	o->id = id;
	o->wal = wal;
	if (live)
	{
		o->reuse = true;
		am_owners(am, live, &o->live);
	}
	o->esize = esize;
	o->per_page = per_page;
	o->deadmap_bytes = AM_DEADMAP_BYTES(per_page);
	o->buf = InvalidBuffer;
}

/* may a page from the free space map be taken: owned by no live structure */
static bool
out_page_free(const AmOut *o, Page page)
{
	if (PageIsNew(page))
		return true;
	return AmPageGetOpaque(page)->owner != o->id &&
		am_page_unowned(page, o->page_id, &o->live);
}

/* a page for the run, exclusively locked and initialized; recorded in the map */
Buffer
am_out_page(AmOut *o, uint16 flags)
{
	Buffer		buf = InvalidBuffer;

	if (o->reuse)
	{
		for (;;)
		{
			BlockNumber blk = GetFreeIndexPage(o->index);

			if (blk == InvalidBlockNumber)
				break;
			if (blk == AM_METAPAGE_BLKNO)
				continue;
			buf = ReadBuffer(o->index, blk);
			if (ConditionalLockBuffer(buf))
			{
				if (out_page_free(o, BufferGetPage(buf)))
					break;
				UnlockReleaseBuffer(buf);
			}
			else
				ReleaseBuffer(buf);
			buf = InvalidBuffer;
		}
	}
	if (!BufferIsValid(buf))
		buf = am_new_buffer(o->index, MAIN_FORKNUM);
	am_init_page(BufferGetPage(buf), o->page_id, flags);
	AmPageGetOpaque(BufferGetPage(buf))->owner = o->id;
	if (flags & (AM_PAGE_DATA | AM_PAGE_DIR))
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
void
am_out_done(AmOut *o, Buffer buf)
{
	START_CRIT_SECTION();
	MarkBufferDirty(buf);
	if (o->wal && RelationNeedsWAL(o->index))
		log_newpage_buffer(buf, true);
	END_CRIT_SECTION();
	UnlockReleaseBuffer(buf);
}

/* the entry page being written is done */
void
am_out_flush(AmOut *o)
{
	if (BufferIsValid(o->buf))
	{
		Page		page = BufferGetPage(o->buf);

		am_page_set_end(page, am_page_entries(page, o->deadmap_bytes) +
						(Size) o->slot * o->esize);
		am_out_done(o, o->buf);
		o->buf = InvalidBuffer;
	}
}

/*
 * Where the next entry goes, its dead bit set if dead: a full entry page is
 * closed and a new one begun.
 */
uint8 *
am_out_entry(AmOut *o, bool dead)
{
	Page		page;
	uint32		k;

	if (!BufferIsValid(o->buf) || o->slot == o->per_page)
	{
		am_out_flush(o);
		o->buf = am_out_page(o, AM_PAGE_DATA);
		memset(am_page_deadmap(BufferGetPage(o->buf)), 0, o->deadmap_bytes);
		o->slot = 0;
		CHECK_FOR_INTERRUPTS();
	}
	page = BufferGetPage(o->buf);
	k = o->slot++;
	if (dead)
		am_page_deadmap(page)[k >> 3] |= (uint8) (1 << (k & 7));
	return am_page_entries(page, o->deadmap_bytes) + (Size) k * o->esize;
}

/* the directory pages of dir[0 .. len) */
void
am_out_dir(AmOut *o, const uint32 *dir, Size len)
{
	for (Size pos = 0; pos < len; pos += AM_DIR_PER_PAGE)
	{
		Buffer		buf = am_out_page(o, AM_PAGE_DIR);
		Page		page = BufferGetPage(buf);
		Size		k = Min((Size) AM_DIR_PER_PAGE, len - pos);

		memcpy(PageGetContents(page), dir + pos, k * sizeof(uint32));
		am_page_set_end(page, (char *) PageGetContents(page) + k * sizeof(uint32));
		am_out_done(o, buf);
	}
}

/*
 * A chain of pages (flags: its kind) holding items[0 .. n) of esize bytes,
 * per_page a page: a run's map (the block numbers of o->map) or its NULL
 * keys.  Returns its head, and its last page in *tail (if wanted).
 */
BlockNumber
am_out_chain(AmOut *o, uint16 flags, const void *items, Size n, Size esize,
			 uint32 per_page, BlockNumber *tail)
{
	Size		i = 0;
	BlockNumber next = InvalidBlockNumber;

	if (tail)
		*tail = InvalidBlockNumber;
	/* written backwards, so that each page knows its successor */
	while (i < n)
	{
		Size		k = (n - i - 1) % per_page + 1;	/* the last page's share */
		Size		from = n - i - k;
		Buffer		buf = am_out_page(o, flags);
		Page		page = BufferGetPage(buf);

		memcpy(PageGetContents(page), (const char *) items + from * esize, k * esize);
		am_page_set_end(page, (char *) PageGetContents(page) + k * esize);
		AmPageGetOpaque(page)->next = next;
		if (next == InvalidBlockNumber && tail)
			*tail = BufferGetBlockNumber(buf);
		next = BufferGetBlockNumber(buf);
		am_out_done(o, buf);
		i += k;
	}
	return next;
}

/* the run's map: the block numbers of its pages written so far, in a chain */
BlockNumber
am_out_map(AmOut *o)
{
	return am_out_chain(o, AM_PAGE_MAP, o->map, o->nmap, sizeof(BlockNumber),
						AM_DIR_PER_PAGE, NULL);
}

/* ---- the directory cache ---- */

/*
 * No scan outlives its transaction (a WITH HOLD cursor is materialized at
 * commit): at the end of every transaction no directory is in use, also
 * after an error skipped the scan's end.
 */
static void
dir_xact_callback(XactEvent event, void *arg)
{
	AmDirCache *cache = (AmDirCache *) arg;

	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PARALLEL_ABORT)
		for (AmDir *d = cache->dirs; d; d = d->next)
			d->refcount = 0;
}

/* drop *pp from the cache */
static void
dir_forget(AmDir **pp)
{
	AmDir	   *d = *pp;

	*pp = d->next;
	pfree(d->blocks);
	if (d->extra)
		pfree(d->extra);
	pfree(d);
}

/*
 * The map and directory of run id ("run", nmap map entries) of the
 * metapage copy "meta", from the cache or read by the cache's load; NULL
 * if the run's pages have been reused since (the caller reads the
 * metapage again).
 */
AmDir *
am_dir_acquire(AmDirCache *cache, Relation index, const AmMethod *am, const void *meta,
			   uint32 id, uint32 nmap, const void *run)
{
	int64		build_stamp = *AmMetaField(const int64, meta, am->build_stamp_off);
	AmOwners	live;
	AmDir	   *d,
			  **pp;

	for (d = cache->dirs; d; d = d->next)
		if (d->relid == RelationGetRelid(index) &&
			d->build_stamp == build_stamp && d->id == id)
		{
			d->refcount++;
			return d;
		}
	/* forget unused directories of this index's runs that are gone */
	am_owners(am, meta, &live);
	for (pp = &cache->dirs; *pp;)
	{
		bool		alive = false;

		d = *pp;
		for (int r = 0; r < live.nruns; r++)
			alive |= (d->build_stamp == build_stamp && d->id == live.ids[r]);
		if (d->relid == RelationGetRelid(index) && d->refcount <= 0 && !alive)
			dir_forget(pp);
		else
			pp = &d->next;
	}
	if (!cache->callback_registered)
	{
		RegisterXactCallback(dir_xact_callback, cache);
		cache->callback_registered = true;
	}
	/* the macro AllocSetContextCreate wants a literal; the name is a static one */
	if (cache->cxt == NULL)
		cache->cxt = AllocSetContextCreateInternal(TopMemoryContext, cache->name,
												   ALLOCSET_DEFAULT_SIZES);
	d = MemoryContextAllocHuge(cache->cxt, cache->size);
	memset(d, 0, cache->zeroed);
	d->relid = RelationGetRelid(index);
	d->build_stamp = build_stamp;
	d->id = id;
	d->nblocks = nmap;
	d->blocks = MemoryContextAllocHuge(cache->cxt, sizeof(BlockNumber) * Max(d->nblocks, 1));
	d->next = cache->dirs;
	cache->dirs = d;
	if (!cache->load(index, d, cache->cxt, meta, run))
	{
		dir_forget(&cache->dirs);
		return NULL;
	}
	d->refcount = 1;
	return d;
}

void
am_dir_release(AmDir *d)
{
	if (d)
		d->refcount--;
}

/*
 * Read the run's map, its chain of map pages from head, into d->blocks (at
 * most d->nblocks); *n: the block numbers read.  False if a page is not
 * the run's.
 */
bool
am_load_map(Relation index, uint16 page_id, AmDir *d, BlockNumber head, Size *n)
{
	BlockNumber blk = head;

	*n = 0;
	while (blk != InvalidBlockNumber && *n < d->nblocks)
	{
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		uint32		k;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!am_page_owned(page, page_id, d->id) || !(AmPageGetOpaque(page)->flags & AM_PAGE_MAP))
		{
			UnlockReleaseBuffer(buf);
			return false;
		}
		k = am_page_nentries(page, sizeof(BlockNumber));
		k = (uint32) Min((Size) k, d->nblocks - *n);
		memcpy(d->blocks + *n, PageGetContents(page), k * sizeof(BlockNumber));
		*n += k;
		blk = AmPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
	}
	return true;
}

/*
 * Read dir[0 .. len) from the run's directory pages, d->blocks[first] on;
 * false if a page is not the run's.
 */
bool
am_load_dir(Relation index, uint16 page_id, const AmDir *d, Size first, uint32 *dir,
			Size len)
{
	Size		off = first;

	for (Size pos = 0; pos < len; pos += AM_DIR_PER_PAGE)
	{
		Buffer		buf = ReadBuffer(index, d->blocks[off++]);
		Page		page;
		Size		k = Min((Size) AM_DIR_PER_PAGE, len - pos);

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!am_page_owned(page, page_id, d->id))
		{
			UnlockReleaseBuffer(buf);
			return false;
		}
		if (!(AmPageGetOpaque(page)->flags & AM_PAGE_DIR))
			ereport(ERROR,
					(errcode(ERRCODE_INDEX_CORRUPTED),
					 errmsg("index \"%s\" has a damaged directory",
							RelationGetRelationName(index)),
					 errdetail("Block %u should be a directory page.",
							   BufferGetBlockNumber(buf))));
		memcpy(&dir[pos], PageGetContents(page), k * sizeof(uint32));
		UnlockReleaseBuffer(buf);
	}
	return true;
}
