/*
 * am_pages.h -- page and buffer helpers shared by textfp's index access
 * methods, "hamming" (hamming.h) and "passage" (passage_am.h); the code is
 * in am_pages.c and am_runs.c
 *
 * The two methods keep an index alike: a metapage at block 0; the sorted
 * part in immutable runs, each of entry pages (a dead map, a bit per entry,
 * then the entries), directory pages and a chain of map pages listing
 * them; and chains of pages of entries (the pending list, the sealed list
 * of a merge).  Every page names in its special space the method (its page
 * id) and its owner, the run or chain it belongs to, so that merges can
 * reuse pages (hamming_merge.c).  What depends on that layout only is
 * here: a function that reads pages only is given the method's page id,
 * one that reads the metapage the method's description (AmMethod), and a
 * run's writer the size of its entries.  Each method's on-disk format
 * stays its own: the structs below are the ones both had, byte for byte.
 */
#ifndef TEXTFP_AM_PAGES_H
#define TEXTFP_AM_PAGES_H

#include "postgres.h"

#include "access/amapi.h"
#include "access/generic_xlog.h"
#include "access/genam.h"
#include "access/tupdesc.h"
#include "fmgr.h"
#include "storage/block.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "utils/relcache.h"

#define AM_METAPAGE_BLKNO	0

/* page kinds (AmPageOpaqueData.flags); a method may add its own above them */
#define AM_PAGE_META		1
#define AM_PAGE_DIR			2
#define AM_PAGE_DATA		4
#define AM_PAGE_PENDING		8
#define AM_PAGE_MAP			16

/* the special space of every page */
typedef struct AmPageOpaqueData
{
	BlockNumber next;			/* chains (pending, map, NULL pages): next
								 * page, else invalid */
	uint32		owner;			/* id of the run or chain of the page */
	uint16		flags;
	uint16		page_id;		/* the method's, for pg_filedump and friends */
} AmPageOpaqueData;

/* a chain of pages of entries (a metapage's pending and sealed lists) */
typedef struct AmChain
{
	BlockNumber head;
	BlockNumber tail;
	uint64		n;				/* entries (live or not) */
	uint32		id;				/* owner of its pages; 0: none yet */
	uint32		pad;
} AmChain;

#define AM_CONTENT_SIZE \
	(BLCKSZ - MAXALIGN(SizeOfPageHeaderData) - MAXALIGN(sizeof(AmPageOpaqueData)))
/* uint32 of a directory page, block numbers of a map page */
#define AM_DIR_PER_PAGE			((uint32) (AM_CONTENT_SIZE / sizeof(uint32)))
#define AM_DIR_PAGES(len)		(((len) + AM_DIR_PER_PAGE - 1) / AM_DIR_PER_PAGE)
/* entries of esize bytes on a page with its dead map: esize E + ceil(E / 8) <= AM_CONTENT_SIZE */
#define AM_ENTRIES_PER_PAGE(esize)	((uint32) ((AM_CONTENT_SIZE - 1) * 8 / (8 * (esize) + 1)))
#define AM_DEADMAP_BYTES(per_page)	(((per_page) + 7) / 8)

/* the most runs a method's metapage names (HAM_MAX_RUNS, TFP_PASIDX_MAX_RUNS) */
#define AM_MAX_RUNS			8

#define AmPageGetOpaque(page) \
	((AmPageOpaqueData *) PageGetSpecialPointer(page))

/* the owner of a page of the method page_id, checked under its buffer lock */
static inline bool
am_page_owned(Page page, uint16 page_id, uint32 id)
{
	return !PageIsNew(page) && AmPageGetOpaque(page)->page_id == page_id &&
		AmPageGetOpaque(page)->owner == id;
}

/* entries of esize bytes on a page: they run from the contents to pd_lower */
static inline uint32
am_page_nentries(Page page, Size esize)
{
	return (uint32) ((((PageHeader) page)->pd_lower - MAXALIGN(SizeOfPageHeaderData)) / esize);
}

/* the page's contents end at "end" */
static inline void
am_page_set_end(Page page, const void *end)
{
	((PageHeader) page)->pd_lower = (LocationIndex) ((const char *) end - (const char *) page);
}

/* the dead map of an entry page, and its entries (after deadmap_bytes) */
static inline uint8 *
am_page_deadmap(Page page)
{
	return (uint8 *) PageGetContents(page);
}

static inline uint8 *
am_page_entries(Page page, Size deadmap_bytes)
{
	return (uint8 *) PageGetContents(page) + deadmap_bytes;
}

static inline bool
am_is_dead(const uint8 *deadmap, uint32 k)
{
	return (deadmap[k >> 3] >> (k & 7)) & 1;
}

/* entry pages of n entries, per_page a page */
static inline uint32
am_entry_pages(uint64 n, uint32 per_page)
{
	return (uint32) ((n + per_page - 1) / per_page);
}

/* an empty chain, its pages to be owned by id (pad left as it is) */
static inline void
am_chain_empty(AmChain *c, uint32 id)
{
	c->head = c->tail = InvalidBlockNumber;
	c->n = 0;
	c->id = id;
}

/*
 * A method, as the shared code sees it: the id of its pages, its ambuild
 * (by which its indexes are told), its metapage and the entries of its
 * pending list.  The metapage's data (HamMetaData, PasMetaData) begins
 * with the magic number and the format (AmMetaHead); check_meta is the
 * method's whole check of a metapage (am_check_meta's first),
 * pending_limit its merge policy's bound on the pending list; the offsets
 * say where in the data the shared code finds the rest.
 */
typedef struct AmMethod
{
	const char *name;			/* "hamming": in messages */
	uint16		page_id;
	ambuild_function ambuild;
	uint32		magic;
	uint32		format;
	void		(*check_meta) (Relation index, Page page);
	uint64		(*pending_limit) (const void *meta);
	Size		meta_size;
	Size		build_stamp_off;	/* int64: names the index's build */
	Size		next_id_off;	/* uint32: the next owner id */
	Size		nruns_off;		/* uint32 */
	Size		merges_off;		/* uint32: merges since the build */
	Size		runs_off;		/* the runs, run_size bytes each, each
								 * beginning with its owner id (uint32) */
	Size		run_size;
	Size		pending_off;	/* AmChain */
	Size		merging_off;	/* AmChain */
	/* an entry of its chains: its size, its row if live, VACUUM's mark */
	Size		pending_size;
	bool		(*pending_tid) (const void *entry, ItemPointer tid);
	void		(*pending_kill) (void *entry);
} AmMethod;

typedef struct AmMetaHead
{
	uint32		magic;
	uint32		format;
} AmMetaHead;

/* the field of a method's metapage data at offset off (AmMethod) */
#define AmMetaField(type, meta, off)	((type *) ((char *) (meta) + (off)))

/*
 * The owners of the structures a metapage names: its runs (ids[0 ..
 * nruns)), then its pending and sealed lists.  Their pages are not free.
 */
typedef struct AmOwners
{
	int			nruns;
	int			n;
	uint32		ids[AM_MAX_RUNS + 2];
} AmOwners;

/* am_pages.c: pages, the metapage, the build */
extern void am_init_page(Page page, uint16 page_id, uint16 flags);
extern Buffer am_new_buffer(Relation index, ForkNumber fork);
extern void am_check_owned(Relation index, Buffer buf, uint16 page_id, uint32 id,
						   const char *what);
extern void am_copy_owned_page(Relation index, Buffer buf, uint16 page_id, uint32 id,
							   char *copy);
extern void am_check_meta(Relation index, Page page, const AmMethod *am);
extern void am_meta_damaged(Relation index, uint32 n, const char *what);
extern void am_read_meta(Relation index, const AmMethod *am, void *meta);
extern void am_init_meta_page(Page page, const AmMethod *am, const void *meta);
extern void am_owners(const AmMethod *am, const void *meta, AmOwners *o);
extern bool am_page_unowned(Page page, uint16 page_id, const AmOwners *live);
extern void am_build_begin(Relation index);
extern IndexBuildResult *am_build_end(Relation index, const AmMethod *am, const void *meta,
									  double heap_tuples, double index_tuples);
extern void am_build_empty(Relation index, const AmMethod *am, const void *meta);

/* am_runs.c: writing a run (the build's and a merge's) */
typedef struct AmOut
{
	Relation	index;
	uint16		page_id;
	uint32		id;				/* owner of the pages written */
	bool		wal;			/* log each page whole (merges; the build
								 * logs its whole range at the end) */
	bool		reuse;			/* take free pages that "live" does not own */
	AmOwners	live;
	BlockNumber *map;			/* the run's pages, in map order */
	Size		nmap,
				mapcap;
	/* the entry page being written */
	Size		esize;
	uint32		per_page;
	Size		deadmap_bytes;
	Buffer		buf;
	uint32		slot;
} AmOut;

extern void am_out_init(AmOut *o, Relation index, const AmMethod *am, uint32 id, bool wal,
						const void *live, Size esize, uint32 per_page);
extern Buffer am_out_page(AmOut *o, uint16 flags);
extern void am_out_done(AmOut *o, Buffer buf);
extern uint8 *am_out_entry(AmOut *o, bool dead);
extern void am_out_flush(AmOut *o);
extern void am_out_dir(AmOut *o, const uint32 *dir, Size len);
extern BlockNumber am_out_chain(AmOut *o, uint16 flags, const void *items, Size n,
								Size esize, uint32 per_page, BlockNumber *tail);
extern BlockNumber am_out_map(AmOut *o);

/* am_pages.c: the pending list, merges, VACUUM */
extern void am_pending_lock(Relation index, const AmChain *pending, Size esize,
							uint32 per_page, Buffer *tailbuf, Buffer *newbuf);
extern Page am_pending_target(GenericXLogState *state, uint16 page_id, AmChain *pending,
							  Buffer tailbuf, Buffer newbuf);
extern void am_pending_unlock(Buffer tailbuf, Buffer newbuf);

extern bool am_merge_begin(Relation index, const AmMethod *am, bool vacuum, void *meta,
						   uint32 *out_id);
extern void *am_merge_publish_begin(Relation index, GenericXLogState **state, Buffer *metabuf);
extern void am_merge_publish_end(const AmMethod *am, void *meta, GenericXLogState *state,
								 Buffer metabuf);
extern void am_merge_end(Relation index, const AmMethod *am, const void *meta, bool vacuum);

extern Buffer am_vacuum_read(Relation index, BlockNumber blk, bool exclusive,
							 BufferAccessStrategy strategy, uint16 page_id, uint32 id,
							 const char *what);
extern void am_vacuum_mark(Relation index, Buffer buf, const AmMethod *am,
						   const uint16 *dead, uint32 ndead, double *removed);
extern uint64 am_vacuum_chain(Relation index, const AmMethod *am, const AmChain *c,
							  IndexBulkDeleteCallback callback, void *cb_state,
							  BufferAccessStrategy strategy, double *removed);
extern BlockNumber am_vacuum_free(Relation index, const AmMethod *am,
								  BufferAccessStrategy strategy);

/*
 * VACUUM asks the callback about a live entry at position k: k is
 * remembered if its row is gone, counted live otherwise (without a
 * callback: counted only).
 */
static inline void
am_vacuum_ask(ItemPointer tid, uint32 k, IndexBulkDeleteCallback callback,
			  void *cb_state, uint16 *dead, uint32 *ndead, uint64 *live)
{
	if (callback && callback(tid, cb_state))
		dead[(*ndead)++] = (uint16) k;
	else
		(*live)++;
}

/*
 * am_runs.c: the per-backend cache of the runs' maps and directories.  A
 * method's entry (HamDir, PasDir) begins with an AmDir; its cache's load
 * reads the run's map and directory into a new entry (am_load_map,
 * am_load_dir), false if a page is not the run's (reused since the caller
 * read the metapage).
 */
typedef struct AmDir
{
	struct AmDir *next;
	Oid			relid;
	int64		build_stamp;
	uint32		id;				/* the run's */
	int			refcount;
	Size		nblocks;
	BlockNumber *blocks;		/* the run's map */
	void	   *extra;			/* the method's, freed with the entry */
} AmDir;

typedef struct AmDirCache
{
	/* the method's: */
	const char *name;			/* of the cache's memory context */
	Size		size;			/* of an entry */
	Size		zeroed;			/* its first bytes, zeroed before load */
	bool		(*load) (Relation index, AmDir *d, MemoryContext cxt,
						 const void *meta, const void *run);
	/* the cache's, zero at first */
	AmDir	   *dirs;
	MemoryContext cxt;
	bool		callback_registered;
} AmDirCache;

extern AmDir *am_dir_acquire(AmDirCache *cache, Relation index, const AmMethod *am,
							 const void *meta, uint32 id, uint32 nmap, const void *run);
extern void am_dir_release(AmDir *d);
extern bool am_load_map(Relation index, uint16 page_id, AmDir *d, BlockNumber head,
						Size *n);
extern bool am_load_dir(Relation index, uint16 page_id, const AmDir *d, Size first,
						uint32 *dir, Size len);

/* am_pages.c: freed pages */
extern void am_free_run(Relation index, uint16 page_id, const AmDir *d,
						BlockNumber map_head, uint32 id);
extern void am_free_chain(Relation index, uint16 page_id, const AmChain *c);

/* am_pages.c: the methods' operator classes and statistics functions */
typedef struct AmOperator
{
	int16		strategy;
	char		purpose;		/* AMOP_SEARCH or AMOP_ORDER */
} AmOperator;

extern bool am_validate(Oid opclassoid, const char *amname, const AmOperator *ops, int nops);
extern bool am_is_method(Relation index, const AmMethod *am);
extern void am_stats_meta(FunctionCallInfo fcinfo, const AmMethod *am, void *meta,
						  TupleDesc *tupdesc);

#endif							/* TEXTFP_AM_PAGES_H */
