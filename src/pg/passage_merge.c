/*
 * passage_merge.c -- merges of the "passage" index: the pending list and
 * the smallest runs into a new run (policy in tfp_pasidx.h, layout in
 * passage_am.h)
 *
 * A merge runs under the index's merge lock (a heavyweight lock on the
 * metapage's block number: one merge at a time, and never during VACUUM's
 * bulk delete, whose dead marks a merge would otherwise copy before they
 * are set and publish without them).  It
 *   1. seals the pending list (one metapage update: the list becomes the
 *      "merging" chain, which scans still read, and inserts start a new
 *      one) and reserves the new run's id;
 *   2. reads the sealed entries, sorts them, and merges them with the runs
 *      the policy picks (tfp_pasidx_merge_inputs: the smallest ones), in
 *      entry order, dropping the entries VACUUM marked dead, into free
 *      pages of the free space map or new ones, each logged whole;
 *   3. publishes the new run with one metapage update (generic WAL) that
 *      drops its inputs and the sealed chain;
 *   4. gives the inputs' pages to the free space map.
 * The safety of page reuse is the hamming method's (hamming_merge.c): every
 * page names its owner, ids are never reused within a build, and readers
 * check the owner under the page's lock and start again when it changed.
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/indexfsm.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "passage_am.h"

/* the live entries of a run, in order */
typedef struct RunReader
{
	Relation	index;
	PasDir	   *d;
	uint64		e;				/* next entry */
	uint32		b;				/* its bucket */
	uint32		loaded;			/* page in "page", or PG_UINT32_MAX */
	PasPendingEntry cur;
	bool		valid;
	PGAlignedBlock page;
} RunReader;

static void
reader_next(RunReader *r)
{
	r->valid = false;
	while (r->e < r->d->nentries)
	{
		uint64		e = r->e++;
		uint32		pg = (uint32) (e / PAS_ENTRIES_PER_PAGE),
					k = (uint32) (e % PAS_ENTRIES_PER_PAGE);
		Page		page = (Page) r->page.data;

		if (pg != r->loaded)
		{
			Buffer		buf = pas_read_entry_page(r->index, r->d, pg);

			LockBuffer(buf, BUFFER_LOCK_SHARE);
			if (!pas_page_owned(BufferGetPage(buf), r->d->id))
				ereport(ERROR,
						(errcode(ERRCODE_INDEX_CORRUPTED),
						 errmsg("index \"%s\" has a damaged run",
								RelationGetRelationName(r->index)),
						 errdetail("Block %u is not a page of run %u.",
								   BufferGetBlockNumber(buf), r->d->id)));
			memcpy(r->page.data, BufferGetPage(buf), BLCKSZ);
			UnlockReleaseBuffer(buf);
			r->loaded = pg;
			CHECK_FOR_INTERRUPTS();
		}
		while (r->d->dir[r->b + 1] <= e)
			r->b++;
		if (pas_is_dead(pas_page_deadmap(page), k))
			continue;
		memcpy(r->cur.code, pas_page_entries(page) + (Size) k * TFP_PASIDX_ENTRY,
			   TFP_PASIDX_ENTRY);
		r->cur.bucket = (uint16) r->b;
		r->cur.pad = 0;
		r->valid = true;
		return;
	}
}

/* the live entries of a chain */
static PasPendingEntry *
read_chain(Relation index, const PasChain *c, Size *n)
{
	BlockNumber blk = c->head;
	Size		cap = Max(c->n, 1);
	PasPendingEntry *items = MemoryContextAllocHuge(CurrentMemoryContext,
													cap * sizeof(PasPendingEntry));

	*n = 0;
	while (blk != InvalidBlockNumber)
	{
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		PasPendingEntry *ent;
		uint32		cnt;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!pas_page_owned(page, c->id))
			ereport(ERROR,
					(errcode(ERRCODE_INDEX_CORRUPTED),
					 errmsg("index \"%s\" has a damaged chain", RelationGetRelationName(index)),
					 errdetail("Block %u is not a page of chain %u.", blk, c->id)));
		ent = (PasPendingEntry *) PageGetContents(page);
		cnt = pas_page_nentries(page, sizeof(PasPendingEntry));
		for (uint32 k = 0; k < cnt; k++)
		{
			if (pas_pending_dead(&ent[k]))
				continue;
			if (*n == cap)
			{
				cap *= 2;
				items = repalloc_huge(items, cap * sizeof(PasPendingEntry));
			}
			items[(*n)++] = ent[k];
		}
		blk = PasPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
	return items;
}

static int
cmp_run_size(const void *a, const void *b)
{
	const PasRun *x = a,
			   *y = b;

	if (x->nentries != y->nentries)
		return x->nentries > y->nentries ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Merge, if the pending list calls for it: an insert's (vacuum = false: only
 * if no merge or VACUUM holds the merge lock, and only with the pending
 * limit reached) or VACUUM's (any pending entry; the caller holds the
 * merge lock).  Returns true if a run was written.
 */
bool
pas_merge(Relation index, bool vacuum)
{
	Buffer		metabuf;
	GenericXLogState *state;
	PasMetaData *mp,
				m;
	PasRun		run;
	uint32		out_id;
	int			take;
	uint64		sizes[TFP_PASIDX_MAX_RUNS];
	PasDir	   *in[TFP_PASIDX_MAX_RUNS];
	RunReader **rd;
	PasPendingEntry *items;
	Size		n,
				pos = 0;
	PasOut		o;
	MemoryContext cxt,
				old;

	if (!vacuum && !ConditionalLockPage(index, PAS_METAPAGE_BLKNO, ExclusiveLock))
		return false;

	/* 1. seal the pending list, reserve the run's id */
	metabuf = ReadBuffer(index, PAS_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	pas_check_meta(index, BufferGetPage(metabuf));
	mp = PasPageGetMeta(BufferGetPage(metabuf));
	if (mp->merging.head == InvalidBlockNumber &&
		(mp->pending.n == 0 ||
		 (!vacuum && mp->pending.n < tfp_pasidx_pending_limit(pas_total_entries(mp) - mp->pending.n))))
	{
		UnlockReleaseBuffer(metabuf);
		if (!vacuum)
			UnlockPage(index, PAS_METAPAGE_BLKNO, ExclusiveLock);
		return false;
	}
	state = GenericXLogStart(index);
	mp = PasPageGetMeta(GenericXLogRegisterBuffer(state, metabuf, 0));
	if (mp->merging.head == InvalidBlockNumber)
	{
		mp->merging = mp->pending;
		mp->pending.head = mp->pending.tail = InvalidBlockNumber;
		mp->pending.n = 0;
		mp->pending.id = mp->next_id++;
	}
	out_id = mp->next_id++;
	memcpy(&m, mp, sizeof(m));
	GenericXLogFinish(state);
	UnlockReleaseBuffer(metabuf);

	cxt = AllocSetContextCreate(CurrentMemoryContext, "passage merge", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);

	/* 2. the inputs: the sealed entries and the smallest runs */
	for (uint32 r = 0; r < m.nruns; r++)
		sizes[r] = m.runs[r].nentries;
	take = tfp_pasidx_merge_inputs(sizes, (int) m.nruns, m.merging.n);
	rd = palloc(sizeof(RunReader *) * Max(take, 1));
	for (int i = 0; i < take; i++)
	{
		const PasRun *src = &m.runs[m.nruns - 1 - i];

		in[i] = pas_dir_acquire(index, &m, src);
		if (in[i] == NULL)
			elog(ERROR, "run %u of index \"%s\" changed during its merge",
				 src->id, RelationGetRelationName(index));
		rd[i] = palloc(sizeof(RunReader));
		memset(rd[i], 0, offsetof(RunReader, page));
		rd[i]->index = index;
		rd[i]->d = in[i];
		rd[i]->loaded = PG_UINT32_MAX;
		reader_next(rd[i]);
	}
	items = read_chain(index, &m.merging, &n);
	{
		PasPendingEntry *tmp = MemoryContextAllocHuge(cxt, Max(n, 1) * sizeof(PasPendingEntry));

		pas_items_sort(items, tmp, n);
		pfree(tmp);
	}

	pas_out_init(&o, index, out_id, true, &m);
	for (;;)
	{
		const PasPendingEntry *best = pos < n ? &items[pos] : NULL;
		int			from = -1;	/* -1: the sealed entries */
		tfp_pasent	e;

		for (int i = 0; i < take; i++)
			if (rd[i]->valid && (best == NULL || pas_item_cmp(&rd[i]->cur, best) < 0))
			{
				best = &rd[i]->cur;
				from = i;
			}
		if (best == NULL)
			break;
		pas_item_entry(best, &e);
		pas_out_entry(&o, &e, false);
		if (from < 0)
			pos++;
		else
			reader_next(rd[from]);
	}
	memset(&run, 0, sizeof(run));
	pas_out_finish(&o, &run);

	/* 3. publish */
	metabuf = ReadBuffer(index, PAS_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(index);
	mp = PasPageGetMeta(GenericXLogRegisterBuffer(state, metabuf, 0));
	mp->nruns -= (uint32) take;
	mp->runs[mp->nruns++] = run;
	qsort(mp->runs, mp->nruns, sizeof(PasRun), cmp_run_size);
	mp->merging.head = mp->merging.tail = InvalidBlockNumber;
	mp->merging.n = 0;
	mp->merging.id = 0;
	mp->merges++;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(metabuf);

	/* 4. the inputs' pages are free */
	for (int i = 0; i < take; i++)
	{
		pas_free_run(index, in[i], &m.runs[m.nruns - 1 - i]);
		pas_dir_release(in[i]);
	}
	pas_free_chain(index, &m.merging);
	IndexFreeSpaceMapVacuum(index);

	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	if (!vacuum)
		UnlockPage(index, PAS_METAPAGE_BLKNO, ExclusiveLock);
	return true;
}

/*
 * VACUUM's sweep: every page that no structure of the metapage owns goes
 * to the free space map (pages of runs whose merge crashed, and pages
 * whose record in the map a crash lost).  The caller holds the merge lock.
 * New (all-zero) pages are left alone: an insert may have just extended
 * the index with one.
 */
BlockNumber
pas_vacuum_free(Relation index, BufferAccessStrategy strategy)
{
	PasMetaData m;
	BlockNumber nblocks = RelationGetNumberOfBlocks(index),
				nfree = 0;

	pas_read_meta(index, &m);
	for (BlockNumber blk = PAS_METAPAGE_BLKNO + 1; blk < nblocks; blk++)
	{
		Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, blk, RBM_NORMAL, strategy);
		Page		page;
		bool		free = false;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!PageIsNew(page))
		{
			PasPageOpaqueData *op = PasPageGetOpaque(page);

			free = op->page_id == PAS_PAGE_ID && !(op->flags & PAS_PAGE_META) &&
				op->owner != m.pending.id && op->owner != m.merging.id;
			for (uint32 r = 0; free && r < m.nruns; r++)
				free = op->owner != m.runs[r].id;
		}
		UnlockReleaseBuffer(buf);
		if (free)
		{
			RecordFreeIndexPage(index, blk);
			nfree++;
		}
		vacuum_delay_point();
	}
	IndexFreeSpaceMapVacuum(index);
	return nfree;
}
