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
 * check the owner under the page's lock and start again when it changed;
 * the pages are written and freed by the same code (am_pages.c).
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "passage_am.h"

/* the pending entries that make an insert merge (AmMethod.pending_limit) */
uint64
pas_pending_limit(const void *meta)
{
	const PasMetaData *m = meta;

	return tfp_pasidx_pending_limit(pas_total_entries(m) - m->pending.n);
}

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
			am_copy_owned_page(r->index, pas_read_entry_page(r->index, r->d, pg),
							   PAS_PAGE_ID, r->d->base.id, r->page.data);
			r->loaded = pg;
			CHECK_FOR_INTERRUPTS();
		}
		while (r->d->dir[r->b + 1] <= e)
			r->b++;
		if (am_is_dead(am_page_deadmap(page), k))
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
read_chain(Relation index, const AmChain *c, Size *n)
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
		am_check_owned(index, buf, PAS_PAGE_ID, c->id, "chain");
		page = BufferGetPage(buf);
		ent = (PasPendingEntry *) PageGetContents(page);
		cnt = am_page_nentries(page, sizeof(PasPendingEntry));
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
		blk = AmPageGetOpaque(page)->next;
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

	/* 1. seal the pending list, reserve the run's id */
	if (!am_merge_begin(index, &pas_method, vacuum, &m, &out_id))
		return false;
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
	mp = am_merge_publish_begin(index, &state, &metabuf);
	mp->nruns -= (uint32) take;
	mp->runs[mp->nruns++] = run;
	qsort(mp->runs, mp->nruns, sizeof(PasRun), cmp_run_size);
	am_merge_publish_end(&pas_method, mp, state, metabuf);

	/* 4. the inputs' pages are free */
	for (int i = 0; i < take; i++)
	{
		pas_free_run(index, in[i], &m.runs[m.nruns - 1 - i]);
		pas_dir_release(in[i]);
	}
	am_merge_end(index, &pas_method, &m, vacuum);

	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return true;
}
