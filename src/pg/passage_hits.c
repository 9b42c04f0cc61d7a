/*
 * passage_hits.c -- the query side of textfp_sources(): its units and
 * seeds, the hits of its seeds in a table (through its passage index, or
 * by fingerprinting every row: the reference the index must equal), and
 * the candidates they make, best first (layout of the state in
 * passage_sources.h, the evidence in src/core/tfp_sources.h).
 *
 * Both ways give the same hits: a hit is a row seed whose 34-bit key equals
 * a query seed's (tfp_pasidx.h) with an equal context byte, units past
 * TFP_PASIDX_UNIT_MAX unknown, and a query seed whose key has more than
 * max_docs entries in the corpus (df: rows' seeds of that key, alive or
 * not in the index, summed over the tables of the corpus, or given: the
 * shards of a Citus table) is too common to look up.  The index skips
 * such seeds once their df is known: over several indexes, after a first
 * pass that only counts (src_df_index); the scan drops their hits at the
 * end (src_hits_finish).
 */
#include "postgres.h"

#include "access/tableam.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "passage_am.h"
#include "passage_sources.h"
#include "textfp.h"
#include "tfp_boiler.h"

/* ---- the query ---- */

typedef struct UnitBuf
{
	SrcQuery   *q;
	size_t		cap;
} UnitBuf;

static void
unit_sink(void *arg, const tfp_punit *u, size_t n)
{
	UnitBuf    *b = (UnitBuf *) arg;
	SrcQuery   *q = b->q;

	if (q->nunits + n > TFP_ALIGN_MAX_UNITS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("query text too long for textfp_sources"),
				 errdetail("The query may have at most %u units (Han characters and words), as a text textfp_align reads.",
						   (unsigned) TFP_ALIGN_MAX_UNITS)));
	if (q->nunits + n > b->cap)
	{
		b->cap = Max(b->cap * 2, q->nunits + n);
		q->keys = repalloc_huge(q->keys, b->cap * sizeof(uint64));
		q->lens = repalloc_huge(q->lens, b->cap);
		q->starts = repalloc_huge(q->starts, b->cap * sizeof(uint32));
		q->ends = repalloc_huge(q->ends, b->cap * sizeof(uint32));
	}
	for (size_t i = 0; i < n; i++)
	{
		q->keys[q->nunits] = u[i].key;
		q->lens[q->nunits] = u[i].han ? 1 : 2;
		q->starts[q->nunits] = u[i].start;
		q->ends[q->nunits] = u[i].end;
		q->nunits++;
	}
}

typedef struct LineMask
{
	const tfp_termset *set;
	uint32	   *lines;			/* (start, next) pairs of boilerplate lines */
	size_t		n,
				cap;
} LineMask;

static void
line_sink(void *arg, size_t start, size_t end, size_t next, int has_hash, uint64_t hash)
{
	LineMask   *m = (LineMask *) arg;

	if (!has_hash || !tfp_termset_contains(m->set, hash))
		return;
	if (m->n == m->cap)
	{
		m->cap = m->cap ? m->cap * 2 : 16;
		m->lines = m->lines ? repalloc(m->lines, m->cap * 2 * sizeof(uint32)) :
			palloc(m->cap * 2 * sizeof(uint32));
	}
	m->lines[2 * m->n] = (uint32) start;
	m->lines[2 * m->n + 1] = (uint32) next;
	m->n++;
}

void
src_query_prepare(SrcQuery *q, text *query, const tfp_passage_opts *o,
				  const tfp_termset *boilerplate)
{
	UnitBuf		b;
	uint8	   *mask = NULL;
	size_t		kept = 0;

	memset(q, 0, sizeof(*q));
	q->o = *o;
	textfp_align_text(query, &q->text);
	b.q = q;
	b.cap = 256;
	q->keys = palloc(b.cap * sizeof(uint64));
	q->lens = palloc(b.cap);
	q->starts = palloc(b.cap * sizeof(uint32));
	q->ends = palloc(b.cap * sizeof(uint32));
	tfp_passage_units(q->text.utf8, q->text.len, o->reading, unit_sink, &b,
					  textfp_interrupt_tick);
	q->seeds = palloc_extended(Max(q->nunits, 1) * sizeof(tfp_pseed), MCXT_ALLOC_HUGE);
	q->nseeds = tfp_passage_winnow_len(q->keys, q->lens, q->nunits, o, q->seeds);
	if (boilerplate != NULL && q->nunits > 0)
	{
		LineMask	m = {boilerplate, NULL, 0, 0};

		tfp_boiler_lines(q->text.utf8, q->text.len, line_sink, &m, textfp_interrupt_tick);
		if (m.n > 0)
		{
			mask = palloc(q->nunits);
			tfp_src_mask_units(q->starts, q->nunits, m.lines, m.n, mask);
		}
	}
	/* a seed whose k-gram touches a boilerplate line is not looked up */
	for (size_t i = 0; i < q->nseeds; i++)
	{
		bool		drop = false;

		if (mask)
			for (int j = 0; j < o->k && !drop; j++)
				drop = mask[q->seeds[i].unit + j] != 0;
		if (drop)
			q->masked++;
		else
			q->seeds[kept++] = q->seeds[i];
	}
	q->nseeds = kept;
	q->seed_units = palloc(Max(kept, 1) * sizeof(uint32));
	for (size_t i = 0; i < kept; i++)
		q->seed_units[i] = q->seeds[i].unit;
	q->df = palloc0(Max(kept, 1) * sizeof(uint32));
	q->common = palloc0(Max(kept, 1));
}

/* ---- hits ---- */

static void
hit_add(SrcHits *h, int leaf, const ItemPointerData *tid, uint32 qi, uint32 qunit, uint32 dunit)
{
	if (h->n == h->cap)
	{
		h->cap = h->cap ? h->cap * 2 : 1024;
		h->leaf = h->leaf ? repalloc_huge(h->leaf, h->cap * sizeof(int)) :
			palloc(h->cap * sizeof(int));
		h->tid = h->tid ? repalloc_huge(h->tid, h->cap * sizeof(ItemPointerData)) :
			palloc(h->cap * sizeof(ItemPointerData));
		h->hit = h->hit ? repalloc_huge(h->hit, h->cap * sizeof(tfp_src_hit)) :
			palloc(h->cap * sizeof(tfp_src_hit));
	}
	h->leaf[h->n] = leaf;
	h->tid[h->n] = *tid;
	h->hit[h->n].qi = qi;
	h->hit[h->n].q = qunit;
	h->hit[h->n].d = dunit;
	h->n++;
}

void
src_hits_index(SrcHits *h, int leaf, SrcLeaf *l, SrcQuery *q, uint32 max_docs)
{
	PasLookup	L;

	pas_lookup(l->index, q->seeds, q->nseeds, max_docs, q->global_df ? q->df : NULL, false, &L);
	if (!q->global_df)
		for (size_t i = 0; i < q->nseeds; i++)
			q->df[i] += L.df[i];
	for (Size i = 0; i < L.nhits; i++)
		hit_add(h, leaf, &L.hits[i].tid, L.hits[i].qi, q->seed_units[L.hits[i].qi],
				L.hits[i].unit);
}

void
src_df_index(SrcLeaf *l, SrcQuery *q)
{
	PasLookup	L;

	pas_lookup(l->index, q->seeds, q->nseeds, 0, NULL, true, &L);
	for (size_t i = 0; i < q->nseeds; i++)
		q->df[i] += L.df[i];
}

void
src_set_df(SrcQuery *q, const uint32 *df, uint32 max_docs)
{
	if (df != NULL)
		memcpy(q->df, df, sizeof(uint32) * q->nseeds);
	for (size_t i = 0; i < q->nseeds; i++)
		q->common[i] = max_docs > 0 && q->df[i] > max_docs;
	q->global_df = true;
}

void
src_hits_finish(SrcHits *h, SrcQuery *q, uint32 max_docs)
{
	Size		kept = 0;

	if (!q->global_df)
		src_set_df(q, NULL, max_docs);
	/* the hits of seeds too common in the corpus go (the index skips them) */
	for (Size i = 0; i < h->n; i++)
		if (!q->common[h->hit[i].qi])
		{
			h->leaf[kept] = h->leaf[i];
			h->tid[kept] = h->tid[i];
			h->hit[kept] = h->hit[i];
			kept++;
		}
	h->n = kept;
}

/* query seeds by key, for the scan */
typedef struct KeyIdx
{
	uint64		key;
	uint32		qi;
} KeyIdx;

static int
cmp_keyidx(const void *a, const void *b)
{
	const KeyIdx *x = a,
			   *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->qi < y->qi ? -1 : x->qi > y->qi;
}

void
src_hits_scan(SrcHits *h, int leaf, SrcLeaf *l, SrcQuery *q)
{
	KeyIdx	   *ki = palloc(Max(q->nseeds, 1) * sizeof(KeyIdx));
	uint32	   *df = palloc0(Max(q->nseeds, 1) * sizeof(uint32));
	TupleTableSlot *slot = table_slot_create(l->rel, NULL);
	TableScanDesc scan;
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "textfp_sources row",
												 ALLOCSET_DEFAULT_SIZES);

	for (size_t i = 0; i < q->nseeds; i++)
	{
		ki[i].key = tfp_pasidx_key(q->seeds[i].hash);
		ki[i].qi = (uint32) i;
	}
	qsort(ki, q->nseeds, sizeof(KeyIdx), cmp_keyidx);
	scan = table_beginscan(l->rel, GetActiveSnapshot(), 0, NULL);
	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		bool		isnull;
		Datum		v = slot_getattr(slot, l->textatt, &isnull);
		MemoryContext old;
		tfp_pseed  *s;
		size_t		n;

		CHECK_FOR_INTERRUPTS();
		if (isnull)
			continue;
		old = MemoryContextSwitchTo(rowcxt);
		s = passage_text_seeds(DatumGetTextPP(v), &q->o, &n, NULL);
		MemoryContextSwitchTo(old);
		for (size_t j = 0; j < n; j++)
		{
			KeyIdx		probe = {tfp_pasidx_key(s[j].hash), 0};
			size_t		lo = 0,
						hi = q->nseeds;

			while (lo < hi)
			{
				size_t		mid = lo + (hi - lo) / 2;

				if (cmp_keyidx(&ki[mid], &probe) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (; lo < q->nseeds && ki[lo].key == probe.key; lo++)
			{
				const tfp_pseed *qs = &q->seeds[ki[lo].qi];

				df[ki[lo].qi]++;
				if (qs->left == s[j].left || qs->right == s[j].right)
					hit_add(h, leaf, &slot->tts_tid, ki[lo].qi, qs->unit,
							tfp_pasidx_unit(s[j].unit));
			}
		}
		MemoryContextReset(rowcxt);
	}
	table_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	MemoryContextDelete(rowcxt);
	if (!q->global_df)
		for (size_t i = 0; i < q->nseeds; i++)
			q->df[i] += df[i];
	pfree(ki);
	pfree(df);
}

/* ---- candidates ---- */

static SrcHits *sort_hits;
static uint32 sort_ticks;

/*
 * The order of the hits by row.  A query of tens of kilobytes against many
 * rows that share it has millions of hits, whose sort takes a second of CPU:
 * the comparison checks for interrupts every 2^20 calls (pg_qsort sorts in
 * place, so leaving it by an error leaks nothing).
 */
static int
cmp_hit_row(const void *a, const void *b)
{
	Size		x = *(const Size *) a,
				y = *(const Size *) b;
	int			c;

	if ((++sort_ticks & ((1u << 20) - 1)) == 0)
		CHECK_FOR_INTERRUPTS();

	if (sort_hits->leaf[x] != sort_hits->leaf[y])
		return sort_hits->leaf[x] < sort_hits->leaf[y] ? -1 : 1;
	c = ItemPointerCompare(&sort_hits->tid[x], &sort_hits->tid[y]);
	if (c != 0)
		return c;
	return x < y ? -1 : x > y;
}

static int
cmp_cand(const void *a, const void *b)
{
	const SrcCand *x = a,
			   *y = b;
	int			c = tfp_src_evidence_cmp(&x->ev, &y->ev);

	if (c != 0)
		return c;
	if (x->leaf != y->leaf)
		return x->leaf < y->leaf ? -1 : 1;
	return ItemPointerCompare((ItemPointer) &x->tid, (ItemPointer) &y->tid);
}

void
src_candidates(SrcHits *h, const SrcQuery *q)
{
	Size	   *ord = palloc(Max(h->n, 1) * sizeof(Size));
	tfp_src_hit *hits = palloc(Max(h->n, 1) * sizeof(tfp_src_hit));
	Size		ncand = 0;
	uint32		gap = (uint32) (2 * (q->o.w + q->o.k) + TFP_ALIGN_DEFAULT_MAX_GAP),
				band = TFP_ALIGN_DEFAULT_MAX_GAP;

	for (Size i = 0; i < h->n; i++)
		ord[i] = i;
	sort_hits = h;
	sort_ticks = 0;
	qsort(ord, h->n, sizeof(Size), cmp_hit_row);
	h->cands = palloc(Max(h->n, 1) * sizeof(SrcCand));
	for (Size i = 0; i < h->n;)
	{
		Size		j = i;
		SrcCand    *c = &h->cands[ncand++];

		CHECK_FOR_INTERRUPTS();
		c->leaf = h->leaf[ord[i]];
		c->tid = h->tid[ord[i]];
		c->first = i;
		for (; j < h->n && h->leaf[ord[j]] == c->leaf &&
			 ItemPointerEquals(&h->tid[ord[j]], &c->tid); j++)
			hits[j] = h->hit[ord[j]];
		c->n = j - i;
		tfp_src_evidence_of(hits + i, c->n, q->o.k, gap, band, &c->ev);
		i = j;
	}
	h->ncands = ncand;
	qsort(h->cands, ncand, sizeof(SrcCand), cmp_cand);
	/* the hits in candidate groups, for whoever wants them later */
	if (h->hit)
		pfree(h->hit);
	h->hit = hits;
	pfree(ord);
}
