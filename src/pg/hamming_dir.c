/*
 * hamming_dir.c -- the per-backend cache of the "hamming" index's runs:
 * their directories (1 MB per run), maps (the block of each entry and
 * directory page) and the buffer that held each entry page last
 */
#include "postgres.h"

#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "hamming.h"

/*
 * Read the run's map and directories into d; false if a page is not the
 * run's (it was freed and reused since the caller read the metapage).
 */
static bool
dir_load(Relation index, AmDir *base, MemoryContext cxt, const void *meta_arg,
		 const void *run_arg)
{
	HamDir	   *d = (HamDir *) base;
	const HamMetaData *meta = meta_arg;
	const HamRun *run = run_arg;
	Size		n;
	Size		off = 0;
	int			t;

	d->recent = MemoryContextAllocHuge(cxt, sizeof(Buffer) * Max(base->nblocks, 1));
	memset(d->recent, 0, sizeof(Buffer) * Max(base->nblocks, 1));
	base->extra = d->recent;
	if (!am_load_map(index, HAM_PAGE_ID, base, run->map_head, &n))
		return false;
	if (n != run->nmap)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a damaged map", RelationGetRelationName(index)),
				 errdetail("Run %u lists %zu pages, the metapage %u.", run->id, n, run->nmap)));
	for (t = 0; t < (int) meta->ntables; t++)
	{
		d->first_page[t] = off;
		d->nentries[t] = run->nentries[t];
		off += ham_entry_pages(run->nentries[t]);
		if (!am_load_dir(index, HAM_PAGE_ID, base, off, d->dir[t], HAM_DIR_LEN))
			return false;
		off += HAM_DIR_PAGES;
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

static AmDirCache dirs = {
	.name = "textfp hamming directories",
	.size = sizeof(HamDir),
	.zeroed = offsetof(HamDir, dir),
	.load = dir_load,
};

/*
 * The directories and map of a run of the metapage copy "meta", from the
 * cache or read; NULL if the run's pages have been reused since (the
 * caller reads the metapage again).
 */
HamDir *
ham_dir_acquire(Relation index, const HamMetaData *meta, const HamRun *run)
{
	return (HamDir *) am_dir_acquire(&dirs, index, &ham_method, meta, run->id, run->nmap, run);
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
	BlockNumber blk = d->base.blocks[i];
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
