/*
 * hamming.h -- the "hamming" index access method: multi-index hashing with
 * the fingerprints stored in the index (Norouzi, Punjani, Fleet 2012)
 *
 * A fingerprint x is first permuted: P(x) bit 16*t + i = x bit 4*i + t, so
 * that chunk t of P(x) (bits 16t .. 16t+15) holds the bits t, t+4, ..., t+60
 * of x (a run of biased neighbouring bits of a SimHash is spread over all
 * four chunks).  A permutation keeps Hamming distances.
 *
 * Layouts.  The index has 4 tables (the default) or 2 (storage parameter
 * "tables").  With 4, table t is bucketed by chunk t of P(x); with 2, table
 * t (t = 0, 1) is bucketed by chunk 2t, and its half of P(x) is chunks 2t
 * and 2t + 1 (see hamming_rounds.c for the rounds of each).
 *
 * Disk layout (format 3; every page has an AmPageOpaqueData special space,
 * am_pages.h, naming the structure it belongs to, its "owner"):
 *   block 0            metapage (HamMetaData)
 *   runs               the sorted part: one to HAM_MAX_RUNS immutable runs
 *                      (the main run, written by the build, and the runs
 *                      merges write, hamming_merge.c).  A run has, per
 *                      table t, its entry pages, bucketed by its chunk, and
 *                      a directory of 65537 uint32 (dir[v] = first entry of
 *                      the bucket of chunk value v; dir[65536] = number of
 *                      entries); an entry (tfp_hamcode.h, 9 bytes) keeps the
 *                      other 48 bits of P(x) and the heap TID, delta-coded
 *                      within a bucket, so that distances are computed from
 *                      the index alone; an entry page starts with a dead
 *                      map, a bit per entry.  Its pages need not be
 *                      contiguous (a merge reuses freed pages): a chain of
 *                      map pages lists them (per table: the directory
 *                      pages, then the entry pages), and a chain of NULL
 *                      pages holds the run's NULL keys.
 *   pending list       rows inserted since the last merge, as
 *                      HamPendingEntry, in a chain of pages from the
 *                      metapage; scans read it whole.  A merge first seals
 *                      it (it becomes the "merging" chain, still read by
 *                      scans) and inserts start a new one.
 * A merge (hamming_merge.c) writes a new run into free or new pages and
 * publishes it with one metapage update that also drops its inputs; their
 * pages go to the free space map at once.  A scan that meets a page whose
 * owner is not the one its metapage copy names restarts (hamming_scan.c):
 * that is the safety argument of page reuse, on a standby too.
 */
#ifndef TEXTFP_HAMMING_H
#define TEXTFP_HAMMING_H

#include "postgres.h"

#include "access/amapi.h"
#include "access/genam.h"
#include "storage/block.h"
#include "storage/bufpage.h"
#include "storage/itemptr.h"
#include "utils/relcache.h"

#include "am_pages.h"
#include "tfp_hamcode.h"

#define HAM_MAGIC			0x48414D31	/* "HAM1" */
#define HAM_FORMAT			3
#define HAM_MAX_RUNS		2		/* runs of the sorted part, at most */
#define HAM_TABLES			4		/* at most */
#define HAM_CHUNK_BITS		16
#define HAM_BUCKETS			(1 << HAM_CHUNK_BITS)
#define HAM_DIR_LEN			(HAM_BUCKETS + 1)

/* the page kind of its own beside am_pages.h's (AmPageOpaqueData.flags) */
#define HAM_PAGE_NULLS		32

/* AmPageOpaqueData.page_id */
#define HAM_PAGE_ID			0xFF89

/* a run of the sorted part */
typedef struct HamRun
{
	uint32		id;				/* owner of its pages */
	uint32		nmap;			/* map entries (block numbers) */
	uint64		nrows;			/* non-NULL rows written (live then) */
	uint32		nentries[HAM_TABLES];	/* entries of each table (rows,
										 * escapes, fillers) */
	BlockNumber map_head;		/* first map page */
	BlockNumber pad;
	AmChain		nulls;			/* its NULL keys (id = the run's) */
} HamRun;

typedef struct HamMetaData
{
	uint32		magic;
	uint32		format;
	int64		build_stamp;	/* time of the build: names the index's pages */
	uint32		ntables;		/* 4 or 2 (ham_check_meta) */
	uint32		next_id;		/* next owner id */
	uint32		nruns;			/* runs[0] is the largest */
	uint32		merges;			/* merges since the build */
	HamRun		runs[HAM_MAX_RUNS];
	AmChain		pending;		/* where inserts go (HamPendingEntry) */
	AmChain		merging;		/* sealed, being merged (or left by a crash) */
} HamMetaData;

StaticAssertDecl(HAM_MAX_RUNS <= AM_MAX_RUNS, "am_pages.h must count the hamming runs");
StaticAssertDecl(offsetof(HamRun, id) == 0, "am_owners reads a run's id first");

/* the storage parameters */
typedef struct HamOptions
{
	int32		vl_len_;
	int			tables;
} HamOptions;

#define HAM_DEFAULT_TABLES	4

/* an entry of the pending list */
typedef struct HamPendingEntry
{
	uint64		p;				/* P(x); 0 for a NULL key */
	ItemPointerData tid;		/* offset 0: dead */
	uint16		isnull;
} HamPendingEntry;

/* entries of a page and its dead map: 9 * E + ceil(E / 8) <= AM_CONTENT_SIZE */
#define HAM_ENTRIES_PER_PAGE	AM_ENTRIES_PER_PAGE(TFP_HAMCODE_ENTRY)
#define HAM_DEADMAP_BYTES		AM_DEADMAP_BYTES(HAM_ENTRIES_PER_PAGE)
#define HAM_PENDING_PER_PAGE	((uint32) (AM_CONTENT_SIZE / sizeof(HamPendingEntry)))
/* directory pages of a table */
#define HAM_DIR_PAGES			((uint32) AM_DIR_PAGES(HAM_DIR_LEN))

#define HamPageGetMeta(page)	((HamMetaData *) PageGetContents(page))

/* the owner of a page (am_page_owned), entry pages, the entries of a page */
#define ham_page_owned(page, id)	am_page_owned(page, HAM_PAGE_ID, id)
#define ham_entry_pages(n)			am_entry_pages(n, HAM_ENTRIES_PER_PAGE)
#define ham_page_entries(page)		am_page_entries(page, HAM_DEADMAP_BYTES)

/* non-NULL rows of the sorted part, and every row of the index */
static inline uint64
ham_sorted_rows(const HamMetaData *m)
{
	uint64		n = 0;
	uint32		r;

	for (r = 0; r < m->nruns; r++)
		n += m->runs[r].nrows;
	return n;
}

static inline uint64
ham_total_rows(const HamMetaData *m)
{
	return ham_sorted_rows(m) + m->pending.n + m->merging.n;
}

static inline const uint8 *
ham_entry(const uint8 *entries, uint32 k)
{
	return entries + (Size) k * TFP_HAMCODE_ENTRY;
}

static inline bool
ham_tid_dead(const ItemPointerData *tid)
{
	return tid->ip_posid == InvalidOffsetNumber;
}

/* the chunk by which table t of an index of nt tables is bucketed */
static inline int
ham_lane(int nt, int t)
{
	return t * (HAM_TABLES / nt);
}

/*
 * The end of the run of entries from e (before end) that lie in one bucket:
 * *v is advanced to the bucket of entry e.  A run that starts at a bucket's
 * or a page's first entry decodes from a zeroed tfp_hamdec.
 */
static inline uint32
ham_next_run(const uint32 *dir, uint32 *v, uint32 e, uint32 end)
{
	while (dir[*v + 1] <= e)
		(*v)++;
	return Min(dir[*v + 1], end);
}

/* chunk t of a permuted value */
static inline uint32
ham_chunk(uint64 p, int t)
{
	return (uint32) ((p >> (HAM_CHUNK_BITS * t)) & (HAM_BUCKETS - 1));
}

/* the 48 bits of p outside chunk t, lower chunks first */
static inline uint64
ham_rest(uint64 p, int t)
{
	uint64		low = (UINT64CONST(1) << (HAM_CHUNK_BITS * t)) - 1;

	return (p & low) | ((p >> HAM_CHUNK_BITS) & ~low & UINT64CONST(0xFFFFFFFFFFFF));
}

/* inverse of ham_rest: p from its rest and chunk t = v */
static inline uint64
ham_unrest(uint64 rest, uint32 v, int t)
{
	uint64		low = (UINT64CONST(1) << (HAM_CHUNK_BITS * t)) - 1;

	return (rest & low) | ((uint64) v << (HAM_CHUNK_BITS * t)) |
		((rest & ~low & UINT64CONST(0xFFFFFFFFFFFF)) << HAM_CHUNK_BITS);
}

/* hamming.c */
extern const AmMethod ham_method;
extern uint64 ham_permute(uint64 x);
extern uint64 ham_unpermute(uint64 p);
extern void ham_check_meta(Relation index, Page page);
extern void ham_read_meta(Relation index, HamMetaData *meta);
extern void ham_empty_meta(HamMetaData *m);
extern int	ham_option_tables(Relation index);

/* hamming_build.c */
extern IndexBuildResult *hamming_build(Relation heap, Relation index,
									   struct IndexInfo *indexInfo);
extern void hamming_buildempty(Relation index);
extern bool hamming_insert(Relation index, Datum *values, bool *isnull,
						   ItemPointer ht_ctid, Relation heapRel,
						   IndexUniqueCheck checkUnique,
#if PG_VERSION_NUM >= 140000
						   bool indexUnchanged,
#endif
						   struct IndexInfo *indexInfo);
extern IndexBulkDeleteResult *hamming_bulkdelete(IndexVacuumInfo *info,
												 IndexBulkDeleteResult *stats,
												 IndexBulkDeleteCallback callback,
												 void *callback_state);
extern IndexBulkDeleteResult *hamming_vacuumcleanup(IndexVacuumInfo *info,
													IndexBulkDeleteResult *stats);

/* hamming_run.c: writing a run (build and merges) and freeing one */
typedef struct HamOut
{
	AmOut		am;				/* the pages, the run's map (am_pages.h) */
	/* the table being written */
	uint64		e;
	uint32	   *dir;
	tfp_hamwriter hw;
} HamOut;

extern void ham_out_init(HamOut *o, Relation index, uint32 id, bool wal,
						 const HamMetaData *live);
extern void ham_out_table_begin(HamOut *o, int nt, int t);
extern void ham_out_row(HamOut *o, uint32 v, uint64 rest, ItemPointer tid);
extern uint32 ham_out_table_end(HamOut *o);
extern void ham_out_chain(HamOut *o, uint16 flags, const HamPendingEntry *items,
						  Size n, AmChain *chain);
extern void ham_out_map(HamOut *o, HamRun *run);

/* hamming_dir.c: per backend, each run's directories and map */
typedef struct HamDir
{
	AmDir		base;			/* the run's id and map (am_pages.h) */
	Buffer	   *recent;			/* per map slot: the buffer that held the
								 * page last, or InvalidBuffer (base.extra) */
	Size		first_page[HAM_TABLES];	/* table t's entry pages in blocks[] */
	uint32		nentries[HAM_TABLES];
	uint32		dir[HAM_TABLES][HAM_DIR_LEN];
} HamDir;

extern HamDir *ham_dir_acquire(Relation index, const HamMetaData *meta, const HamRun *run);

static inline void
ham_dir_release(HamDir *d)
{
	am_dir_release((AmDir *) d);
}

extern Buffer ham_read_entry_page(Relation index, HamDir *d, int t, uint32 pageno);
extern void ham_free_run(Relation index, HamDir *d, const HamRun *run);

/* hamming_merge.c */
extern uint64 ham_pending_limit(const void *meta);
extern bool ham_merge(Relation index, bool vacuum);

/* hamming_scan.c */
extern IndexScanDesc hamming_beginscan(Relation r, int nkeys, int norderbys);
extern void hamming_rescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
						   ScanKey orderbys, int norderbys);
extern bool hamming_gettuple(IndexScanDesc scan, ScanDirection dir);
extern int64 hamming_getbitmap(IndexScanDesc scan, TIDBitmap *tbm);
extern void hamming_endscan(IndexScanDesc scan);

#endif							/* TEXTFP_HAMMING_H */
