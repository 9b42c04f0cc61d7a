/*
 * hamming_dir.c -- the per-backend cache of the "hamming" index's runs:
 * their directories (1 MB per run), maps (the block of each entry and
 * directory page) and the buffer that held each entry page last
 */
#include "postgres.h"

#include "access/xact.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "hamming.h"

static HamDir *dir_cache = NULL;
static MemoryContext dir_cxt = NULL;
static bool dir_callback_registered = false;

/*
 * No scan outlives its transaction (a WITH HOLD cursor is materialized at
 * commit): at the end of every transaction no directory is in use, also
 * after an error skipped hamming_endscan.
 */
static void
dir_xact_callback(XactEvent event, void *arg)
{
	HamDir	   *d;

	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PARALLEL_ABORT)
		for (d = dir_cache; d; d = d->next)
			d->refcount = 0;
}

/* drop d from the cache */
static void
dir_forget(HamDir **pp)
{
	HamDir	   *d = *pp;

	*pp = d->next;
	pfree(d->blocks);
	pfree(d->recent);
	pfree(d);
}

/*
 * Read the run's map and directories into d; false if a page is not the
 * run's (it was freed and reused since the caller read the metapage).
 */
static bool
dir_load(Relation index, const HamMetaData *meta, const HamRun *run, HamDir *d)
{
	BlockNumber blk = run->map_head;
	Size		n = 0;
	Size		off = 0;
	int			t;

	while (blk != InvalidBlockNumber && n < run->nmap)
	{
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		uint32		k;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!ham_page_owned(page, run->id) || !(HamPageGetOpaque(page)->flags & HAM_PAGE_MAP))
		{
			UnlockReleaseBuffer(buf);
			return false;
		}
		k = ham_page_nentries(page, sizeof(BlockNumber));
		k = (uint32) Min((Size) k, run->nmap - n);
		memcpy(d->blocks + n, PageGetContents(page), k * sizeof(BlockNumber));
		n += k;
		blk = HamPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
	}
	if (n != run->nmap)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a damaged map", RelationGetRelationName(index)),
				 errdetail("Run %u lists %zu pages, the metapage %u.", run->id, n, run->nmap)));
	for (t = 0; t < (int) meta->ntables; t++)
	{
		uint32		pos;

		d->first_page[t] = off;
		d->nentries[t] = run->nentries[t];
		off += ham_entry_pages(run->nentries[t]);
		for (pos = 0; pos < HAM_DIR_LEN; pos += HAM_DIR_PER_PAGE)
		{
			Buffer		buf = ReadBuffer(index, d->blocks[off++]);
			Page		page;
			uint32		k = Min(HAM_DIR_PER_PAGE, HAM_DIR_LEN - pos);

			LockBuffer(buf, BUFFER_LOCK_SHARE);
			page = BufferGetPage(buf);
			if (!ham_page_owned(page, run->id))
			{
				UnlockReleaseBuffer(buf);
				return false;
			}
			if (!(HamPageGetOpaque(page)->flags & HAM_PAGE_DIR))
				ereport(ERROR,
						(errcode(ERRCODE_INDEX_CORRUPTED),
						 errmsg("index \"%s\" has a damaged directory",
								RelationGetRelationName(index)),
						 errdetail("Block %u should be a directory page.",
								   BufferGetBlockNumber(buf))));
			memcpy(&d->dir[t][pos], PageGetContents(page), k * sizeof(uint32));
			UnlockReleaseBuffer(buf);
		}
		if (d->dir[t][HAM_BUCKETS] != run->nentries[t])
			ereport(ERROR,
					(errcode(ERRCODE_INDEX_CORRUPTED),
					 errmsg("index \"%s\" has a damaged directory",
							RelationGetRelationName(index)),
					 errdetail("Table %d of run %u counts %u entries, the metapage %u.", t,
							   run->id, d->dir[t][HAM_BUCKETS], run->nentries[t])));
	}
	if (off != run->nmap)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a damaged map", RelationGetRelationName(index)),
				 errdetail("Run %u lists %u pages, its tables %zu.", run->id, run->nmap, off)));
	return true;
}

/*
 * The directories and map of a run of the metapage copy "meta", from the
 * cache or read; NULL if the run's pages have been reused since (the
 * caller reads the metapage again).
 */
HamDir *
ham_dir_acquire(Relation index, const HamMetaData *meta, const HamRun *run)
{
	HamDir	   *d,
			  **pp;
	uint32		r;

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
		for (r = 0; r < meta->nruns; r++)
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
		dir_cxt = AllocSetContextCreate(TopMemoryContext, "textfp hamming directories",
										ALLOCSET_DEFAULT_SIZES);
	d = MemoryContextAllocHuge(dir_cxt, sizeof(HamDir));
	memset(d, 0, offsetof(HamDir, dir));
	d->relid = RelationGetRelid(index);
	d->build_stamp = meta->build_stamp;
	d->id = run->id;
	d->nblocks = run->nmap;
	d->blocks = MemoryContextAllocHuge(dir_cxt, sizeof(BlockNumber) * Max(d->nblocks, 1));
	d->recent = MemoryContextAllocHuge(dir_cxt, sizeof(Buffer) * Max(d->nblocks, 1));
	memset(d->recent, 0, sizeof(Buffer) * Max(d->nblocks, 1));
	d->next = dir_cache;
	dir_cache = d;
	if (!dir_load(index, meta, run, d))
	{
		dir_forget(&dir_cache);
		return NULL;
	}
	d->refcount = 1;
	return d;
}

void
ham_dir_release(HamDir *d)
{
	if (d)
		d->refcount--;
}

/*
 * Pin entry page "pageno" of table t of the run.  The buffer that held the
 * page last time is tried first (ReadRecentBuffer, PostgreSQL 14+): that
 * skips the buffer mapping table, a cache miss per probe otherwise.  The
 * caller checks the page's owner under its lock.
 */
Buffer
ham_read_entry_page(Relation index, HamDir *d, int t, uint32 pageno)
{
	Size		i = d->first_page[t] + pageno;
	BlockNumber blk = d->blocks[i];
#if PG_VERSION_NUM >= 140000
	Buffer	   *slot = &d->recent[i];

	if (BufferIsValid(*slot) &&
#if PG_VERSION_NUM >= 160000
		ReadRecentBuffer(index->rd_locator, MAIN_FORKNUM, blk, *slot)
#else
		ReadRecentBuffer(index->rd_node, MAIN_FORKNUM, blk, *slot)
#endif
		)
		return *slot;
	*slot = ReadBuffer(index, blk);
	return *slot;
#else
	return ReadBuffer(index, blk);
#endif
}
