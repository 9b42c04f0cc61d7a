/*
 * hamming_merge.c -- merges of the "hamming" index: the pending list and
 * the runs of the sorted part into a new run (policy in tfp_hamrun.h,
 * layout in hamming.h)
 *
 * A merge runs under the index's merge lock (a heavyweight lock on the
 * metapage's block number: one merge at a time, and never during VACUUM's
 * bulk delete, whose dead marks a merge would otherwise copy before they
 * are set and publish without them).  It
 *   1. seals the pending list (one metapage update: the list becomes the
 *      "merging" chain, which scans still read, and inserts start a new
 *      one) and reserves the new run's id;
 *   2. reads its inputs, the sealed chain and the runs it replaces (its
 *      delta, or every run), dropping the entries VACUUM marked dead, and
 *      writes the new run table by table: per table a k-way merge of the
 *      inputs' tables (already in bucket order) and of the sealed rows
 *      sorted by bucket, in (bucket, TID) order, into free pages of the
 *      free space map or new ones, each logged whole;
 *   3. publishes it with one metapage update (generic WAL) that drops the
 *      inputs and the sealed chain;
 *   4. gives the inputs' pages to the free space map.
 *
 * Safety of page reuse.  A page goes to the free space map only once no
 * metapage names its run or chain; a scan that copied an older metapage
 * may still read it.  Every page carries its owner's id (ids are never
 * reused within a build), and a scan checks it under the page's buffer
 * lock on every read (hamming_scan.c): a page still free holds what the
 * scan expects; a reused one has another owner, and the scan restarts
 * from the metapage.  Buffer locks are taken on a hot standby as on the
 * primary, and replay writes a page under its exclusive lock, so the check
 * holds there too, with no recovery-conflict record.  A crash before step
 * 3 leaves the new run's pages unowned by the metapage: VACUUM gives them
 * to the free space map (am_vacuum_free); after step 3 the run's pages
 * were logged before the metapage update and are replayed.  The passage
 * index merges in the same steps (passage_merge.c) with the same pages
 * (am_pages.c).
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "hamming.h"
#include "tfp_hamrun.h"

/* the pending rows that make an insert merge (AmMethod.pending_limit) */
uint64
ham_pending_limit(const void *meta)
{
	return tfp_hamrun_pending_limit(ham_sorted_rows((const HamMetaData *) meta));
}

/* a sealed non-NULL row */
typedef struct MergeItem
{
	uint64		p;
	ItemPointerData tid;
	uint32		v;				/* its bucket in the table being written */
} MergeItem;

/* the rows of one table of an input run, in order */
typedef struct RunReader
{
	Relation	index;
	HamDir	   *d;
	int			t;
	int			lane;
	uint32		e;				/* next entry */
	uint32		n;
	uint32		v;
	uint32		loaded;			/* page in "page", or PG_UINT32_MAX */
	tfp_hamdec	dec;
	/* the current row */
	bool		valid;
	uint32		cv;
	uint64		rest;
	ItemPointerData tid;
	PGAlignedBlock page;
} RunReader;

static void
reader_next(RunReader *r)
{
	const uint32 *dir = r->d->dir[r->t];

	r->valid = false;
	while (r->e < r->n)
	{
		uint32		e = r->e++;
		uint32		pg = e / HAM_ENTRIES_PER_PAGE,
					k = e % HAM_ENTRIES_PER_PAGE,
					blk,
					off;
		Page		page = (Page) r->page.data;
		const uint8 *ent;

		if (pg != r->loaded)
		{
			am_copy_owned_page(r->index, ham_read_entry_page(r->index, r->d, r->t, pg),
							   HAM_PAGE_ID, r->d->base.id, r->page.data);
			r->loaded = pg;
			CHECK_FOR_INTERRUPTS();
		}
		while (dir[r->v + 1] <= e)
			r->v++;
		if (e == dir[r->v] || k == 0)
			memset(&r->dec, 0, sizeof(r->dec));
		ent = ham_entry(ham_page_entries(page), k);
		if (!tfp_hamcode_decode(&r->dec, ent, &blk, &off) ||
			am_is_dead(am_page_deadmap(page), k))
			continue;
		r->cv = r->v;
		r->rest = tfp_hamcode_rest(ent);
		ItemPointerSet(&r->tid, blk, (OffsetNumber) off);
		r->valid = true;
		return;
	}
}

static int
cmp_item(const void *a, const void *b)
{
	const MergeItem *x = a,
			   *y = b;

	return tfp_hamrun_cmp(x->v, ItemPointerGetBlockNumberNoCheck(&x->tid),
						  ItemPointerGetOffsetNumberNoCheck(&x->tid),
						  y->v, ItemPointerGetBlockNumberNoCheck(&y->tid),
						  ItemPointerGetOffsetNumberNoCheck(&y->tid));
}

/* the live entries of a chain: non-NULL rows to *items, NULL keys to *nulls */
static void
read_chain(Relation index, const AmChain *c, MergeItem **items, Size *n, Size *cap,
		   HamPendingEntry **nulls, Size *nn, Size *ncap)
{
	BlockNumber blk = c->head;

	while (blk != InvalidBlockNumber)
	{
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		HamPendingEntry *ent;
		uint32		k,
					cnt;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		am_check_owned(index, buf, HAM_PAGE_ID, c->id, "chain");
		page = BufferGetPage(buf);
		ent = (HamPendingEntry *) PageGetContents(page);
		cnt = am_page_nentries(page, sizeof(HamPendingEntry));
		for (k = 0; k < cnt; k++)
		{
			if (ham_tid_dead(&ent[k].tid))
				continue;
			if (ent[k].isnull)
			{
				if (*nn == *ncap)
				{
					*ncap = *ncap ? *ncap * 2 : 256;
					*nulls = *nulls ? repalloc_huge(*nulls, *ncap * sizeof(HamPendingEntry)) :
						palloc(*ncap * sizeof(HamPendingEntry));
				}
				(*nulls)[(*nn)++] = ent[k];
			}
			else
			{
				if (*n == *cap)
				{
					*cap = *cap ? *cap * 2 : 1024;
					*items = *items ? repalloc_huge(*items, *cap * sizeof(MergeItem)) :
						palloc(*cap * sizeof(MergeItem));
				}
				(*items)[*n].p = ent[k].p;
				(*items)[*n].tid = ent[k].tid;
				(*n)++;
			}
		}
		blk = AmPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Table t of the new run: the k-way merge of the inputs' tables t and of
 * the sealed rows, in (bucket, TID) order; returns the rows written.
 */
static uint64
merge_table(Relation index, HamOut *o, int nt, int t, HamDir **in, int nin,
			MergeItem *items, Size n, uint32 *nentries)
{
	int			lane = ham_lane(nt, t);
	RunReader  *rd = palloc(sizeof(RunReader) * Max(nin, 1));
	Size		i,
				pos = 0;
	uint64		rows = 0;
	int			r;

	for (i = 0; i < n; i++)
		items[i].v = ham_chunk(items[i].p, lane);
	qsort(items, n, sizeof(MergeItem), cmp_item);
	for (r = 0; r < nin; r++)
	{
		memset(&rd[r], 0, offsetof(RunReader, page));
		rd[r].index = index;
		rd[r].d = in[r];
		rd[r].t = t;
		rd[r].lane = lane;
		rd[r].n = in[r]->nentries[t];
		rd[r].loaded = PG_UINT32_MAX;
		reader_next(&rd[r]);
	}
	ham_out_table_begin(o, nt, t);
	for (;;)
	{
		int			best = -1;	/* -1: the sealed rows */
		bool		have = pos < n;
		uint32		bv = have ? items[pos].v : 0;
		ItemPointerData btid;

		if (have)
			btid = items[pos].tid;
		for (r = 0; r < nin; r++)
			if (rd[r].valid &&
				(!have || tfp_hamrun_cmp(rd[r].cv, ItemPointerGetBlockNumberNoCheck(&rd[r].tid),
										 ItemPointerGetOffsetNumberNoCheck(&rd[r].tid), bv,
										 ItemPointerGetBlockNumberNoCheck(&btid),
										 ItemPointerGetOffsetNumberNoCheck(&btid)) < 0))
			{
				have = true;
				best = r;
				bv = rd[r].cv;
				btid = rd[r].tid;
			}
		if (!have)
			break;
		if (best < 0)
		{
			ham_out_row(o, bv, ham_rest(items[pos].p, lane), &btid);
			pos++;
		}
		else
		{
			ham_out_row(o, bv, rd[best].rest, &btid);
			reader_next(&rd[best]);
		}
		rows++;
	}
	*nentries = ham_out_table_end(o);
	pfree(rd);
	return rows;
}

/*
 * Merge, if the pending list calls for it: an insert's (vacuum = false: only
 * if no merge or VACUUM holds the merge lock, and only with at least
 * ham_pending_limit rows pending) or VACUUM's (any pending row; the
 * caller holds the merge lock).  Returns true if a run was written.
 */
bool
ham_merge(Relation index, bool vacuum)
{
	Buffer		metabuf;
	GenericXLogState *state;
	HamMetaData *mp,
				m;
	HamRun		run;
	uint32		out_id;
	bool		full;
	int			nin = 0,
				first_in,
				t;
	uint32		r;
	HamDir	   *in[HAM_MAX_RUNS];
	MergeItem  *items = NULL;
	HamPendingEntry *nulls = NULL;
	Size		n = 0,
				cap = 0,
				nn = 0,
				ncap = 0;
	HamOut		o;
	MemoryContext cxt,
				old;

	/* 1. seal the pending list, reserve the run's id */
	if (!am_merge_begin(index, &ham_method, vacuum, &m, &out_id))
		return false;
	cxt = AllocSetContextCreate(CurrentMemoryContext, "hamming merge", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);

	/* 2. the inputs: the delta, or every run */
	full = m.nruns == 0 ||
		tfp_hamrun_full(m.runs[0].nrows, m.nruns > 1 ? m.runs[1].nrows : 0, m.merging.n);
	first_in = full ? 0 : 1;
	for (r = first_in; r < m.nruns; r++)
	{
		in[nin] = NULL;
		if (m.runs[r].nrows > 0)
		{
			in[nin] = ham_dir_acquire(index, &m, &m.runs[r]);
			if (in[nin] == NULL)
				elog(ERROR, "run %u of index \"%s\" changed during its merge",
					 m.runs[r].id, RelationGetRelationName(index));
		}
		nin++;
		read_chain(index, &m.runs[r].nulls, &items, &n, &cap, &nulls, &nn, &ncap);
	}
	read_chain(index, &m.merging, &items, &n, &cap, &nulls, &nn, &ncap);

	memset(&run, 0, sizeof(run));
	run.id = out_id;
	ham_out_init(&o, index, out_id, true, &m);
	{
		HamDir	   *live_in[HAM_MAX_RUNS];
		int			nlive = 0;
		int			i;

		for (i = 0; i < nin; i++)
			if (in[i])
				live_in[nlive++] = in[i];
		if (n > 0 || nlive > 0)
			for (t = 0; t < (int) m.ntables; t++)
			{
				uint64		rows = merge_table(index, &o, (int) m.ntables, t, live_in, nlive,
											   items, n, &run.nentries[t]);

				if (t == 0)
					run.nrows = rows;
			}
		if (run.nrows == 0)
		{
			/* no row: no tables (the empty tables written are left unowned) */
			memset(run.nentries, 0, sizeof(run.nentries));
			o.am.nmap = 0;
		}
	}
	ham_out_chain(&o, HAM_PAGE_NULLS, nulls, nn, &run.nulls);
	ham_out_map(&o, &run);

	/* 3. publish */
	mp = am_merge_publish_begin(index, &state, &metabuf);
	if (full)
	{
		mp->runs[0] = run;
		mp->nruns = 1;
	}
	else
	{
		mp->runs[1] = run;
		mp->nruns = 2;
	}
	am_merge_publish_end(&ham_method, mp, state, metabuf);

	/* 4. the inputs' pages are free */
	for (r = first_in; r < m.nruns; r++)
	{
		ham_free_run(index, in[r - first_in], &m.runs[r]);
		ham_dir_release(in[r - first_in]);
	}
	am_merge_end(index, &ham_method, &m, vacuum);

	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return true;
}
