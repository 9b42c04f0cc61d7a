/*
 * hamming_scan.c -- scans of the "hamming" index: exact radius search and
 * exact nearest neighbours in distance order, by multi-index hashing
 *
 * A scan runs the rounds of hamming_rounds.c in every run of the index
 * (after round K every row within K bits has been met: the bound and its
 * proof are there) and keeps the rows it meets in lists by distance,
 * returning list d once round d is done.  The pending list (rows inserted
 * since the last merge) is read whole at the start, with exact distances.
 * Pages are checked to belong to the run or chain the scan's metapage copy
 * names; when one does not (a merge freed and reused it), the scan
 * restarts (see restart()).  The fingerprints are in the index, so the
 * distances are computed without the heap and returned as exact (no
 * recheck).
 */
#include "postgres.h"

#include "access/relscan.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "hamming.h"
#include "hamming_scan.h"
#include "simhash_index.h"
#include "textfp.h"
#include "tfp_core.h"

static int
cmp_tid(const void *a, const void *b)
{
	return ItemPointerCompare((ItemPointer) a, (ItemPointer) b);
}

void
ham_list_add(HamScanOpaque *so, int d, uint64 p, const ItemPointerData *tid)
{
	HamList    *l = &so->lists[d];

	/* returned before a restart */
	if (d == so->seen_e && so->nseen > 0 &&
		bsearch(tid, so->seen, so->nseen, sizeof(ItemPointerData), cmp_tid))
		return;

	if (l->n == l->cap)
	{
		uint32		cap = l->cap ? l->cap * 2 : 64;

		if ((Size) cap * sizeof(HamItem) > MaxAllocHugeSize || cap < l->cap)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("too many rows at one distance in a hamming index scan")));
		l->items = l->items ?
			repalloc_huge(l->items, (Size) cap * sizeof(HamItem)) :
			MemoryContextAllocHuge(so->cxt, (Size) cap * sizeof(HamItem));
		l->cap = cap;
	}
	l->items[l->n].p = p;
	l->items[l->n].tid = *tid;
	l->n++;
}

/*
 * Rows of a chain: exact distances for the non-NULL ones, NULL keys aside
 * (with_nulls).  A page that is not the chain's makes the scan stale.
 */
static void
read_chain(IndexScanDesc scan, const AmChain *c, bool with_nulls)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	BlockNumber blk = c->head;

	while (blk != InvalidBlockNumber && !so->stale)
	{
		Buffer		buf = ReadBuffer(scan->indexRelation, blk);
		Page		page;
		HamPendingEntry *ent;
		uint32		n,
					k;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!ham_page_owned(page, c->id))
		{
			so->stale = true;
			UnlockReleaseBuffer(buf);
			return;
		}
		ent = (HamPendingEntry *) PageGetContents(page);
		n = am_page_nentries(page, sizeof(HamPendingEntry));
		for (k = 0; k < n; k++)
		{
			if (ham_tid_dead(&ent[k].tid))
				continue;
			if (ent[k].isnull)
			{
				if (!with_nulls)
					continue;
				if (so->nnulls == so->nullcap)
				{
					so->nullcap = so->nullcap ? so->nullcap * 2 : 16;
					so->nulls = so->nulls ?
						repalloc_huge(so->nulls, (Size) so->nullcap * sizeof(ItemPointerData)) :
						MemoryContextAllocHuge(so->cxt, (Size) so->nullcap * sizeof(ItemPointerData));
				}
				so->nulls[so->nnulls++] = ent[k].tid;
			}
			else
			{
				int			d = tfp_hamming64(ent[k].p, so->q);

				if (row_kept(so, d, ent[k].p))
					ham_list_add(so, d, ent[k].p, &ent[k].tid);
			}
		}
		blk = AmPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
}

/* the pending and sealed lists, and the NULL keys once (an ORDER BY without quals) */
static void
read_pending(IndexScanDesc scan)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	bool		with_nulls = so->want_nulls && !so->nulls_read;
	uint32		r;

	read_chain(scan, &so->meta.pending, with_nulls);
	read_chain(scan, &so->meta.merging, with_nulls);
	if (with_nulls)
		for (r = 0; r < so->meta.nruns; r++)
			read_chain(scan, &so->meta.runs[r].nulls, true);
	if (with_nulls && !so->stale)
		so->nulls_read = true;
}

/*
 * The distance window of a pass.  Rows are kept in lists by distance until
 * they are returned, and most rows a round meets are far (about 24 bits) and
 * never returned by an ORDER BY ... LIMIT: a pass keeps only the rows within
 * "cap" bits.  A search with a radius bound takes cap = its radius, and one
 * pass.  An ORDER BY without one takes the distance within which about 100
 * rows of uniformly random fingerprints would lie, plus 4; should the
 * caller want rows beyond it, a second pass runs the rounds again from the
 * start for the rows at lo_cap < d <= R (lo_cap = the old cap): rows come
 * out in distance order all the same, since every row at d <= lo_cap has
 * been returned by then.
 */
static void
start_pass(IndexScanDesc scan, int lo_cap, int cap)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	uint32		r;

	so->lo_cap = lo_cap;
	so->cap = cap;
	so->K = -1;
	so->full = true;
	for (r = 0; r < so->meta.nruns; r++)
	{
		so->rfull[r] = (so->dirs[r] == NULL);
		so->full &= so->rfull[r];
	}
	read_pending(scan);
}

/* the metapage and the directories of its runs (again, until none is stale) */
static void
read_structure(IndexScanDesc scan)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	uint32		r;

	for (;;)
	{
		bool		ok = true;

		for (r = 0; r < HAM_MAX_RUNS; r++)
		{
			ham_dir_release(so->dirs[r]);
			so->dirs[r] = NULL;
		}
		ham_read_meta(scan->indexRelation, &so->meta);
		for (r = 0; r < so->meta.nruns && ok; r++)
			if (so->meta.runs[r].nrows > 0)
			{
				so->dirs[r] = ham_dir_acquire(scan->indexRelation, &so->meta, &so->meta.runs[r]);
				ok = so->dirs[r] != NULL;
			}
		if (ok)
			return;
		CHECK_FOR_INTERRUPTS();
	}
}

static void
start_scan(IndexScanDesc scan)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	int			cap = so->R;

	so->started = true;
	if (so->empty)
		return;
	read_structure(scan);
	if (so->first >= 0)
		cap = Min(so->R, ham_random_radius((double) ham_total_rows(&so->meta), 100.0) + 4);
	start_pass(scan, -1, cap);
}

/*
 * A page the scan read was no longer its run's or chain's: a merge has
 * replaced them and their pages were reused.  The scan reads the metapage
 * again and runs its pass again, for the rows at distances not returned
 * yet (d >= e): every row at d < e has been returned, and those of
 * distance e returned so far are remembered (by TID: a row keeps its TID
 * through merges) and not returned again.  A TID returned before a restart
 * and met again belongs to the same row or to a tuple inserted after the
 * scan's snapshot (VACUUM frees a TID only after removing its entries), so
 * skipping it loses nothing the snapshot sees.
 */
static void
restart(IndexScanDesc scan)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	HamList    *l = &so->lists[Min(so->e, HAM_MAXDIST)];
	uint32		i;
	int			d;

	if (so->seen_e != so->e)
		so->nseen = 0;
	so->seen_e = so->e;
	if (so->e <= HAM_MAXDIST && so->pos > 0)
	{
		if (so->nseen + so->pos > so->seencap)
		{
			so->seencap = Max(so->seencap * 2, so->nseen + so->pos);
			so->seen = so->seen ?
				repalloc_huge(so->seen, (Size) so->seencap * sizeof(ItemPointerData)) :
				MemoryContextAllocHuge(so->cxt, (Size) so->seencap * sizeof(ItemPointerData));
		}
		for (i = 0; i < so->pos; i++)
			so->seen[so->nseen++] = l->items[i].tid;
		qsort(so->seen, so->nseen, sizeof(ItemPointerData), cmp_tid);
	}
	for (d = 0; d <= HAM_MAXDIST; d++)
		so->lists[d].n = 0;
	so->pos = 0;
	so->e_sorted = false;
	so->nnulls = 0;
	so->nulls_read = false;
	so->stale = false;
	CHECK_FOR_INTERRUPTS();
	read_structure(scan);
	start_pass(scan, Max(so->lo_cap, so->e - 1), so->cap);
}

/* ---- the AM's scan entry points ---- */

IndexScanDesc
hamming_beginscan(Relation r, int nkeys, int norderbys)
{
	IndexScanDesc scan = RelationGetIndexScan(r, nkeys, norderbys);
	HamScanOpaque *so = palloc0(sizeof(HamScanOpaque));

	so->cxt = AllocSetContextCreate(CurrentMemoryContext, "hamming scan",
									ALLOCSET_DEFAULT_SIZES);
	scan->opaque = so;
	/* the AM provides the arrays of the ORDER BY values */
	if (norderbys > 0)
	{
		scan->xs_orderbyvals = palloc0(sizeof(Datum) * norderbys);
		scan->xs_orderbynulls = palloc(sizeof(bool) * norderbys);
		memset(scan->xs_orderbynulls, true, sizeof(bool) * norderbys);
	}
	return scan;
}

void
hamming_rescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
			   ScanKey orderbys, int norderbys)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	HamDir	   *dirs[HAM_MAX_RUNS];
	MemoryContext cxt = so->cxt;
	MemoryContext old;
	int			i;

	memcpy(dirs, so->dirs, sizeof(dirs));
	MemoryContextReset(cxt);
	memset(so, 0, sizeof(HamScanOpaque));
	so->cxt = cxt;
	memcpy(so->dirs, dirs, sizeof(dirs));
	so->seen_e = -1;
	so->K = -1;
	so->R = HAM_MAXDIST;
	so->first = -1;

	if (scankey && scan->numberOfKeys > 0)
		memmove(scan->keyData, scankey, scan->numberOfKeys * sizeof(ScanKeyData));
	if (orderbys && scan->numberOfOrderBys > 0)
		memmove(scan->orderByData, orderbys, scan->numberOfOrderBys * sizeof(ScanKeyData));

	old = MemoryContextSwitchTo(cxt);
	so->quals = palloc(sizeof(HamQual) * Max(scan->numberOfKeys, 1));
	for (i = 0; i < scan->numberOfKeys; i++)
	{
		ScanKey		sk = &scan->keyData[i];
		SimhashBall *b;

		if (sk->sk_flags & SK_ISNULL)
		{
			so->empty = true;
			continue;
		}
		if (sk->sk_strategy != SIMHASH_STRATEGY_IN_BALL)
			elog(ERROR, "unexpected strategy number %d in a hamming index scan",
				 sk->sk_strategy);
		b = DatumGetSimhashBallP(sk->sk_argument);
		if (b->radius < 0)
			so->empty = true;
		so->quals[so->nquals].center = ham_permute(b->center);
		so->quals[so->nquals].radius = b->radius;
		if (b->radius < so->R)
		{
			so->R = b->radius;
			so->q = so->quals[so->nquals].center;
		}
		so->nquals++;
	}
	so->want_nulls = (scan->numberOfKeys == 0);
	so->norder = scan->numberOfOrderBys;
	so->oq = palloc(sizeof(uint64) * Max(so->norder, 1));
	so->onull = palloc(sizeof(bool) * Max(so->norder, 1));
	for (i = 0; i < so->norder; i++)
	{
		ScanKey		sk = &scan->orderByData[i];

		if (sk->sk_strategy != SIMHASH_STRATEGY_DIST)
			elog(ERROR, "unexpected ordering strategy number %d in a hamming index scan",
				 sk->sk_strategy);
		so->onull[i] = (sk->sk_flags & SK_ISNULL) != 0;
		so->oq[i] = so->onull[i] ? 0 : ham_permute((uint64) DatumGetSimhash(sk->sk_argument));
		if (!so->onull[i] && so->first < 0)
			so->first = i;
	}
	/* rows come out in the order of the first ORDER BY key that is not NULL */
	if (so->first >= 0)
		so->q = so->oq[so->first];
	MemoryContextSwitchTo(old);
}

static int
cmp_secondary(const void *a, const void *b, void *arg)
{
	const HamScanOpaque *so = (const HamScanOpaque *) arg;
	const HamItem *x = (const HamItem *) a;
	const HamItem *y = (const HamItem *) b;
	int			i;

	for (i = so->first + 1; i < so->norder; i++)
	{
		int			dx,
					dy;

		if (so->onull[i])
			continue;
		dx = tfp_hamming64(x->p, so->oq[i]);
		dy = tfp_hamming64(y->p, so->oq[i]);
		if (dx != dy)
			return dx < dy ? -1 : 1;
	}
	return 0;
}

static void
set_orderby(IndexScanDesc scan, const HamItem *it)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	int			i;

	for (i = 0; i < so->norder; i++)
	{
		if (it == NULL || so->onull[i])
		{
			scan->xs_orderbyvals[i] = (Datum) 0;
			scan->xs_orderbynulls[i] = true;
		}
		else
		{
			scan->xs_orderbyvals[i] = Int32GetDatum(tfp_hamming64(it->p, so->oq[i]));
			scan->xs_orderbynulls[i] = false;
		}
	}
}

/*
 * An index-only scan: the method returns no column (no amcanreturn), but
 * the planner chooses one for a query that needs none (SELECT count(*) with
 * sequential scans off); the executor wants a tuple all the same.
 */
static void
set_itup(IndexScanDesc scan, const HamItem *it)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	MemoryContext old;
	Datum		v = it ? SimhashGetDatum(ham_unpermute(it->p)) : (Datum) 0;
	bool		isnull = (it == NULL);

	if (!scan->xs_want_itup)
		return;
	if (so->itup)
		pfree(so->itup);
	old = MemoryContextSwitchTo(so->cxt);
	so->itup = index_form_tuple(RelationGetDescr(scan->indexRelation), &v, &isnull);
	MemoryContextSwitchTo(old);
	scan->xs_itup = so->itup;
	scan->xs_itupdesc = RelationGetDescr(scan->indexRelation);
}

bool
hamming_gettuple(IndexScanDesc scan, ScanDirection dir)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;

	if (dir != ForwardScanDirection)
		elog(ERROR, "hamming index scans go forward only");
	if (!so->started)
		start_scan(scan);
	if (so->empty)
		return false;
	while (so->stale)
		restart(scan);
	scan->xs_recheck = false;
	scan->xs_recheckorderby = false;

	while (so->e <= so->R)
	{
		HamList    *l;

		if (so->e > so->cap)
		{
			start_pass(scan, so->cap, so->R);
			while (so->stale)
				restart(scan);
			continue;
		}
		if (!so->full && so->e > so->K)
		{
			ham_advance(scan);
			while (so->stale)
				restart(scan);
			continue;
		}
		l = &so->lists[so->e];
		if (so->pos < l->n)
		{
			const HamItem *it;

			if (!so->e_sorted)
			{
				if (so->first >= 0 && so->first + 1 < so->norder && l->n > 1)
					qsort_arg(l->items, l->n, sizeof(HamItem), cmp_secondary, so);
				so->e_sorted = true;
			}
			it = &l->items[so->pos++];
			scan->xs_heaptid = it->tid;
			set_orderby(scan, it);
			set_itup(scan, it);
			return true;
		}
		so->e++;
		so->pos = 0;
		so->e_sorted = false;
	}
	if (so->want_nulls && so->nullpos < so->nnulls)
	{
		scan->xs_heaptid = so->nulls[so->nullpos++];
		set_orderby(scan, NULL);
		set_itup(scan, NULL);
		return true;
	}
	return false;
}

int64
hamming_getbitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	int64		ntids = 0;
	int			d;
	uint32		i;

	if (!so->started)
		start_scan(scan);
	if (so->empty)
		return 0;
	while (so->stale)
		restart(scan);
	while (!so->full && so->K < so->R)
	{
		ham_advance(scan);
		while (so->stale)
			restart(scan);
	}
	for (d = 0; d <= so->R && d <= HAM_MAXDIST; d++)
		for (i = 0; i < so->lists[d].n; i++)
		{
			tbm_add_tuples(tbm, &so->lists[d].items[i].tid, 1, false);
			ntids++;
		}
	if (so->want_nulls)
		for (i = 0; i < so->nnulls; i++)
		{
			tbm_add_tuples(tbm, &so->nulls[i], 1, false);
			ntids++;
		}
	return ntids;
}

void
hamming_endscan(IndexScanDesc scan)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	int			r;

	for (r = 0; r < HAM_MAX_RUNS; r++)
		ham_dir_release(so->dirs[r]);
	MemoryContextDelete(so->cxt);
	pfree(so);
}
