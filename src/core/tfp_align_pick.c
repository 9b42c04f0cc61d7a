/*
 * tfp_align_pick.c -- the candidate passages of the passage alignment
 * (tfp_align.h, steps 3 and 4): chains read back from the chaining scores,
 * their ranges and matched lengths (pairs in the gaps, extension at both
 * ends), and the greedy one-to-one choice that rebuilds a candidate when
 * text it covers is taken.  Pure C.
 */
#include <stdlib.h>
#include <string.h>

#include "tfp_align_int.h"

typedef struct order_ent
{
	int32_t		f;
	uint32_t	t;
} order_ent;

static int
order_cmp(const void *x, const void *y)
{
	const order_ent *p = x,
			   *q = y;

	if (p->f != q->f)
		return p->f > q->f ? -1 : 1;
	return p->t < q->t ? -1 : p->t > q->t;	/* anchors are in (b, a) order */
}

/* ------------------------------------------------------------------------
 * Candidate passages
 * ------------------------------------------------------------------------ */

static int
range_free(const uint8_t *occ, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++)
		if (occ[i])
			return 0;
	return 1;
}

/* Length of the best pairing of equal units between a's units [a0, a1) and
 * b's [b0, b1) (weighted longest common subsequence); both are at most
 * TFP_ALIGN_MAX_GAP units. */
static uint32_t
gap_pairs(const state *st, uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1)
{
	uint32_t	row[TFP_ALIGN_MAX_GAP + 1];
	uint32_t	na = a1 - a0,
				nb = b1 - b0;

	if (na == 0 || nb == 0 || na > TFP_ALIGN_MAX_GAP || nb > TFP_ALIGN_MAX_GAP)
		return 0;
	memset(row, 0, sizeof(row));
	for (uint32_t i = 0; i < na; i++)
	{
		uint32_t	diag = 0;	/* row[j] of the previous i */

		for (uint32_t j = 1; j <= nb; j++)
		{
			uint32_t	up = row[j],
						v = row[j - 1] > up ? row[j - 1] : up;

			if (st->A.h[a0 + i] == st->B.h[b0 + j - 1])
			{
				uint32_t	d = diag + ulen(&st->A, a0 + i, 1);

				if (d > v)
					v = d;
			}
			diag = up;
			row[j] = v;
		}
	}
	return row[nb];
}

/*
 * Gapped X-drop extension from (ia, ib), the end (dir > 0: units ia, ib,
 * ... follow) or the start (dir < 0: units ia - 1, ib - 1, ... precede) of
 * a candidate, over units not taken: an alignment in a band of max_gap
 * units around the diagonal, scored +length for a match, -the larger
 * length for a mismatch, -length for a unit left out on one side; rows
 * stop when every cell has fallen more than max_gap below the best score.
 * The extension is the best-scoring cell (first in row order): *na, *nb
 * units of a and b, *matched the length of its matches.  It reads at most
 * EXT_HORIZON rows: it is for the ragged ends of a chain (a run of seed
 * units that match is an anchor, so runs between edits beyond the last
 * anchor are short); text further on that matches is covered by anchors,
 * of other chains if not of this one, and adjacent passages are merged in
 * the end (merge_passages), so every extension costs O(horizon * band).
 */
#define EXT_HORIZON(o)	(2 * ((o)->seed + (o)->max_gap) + 16)
#define NEG_INF		(INT64_MIN / 4)
#define BAND		(2 * TFP_ALIGN_MAX_GAP + 1)

static inline int
unit_free(const utext *t, uint32_t at, uint32_t k, int dir)
{
	if (dir > 0)
		return (uint64_t) at + k < t->n && !t->occ[at + k];
	return k < at && !t->occ[at - 1 - k];
}

static void
extend(state *st, uint32_t ia, uint32_t ib, int dir, uint32_t *na, uint32_t *nb,
	   uint32_t *matched)
{
	const utext *A = &st->A,
			   *B = &st->B;
	int64_t		G = st->o->max_gap,
				X = st->o->max_gap,
				best = 0,
				lo,
				hi;				/* live cells of the previous row: j in [lo, hi] */
	int64_t		sp[BAND + 1],
				sc[BAND + 1];	/* scores of the previous and current row */
	uint32_t	mp[BAND + 1],
				mc[BAND + 1];	/* their matched lengths */
	uint32_t	bfree = 0;		/* units of b known free */
	int64_t		horizon = EXT_HORIZON(st->o);

	*na = *nb = *matched = 0;
	/* row 0: nothing of a, j units of b left out; cell j is at slot
	 * j - i + G of row i */
	for (int64_t k = 0; k <= BAND; k++)
		sp[k] = NEG_INF;
	sp[G] = 0;
	mp[G] = 0;
	hi = 0;
	for (int64_t j = 1; j <= G; j++)
	{
		int64_t		v;

		if (!unit_free(B, ib, (uint32_t) (j - 1), dir))
			break;
		bfree = (uint32_t) j;
		v = sp[G + j - 1] - ulen(B, dir > 0 ? ib + (uint32_t) j - 1 : ib - (uint32_t) j, 1);
		if (v < -X)
			break;
		sp[G + j] = v;
		mp[G + j] = 0;
		hi = j;
	}
	lo = 0;
	for (int64_t i = 1; i <= horizon; i++)
	{
		uint32_t	pa = dir > 0 ? ia + (uint32_t) i - 1 : ia - (uint32_t) i,
					wa;
		uint64_t	ha;
		int64_t		rowmax = NEG_INF,
					jlo = lo > i - G ? lo : i - G,
					jhi = hi + 1 < i + G ? hi + 1 : i + G,
					nlo = -1,
					nhi = -1;

		if (jlo < 0)
			jlo = 0;
		if (!unit_free(A, ia, (uint32_t) (i - 1), dir))
			break;
		wa = ulen(A, pa, 1);
		ha = A->h[pa];
		for (int64_t j = jlo; j <= i + G; j++)
		{
			int64_t		k = j - i + G,	/* this row's slot; the previous
										 * row's slot of j is k + 1 */
						v = NEG_INF;
			uint32_t	m = 0;

			/* past the previous row's cells only a left move is left */
			if (j > jhi && (j == jlo || sc[k - 1] == NEG_INF))
				break;
			if (j > 0)
			{
				uint32_t	pb = dir > 0 ? ib + (uint32_t) j - 1 : ib - (uint32_t) j,
							wb;

				if ((uint32_t) j > bfree)
				{
					if (!unit_free(B, ib, (uint32_t) (j - 1), dir))
						break;
					bfree = (uint32_t) j;
				}
				wb = ulen(B, pb, 1);
				/* diagonal: previous row, j - 1 (slot k) */
				if (j - 1 >= lo && j - 1 <= hi && sp[k] > NEG_INF)
				{
					int			eq = ha == B->h[pb];

					v = sp[k] + (eq ? (int64_t) wa : -(int64_t) (wa > wb ? wa : wb));
					m = mp[k] + (eq ? wa : 0);
				}
				/* left: this row, j - 1 (slot k - 1): b's unit left out */
				if (j > jlo && sc[k - 1] > NEG_INF && sc[k - 1] - (int64_t) wb > v)
				{
					v = sc[k - 1] - wb;
					m = mc[k - 1];
				}
			}
			/* up: previous row, j (slot k + 1): a's unit left out */
			if (j >= lo && j <= hi && sp[k + 1] > NEG_INF && sp[k + 1] - (int64_t) wa > v)
			{
				v = sp[k + 1] - wa;
				m = mp[k + 1];
			}
			if (v < best - X)
				v = NEG_INF;
			sc[k] = v;
			mc[k] = m;
			if (v == NEG_INF)
				continue;
			if (nlo < 0)
				nlo = j;
			nhi = j;
			if (v > rowmax)
				rowmax = v;
			if (v > best)
			{
				best = v;
				*na = (uint32_t) i;
				*nb = (uint32_t) j;
				*matched = m;
			}
		}
		if (rowmax == NEG_INF)
			break;
		/* the next row reads this one's live cells in the same slots */
		memcpy(sp + (nlo - i + G), sc + (nlo - i + G), (size_t) (nhi - nlo + 1) * sizeof(int64_t));
		memcpy(mp + (nlo - i + G), mc + (nlo - i + G), (size_t) (nhi - nlo + 1) * sizeof(uint32_t));
		lo = nlo;
		hi = nhi;
		work(st, (uint64_t) (nhi - nlo + 1));
	}
}

/* Ranges and matched length of the candidate made of anchors
 * pool[first .. first + n), whose links are valid and text is free. */
static void
eval_cand(state *st, cand *c)
{
	const uint32_t *L = st->pool + c->first;
	uint32_t	x = L[0];
	uint32_t	ea = st->aa[x],
				eb = st->ab[x];
	uint32_t	matched = 0,
				na,
				nb,
				em;

	for (uint32_t k = 0; k < c->n; k++)
	{
		uint32_t	xa,
					xb,
					len,
					ca,
					cb,
					la,
					lb;

		x = L[k];
		xa = st->aa[x];
		xb = st->ab[x];
		len = st->B.wl[xb];
		if (xa > ea && xb > eb)
			matched += gap_pairs(st, ea, xa, eb, xb);
		/* the units x adds beyond what is covered, paired along x */
		ca = xa > ea ? xa : ea;
		cb = xb > eb ? xb : eb;
		la = xa + len > ca ? ulen(&st->A, ca, xa + len - ca) : 0;
		lb = xb + len > cb ? ulen(&st->B, cb, xb + len - cb) : 0;
		matched += la < lb ? la : lb;
		if (xa + len > ea)
			ea = xa + len;
		if (xb + len > eb)
			eb = xb + len;
	}
	x = L[0];
	extend(st, st->aa[x], st->ab[x], -1, &na, &nb, &em);
	matched += em;
	c->a0 = st->aa[x] - na;
	c->b0 = st->ab[x] - nb;
	extend(st, ea, eb, 1, &na, &nb, &em);
	matched += em;
	c->a1 = ea + na;
	c->b1 = eb + nb;
	c->matched = matched;
	work(st, c->n);
}

/* the length of b covered by the seeds of anchors L[0 .. n) (in order) */
static uint32_t
covered(const state *st, const uint32_t *L, uint32_t n)
{
	uint32_t	len = 0,
				end = 0;

	for (uint32_t k = 0; k < n; k++)
	{
		uint32_t	b = st->ab[L[k]],
					e = b + st->B.wl[b];

		if (b < end)
			b = end;
		if (e > b)
			len += ulen(&st->B, b, e - b);
		if (e > end)
			end = e;
	}
	return len;
}

/* whether anchor y may precede x in a passage, given the text taken */
static int
link_ok(const state *st, uint32_t y, uint32_t x)
{
	const utext *A = &st->A,
			   *B = &st->B;
	uint32_t	ya = st->aa[y],
				yb = st->ab[y],
				xa = st->aa[x],
				xb = st->ab[x],
				len = B->wl[yb];
	int64_t		da,
				db,
				ls,
				ga,
				gb,
				shift;

	if (xa <= ya || xb <= yb)
		return 0;
	da = A->w[xa] - A->w[ya];
	db = B->w[xb] - B->w[yb];
	ls = ulen(B, yb, len);
	ga = da > ls ? da - ls : 0;
	gb = db > ls ? db - ls : 0;
	shift = da > db ? da - db : db - da;
	if (ga > st->o->max_gap || gb > st->o->max_gap || shift > st->o->max_gap)
		return 0;
	return (ya + len >= xa || range_free(A->occ, ya + len, xa)) &&
		(yb + len >= xb || range_free(B->occ, yb + len, xb));
}

static int
better(const state *st, const cand *p, const cand *q)
{
	uint64_t	dp,
				dq,
				na = st->A.n,
				nb = st->B.n;
	int64_t		x;

	if (p->matched != q->matched)
		return p->matched > q->matched;
	/* relative positions in a and b: |mid_a / nA - mid_b / nB| */
	x = (int64_t) ((uint64_t) (p->a0 + p->a1) * nb) - (int64_t) ((uint64_t) (p->b0 + p->b1) * na);
	dp = (uint64_t) (x < 0 ? -x : x);
	x = (int64_t) ((uint64_t) (q->a0 + q->a1) * nb) - (int64_t) ((uint64_t) (q->b0 + q->b1) * na);
	dq = (uint64_t) (x < 0 ? -x : x);
	if (dp != dq)
		return dp < dq;
	if (p->b0 != q->b0)
		return p->b0 < q->b0;
	if (p->a0 != q->a0)
		return p->a0 < q->a0;
	if (p->b1 != q->b1)
		return p->b1 < q->b1;
	return p->a1 < q->a1;
}

static void
heap_push(state *st, uint32_t c)
{
	uint32_t	i = st->nheap++;

	/* the heap has room for every candidate (capcands) */
	while (i > 0)
	{
		uint32_t	parent = (i - 1) / 2;

		if (!better(st, &st->cands[c], &st->cands[st->heap[parent]]))
			break;
		st->heap[i] = st->heap[parent];
		i = parent;
	}
	st->heap[i] = c;
}

/* a new candidate slot (growing the arrays), or UINT32_MAX */
static uint32_t
new_cand(state *st)
{
	if (st->ncands == st->capcands)
	{
		uint32_t	cap = st->capcands ? 2 * st->capcands : 64;
		cand	   *c = tfp_align_grow(st, st->cands, st->ncands * sizeof(cand),
									   (size_t) cap * sizeof(cand));
		uint32_t   *h = c ? tfp_align_grow(st, st->heap, st->nheap * sizeof(uint32_t),
										   (size_t) cap * sizeof(uint32_t)) : NULL;

		if (h == NULL)
		{
			if (c != NULL)
				st->cands = c;
			st->nomem = 1;
			return UINT32_MAX;
		}
		st->cands = c;
		st->heap = h;
		st->capcands = cap;
	}
	return st->ncands++;
}

static uint32_t
heap_pop(state *st)
{
	uint32_t	top = st->heap[0],
				last = st->heap[--st->nheap],
				i = 0;

	for (;;)
	{
		uint32_t	l = 2 * i + 1,
					best = l;

		if (l >= st->nheap)
			break;
		if (l + 1 < st->nheap &&
			better(st, &st->cands[st->heap[l + 1]], &st->cands[st->heap[l]]))
			best = l + 1;
		if (!better(st, &st->cands[st->heap[best]], &st->cands[last]))
			break;
		st->heap[i] = st->heap[best];
		i = best;
	}
	if (st->nheap > 0)
		st->heap[i] = last;
	return top;
}

/*
 * (Re)build candidate c against the text taken: drop its anchors that
 * touch taken text, cut it where a link is no longer valid, evaluate the
 * pieces (the first in c's slot, others in new slots) and queue those
 * with matched >= min_length.
 */
static void
build(state *st, uint32_t ci)
{
	uint32_t	first = st->cands[ci].first,
				total = st->cands[ci].n;
	uint32_t   *L = st->pool + first;
	uint32_t	n = 0,
				start = 0;

	for (uint32_t k = 0; k < total; k++)
	{
		uint32_t	x = L[k],
					len = st->B.wl[st->ab[x]];

		if (range_free(st->A.occ, st->aa[x], st->aa[x] + len) &&
			range_free(st->B.occ, st->ab[x], st->ab[x] + len))
			L[n++] = x;
	}
	work(st, total);
	for (uint32_t k = 1; k <= n; k++)
	{
		cand	   *p;
		uint32_t	pi;

		if (k < n && link_ok(st, L[k - 1], L[k]))
			continue;
		/* a piece: L[start .. k) */
		pi = start == 0 ? ci : new_cand(st);
		if (pi == UINT32_MAX)
			return;
		p = &st->cands[pi];
		p->first = first + start;
		p->n = k - start;
		eval_cand(st, p);
		if (p->matched >= (uint32_t) st->o->min_length)
			heap_push(st, pi);
		start = k;
	}
}

static int
cand_cmp_b(const void *x, const void *y)
{
	const cand *p = x,
			   *q = y;

	if (p->b0 != q->b0)
		return p->b0 < q->b0 ? -1 : 1;
	return p->a0 < q->a0 ? -1 : p->a0 > q->a0;
}

/*
 * Passages next to each other in both texts (no other passage between
 * them in a nor in b) separated by what an edit could make (as for a link
 * of the chaining: at most max_gap on each side, diagonals at most max_gap
 * apart) are one passage: a copy that the chaining cut in pieces (in
 * repetitive text, where seeds are paired by rank) comes out whole.  The
 * passages are sorted by b, then a.
 */
static int
merge_passages(state *st, cand *acc, uint32_t *nacc)
{
	uint32_t	n = *nacc,
				out = 0,
				last = 0;
	uint32_t   *rank;
	order_ent  *byA;
	int64_t		G = st->o->max_gap;

	qsort(acc, n, sizeof(cand), cand_cmp_b);
	if (n < 2)
		return TFP_ALIGN_OK;
	rank = tfp_align_take(st, n, sizeof(uint32_t));
	byA = tfp_align_take(st, n, sizeof(order_ent));
	if (!rank || !byA)
		return TFP_ALIGN_ENOMEM;
	/* rank of each passage in the order of a (a0 values are distinct) */
	for (uint32_t k = 0; k < n; k++)
	{
		byA[k].f = -(int32_t) acc[k].a0;	/* order_cmp: f descending */
		byA[k].t = k;
	}
	qsort(byA, n, sizeof(order_ent), order_cmp);
	for (uint32_t r = 0; r < n; r++)
		rank[byA[r].t] = r;
	for (uint32_t k = 0; k < n; k++)
	{
		cand	   *p = out > 0 ? &acc[out - 1] : NULL,
				   *q = &acc[k];

		if (p != NULL && rank[k] == last + 1 && q->a0 >= p->a1 && q->b0 >= p->b1)
		{
			int64_t		ga = st->A.w[q->a0] - st->A.w[p->a1],
						gb = st->B.w[q->b0] - st->B.w[p->b1];

			if (ga <= G && gb <= G && (ga > gb ? ga - gb : gb - ga) <= G)
			{
				p->matched += q->matched + gap_pairs(st, p->a1, q->a0, p->b1, q->b0);
				p->a1 = q->a1;
				p->b1 = q->b1;
				last = rank[k];
				continue;
			}
		}
		acc[out++] = *q;
		last = rank[k];
	}
	*nacc = out;
	tfp_align_release(st, byA);
	tfp_align_release(st, rank);
	return TFP_ALIGN_OK;
}

int
tfp_align_choose(state *st, cand **out, uint32_t *nout)
{
	order_ent  *ord;
	uint8_t    *used;
	uint32_t	npool = 0,
				nacc = 0;
	cand	   *acc;

	ord = tfp_align_take(st, st->m, sizeof(order_ent));
	used = tfp_align_take(st, st->m, 1);
	st->pool = tfp_align_take(st, st->m, sizeof(uint32_t));
	if (!ord || !used || !st->pool)
		return TFP_ALIGN_ENOMEM;
	for (uint32_t t = 0; t < st->m; t++)
	{
		ord[t].f = st->f[t];
		ord[t].t = t;
	}
	qsort(ord, st->m, sizeof(order_ent), order_cmp);
	work(st, st->m);
	memset(used, 0, st->m);

	/* chains, best ends first, no anchor in two */
	for (uint32_t r = 0; r < st->m && !st->nomem; r++)
	{
		uint32_t	begin = npool,
					ci;
		int32_t		x = (int32_t) ord[r].t;

		if (used[x])
			continue;
		while (x >= 0 && !used[x])
		{
			used[x] = 1;
			st->pool[npool++] = (uint32_t) x;
			x = st->prev[x];
		}
		for (uint32_t i = begin, j = npool - 1; i < j; i++, j--)
		{
			uint32_t	tmp = st->pool[i];

			st->pool[i] = st->pool[j];
			st->pool[j] = tmp;
		}
		/* a chain whose seeds cover less than half of min_length is
		 * not a passage (it would need its extensions to make up the
		 * rest: text that matches that well has seeds of its own) */
		if (2 * covered(st, st->pool + begin, npool - begin) < (uint32_t) st->o->min_length)
			continue;
		if ((ci = new_cand(st)) == UINT32_MAX)
			break;
		st->cands[ci].first = begin;
		st->cands[ci].n = npool - begin;
		build(st, ci);
	}
	tfp_align_release(st, ord);
	tfp_align_release(st, used);
	tfp_align_release(st, st->prev);
	tfp_align_release(st, st->f);
	st->f = st->prev = NULL;

	/*
	 * Greedily, best first; a candidate overlapping text taken is rebuilt.
	 * This ends: the pieces of a rebuild touch no text taken when they are
	 * queued, so a piece is rebuilt again only after another passage has
	 * been taken since; passages taken have disjoint anchors, so at most
	 * m are taken, and between two of them each of the at most m
	 * candidates alive (their anchors are disjoint too) is rebuilt at most
	 * once.  In practice a candidate is rebuilt once or twice.
	 */
	acc = tfp_align_take(st, (size_t) st->m + 1, sizeof(cand));
	if (!acc || st->nomem)
		return TFP_ALIGN_ENOMEM;
	while (st->nheap > 0 && !st->nomem)
	{
		uint32_t	ci = heap_pop(st);
		cand	   *c = &st->cands[ci];

		work(st, (c->a1 - c->a0) + (c->b1 - c->b0));
		if (range_free(st->A.occ, c->a0, c->a1) && range_free(st->B.occ, c->b0, c->b1))
		{
			memset(st->A.occ + c->a0, 1, c->a1 - c->a0);
			memset(st->B.occ + c->b0, 1, c->b1 - c->b0);
			acc[nacc++] = *c;
		}
		else
			build(st, ci);
	}
	if (st->nomem)
		return TFP_ALIGN_ENOMEM;
	if (merge_passages(st, acc, &nacc) != TFP_ALIGN_OK)
		return TFP_ALIGN_ENOMEM;
	*out = acc;
	*nout = nacc;
	return TFP_ALIGN_OK;
}
