/*
 * passage_scan.c -- look-ups in the "passage" index: the entries matching
 * a set of query seeds (pas_lookup, which the source query uses directly),
 * and the bitmap scan of "col %& passage_query(q, m)" built on it
 *
 * A look-up reads a copy of the metapage and, for every run, finds each
 * query key by a binary search in its bucket (directory: passage_run.c);
 * then it reads the pending and sealed lists whole.  Pass 1 counts the
 * entries of every key (its document frequency, df, dead entries of the
 * runs included); pass 2 reads the entries of the keys not over max_docs
 * and keeps those with an equal context byte (tfp_pseed_match's rule: the
 * guarantee of tfp_passage.h says a shared run of t units has one).  A page
 * whose owner is not the one the metapage copy names (a merge freed and
 * reused it) makes the look-up start again from a fresh copy.
 */
#include "postgres.h"

#include "access/relscan.h"
#include "access/htup_details.h"
#include "miscadmin.h"
#include "nodes/tidbitmap.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "passage_am.h"

/* a query key and the query seeds that have it */
typedef struct QKey
{
	uint64		key;
	uint32		first,			/* seeds order[first .. first + n) */
				n;
} QKey;

/* where a key's entries are in a run */
typedef struct Range
{
	uint64		lo,
				hi;
} Range;

typedef struct Reader
{
	Relation	index;
	PasDir	   *d;
	Buffer		buf;			/* locked, or invalid */
	uint32		pg;
	bool		stale;
} Reader;

static const uint8 *
reader_page(Reader *r, uint64 e, const uint8 **deadmap)
{
	uint32		pg = (uint32) (e / PAS_ENTRIES_PER_PAGE);
	Page		page;

	if (!BufferIsValid(r->buf) || pg != r->pg)
	{
		if (BufferIsValid(r->buf))
			UnlockReleaseBuffer(r->buf);
		r->buf = pas_read_entry_page(r->index, r->d, pg);
		LockBuffer(r->buf, BUFFER_LOCK_SHARE);
		r->pg = pg;
		if (!pas_page_owned(BufferGetPage(r->buf), r->d->base.id))
			r->stale = true;
	}
	page = BufferGetPage(r->buf);
	if (deadmap)
		*deadmap = am_page_deadmap(page);
	return pas_page_entries(page) + (Size) (e % PAS_ENTRIES_PER_PAGE) * TFP_PASIDX_ENTRY;
}

static void
reader_done(Reader *r)
{
	if (BufferIsValid(r->buf))
		UnlockReleaseBuffer(r->buf);
	r->buf = InvalidBuffer;
}

/* the first entry of [lo, hi) whose residual is >= res (or > res: upper) */
static uint64
search(Reader *r, uint64 lo, uint64 hi, uint32 res, bool upper)
{
	while (lo < hi && !r->stale)
	{
		uint64		mid = lo + (hi - lo) / 2;
		uint32		x = tfp_pasidx_get_residual(reader_page(r, mid, NULL));

		if (x < res || (upper && x == res))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
add_hit(PasLookup *out, const ItemPointerData *tid, uint32 qi, uint32 unit)
{
	if (out->nhits == out->caphits)
	{
		out->caphits = out->caphits ? out->caphits * 2 : 1024;
		out->hits = out->hits ? repalloc_huge(out->hits, out->caphits * sizeof(PasHit)) :
			MemoryContextAllocHuge(CurrentMemoryContext, out->caphits * sizeof(PasHit));
	}
	out->hits[out->nhits].tid = *tid;
	out->hits[out->nhits].qi = qi;
	out->hits[out->nhits].unit = unit;
	out->nhits++;
}

/* the query seeds of key k matching an entry: hits */
static void
match_entry(PasLookup *out, const tfp_pseed *q, const uint32 *order, const QKey *k,
			const tfp_pasent *e)
{
	ItemPointerData tid;

	ItemPointerSet(&tid, e->blk, e->off);
	for (uint32 j = k->first; j < k->first + k->n; j++)
	{
		const tfp_pseed *s = &q[order[j]];

		if (s->left == e->left || s->right == e->right)
			add_hit(out, &tid, order[j], e->unit);
	}
}

static const uint64 *sort_keys;

static int
cmp_order(const void *a, const void *b)
{
	uint64		x = sort_keys[*(const uint32 *) a],
				y = sort_keys[*(const uint32 *) b];

	if (x != y)
		return x < y ? -1 : 1;
	return *(const uint32 *) a < *(const uint32 *) b ? -1 : 1;
}

static int
cmp_qkey(const void *a, const void *b)
{
	uint64		x = ((const QKey *) a)->key,
				y = ((const QKey *) b)->key;

	return x < y ? -1 : x > y;
}

/* the pending or sealed list: pass 1 counts, pass 2 matches; false if stale */
static bool
scan_chain(Relation index, const AmChain *c, const tfp_pseed *q, const uint32 *order,
		   const QKey *keys, uint32 nkeys, uint32 *kdf, const bool *skip, PasLookup *out,
		   bool pass2)
{
	BlockNumber blk = c->head;

	while (blk != InvalidBlockNumber)
	{
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		PasPendingEntry *ent;
		uint32		cnt;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!pas_page_owned(page, c->id))
		{
			UnlockReleaseBuffer(buf);
			return false;
		}
		ent = (PasPendingEntry *) PageGetContents(page);
		cnt = am_page_nentries(page, sizeof(PasPendingEntry));
		for (uint32 k = 0; k < cnt; k++)
		{
			tfp_pasent	e;
			QKey		probe,
					   *hit;

			if (pas_pending_dead(&ent[k]))
				continue;
			pas_item_entry(&ent[k], &e);
			probe.key = e.key;
			hit = bsearch(&probe, keys, nkeys, sizeof(QKey), cmp_qkey);
			if (hit == NULL)
				continue;
			if (!pass2)
				kdf[hit - keys]++;
			else if (!skip[hit - keys])
				match_entry(out, q, order, hit, &e);
		}
		blk = AmPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
	return true;
}

/* one attempt; false if a page was reused meanwhile */
static bool
lookup_once(Relation index, const tfp_pseed *q, size_t nq, uint32 max_docs,
			const uint32 *gdf, bool df_only,
			const uint32 *order, const QKey *keys, uint32 nkeys, PasLookup *out)
{
	PasMetaData meta;
	PasDir	   *d[TFP_PASIDX_MAX_RUNS];
	Range	   *ranges;
	uint32	   *kdf = palloc0(sizeof(uint32) * Max(nkeys, 1));
	bool	   *skip = palloc0(sizeof(bool) * Max(nkeys, 1));
	bool		ok = true;
	uint32		nr;

	out->nhits = 0;
	pas_read_meta(index, &meta);
	nr = meta.nruns;
	ranges = palloc(sizeof(Range) * Max((Size) nkeys * nr, 1));
	for (uint32 r = 0; r < nr; r++)
		d[r] = NULL;
	/* pass 1: where each key's entries are, and how many */
	for (uint32 r = 0; r < nr && ok; r++)
	{
		Reader		rd = {index, NULL, InvalidBuffer, 0, false};

		d[r] = pas_dir_acquire(index, &meta, &meta.runs[r]);
		if (d[r] == NULL)
		{
			ok = false;
			break;
		}
		rd.d = d[r];
		for (uint32 i = 0; i < nkeys && !rd.stale; i++)
		{
			uint32		b = tfp_pasidx_bucket(keys[i].key),
						res = tfp_pasidx_residual(keys[i].key);
			Range	   *g = &ranges[(Size) r * nkeys + i];

			g->lo = search(&rd, d[r]->dir[b], d[r]->dir[b + 1], res, false);
			g->hi = search(&rd, g->lo, d[r]->dir[b + 1], res, true);
			kdf[i] += (uint32) Min(g->hi - g->lo, (uint64) PG_UINT32_MAX / 2);
		}
		ok = !rd.stale;
		reader_done(&rd);
	}
	if (ok)
		ok = scan_chain(index, &meta.merging, q, order, keys, nkeys, kdf, skip, out, false) &&
			scan_chain(index, &meta.pending, q, order, keys, nkeys, kdf, skip, out, false);
	if (ok)
		for (uint32 i = 0; i < nkeys; i++)
		{
			/* the corpus's df when given (the seeds of a key share it) */
			uint32		df = gdf ? gdf[order[keys[i].first]] : kdf[i];

			skip[i] = df_only || (max_docs > 0 && df > max_docs);
			for (uint32 j = keys[i].first; j < keys[i].first + keys[i].n; j++)
			{
				out->df[order[j]] = df_only ? kdf[i] : df;
				out->common[order[j]] = max_docs > 0 && df > max_docs;
			}
		}
	/* pass 2: the entries of the keys kept */
	for (uint32 r = 0; r < nr && ok && !df_only; r++)
	{
		Reader		rd = {index, d[r], InvalidBuffer, 0, false};

		for (uint32 i = 0; i < nkeys && !rd.stale; i++)
		{
			Range	   *g = &ranges[(Size) r * nkeys + i];

			if (skip[i])
				continue;
			for (uint64 e = g->lo; e < g->hi && !rd.stale; e++)
			{
				const uint8 *deadmap;
				const uint8 *code = reader_page(&rd, e, &deadmap);
				tfp_pasent	x;

				if (rd.stale || am_is_dead(deadmap, (uint32) (e % PAS_ENTRIES_PER_PAGE)))
					continue;
				tfp_pasidx_get(code, tfp_pasidx_bucket(keys[i].key), &x);
				match_entry(out, q, order, &keys[i], &x);
			}
			CHECK_FOR_INTERRUPTS();
		}
		ok = !rd.stale;
		reader_done(&rd);
	}
	if (ok && !df_only)
		ok = scan_chain(index, &meta.merging, q, order, keys, nkeys, kdf, skip, out, true) &&
			scan_chain(index, &meta.pending, q, order, keys, nkeys, kdf, skip, out, true);
	for (uint32 r = 0; r < nr; r++)
		pas_dir_release(d[r]);
	pfree(ranges);
	pfree(kdf);
	pfree(skip);
	return ok;
}

void
pas_lookup(Relation index, const tfp_pseed *q, size_t nq, uint32 max_docs,
		   const uint32 *gdf, bool df_only, PasLookup *out)
{
	uint64	   *k = palloc(sizeof(uint64) * Max(nq, 1));
	uint32	   *order = palloc(sizeof(uint32) * Max(nq, 1));
	QKey	   *keys = palloc(sizeof(QKey) * Max(nq, 1));
	uint32		nkeys = 0;

	memset(out, 0, sizeof(*out));
	out->df = palloc0(sizeof(uint32) * Max(nq, 1));
	out->common = palloc0(sizeof(bool) * Max(nq, 1));
	for (size_t i = 0; i < nq; i++)
	{
		k[i] = tfp_pasidx_key(q[i].hash);
		order[i] = (uint32) i;
	}
	sort_keys = k;
	qsort(order, nq, sizeof(uint32), cmp_order);
	for (size_t j = 0; j < nq; j++)
	{
		if (nkeys == 0 || keys[nkeys - 1].key != k[order[j]])
		{
			keys[nkeys].key = k[order[j]];
			keys[nkeys].first = (uint32) j;
			keys[nkeys].n = 0;
			nkeys++;
		}
		keys[nkeys - 1].n++;
	}
	while (!lookup_once(index, q, nq, max_docs, gdf, df_only, order, keys, nkeys, out))
	{
		out->restarts++;
		CHECK_FOR_INTERRUPTS();
	}
	pfree(k);
	pfree(order);
	pfree(keys);
}

/* ---- the bitmap scan of %& ---- */

typedef struct PasScanOpaque
{
	MemoryContext cxt;			/* the query, until the next rescan */
	MemoryContext tmpcxt;		/* a look-up */
	tfp_pseed  *q;
	size_t		nq;
	int32		min_shared;
	bool		empty;			/* nothing can match */
} PasScanOpaque;

IndexScanDesc
passage_beginscan(Relation r, int nkeys, int norderbys)
{
	IndexScanDesc scan = RelationGetIndexScan(r, nkeys, norderbys);
	PasScanOpaque *so = palloc0(sizeof(PasScanOpaque));

	so->cxt = AllocSetContextCreate(CurrentMemoryContext, "passage scan", ALLOCSET_DEFAULT_SIZES);
	so->tmpcxt = AllocSetContextCreate(CurrentMemoryContext, "passage scan look-up",
									   ALLOCSET_DEFAULT_SIZES);
	scan->opaque = so;
	return scan;
}

void
passage_rescan(IndexScanDesc scan, ScanKey keys, int nkeys, ScanKey orderbys, int norderbys)
{
	PasScanOpaque *so = (PasScanOpaque *) scan->opaque;
	MemoryContext old;
	PasMetaData meta;
	tfp_passage_opts oi,
				oq;
	PassageFp  *fp;

	if (keys && scan->numberOfKeys > 0)
		memmove(scan->keyData, keys, scan->numberOfKeys * sizeof(ScanKeyData));
	MemoryContextReset(so->cxt);
	so->q = NULL;
	so->nq = 0;
	so->empty = true;
	if (scan->numberOfKeys < 1 || (scan->keyData[0].sk_flags & SK_ISNULL))
		return;
	old = MemoryContextSwitchTo(so->cxt);
	fp = passage_query_fp(DatumGetHeapTupleHeader(scan->keyData[0].sk_argument), &so->min_shared);
	if (fp != NULL)
	{
		pas_read_meta(scan->indexRelation, &meta);
		oi = pas_meta_opts(&meta);
		oq = passage_fp_opts(fp);
		if (oi.k != oq.k || oi.w != oq.w || oi.reading != oq.reading)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("a passage_query of k=%d w=%d reading=%d cannot search index \"%s\" of k=%d w=%d reading=%d",
							oq.k, oq.w, oq.reading, RelationGetRelationName(scan->indexRelation),
							oi.k, oi.w, oi.reading),
					 errdetail("The query's fingerprint must be made with the index's options."),
					 errhint("Use passage_query(q, m, %d, %d, %s).", oi.k, oi.w,
							 oi.reading ? "true" : "false")));
		so->q = passage_fp_seeds_of(fp);
		so->nq = fp->n;
		so->empty = so->nq < (size_t) so->min_shared;
	}
	MemoryContextSwitchTo(old);
}

static int
cmp_hit(const void *a, const void *b)
{
	const PasHit *x = a,
			   *y = b;
	int			c = ItemPointerCompare((ItemPointer) &x->tid, (ItemPointer) &y->tid);

	if (c != 0)
		return c;
	return x->qi < y->qi ? -1 : x->qi > y->qi;
}

/*
 * The rows with at least min_shared query seeds matched, to be rechecked
 * (keys are 34 bits of the hashes): the index misses no row the operator
 * accepts, since a matching seed has an equal key and context byte.
 */
int64
passage_getbitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	PasScanOpaque *so = (PasScanOpaque *) scan->opaque;
	MemoryContext old;
	PasLookup	L;
	int64		ntids = 0;

	if (so->empty)
		return 0;
	old = MemoryContextSwitchTo(so->tmpcxt);
	pas_lookup(scan->indexRelation, so->q, so->nq, 0, NULL, false, &L);
	qsort(L.hits, L.nhits, sizeof(PasHit), cmp_hit);
	for (Size i = 0; i < L.nhits;)
	{
		Size		j = i;
		int32		distinct = 0;

		for (; j < L.nhits && ItemPointerEquals(&L.hits[j].tid, &L.hits[i].tid); j++)
			if (j == i || L.hits[j].qi != L.hits[j - 1].qi)
				distinct++;
		if (distinct >= so->min_shared)
		{
			tbm_add_tuples(tbm, &L.hits[i].tid, 1, true);
			ntids++;
		}
		i = j;
	}
	MemoryContextSwitchTo(old);
	MemoryContextReset(so->tmpcxt);
	return ntids;
}

void
passage_endscan(IndexScanDesc scan)
{
	PasScanOpaque *so = (PasScanOpaque *) scan->opaque;

	MemoryContextDelete(so->tmpcxt);
	MemoryContextDelete(so->cxt);
	pfree(so);
}
