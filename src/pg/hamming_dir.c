/*
 * hamming_dir.c -- the per-backend cache of the "hamming" index's
 * directories (1 MB per index and build), and of the buffer that held each
 * entry page last
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

HamDir *
ham_dir_acquire(Relation index, const HamMetaData *meta)
{
	HamDir	   *d,
			  **pp;
	int			t;
	Size		npages;

	for (d = dir_cache; d; d = d->next)
		if (d->relid == RelationGetRelid(index) &&
			d->build_stamp == meta->build_stamp && d->nsorted == meta->nsorted)
		{
			d->refcount++;
			return d;
		}
	/* forget unused directories of this index's earlier builds */
	for (pp = &dir_cache; *pp;)
	{
		d = *pp;
		if (d->relid == RelationGetRelid(index) && d->refcount <= 0)
		{
			*pp = d->next;
			pfree(d->recent);
			pfree(d);
		}
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
	d->relid = RelationGetRelid(index);
	d->build_stamp = meta->build_stamp;
	d->nsorted = meta->nsorted;
	d->refcount = 0;
	npages = 0;
	for (t = 0; t < (int) meta->ntables; t++)
	{
		d->first_page[t] = npages;
		npages += ham_entry_pages(meta->nentries[t]);
	}
	d->recent = MemoryContextAllocHuge(dir_cxt, sizeof(Buffer) * Max(npages, 1));
	memset(d->recent, 0, sizeof(Buffer) * Max(npages, 1));
	for (t = 0; t < (int) meta->ntables; t++)
	{
		uint32		pos;

		for (pos = 0; pos < HAM_DIR_LEN; pos += HAM_DIR_PER_PAGE)
		{
			Buffer		buf = ReadBuffer(index, meta->dir_start[t] + pos / HAM_DIR_PER_PAGE);
			Page		page;
			uint32		k = Min(HAM_DIR_PER_PAGE, HAM_DIR_LEN - pos);

			LockBuffer(buf, BUFFER_LOCK_SHARE);
			page = BufferGetPage(buf);
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
		if (d->dir[t][HAM_BUCKETS] != meta->nentries[t])
			ereport(ERROR,
					(errcode(ERRCODE_INDEX_CORRUPTED),
					 errmsg("index \"%s\" has a damaged directory",
							RelationGetRelationName(index)),
					 errdetail("Table %d counts %u entries, the metapage %u.", t,
							   d->dir[t][HAM_BUCKETS], meta->nentries[t])));
	}
	d->next = dir_cache;
	dir_cache = d;
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
 * Pin entry page "pageno" of table t.  The buffer that held the page last
 * time is tried first (ReadRecentBuffer, PostgreSQL 14+): that skips the
 * buffer mapping table, a cache miss per probe otherwise.
 */
Buffer
ham_read_entry_page(Relation index, HamDir *d, const HamMetaData *meta, int t, uint32 pageno)
{
	BlockNumber blk = meta->data_start[t] + pageno;
#if PG_VERSION_NUM >= 140000
	Buffer	   *slot = &d->recent[d->first_page[t] + pageno];

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
