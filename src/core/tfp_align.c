/*
 * tfp_align.c -- the matching passages of two texts (see tfp_align.h for
 * the definition and the method): units, seeds, anchors, chaining, and the
 * result; the candidates and the one-to-one choice are in
 * tfp_align_pick.c.  Pure C.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "tfp_core.h"
#include "tfp_align_int.h"
#include "tfp_unicode_inline.h"

#define W_HAN		1			/* length of a Han unit */
#define W_WORD		2			/* length of a word */
#define MAX_CAP		8			/* seeds found up to this often in a are
								 * paired with every occurrence */
#define PRED_SCAN	64			/* predecessors a chaining step looks at */

void *
tfp_align_take(state *st, size_t n, size_t size)
{
	void	   *p;

	if (size != 0 && n > SIZE_MAX / size)
		return NULL;
	if (st->nallocs == MAX_ALLOCS)
		return NULL;
	p = st->env->alloc(st->env->arg, n * size > 0 ? n * size : 1);
	if (p != NULL)
		st->allocs[st->nallocs++] = p;
	return p;
}

void
tfp_align_release(state *st, void *p)
{
	for (int i = st->nallocs - 1; i >= 0; i--)
		if (st->allocs[i] == p)
		{
			if (st->env->free)
				st->env->free(st->env->arg, p);
			st->allocs[i] = st->allocs[--st->nallocs];
			return;
		}
}

void *
tfp_align_grow(state *st, void *p, size_t used, size_t size)
{
	void	   *q = tfp_align_take(st, size, 1);

	if (q != NULL && used > 0)
		memcpy(q, p, used);
	if (q != NULL && p != NULL)
		tfp_align_release(st, p);
	return q;
}

static void
release_all(state *st)
{
	if (st->env->free)
		for (int i = st->nallocs - 1; i >= 0; i--)
			st->env->free(st->env->arg, st->allocs[i]);
	st->nallocs = 0;
}

/* ------------------------------------------------------------------------
 * Units
 * ------------------------------------------------------------------------ */

enum
{
	K_NONE, K_WORD, K_HAN
};

typedef struct tok
{
	utext	   *t;				/* NULL: only count */
	int			reading;		/* han units keyed by their reading */
	uint64_t	n;				/* units so far */
	uint64_t	length;
	int			kind;			/* unit being read */
	uint64_t	h;
	uint32_t	first;			/* its first code point */
	uint32_t	start,
				end,
				ncp;
} tok;

#define HASH_MUL	UINT64_C(0x9E3779B97F4A7C15)
#define READING_INIT UINT64_C(0x7466706172656164)	/* "tfparead" */

static inline void
tok_close(tok *k)
{
	uint32_t	wt;

	if (k->kind == K_NONE)
		return;
	wt = k->kind == K_HAN ? W_HAN : W_WORD;
	if (k->t != NULL && k->n < k->t->n)
	{
		utext	   *t = k->t;
		uint32_t	i = (uint32_t) k->n;

		const char *r = k->kind == K_HAN && k->reading ? tfp_pinyin(k->first) : NULL;

		if (r != NULL)
		{
			/* the reading: a homophone is the same unit (tfp_align.h) */
			uint64_t	h = READING_INIT;

			while (*r)
				h = (h ^ (unsigned char) *r++) * HASH_MUL;
			t->h[i] = tfp_fmix64(h);
		}
		else
			t->h[i] = tfp_fmix64(k->h + (uint64_t) k->kind);
		t->bs[i] = k->start;
		t->be[i] = k->end;
		t->w[i + 1] = t->w[i] + wt;
	}
	k->n++;
	k->length += wt;
	k->kind = K_NONE;
}

static inline void
tok_add(tok *k, int kind, uint32_t cp, uint32_t pos, uint32_t end)
{
	if (k->kind == K_NONE)
	{
		k->kind = kind;
		k->h = (uint64_t) kind << 32;
		k->first = cp;
		k->start = pos;
		k->ncp = 0;
	}
	if (k->kind == K_WORD || k->ncp < TFP_UNIT_CPS)
	{
		k->h = (k->h ^ cp) * HASH_MUL;
		k->h ^= k->h >> 29;
		k->ncp++;
	}
	k->end = end;
}

/*
 * Read the units of s (the extractor's rules, tfp_core.h, steps 1-3).
 * Stops early once more than TFP_ALIGN_MAX_UNITS units are counted.
 */
static void
tokenize(const unsigned char *s, size_t len, unsigned fold, tok *k, state *st)
{
	size_t		pos = 0;
	uint32_t	out[TFP_FOLD_MAX];

	while (pos < len)
	{
		uint32_t	cp;
		size_t		n;
		int			m;

		if (s[pos] < 0x80)
		{
			cp = s[pos];
			n = 1;
		}
		else
			n = tfp_utf8_decode(s + pos, len - pos, &cp);
		m = tfp_cp_fold_inline(cp, fold, out);
		for (int i = 0; i < m; i++)
		{
			uint32_t	c = out[i];

			switch (tfp_cp_class_inline(c))
			{
				case TFP_CC_WORD:
					if (k->kind == K_HAN)
						tok_close(k);
					tok_add(k, K_WORD, c, (uint32_t) pos, (uint32_t) (pos + n));
					break;
				case TFP_CC_HAN:
					tok_close(k);
					tok_add(k, K_HAN, c, (uint32_t) pos, (uint32_t) (pos + n));
					break;
				case TFP_CC_MARK:
					/* joins the preceding han unit or word, else starts a word */
					tok_add(k, k->kind == K_HAN ? K_HAN : K_WORD, c,
							(uint32_t) pos, (uint32_t) (pos + n));
					break;
				case TFP_CC_IGNORE:
					break;
				default:
					tok_close(k);
					break;
			}
		}
		pos += n;
		if (st != NULL && (pos & 4095) < n)
			work(st, 4096);
		if (k->n > TFP_ALIGN_MAX_UNITS)
			return;
	}
	tok_close(k);
}

size_t
tfp_align_units(const char *s, size_t len, unsigned fold, uint64_t *length)
{
	tok			k;

	memset(&k, 0, sizeof(k));
	tokenize((const unsigned char *) s, len, fold, &k, NULL);
	if (length)
		*length = k.length;
	return (size_t) k.n;
}

/* The units of s into t, with room allocated; 0 or an error. */
static int
read_units(state *st, const char *s, size_t len, utext *t)
{
	tok			k;
	uint32_t	n;

	if (len >= UINT32_MAX)
		return TFP_ALIGN_ETOOBIG;
	memset(&k, 0, sizeof(k));
	tokenize((const unsigned char *) s, len, st->o->fold, &k, st);
	if (k.n > TFP_ALIGN_MAX_UNITS)
		return TFP_ALIGN_ETOOBIG;
	n = (uint32_t) k.n;
	t->n = n;
	t->h = tfp_align_take(st, n, sizeof(uint64_t));
	t->bs = tfp_align_take(st, n, sizeof(uint32_t));
	t->be = tfp_align_take(st, n, sizeof(uint32_t));
	t->w = tfp_align_take(st, (size_t) n + 1, sizeof(uint32_t));
	t->wl = tfp_align_take(st, n, 1);
	t->occ = tfp_align_take(st, n, 1);
	if (!t->h || !t->bs || !t->be || !t->w || !t->wl || !t->occ)
		return TFP_ALIGN_ENOMEM;
	memset(&k, 0, sizeof(k));
	k.t = t;
	k.reading = st->o->reading;
	t->w[0] = 0;
	tokenize((const unsigned char *) s, len, st->o->fold, &k, st);
	memset(t->occ, 0, n);
	return TFP_ALIGN_OK;
}

/* The seed at every unit: the shortest run of length >= seed. */
static void
make_seeds(state *st, utext *t)
{
	uint32_t	e = 0;
	uint32_t	seed = (uint32_t) st->o->seed;

	for (uint32_t i = 0; i < t->n; i++)
	{
		if (e < i + 1)
			e = i + 1;
		while (e <= t->n && t->w[e] - t->w[i] < seed)
			e++;
		if (e > t->n)
		{
			memset(t->wl + i, 0, t->n - i);
			break;
		}
		t->wl[i] = (uint8_t) (e - i);
	}
	work(st, t->n);
}

static inline uint64_t
seed_hash(const utext *t, uint32_t i)
{
	return XXH3_64bits(t->h + i, (size_t) t->wl[i] * sizeof(uint64_t));
}

/* ------------------------------------------------------------------------
 * Anchors: equal seeds of a and b
 * ------------------------------------------------------------------------ */

#define FREQUENT	UINT32_C(0x80000000)

typedef struct slot
{
	uint64_t	key;
	uint32_t	start;			/* the seeds of a with this hash: units */
	uint32_t	cnt;			/* occ[start .. start + cnt) (cnt 0: empty
								 * slot); FREQUENT: paired by rank, the
								 * rest of the queue */
} slot;

static uint32_t
find_slot(const slot *tab, uint32_t mask, uint64_t key)
{
	uint32_t	i = (uint32_t) (key ^ (key >> 32)) & mask;

	while (tab[i].cnt != 0 && tab[i].key != key)
		i = (i + 1) & mask;
	return i;
}

static int
seeds_equal(const state *st, uint32_t i, uint32_t j)
{
	uint32_t	n = st->A.wl[i];

	return n == st->B.wl[j] &&
		memcmp(st->A.h + i, st->B.h + j, n * sizeof(uint64_t)) == 0;
}

static inline void
add_anchor(state *st, uint32_t i, uint32_t j)
{
	if (seeds_equal(st, i, j))
	{
		st->aa[st->m] = i;
		st->ab[st->m++] = j;
	}
}

/*
 * A seed of b at unit j frequent in a: the occurrence of the same rank,
 * and the continuations of the diagonals of the last two anchors made (if
 * within chaining reach), so that a copy goes on through repetitive text;
 * in order of a.
 */
static void
frequent_anchors(state *st, uint32_t j, uint32_t rank_i, uint32_t nwin)
{
	uint32_t	c[3],
				n = 0;
	uint32_t	reach = (uint32_t) (st->o->seed + 1 + st->o->max_gap);

	c[n++] = rank_i;
	for (uint32_t k = st->m, seen = 0; k-- > 0 && seen < 2;)
	{
		int64_t		i = (int64_t) st->aa[k] + ((int64_t) j - st->ab[k]);
		int			dup = 0;

		if (st->B.w[j] - st->B.w[st->ab[k]] > reach)
			break;
		for (uint32_t q = 1; q <= seen; q++)
			if ((int64_t) st->aa[k] - st->ab[k] == (int64_t) c[q] - j)
				dup = 1;
		if (dup || st->ab[k] == j)
			continue;
		seen++;
		if (i >= 0 && i < nwin && (uint32_t) i != rank_i)
			c[n++] = (uint32_t) i;
	}
	/* in order of a */
	for (uint32_t x = 1; x < n; x++)
		for (uint32_t y = x; y > 0 && c[y - 1] > c[y]; y--)
		{
			uint32_t	t = c[y];

			c[y] = c[y - 1];
			c[y - 1] = t;
		}
	for (uint32_t x = 0; x < n; x++)
		if (x == 0 || c[x] != c[x - 1])
			add_anchor(st, c[x], j);
}

/*
 * The anchors, in (b, a) order.  The seeds of a are grouped by hash in a
 * table (open addressing, load <= 2/3) with their units in text order;
 * the table and its arrays are released before returning.
 */
static int
make_anchors(state *st)
{
	utext	   *A = &st->A,
			   *B = &st->B;
	uint32_t	nwin = 0,
				size = 16,
				mask;
	slot	   *tab;
	uint32_t   *slotid,
			   *occ,
			   *bslot;
	uint64_t	hist[MAX_CAP + 2] = {0};
	uint64_t	budget = (uint64_t) A->n + B->n + 1024,
				total = 0;
	uint32_t	cap = 1,
				run = 0;

	for (uint32_t i = 0; i < A->n && A->wl[i]; i++)
		nwin++;
	while (size < (uint64_t) nwin * 3 / 2)
		size *= 2;
	mask = size - 1;
	tab = tfp_align_take(st, size, sizeof(slot));
	slotid = tfp_align_take(st, nwin, sizeof(uint32_t));
	occ = tfp_align_take(st, nwin, sizeof(uint32_t));
	bslot = tfp_align_take(st, B->n, sizeof(uint32_t));
	if (!tab || !slotid || !occ || !bslot)
		return TFP_ALIGN_ENOMEM;
	memset(tab, 0, size * sizeof(slot));

	/* the seeds of a, grouped by hash, each group in text order (filled
	 * from its end, counting down, then the counts restored) */
	for (uint32_t i = 0; i < nwin; i++)
	{
		uint64_t	h = seed_hash(A, i);
		uint32_t	s = find_slot(tab, mask, h);

		tab[s].key = h;
		tab[s].cnt++;
		slotid[i] = s;
		if ((i & 4095) == 0)
			work(st, 4096);
	}
	for (uint32_t s = 0; s < size; s++)
	{
		tab[s].start = run;
		run += tab[s].cnt;
	}
	for (uint32_t i = nwin; i-- > 0;)
		occ[tab[slotid[i]].start + --tab[slotid[i]].cnt] = i;
	for (uint32_t s = 0; s < size; s++)
		tab[s].cnt = (s + 1 < size ? tab[s + 1].start : nwin) - tab[s].start;
	work(st, size + nwin);

	/* how often each seed of b is in a; the largest cap within budget */
	for (uint32_t j = 0; j < B->n; j++)
	{
		uint32_t	s;

		bslot[j] = UINT32_MAX;
		if (!B->wl[j] || nwin == 0)
			continue;
		s = find_slot(tab, mask, seed_hash(B, j));
		if (tab[s].cnt == 0)
			continue;
		bslot[j] = s;
		hist[tab[s].cnt > MAX_CAP ? MAX_CAP + 1 : tab[s].cnt]++;
		if ((j & 4095) == 0)
			work(st, 4096);
	}
	for (uint32_t c = MAX_CAP; c >= 1; c--)
	{
		total = 0;
		for (uint32_t d = 1; d <= MAX_CAP + 1; d++)
			total += d <= c ? d * hist[d] : 3 * hist[d];
		if (total <= budget || c == 1)
		{
			cap = c;
			break;
		}
	}

	st->aa = tfp_align_take(st, total, sizeof(uint32_t));
	st->ab = tfp_align_take(st, total, sizeof(uint32_t));
	if (!st->aa || !st->ab)
		return TFP_ALIGN_ENOMEM;
	st->m = 0;
	for (uint32_t j = 0; j < B->n; j++)
	{
		slot	   *t;

		if (bslot[j] == UINT32_MAX)
			continue;
		t = &tab[bslot[j]];
		if (t->cnt > cap && !(t->cnt & FREQUENT))
			t->cnt |= FREQUENT;
		if (!(t->cnt & FREQUENT))
		{
			for (uint32_t r = 0; r < t->cnt; r++)
				add_anchor(st, occ[t->start + r], j);
			work(st, t->cnt);
		}
		else if (t->cnt != FREQUENT)
		{
			frequent_anchors(st, j, occ[t->start++], nwin);
			t->cnt--;
		}
	}
	tfp_align_release(st, bslot);
	tfp_align_release(st, occ);
	tfp_align_release(st, slotid);
	tfp_align_release(st, tab);
	return TFP_ALIGN_OK;
}

/* ------------------------------------------------------------------------
 * Chaining
 * ------------------------------------------------------------------------ */

/*
 * f[t]: the best score of a chain ending with anchor t; prev[t] its
 * predecessor (-1: t starts it).  Anchors are in (b, a) order.  Linking y
 * before x (both texts advance): da, db = distances of their starts, in
 * length; ga, gb = the lengths between y's end and x's start (0 if they
 * overlap), each <= max_gap; the diagonal shift |da - db| <= max_gap.
 * Score: f[y] + min(da, db, length of x) - max(ga, gb) - |da - db|.  Ties
 * prefer linking, then the smaller shift, then the nearer predecessor.
 * Since gb >= db - (seed + 1), predecessors with db > seed + 1 + max_gap
 * cannot link, and the scan stops there (b never decreases going back).
 */
static int
chain(state *st)
{
	const utext *A = &st->A,
			   *B = &st->B;
	int32_t		G = st->o->max_gap;
	int32_t		reach = st->o->seed + 1 + G;

	st->f = tfp_align_take(st, st->m, sizeof(int32_t));
	st->prev = tfp_align_take(st, st->m, sizeof(int32_t));
	if (!st->f || !st->prev)
		return TFP_ALIGN_ENOMEM;

	for (uint32_t t = 0; t < st->m; t++)
	{
		uint32_t	at = st->aa[t],
					bt = st->ab[t];
		int32_t		lt = (int32_t) ulen(B, bt, B->wl[bt]);
		int32_t		best = lt,
					bp = -1,
					bestshift = INT32_MAX;
		int			scanned = 0;

		for (int64_t s = (int64_t) t - 1; s >= 0 && scanned < PRED_SCAN; s--, scanned++)
		{
			uint32_t	as = st->aa[s],
						bs = st->ab[s];
			int32_t		da,
						db,
						ls,
						ga,
						gb,
						shift,
						gain,
						sc;

			if (bs == bt)
				continue;
			db = (int32_t) (B->w[bt] - B->w[bs]);
			if (db > reach)
				break;
			if (as >= at)
				continue;
			da = (int32_t) (A->w[at] - A->w[as]);
			ls = (int32_t) ulen(B, bs, B->wl[bs]);
			ga = da > ls ? da - ls : 0;
			gb = db > ls ? db - ls : 0;
			shift = da > db ? da - db : db - da;
			if (ga > G || gb > G || shift > G)
				continue;
			gain = da < db ? da : db;
			if (lt < gain)
				gain = lt;
			sc = st->f[s] + gain - (ga > gb ? ga : gb) - shift;
			if (sc > best || (sc == best && (bp < 0 || shift < bestshift)))
			{
				best = sc;
				bp = (int32_t) s;
				bestshift = shift;
			}
		}
		st->f[t] = best;
		st->prev[t] = bp;
		work(st, scanned + 1);
	}
	return TFP_ALIGN_OK;
}

/* ------------------------------------------------------------------------
 * Result
 * ------------------------------------------------------------------------ */

static int
order_cmp_start(const void *x, const void *y)
{
	const tfp_align_order *p = x,
			   *q = y;

	if (p->start != q->start)
		return p->start < q->start ? -1 : 1;
	return p->idx < q->idx ? -1 : p->idx > q->idx;
}

void
tfp_align_sort_side(const tfp_align_result *r, int side, tfp_align_order *e)
{
	for (size_t i = 0; i < r->n; i++)
	{
		e[i].start = side ? r->p[i].b_start : r->p[i].a_start;
		e[i].idx = (uint32_t) i;
	}
	qsort(e, r->n, sizeof(tfp_align_order), order_cmp_start);
}

/*
 * Passages share no unit, but units made from one code point (one that
 * folds to several) share its bytes: a passage then starts where the one
 * before it ends.
 */
static void
clamp_side(tfp_align_result *r, int side, tfp_align_order *e)
{
	uint32_t	prev_end = 0;

	tfp_align_sort_side(r, side, e);
	for (size_t k = 0; k < r->n; k++)
	{
		tfp_align_passage *p = &r->p[e[k].idx];
		uint32_t   *s = side ? &p->b_start : &p->a_start,
				   *t = side ? &p->b_end : &p->a_end;

		if (*s < prev_end)
			*s = prev_end;
		if (*t < *s)
			*t = *s;
		prev_end = *t;
	}
}

void
tfp_align_char_offsets(const char *s, size_t len, tfp_align_result *r,
					   int side, tfp_align_order *e)
{
	const unsigned char *u = (const unsigned char *) s;
	size_t		pos = 0;
	uint32_t	chars = 0;

	/* the boundaries in byte order (passages do not overlap), one pass */
	tfp_align_sort_side(r, side, e);
	for (size_t k = 0; k < 2 * r->n; k++)
	{
		tfp_align_passage *p = &r->p[e[k / 2].idx];
		uint32_t	target = (k & 1) ? (side ? p->b_end : p->a_end) : (side ? p->b_start : p->a_start);

		while (pos < target && pos < len)
		{
			uint32_t	cp;

			pos += u[pos] < 0x80 ? 1 : tfp_utf8_decode(u + pos, len - pos, &cp);
			chars++;
		}
		if (side)
		{
			if (k & 1)
				p->b_clen = chars - p->b_cstart;
			else
				p->b_cstart = chars;
		}
		else
		{
			if (k & 1)
				p->a_clen = chars - p->a_cstart;
			else
				p->a_cstart = chars;
		}
	}
}

int
tfp_align(const char *a, size_t alen, const char *b, size_t blen,
		  const tfp_align_opts *o, const tfp_align_env *env,
		  tfp_align_result *r)
{
	state		st;
	cand	   *acc = NULL;
	uint32_t	nacc = 0;
	int			rc;
	tfp_align_passage *p = NULL;

	memset(r, 0, sizeof(*r));
	if (o->min_length < 1 || o->min_length > TFP_ALIGN_MAX_MIN_LENGTH ||
		o->seed < 1 || o->seed > TFP_ALIGN_MAX_SEED ||
		o->max_gap < 0 || o->max_gap > TFP_ALIGN_MAX_GAP)
		return TFP_ALIGN_EINVAL;
	memset(&st, 0, sizeof(st));
	st.o = o;
	st.env = env;
	st.next_tick = TICK_STEPS;

	if ((rc = read_units(&st, a, alen, &st.A)) != TFP_ALIGN_OK ||
		(rc = read_units(&st, b, blen, &st.B)) != TFP_ALIGN_OK)
		goto out;
	r->a_total = st.A.w[st.A.n];
	r->b_total = st.B.w[st.B.n];
	make_seeds(&st, &st.A);
	make_seeds(&st, &st.B);
	if ((rc = make_anchors(&st)) != TFP_ALIGN_OK)
		goto out;
	if ((rc = chain(&st)) != TFP_ALIGN_OK)
		goto out;
	if ((rc = tfp_align_choose(&st, &acc, &nacc)) != TFP_ALIGN_OK)
		goto out;

	if (nacc > 0)
	{
		tfp_align_order *scratch;

		p = env->alloc(env->arg, nacc * sizeof(tfp_align_passage));
		scratch = tfp_align_take(&st, nacc, sizeof(tfp_align_order));
		if (!p || !scratch)
		{
			rc = TFP_ALIGN_ENOMEM;
			goto out;
		}
		for (uint32_t k = 0; k < nacc; k++)
		{
			cand	   *c = &acc[k];

			p[k].a_start = st.A.bs[c->a0];
			p[k].a_end = st.A.be[c->a1 - 1];
			p[k].b_start = st.B.bs[c->b0];
			p[k].b_end = st.B.be[c->b1 - 1];
			p[k].a_len = ulen(&st.A, c->a0, c->a1 - c->a0);
			p[k].b_len = ulen(&st.B, c->b0, c->b1 - c->b0);
			p[k].matched = c->matched;
			r->a_covered += p[k].a_len;
			r->b_covered += p[k].b_len;
		}
		r->p = p;
		r->n = nacc;
		clamp_side(r, 0, scratch);
		clamp_side(r, 1, scratch);
		tfp_align_char_offsets(a, alen, r, 0, scratch);
		tfp_align_char_offsets(b, blen, r, 1, scratch);
		p = NULL;
	}
	rc = TFP_ALIGN_OK;
out:
	if (p != NULL && env->free)
		env->free(env->arg, p);
	release_all(&st);
	if (rc != TFP_ALIGN_OK)
	{
		r->p = NULL;
		r->n = 0;
	}
	return rc;
}
