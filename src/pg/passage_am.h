/*
 * passage_am.h -- the "passage" index access method: the seeds of every
 * row's passage fingerprint (src/core/tfp_passage.h) with their positions,
 * searched by key (src/core/tfp_pasidx.h: the entry code)
 *
 * The design is the hamming method's (hamming.h): immutable sorted runs, a
 * pending list for inserts, merges into free pages, and owners on pages;
 * the code of their pages is shared (am_pages.h).
 *
 * Disk layout (format 1; every page has an AmPageOpaqueData special space
 * naming the structure it belongs to, its "owner"):
 *   block 0        metapage (PasMetaData): the fingerprint options, the
 *                  runs, the pending list and the sealed list of a merge
 *   runs           one to TFP_PASIDX_MAX_RUNS immutable runs: entry pages
 *                  (a dead map, a bit per entry, then 12-byte entries in
 *                  key order), then the directory (65,537 uint32: dir[b] =
 *                  the first entry of bucket b, dir[65536] = the entries),
 *                  listed by a chain of map pages
 *   pending list   entries inserted since the last merge (PasPendingEntry),
 *                  in a chain of pages from the metapage; scans read it
 *                  whole.  A merge first seals it (it becomes the
 *                  "merging" chain, still read by scans).
 * A merge (passage_merge.c) writes a new run from the sealed list and the
 * smallest runs, into free or new pages, and publishes it with one
 * metapage update; its inputs' pages go to the free space map.  A reader
 * that meets a page whose owner is not the one its metapage copy names
 * starts again: the safety argument of page reuse (hamming_merge.c's).
 */
#ifndef TEXTFP_PASSAGE_AM_H
#define TEXTFP_PASSAGE_AM_H

#include "postgres.h"

#include "access/amapi.h"
#include "access/htup_details.h"
#include "nodes/execnodes.h"
#include "access/genam.h"
#include "storage/block.h"
#include "storage/bufpage.h"
#include "storage/itemptr.h"
#include "utils/relcache.h"

#include "am_pages.h"
#include "passage.h"
#include "tfp_pasidx.h"

#define PAS_MAGIC			0x50415331	/* "PAS1" */
#define PAS_FORMAT			1
#define PAS_DIR_LEN			(TFP_PASIDX_BUCKETS + 1)

/* AmPageOpaqueData.page_id (the page kinds are am_pages.h's) */
#define PAS_PAGE_ID			0xFF8A

typedef struct PasRun
{
	uint32		id;				/* owner of its pages */
	uint32		nmap;			/* map entries: entry pages, then directory
								 * pages */
	uint64		nentries;		/* entries written (live then) */
	BlockNumber map_head;
	uint32		pad;
} PasRun;

typedef struct PasMetaData
{
	uint32		magic;
	uint32		format;
	int64		build_stamp;	/* time of the build: names the index's pages */
	uint8		k,				/* the fingerprint options */
				w,
				reading,
				pad0;
	uint32		next_id;		/* next owner id */
	uint32		nruns;			/* runs[0] is the largest */
	uint32		merges;			/* merges since the build */
	uint64		rows;			/* rows indexed by the build and inserts */
	PasRun		runs[TFP_PASIDX_MAX_RUNS];
	AmChain		pending;		/* where inserts go (PasPendingEntry) */
	AmChain		merging;		/* sealed, being merged (or left by a crash) */
} PasMetaData;

StaticAssertDecl(TFP_PASIDX_MAX_RUNS <= AM_MAX_RUNS, "am_pages.h must count the passage runs");
StaticAssertDecl(offsetof(PasRun, id) == 0, "am_owners reads a run's id first");

/* the storage parameters */
typedef struct PasOptions
{
	int32		vl_len_;
	int			k;
	int			w;
	bool		reading;
} PasOptions;

/* an entry of the pending list: the entry code and its bucket */
typedef struct PasPendingEntry
{
	unsigned char code[TFP_PASIDX_ENTRY];	/* offset 0: dead */
	uint16		bucket;
	uint16		pad;
} PasPendingEntry;

#define PAS_DIR_PAGES			AM_DIR_PAGES(PAS_DIR_LEN)
/* entries of a page and its dead map: 12 E + ceil(E / 8) <= AM_CONTENT_SIZE */
#define PAS_ENTRIES_PER_PAGE	AM_ENTRIES_PER_PAGE(TFP_PASIDX_ENTRY)
#define PAS_DEADMAP_BYTES		AM_DEADMAP_BYTES(PAS_ENTRIES_PER_PAGE)
#define PAS_PENDING_PER_PAGE	((uint32) (AM_CONTENT_SIZE / sizeof(PasPendingEntry)))

StaticAssertDecl(MaxHeapTuplesPerPage <= TFP_PASIDX_OFF_MAX,
				 "heap offsets must fit the passage index's 10 bits");

#define PasPageGetMeta(page)	((PasMetaData *) PageGetContents(page))

/* the owner of a page (am_page_owned), entry pages, the entries of a page */
#define pas_page_owned(page, id)	am_page_owned(page, PAS_PAGE_ID, id)
#define pas_entry_pages(n)			am_entry_pages(n, PAS_ENTRIES_PER_PAGE)
#define pas_page_entries(page)		am_page_entries(page, PAS_DEADMAP_BYTES)

static inline bool
pas_pending_dead(const PasPendingEntry *e)
{
	return (e->code[0] | (e->code[1] & 0x03)) == 0;
}

static inline uint64
pas_total_entries(const PasMetaData *m)
{
	uint64		n = m->pending.n + m->merging.n;

	for (uint32 r = 0; r < m->nruns; r++)
		n += m->runs[r].nentries;
	return n;
}

/* the directory and map of a run, cached per backend (passage_run.c) */
typedef struct PasDir
{
	AmDir		base;			/* the run's id and map (am_pages.h): entry
								 * pages, then directory pages */
	uint64		nentries;
	uint32		dir[PAS_DIR_LEN];
} PasDir;

static inline void
pas_dir_release(PasDir *d)
{
	am_dir_release((AmDir *) d);
}

/* writing a run (passage_run.c) */
typedef struct PasOut
{
	AmOut		am;				/* the pages, the run's map (am_pages.h) */
	uint64		e;				/* entries written */
	uint32		bucket;			/* of the last entry */
	uint32	   *dir;
} PasOut;

/* passage_am.c */
extern const AmMethod pas_method;
extern void pas_check_meta(Relation index, Page page);
extern void pas_read_meta(Relation index, PasMetaData *meta);
extern void pas_empty_meta(PasMetaData *m, Relation index);
extern tfp_passage_opts pas_meta_opts(const PasMetaData *m);
extern bool pas_is_passage_index(Relation index);
extern IndexBuildResult *passage_build(Relation heap, Relation index, IndexInfo *indexInfo);

/* the seeds of an indexed value (text or passage_fingerprint) */
extern tfp_pseed *pas_value_seeds(Relation index, Datum value, const tfp_passage_opts *o,
								  size_t *n);

/* passage_build.c: entries in memory (the pending list's form: the code
 * and its bucket), their order and sort */
extern void pas_item_make(PasPendingEntry *it, const tfp_pseed *s, const ItemPointerData *tid);
extern int	pas_item_cmp(const void *x, const void *y);
extern void pas_items_sort(PasPendingEntry *items, PasPendingEntry *tmp, Size n);
extern void pas_item_entry(const PasPendingEntry *it, tfp_pasent *e);

extern void passage_buildempty(Relation index);
extern bool passage_insert(Relation index, Datum *values, bool *isnull,
						   ItemPointer ht_ctid, Relation heapRel,
						   IndexUniqueCheck checkUnique,
#if PG_VERSION_NUM >= 140000
						   bool indexUnchanged,
#endif
						   IndexInfo *indexInfo);
extern IndexBulkDeleteResult *passage_bulkdelete(IndexVacuumInfo *info,
												 IndexBulkDeleteResult *stats,
												 IndexBulkDeleteCallback callback,
												 void *callback_state);
extern IndexBulkDeleteResult *passage_vacuumcleanup(IndexVacuumInfo *info,
													IndexBulkDeleteResult *stats);

/* passage_run.c */
extern void pas_out_init(PasOut *o, Relation index, uint32 id, bool wal, const PasMetaData *live);
extern void pas_out_entry(PasOut *o, const tfp_pasent *e, bool dead);
extern void pas_out_finish(PasOut *o, PasRun *run);
extern PasDir *pas_dir_acquire(Relation index, const PasMetaData *meta, const PasRun *run);
extern Buffer pas_read_entry_page(Relation index, PasDir *d, uint32 pageno);
extern void pas_free_run(Relation index, PasDir *d, const PasRun *run);

/* passage_merge.c */
extern uint64 pas_pending_limit(const void *meta);
extern bool pas_merge(Relation index, bool vacuum);

/* passage_scan.c: the look-up that the sources query and the scans share */
typedef struct PasHit
{
	ItemPointerData tid;
	uint32		qi;				/* the query seed */
	uint32		unit;			/* the row's seed's unit (saturated) */
} PasHit;

typedef struct PasLookup
{
	/* results */
	PasHit	   *hits;
	Size		nhits,
				caphits;
	uint32	   *df;				/* per query seed: entries with its key */
	bool	   *common;			/* per query seed: df > max_docs, skipped */
	uint32		restarts;
} PasLookup;

/*
 * The entries matching the query seeds q[0..nq) (equal key and a context
 * byte), keys with more than max_docs entries counted but skipped (0: no
 * limit); live entries only, in no particular order.  With gdf, each
 * seed's df is given (the corpus's, over several indexes) and decides what
 * is skipped; with df_only, only the df of each seed is found (out->df),
 * no entries read.  Memory in the current context.
 */
extern void pas_lookup(Relation index, const tfp_pseed *q, size_t nq, uint32 max_docs,
					   const uint32 *gdf, bool df_only, PasLookup *out);

extern IndexScanDesc passage_beginscan(Relation r, int nkeys, int norderbys);
extern void passage_rescan(IndexScanDesc scan, ScanKey keys, int nkeys,
						   ScanKey orderbys, int norderbys);
extern int64 passage_getbitmap(IndexScanDesc scan, TIDBitmap *tbm);
extern void passage_endscan(IndexScanDesc scan);

#endif							/* TEXTFP_PASSAGE_AM_H */
