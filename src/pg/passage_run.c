/*
 * passage_run.c -- the runs of the "passage" index: writing one (the
 * build's and a merge's), its directory and map cached per backend, and
 * freeing one (layout in passage_am.h)
 *
 * A run is written page by page: its entry pages (entries come in key
 * order; the directory counts them per bucket as they pass), then its
 * directory pages, then its map (a chain of block numbers: the entry
 * pages, then the directory pages).  Every page carries the run's id as
 * its owner.  How pages are taken, written and logged, and the cache of
 * the runs' directories, are am_pages.c's, as for the hamming index.
 */
#include "postgres.h"

#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "passage_am.h"

void
pas_out_init(PasOut *o, Relation index, uint32 id, bool wal, const PasMetaData *live)
{
	memset(o, 0, sizeof(*o));
	am_out_init(&o->am, index, &pas_method, id, wal, live, TFP_PASIDX_ENTRY,
				PAS_ENTRIES_PER_PAGE);
	o->dir = palloc0(sizeof(uint32) * PAS_DIR_LEN);
}

/* one more entry: entries come in key order */
void
pas_out_entry(PasOut *o, const tfp_pasent *e, bool dead)
{
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
	tfp_pasidx_put(am_out_entry(&o->am, dead), e);
	o->e++;
}

/* the last entry page, the directory pages and the map; fills *run */
void
pas_out_finish(PasOut *o, PasRun *run)
{
	am_out_flush(&o->am);
	for (uint32 b = 0; b < TFP_PASIDX_BUCKETS; b++)
		o->dir[b + 1] += o->dir[b];
	Assert(o->dir[TFP_PASIDX_BUCKETS] == o->e);
	am_out_dir(&o->am, o->dir, PAS_DIR_LEN);
	run->nmap = (uint32) o->am.nmap;
	run->map_head = am_out_map(&o->am);
	run->id = o->am.id;
	run->nentries = o->e;
}

/* ---- the directory cache ---- */

/*
 * Read the run's map and directory into d; false if a page is not the
 * run's (it was freed and reused since the caller read the metapage).
 */
static bool
dir_load(Relation index, AmDir *base, MemoryContext cxt, const void *meta,
		 const void *run_arg)
{
	PasDir	   *d = (PasDir *) base;
	const PasRun *run = run_arg;
	Size		n;

	d->nentries = run->nentries;
	if (!am_load_map(index, PAS_PAGE_ID, base, run->map_head, &n))
		return false;
	if (n != run->nmap || run->nmap < PAS_DIR_PAGES ||
		run->nmap - PAS_DIR_PAGES != pas_entry_pages(run->nentries))
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a damaged map", RelationGetRelationName(index)),
				 errdetail("Run %u lists %zu pages, the metapage %u for %llu entries.", run->id, n,
						   run->nmap, (unsigned long long) run->nentries)));
	if (!am_load_dir(index, PAS_PAGE_ID, base, run->nmap - PAS_DIR_PAGES, d->dir, PAS_DIR_LEN))
		return false;
	if (d->dir[TFP_PASIDX_BUCKETS] != run->nentries)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a damaged directory", RelationGetRelationName(index)),
				 errdetail("Run %u counts %u entries, the metapage %llu.", run->id,
						   d->dir[TFP_PASIDX_BUCKETS], (unsigned long long) run->nentries)));
	return true;
}

static AmDirCache dirs = {
	.name = "textfp passage directories",
	.size = sizeof(PasDir),
	.zeroed = offsetof(PasDir, dir),
	.load = dir_load,
};

/*
 * The directory and map of a run of the metapage copy "meta", from the
 * cache or read; NULL if the run's pages have been reused since (the
 * caller reads the metapage again).
 */
PasDir *
pas_dir_acquire(Relation index, const PasMetaData *meta, const PasRun *run)
{
	return (PasDir *) am_dir_acquire(&dirs, index, &pas_method, meta, run->id, run->nmap, run);
}

/* pin entry page "pageno" of the run; the caller checks its owner under its lock */
Buffer
pas_read_entry_page(Relation index, PasDir *d, uint32 pageno)
{
	return ReadBuffer(index, d->base.blocks[pageno]);
}

/* the pages of a run: its entry and directory pages, and its map */
void
pas_free_run(Relation index, PasDir *d, const PasRun *run)
{
	am_free_run(index, PAS_PAGE_ID, (AmDir *) d, run->map_head, run->id);
}
