/*
 * hamming_run.c -- writing a run of the "hamming" index (the build's and a
 * merge's), and freeing one (layout in hamming.h)
 *
 * A run is written page by page: per table, its entry pages (tfp_hamwriter
 * codes the rows, which come in bucket order), then its directory pages;
 * then its NULL keys (a chain) and last its map (a chain of block numbers,
 * per table the entry pages then the directory pages).  Every page carries
 * the run's id as its owner.  The build extends the relation and logs the
 * whole range at its end; a merge takes pages from the free space map
 * first, checks under the page's exclusive lock that no structure of the
 * metapage owns it (the map is not WAL-logged and may be stale after a
 * crash), and logs each page whole (log_newpage_buffer) before the metapage
 * update that publishes the run: after a crash the run's pages are either
 * replayed before that update or belong to no run (VACUUM frees them).
 */
#include "postgres.h"

#include "access/xloginsert.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/indexfsm.h"
#include "utils/rel.h"

#include "hamming.h"

/* may a page from the free space map be taken: owned by no live structure */
static bool
page_free(const HamOut *o, Page page)
{
	const HamMetaData *m = o->live;
	HamPageOpaqueData *op;
	uint32		r;

	if (PageIsNew(page))
		return true;
	op = HamPageGetOpaque(page);
	if (op->page_id != HAM_PAGE_ID || (op->flags & HAM_PAGE_META))
		return false;
	if (op->owner == o->id || op->owner == m->pending.id || op->owner == m->merging.id)
		return false;
	for (r = 0; r < m->nruns; r++)
		if (op->owner == m->runs[r].id)
			return false;
	return true;
}

/* a page for the run, exclusively locked and initialized; recorded in the map */
static Buffer
out_page(HamOut *o, uint16 flags)
{
	Buffer		buf = InvalidBuffer;

	if (o->live)
	{
		for (;;)
		{
			BlockNumber blk = GetFreeIndexPage(o->index);

			if (blk == InvalidBlockNumber)
				break;
			if (blk == HAM_METAPAGE_BLKNO)
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
		buf = ham_new_buffer(o->index, MAIN_FORKNUM);
	ham_init_page(BufferGetPage(buf), flags);
	HamPageGetOpaque(BufferGetPage(buf))->owner = o->id;
	if (flags & (HAM_PAGE_DATA | HAM_PAGE_DIR))
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
out_done(HamOut *o, Buffer buf)
{
	START_CRIT_SECTION();
	MarkBufferDirty(buf);
	if (o->wal && RelationNeedsWAL(o->index))
		log_newpage_buffer(buf, true);
	END_CRIT_SECTION();
	UnlockReleaseBuffer(buf);
}

void
ham_out_init(HamOut *o, Relation index, uint32 id, bool wal, const HamMetaData *live)
{
	memset(o, 0, sizeof(*o));
	o->index = index;
	o->id = id;
	o->wal = wal;
	o->live = live;
	o->buf = InvalidBuffer;
	o->dir = palloc(sizeof(uint32) * HAM_DIR_LEN);
}

static void
out_flush(HamOut *o)
{
	if (BufferIsValid(o->buf))
	{
		Page		page = BufferGetPage(o->buf);

		ham_page_set_end(page, ham_page_entries(page) + (Size) o->slot * TFP_HAMCODE_ENTRY);
		out_done(o, o->buf);
		o->buf = InvalidBuffer;
	}
}

/* tfp_hamwriter's output: append an entry, a full page is closed and a new one begun */
static void
out_put(void *arg, uint64_t rest, uint32_t code, int dead)
{
	HamOut	   *o = (HamOut *) arg;
	Page		page;

	if (o->e >= PG_UINT32_MAX - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many entries for a hamming index"),
				 errdetail("A table of a hamming index holds at most 4294967294 entries.")));
	if (!BufferIsValid(o->buf) || o->slot == HAM_ENTRIES_PER_PAGE)
	{
		out_flush(o);
		o->buf = out_page(o, HAM_PAGE_DATA);
		memset(ham_page_deadmap(BufferGetPage(o->buf)), 0, HAM_DEADMAP_BYTES);
		o->slot = 0;
		CHECK_FOR_INTERRUPTS();
	}
	page = BufferGetPage(o->buf);
	tfp_hamcode_put(ham_page_entries(page) + (Size) o->slot * TFP_HAMCODE_ENTRY, rest, code);
	if (dead)
		ham_page_deadmap(page)[o->slot >> 3] |= (uint8) (1 << (o->slot & 7));
	o->slot++;
	o->e++;
}

/* table t of nt begins: rows follow in bucket order */
void
ham_out_table_begin(HamOut *o, int nt, int t)
{
	o->lane = ham_lane(nt, t);
	o->e = 0;
	o->slot = 0;
	memset(&o->hw, 0, sizeof(o->hw));
	o->hw.per_page = HAM_ENTRIES_PER_PAGE;
	o->hw.dir = o->dir;
	o->hw.put = out_put;
	o->hw.arg = o;
}

/* a row of bucket v (its chunk) with the other 48 bits "rest" */
void
ham_out_row(HamOut *o, uint32 v, uint64 rest, ItemPointer tid)
{
	tfp_hamwriter_row(&o->hw, v, rest, ItemPointerGetBlockNumberNoCheck(tid),
					  ItemPointerGetOffsetNumberNoCheck(tid));
}

/* the table's last entry page and its directory pages; returns its entries */
uint32
ham_out_table_end(HamOut *o)
{
	Size		pos;

	tfp_hamwriter_finish(&o->hw, HAM_BUCKETS);
	out_flush(o);
	Assert(o->hw.e == o->e);
	for (pos = 0; pos < HAM_DIR_LEN; pos += HAM_DIR_PER_PAGE)
	{
		Buffer		buf = out_page(o, HAM_PAGE_DIR);
		Page		page = BufferGetPage(buf);
		Size		k = Min((Size) HAM_DIR_PER_PAGE, HAM_DIR_LEN - pos);

		memcpy(PageGetContents(page), o->dir + pos, k * sizeof(uint32));
		ham_page_set_end(page, (char *) PageGetContents(page) + k * sizeof(uint32));
		out_done(o, buf);
	}
	return (uint32) o->e;
}

/* a chain of pages (flags: its kind) holding the given entries */
void
ham_out_chain(HamOut *o, uint16 flags, const HamPendingEntry *items, Size n,
			  HamChain *chain)
{
	Size		i = 0;
	Buffer		cur = InvalidBuffer;
	BlockNumber next = InvalidBlockNumber;

	chain->head = chain->tail = InvalidBlockNumber;
	chain->n = n;
	chain->id = o->id;
	/* written backwards, so that each page knows its successor */
	while (i < n)
	{
		Size		k = (n - i - 1) % HAM_PENDING_PER_PAGE + 1;		/* the last page's share */
		Size		from = n - i - k;
		Page		page;

		cur = out_page(o, flags);
		page = BufferGetPage(cur);
		memcpy(PageGetContents(page), items + from, k * sizeof(HamPendingEntry));
		ham_page_set_end(page, (char *) PageGetContents(page) + k * sizeof(HamPendingEntry));
		HamPageGetOpaque(page)->next = next;
		if (next == InvalidBlockNumber)
			chain->tail = BufferGetBlockNumber(cur);
		next = BufferGetBlockNumber(cur);
		out_done(o, cur);
		i += k;
	}
	chain->head = next;
}

/* the map of the run: the pages written so far, in a chain of map pages */
void
ham_out_map(HamOut *o, HamRun *run)
{
	Size		i = 0;
	BlockNumber next = InvalidBlockNumber;

	run->nmap = (uint32) o->nmap;
	while (i < o->nmap)
	{
		Size		k = (o->nmap - i - 1) % HAM_DIR_PER_PAGE + 1;
		Size		from = o->nmap - i - k;
		Buffer		buf = out_page(o, HAM_PAGE_MAP);
		Page		page = BufferGetPage(buf);

		memcpy(PageGetContents(page), o->map + from, k * sizeof(BlockNumber));
		ham_page_set_end(page, (char *) PageGetContents(page) + k * sizeof(BlockNumber));
		HamPageGetOpaque(page)->next = next;
		next = BufferGetBlockNumber(buf);
		out_done(o, buf);
		i += k;
	}
	run->map_head = next;
}

/* the pages of a chain to the free space map (the chain is no longer published) */
void
ham_free_chain(Relation index, const HamChain *c)
{
	BlockNumber blk = c->head;

	while (blk != InvalidBlockNumber)
	{
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		BlockNumber next = InvalidBlockNumber;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (ham_page_owned(page, c->id))
			next = HamPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
		RecordFreeIndexPage(index, blk);
		blk = next;
	}
}

/* the pages of a run (its map, directory and entry pages, NULL keys) */
void
ham_free_run(Relation index, HamDir *d, const HamRun *run)
{
	HamChain	map;
	Size		i;

	for (i = 0; i < d->nblocks; i++)
		RecordFreeIndexPage(index, d->blocks[i]);
	memset(&map, 0, sizeof(map));
	map.head = run->map_head;
	map.id = run->id;
	ham_free_chain(index, &map);
	ham_free_chain(index, &run->nulls);
}
