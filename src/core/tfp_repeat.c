/*
 * tfp_repeat.c -- corpus-wide repeated spans (definition, method, proof and
 * memory in tfp_repeat.h): the shared seed hashes of pass 1, the candidate
 * positions and their L-gram hashes of pass 2, the grouping by hash, the
 * spans and removed runs of each row, and the brute-force reference.
 * Pure C.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_passage.h"
#include "tfp_repeat.h"
#include "tfp_sort.h"

/* a sort entry: the L-gram hash of a candidate, its row and position */
typedef struct rmember
{
	uint64_t	h1,
				h2;
	uint32_t	row,
				pos;
} rmember;

struct tfp_repeat
{
	tfp_repeat_env env;
	uint32_t	L;
	tfp_passage_opts po;
	int			failed;
	uint64_t	bytes,			/* held by the arrays now, and at most */
				peak;

	/* per-row scratch: the seeds of the row being read */
	tfp_pseed  *seeds;
	size_t		capseeds;
	uint64_t   *hscratch;		/* pass 1: its hashes, when given keys */
	size_t		caphs;

	/* pass 1: the distinct seed hashes of every row; then the shared ones */
	uint64_t   *hashes;
	size_t		nhashes,
				caphashes;
	uint64_t	pass1_hashes;
	int			dirbits;
	size_t	   *dir;			/* [2^dirbits + 1]: shared hashes with top
								 * bits b are hashes[dir[b] .. dir[b + 1]) */

	/* pass 2 */
	uint32_t	nrows;
	uint64_t   *row_start;		/* first candidate of a row, UINT64_MAX:
								 * not added yet */
	uint32_t   *row_count;
	rmember    *m;				/* sort entries (freed by tfp_repeat_group) */
	uint32_t   *cpos;			/* the candidates, per row in position order */
	uint32_t   *aux;			/* 2 per candidate */
	size_t		nc,
				capc;
	uint32_t   *wrow,			/* witness of every candidate */
			   *wpos;
	uint64_t	repeated;

	/* the L-gram hash: bases and their powers B^(L-1) */
	uint64_t	pw1,
				pw2;
};

/* ------------------------------------------------------------------------
 * Memory
 * ------------------------------------------------------------------------ */

static int
grow(tfp_repeat *st, void **p, size_t *cap, size_t need, size_t elsize)
{
	size_t		nc;
	void	   *q;

	if (need <= *cap)
		return 0;
	nc = *cap + *cap / 2;
	if (nc < need)
		nc = need;
	if (nc < 256)
		nc = 256;
	q = st->env.realloc(st->env.arg, *p, nc * elsize);
	if (q == NULL)
	{
		st->failed = 1;
		return -1;
	}
	st->bytes += (nc - *cap) * elsize;
	if (st->bytes > st->peak)
		st->peak = st->bytes;
	*p = q;
	*cap = nc;
	return 0;
}

/* several arrays of one capacity */
static int
grow_cands(tfp_repeat *st, size_t need)
{
	size_t		c1 = st->capc,
				c2 = st->capc,
				c3 = st->capc;

	if (need <= st->capc)
		return 0;
	if (grow(st, (void **) &st->m, &c1, need, sizeof(rmember)) != 0 ||
		grow(st, (void **) &st->cpos, &c2, c1, sizeof(uint32_t)) != 0 ||
		grow(st, (void **) &st->aux, &c3, c1, 2 * sizeof(uint32_t)) != 0)
		return -1;
	st->capc = c1;
	return 0;
}

static void *
alloc_n(tfp_repeat *st, size_t n, size_t elsize)
{
	void	   *p = st->env.realloc(st->env.arg, NULL, n * elsize > 0 ? n * elsize : 1);

	if (p == NULL)
	{
		st->failed = 1;
		return NULL;
	}
	st->bytes += n * elsize;
	if (st->bytes > st->peak)
		st->peak = st->bytes;
	return p;
}

static void
free_n(tfp_repeat *st, void *p, size_t n, size_t elsize)
{
	if (p == NULL)
		return;
	st->env.free(st->env.arg, p);
	st->bytes -= n * elsize;
}

static inline void
tick(const tfp_repeat *st)
{
	if (st->env.tick)
		st->env.tick();
}

/* ------------------------------------------------------------------------
 * Parameters, creation
 * ------------------------------------------------------------------------ */

/*
 * K as long as the winnowing allows: text shares many short phrases, and
 * every seed whose K-gram another row shares makes W candidates, so a
 * longer K-gram (fewer shared by chance) costs less than the more seeds a
 * shorter window gives pass 1.  On 100,000 generated documents at L = 20,
 * K = 16 holds 166 MB, K = 10 400 MB, K = 6 1.3 GB; at L = 10, K = 10 (W =
 * 1, every position a seed) 442 MB, K = 6 1.3 GB.
 */
void
tfp_repeat_params(uint32_t L, int *k, int *w)
{
	uint32_t	kk = L < TFP_PASSAGE_MAX_K ? L : TFP_PASSAGE_MAX_K,
				ww;

	if (kk < 1)
		kk = 1;
	ww = L >= kk ? L - kk + 1 : 1;
	if (ww > TFP_PASSAGE_MAX_W)
		ww = TFP_PASSAGE_MAX_W;
	*k = (int) kk;
	*w = (int) ww;
}

/* the L-gram hash: x -> sum x_j B^(L-1-j) modulo the Mersenne prime 2^61 - 1 */
#define M61		((UINT64_C(1) << 61) - 1)
#define BASE1	UINT64_C(0x0F1E2D3C4B5A6978)	/* < 2^61 */
#define BASE2	UINT64_C(0x13579BDF02468ACE)

static inline uint64_t
mod61(uint64_t x)
{
	x = (x & M61) + (x >> 61);
	return x >= M61 ? x - M61 : x;
}

static inline uint64_t
mul61(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__)
	unsigned __int128 r = (unsigned __int128) a * b;
	uint64_t	s = ((uint64_t) r & M61) + (uint64_t) (r >> 61);
#else
	/* a, b < 2^61: 32-bit halves */
	uint64_t	al = a & 0xFFFFFFFFu,
				ah = a >> 32,
				bl = b & 0xFFFFFFFFu,
				bh = b >> 32;
	uint64_t	ll = al * bl,
				mid = al * bh + ah * bl,	/* < 2^94 / 2^32: fits */
				hh = ah * bh;
	/* a b = hh 2^64 + mid 2^32 + ll; 2^64 = 8 (mod M61), 2^61 = 1 */
	uint64_t	s = mod61(ll) + mod61(hh << 3) + mod61((mid >> 29) + ((mid & ((1u << 29) - 1)) << 32));

	s = mod61(s);
#endif
	return s >= M61 ? s - M61 : s;
}

static inline uint64_t
add61(uint64_t a, uint64_t b)
{
	uint64_t	s = a + b;

	return s >= M61 ? s - M61 : s;
}

static inline uint64_t
sub61(uint64_t a, uint64_t b)
{
	return a >= b ? a - b : a + M61 - b;
}

/* the two reductions of a key: different bits, so that two keys equal in
 * one are still unequal in the other */
static inline uint64_t
x1_of(uint64_t key)
{
	return mod61(key);
}

static inline uint64_t
x2_of(uint64_t key)
{
	return mod61((key << 29) | (key >> 35));
}

tfp_repeat *
tfp_repeat_create(uint32_t L, const tfp_repeat_env *env)
{
	tfp_repeat *st;

	if (L < 1 || L > TFP_REPEAT_MAX_L)
		return NULL;
	st = env->realloc(env->arg, NULL, sizeof(tfp_repeat));
	if (st == NULL)
		return NULL;
	memset(st, 0, sizeof(*st));
	st->env = *env;
	st->L = L;
	tfp_repeat_params(L, &st->po.k, &st->po.w);
	st->po.reading = 0;			/* the keys are given */
	st->pw1 = st->pw2 = 1;
	for (uint32_t j = 1; j < L; j++)
	{
		st->pw1 = mul61(st->pw1, BASE1);
		st->pw2 = mul61(st->pw2, BASE2);
	}
	return st;
}

void
tfp_repeat_destroy(tfp_repeat *st)
{
	void		(*fr) (void *, void *) = st->env.free;
	void	   *arg = st->env.arg;
	void	   *ps[] = {st->seeds, st->hscratch, st->hashes, st->dir, st->row_start,
	st->row_count, st->m, st->cpos, st->aux, st->wrow, st->wpos};

	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		if (ps[i])
			fr(arg, ps[i]);
	fr(arg, st);
}

/* ------------------------------------------------------------------------
 * Sorting: in-place most-significant-digit radix sorts (American flag
 * sort), a byte per level, insertion sort for small buckets.  No scratch
 * memory: the arrays are the largest the search holds.
 * ------------------------------------------------------------------------ */

#define SMALL_SORT	24

static void
sort_u64(const tfp_repeat *st, uint64_t *a, size_t n, int shift)
{
	size_t		cnt[256],
				next[256],
				end[256],
				s = 0;

	if (n <= SMALL_SORT)
	{
		for (size_t i = 1; i < n; i++)
		{
			uint64_t	v = a[i];
			size_t		j = i;

			while (j > 0 && a[j - 1] > v)
			{
				a[j] = a[j - 1];
				j--;
			}
			a[j] = v;
		}
		return;
	}
	if (n >= 65536)
		tick(st);
	memset(cnt, 0, sizeof(cnt));
	for (size_t i = 0; i < n; i++)
		cnt[(a[i] >> shift) & 0xFF]++;
	for (int b = 0; b < 256; b++)
	{
		next[b] = s;
		s += cnt[b];
		end[b] = s;
	}
	for (int b = 0; b < 256; b++)
		while (next[b] < end[b])
		{
			uint64_t	v = a[next[b]];
			unsigned	d = (unsigned) (v >> shift) & 0xFF;

			/* follow the cycle of misplaced values back to bucket b */
			while (d != (unsigned) b)
			{
				uint64_t	t = a[next[d]];

				a[next[d]++] = v;
				v = t;
				d = (unsigned) (v >> shift) & 0xFF;
			}
			a[next[b]++] = v;
		}
	if (shift == 0)
		return;
	s = 0;
	for (int b = 0; b < 256; b++)
	{
		if (cnt[b] > 1)
			sort_u64(st, a + s, cnt[b], shift - 8);
		s += cnt[b];
	}
}

static inline unsigned
mbyte(const rmember *m, int level)
{
	return level < 8 ? (unsigned) (m->h1 >> (56 - 8 * level)) & 0xFF
		: (unsigned) (m->h2 >> (56 - 8 * (level - 8))) & 0xFF;
}

static inline int
mless(const rmember *a, const rmember *b)
{
	return a->h1 < b->h1 || (a->h1 == b->h1 && a->h2 < b->h2);
}

/* sort by (h1, h2); levels 0..15 are the bytes of h1 then h2 */
static void
sort_members(const tfp_repeat *st, rmember *a, size_t n, int level)
{
	size_t		cnt[256],
				next[256],
				end[256],
				s = 0;

	if (n <= SMALL_SORT)
	{
		for (size_t i = 1; i < n; i++)
		{
			rmember		v = a[i];
			size_t		j = i;

			while (j > 0 && mless(&v, &a[j - 1]))
			{
				a[j] = a[j - 1];
				j--;
			}
			a[j] = v;
		}
		return;
	}
	if (n >= 65536)
		tick(st);
	memset(cnt, 0, sizeof(cnt));
	for (size_t i = 0; i < n; i++)
		cnt[mbyte(&a[i], level)]++;
	if (cnt[mbyte(&a[0], level)] == n)
	{
		/* one bucket: a group of equal hashes (a passage in many rows) is
		 * sorted already, else go on with the next byte */
		size_t		i = 1;

		while (i < n && a[i].h1 == a[0].h1 && a[i].h2 == a[0].h2)
			i++;
		if (i == n)
			return;
	}
	for (int b = 0; b < 256; b++)
	{
		next[b] = s;
		s += cnt[b];
		end[b] = s;
	}
	for (int b = 0; b < 256; b++)
		while (next[b] < end[b])
		{
			rmember		v = a[next[b]];
			unsigned	d = mbyte(&v, level);

			while (d != (unsigned) b)
			{
				rmember		t = a[next[d]];

				a[next[d]++] = v;
				v = t;
				d = mbyte(&v, level);
			}
			a[next[b]++] = v;
		}
	if (level == 15)
		return;
	s = 0;
	for (int b = 0; b < 256; b++)
	{
		if (cnt[b] > 1)
			sort_members(st, a + s, cnt[b], level + 1);
		s += cnt[b];
	}
}

/* ------------------------------------------------------------------------
 * Pass 1
 * ------------------------------------------------------------------------ */

/* the seed hashes of a row (reordered) */
static int
add_row_hashes(tfp_repeat *st, uint64_t *h, size_t nh)
{
	if (nh == 0)
		return 0;
	/* a hash counts once per row */
	nh = tfp_sort_unique_u64(h, nh, NULL);
	if (grow(st, (void **) &st->hashes, &st->caphashes, st->nhashes + nh, sizeof(uint64_t)) != 0)
		return -1;
	memcpy(st->hashes + st->nhashes, h, nh * sizeof(uint64_t));
	st->nhashes += nh;
	return 0;
}

static int
row_seeds(tfp_repeat *st, const uint64_t *keys, size_t n, size_t *ns)
{
	if (grow(st, (void **) &st->seeds, &st->capseeds, n, sizeof(tfp_pseed)) != 0)
		return -1;
	*ns = tfp_passage_winnow(keys, n, &st->po, st->seeds);
	return 0;
}

int
tfp_repeat_pass1_keys(tfp_repeat *st, const uint64_t *keys, size_t n)
{
	size_t		ns;

	if (st->failed)
		return -1;
	if (n < st->L)
		return 0;
	if (row_seeds(st, keys, n, &ns) != 0 ||
		grow(st, (void **) &st->hscratch, &st->caphs, ns, sizeof(uint64_t)) != 0)
		return -1;
	for (size_t i = 0; i < ns; i++)
		st->hscratch[i] = st->seeds[i].hash;
	return add_row_hashes(st, st->hscratch, ns);
}

int
tfp_repeat_pass1_done(tfp_repeat *st, uint32_t nrows)
{
	size_t		n = st->nhashes,
				out = 0,
				steps = 0,
				ndir;
	uint64_t   *h = st->hashes;

	if (st->failed)
		return -1;
	st->pass1_hashes = n;
	sort_u64(st, h, n, 56);
	/* keep the hashes of two rows or more (each row gave a hash once) */
	for (size_t i = 0; i < n;)
	{
		size_t		j = i + 1;

		while (j < n && h[j] == h[i])
			j++;
		if (j - i >= 2)
			h[out++] = h[i];
		i = j;
		if (++steps % 1048576 == 0)
			tick(st);
	}
	st->nhashes = out;
	if (out < st->caphashes && out > 0)
	{
		uint64_t   *q = st->env.realloc(st->env.arg, h, out * sizeof(uint64_t));

		if (q != NULL)
		{
			st->bytes -= (st->caphashes - out) * sizeof(uint64_t);
			st->hashes = q;
			st->caphashes = out;
		}
	}
	/* the directory: about one hash per entry, at most 2^22 entries */
	st->dirbits = 1;
	while (st->dirbits < 22 && ((size_t) 1 << st->dirbits) < out)
		st->dirbits++;
	ndir = ((size_t) 1 << st->dirbits) + 1;
	st->dir = alloc_n(st, ndir, sizeof(size_t));
	if (st->dir == NULL)
		return -1;
	{
		size_t		i = 0;

		for (size_t b = 0; b + 1 < ndir; b++)
		{
			while (i < out && (st->hashes[i] >> (64 - st->dirbits)) < b)
				i++;
			st->dir[b] = i;
		}
		st->dir[ndir - 1] = out;
	}
	/* pass 2's rows */
	st->nrows = nrows;
	st->row_start = alloc_n(st, nrows, sizeof(uint64_t));
	st->row_count = alloc_n(st, nrows, sizeof(uint32_t));
	if (st->row_start == NULL || st->row_count == NULL)
		return -1;
	for (uint32_t r = 0; r < nrows; r++)
	{
		st->row_start[r] = UINT64_MAX;
		st->row_count[r] = 0;
	}
	return 0;
}

static inline int
is_shared(const tfp_repeat *st, uint64_t h)
{
	size_t		b = (size_t) (h >> (64 - st->dirbits)),
				lo = st->dir[b],
				hi = st->dir[b + 1];

	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (st->hashes[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < st->dir[b + 1] && st->hashes[lo] == h;
}

/* ------------------------------------------------------------------------
 * Pass 2
 * ------------------------------------------------------------------------ */

/* the L-gram hashes of the positions of a row, walked forward */
typedef struct lroll
{
	const uint64_t *keys;
	uint32_t	L;
	int64_t		cur;			/* position of h1, h2; -1: none */
	uint64_t	h1,
				h2,
				pw1,
				pw2;
} lroll;

static void
lroll_at(lroll *r, int64_t p)
{
	const uint64_t *k = r->keys;
	uint32_t	L = r->L;

	if (r->cur >= 0 && p - r->cur <= (int64_t) L)
	{
		/* roll: drop the unit leaving, add the one entering */
		for (int64_t c = r->cur; c < p; c++)
		{
			r->h1 = add61(mul61(sub61(r->h1, mul61(x1_of(k[c]), r->pw1)), BASE1),
						  x1_of(k[c + L]));
			r->h2 = add61(mul61(sub61(r->h2, mul61(x2_of(k[c]), r->pw2)), BASE2),
						  x2_of(k[c + L]));
		}
	}
	else
	{
		uint64_t	h1 = 0,
					h2 = 0;

		for (uint32_t j = 0; j < L; j++)
		{
			h1 = add61(mul61(h1, BASE1), x1_of(k[p + j]));
			h2 = add61(mul61(h2, BASE2), x2_of(k[p + j]));
		}
		r->h1 = h1;
		r->h2 = h2;
	}
	r->cur = p;
}

/* candidates [lo, hi] of a row */
static int
add_interval(tfp_repeat *st, lroll *r, uint32_t row, int64_t lo, int64_t hi)
{
	size_t		nc = st->nc;

	if (grow_cands(st, nc + (size_t) (hi - lo + 1)) != 0)
		return -1;
	for (int64_t p = lo; p <= hi; p++)
	{
		rmember    *m = &st->m[nc];

		lroll_at(r, p);
		/* h1 < 2^61: shifted, its top byte spreads the sort's first level */
		m->h1 = r->h1 << 3;
		m->h2 = r->h2;
		m->row = row;
		m->pos = (uint32_t) p;
		st->cpos[nc] = (uint32_t) p;
		st->aux[2 * nc] = st->aux[2 * nc + 1] = 0;
		nc++;
	}
	st->nc = nc;
	return 0;
}

int64_t
tfp_repeat_add_row(tfp_repeat *st, uint32_t row, const uint64_t *keys, size_t n,
				   const uint32_t **pos, uint32_t **aux)
{
	const int64_t W = st->po.w,
				last = (int64_t) n - (int64_t) st->L;
	size_t		ns,
				first = st->nc;
	int64_t		clo = -1,
				chi = -2;
	lroll		r;

	if (st->failed || row >= st->nrows || st->row_start[row] != UINT64_MAX)
		return -1;
	st->row_start[row] = first;
	st->row_count[row] = 0;
	*pos = NULL;
	*aux = NULL;
	if (n < st->L || st->nhashes == 0)
		return 0;
	if (row_seeds(st, keys, n, &ns) != 0)
		return -1;
	r.keys = keys;
	r.L = st->L;
	r.cur = -1;
	r.pw1 = st->pw1;
	r.pw2 = st->pw2;
	for (size_t i = 0; i < ns; i++)
	{
		const tfp_pseed *s = &st->seeds[i];
		int64_t		lo,
					hi;

		if (!is_shared(st, s->hash))
			continue;
		/* the L-grams whose first window may have selected this seed */
		lo = (int64_t) s->unit - (W - 1);
		if (lo < 0)
			lo = 0;
		hi = (int64_t) s->unit < last ? (int64_t) s->unit : last;
		if (hi < lo)
			continue;
		/* seeds come in order of unit, so lo and hi never decrease */
		if (lo <= chi + 1)
		{
			if (hi > chi)
				chi = hi;
			continue;
		}
		if (clo >= 0 && add_interval(st, &r, row, clo, chi) != 0)
			return -1;
		clo = lo;
		chi = hi;
	}
	if (clo >= 0 && add_interval(st, &r, row, clo, chi) != 0)
		return -1;
	if (st->nc - first > UINT32_MAX - 1)
		return -1;
	st->row_count[row] = (uint32_t) (st->nc - first);
	*pos = st->cpos + first;
	*aux = st->aux + 2 * first;
	return (int64_t) (st->nc - first);
}

/* the candidate index of (row, pos), which must be one */
static size_t
cand_index(const tfp_repeat *st, uint32_t row, uint32_t pos)
{
	const uint32_t *c = st->cpos + st->row_start[row];
	size_t		lo = 0,
				hi = st->row_count[row];

	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (c[mid] < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (size_t) st->row_start[row] + lo;
}

static inline int
before(const rmember *a, const rmember *b)
{
	return a->row < b->row || (a->row == b->row && a->pos < b->pos);
}

int
tfp_repeat_group(tfp_repeat *st)
{
	size_t		n = st->nc,
				steps = 0;
	rmember    *m = st->m;

	if (st->failed)
		return -1;
	/* the shared hashes are done with */
	free_n(st, st->hashes, st->caphashes, sizeof(uint64_t));
	st->hashes = NULL;
	st->caphashes = 0;
	free_n(st, st->dir, ((size_t) 1 << st->dirbits) + 1, sizeof(size_t));
	st->dir = NULL;
	free_n(st, st->seeds, st->capseeds, sizeof(tfp_pseed));
	st->seeds = NULL;
	st->capseeds = 0;
	for (uint32_t r = 0; r < st->nrows; r++)
		if (st->row_start[r] == UINT64_MAX)
			st->row_start[r] = 0;	/* never added: no candidates */
	st->wrow = alloc_n(st, n, sizeof(uint32_t));
	st->wpos = alloc_n(st, n, sizeof(uint32_t));
	if (st->wrow == NULL || st->wpos == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		st->wrow[i] = st->wpos[i] = TFP_REPEAT_NONE;
	sort_members(st, m, n, 0);
	for (size_t i = 0; i < n;)
	{
		size_t		j = i + 1;
		const rmember *m0,
				   *m1 = NULL;

		while (j < n && m[j].h1 == m[i].h1 && m[j].h2 == m[i].h2)
			j++;
		if (j - i < 2)
		{
			i = j;
			continue;
		}
		if (j - i >= 4096)
			tick(st);
		/* m0: the first member; m1: the first of another row */
		m0 = &m[i];
		for (size_t x = i + 1; x < j; x++)
			if (before(&m[x], m0))
				m0 = &m[x];
		for (size_t x = i; x < j; x++)
			if (m[x].row != m0->row && (m1 == NULL || before(&m[x], m1)))
				m1 = &m[x];
		if (m1 != NULL)
			for (size_t x = i; x < j; x++)
			{
				const rmember *w = m[x].row == m0->row ? m1 : m0;
				size_t		g = cand_index(st, m[x].row, m[x].pos);

				st->wrow[g] = w->row;
				st->wpos[g] = w->pos;
				st->repeated++;
			}
		i = j;
		if (++steps % 1048576 == 0)
			tick(st);
	}
	free_n(st, st->m, st->capc, sizeof(rmember));
	st->m = NULL;
	return 0;
}

/* ------------------------------------------------------------------------
 * Results
 * ------------------------------------------------------------------------ */

size_t
tfp_repeat_row_candidates(const tfp_repeat *st, uint32_t row)
{
	return row < st->nrows ? st->row_count[row] : 0;
}

size_t
tfp_repeat_row_spans(const tfp_repeat *st, uint32_t row, tfp_rspan *out)
{
	size_t		g0,
				cnt,
				ns = 0;

	if (row >= st->nrows || st->wrow == NULL)
		return 0;
	g0 = st->row_start[row];
	cnt = st->row_count[row];
	for (size_t i = 0; i < cnt;)
	{
		size_t		g = g0 + i,
					len = 1;
		tfp_rspan  *s;

		if (st->wrow[g] == TFP_REPEAT_NONE)
		{
			i++;
			continue;
		}
		/* extend while the next position is the next one and so is its
		 * witness */
		while (i + len < cnt &&
			   st->cpos[g + len] == st->cpos[g] + len &&
			   st->wrow[g + len] == st->wrow[g] &&
			   st->wpos[g + len] == st->wpos[g] + len)
			len++;
		s = &out[ns++];
		s->pos = st->cpos[g];
		s->units = (uint32_t) (len - 1 + st->L);
		s->other_row = st->wrow[g];
		s->other_pos = st->wpos[g];
		s->start_aux = st->aux[2 * g];
		s->end_aux = st->aux[2 * (g + len - 1) + 1];
		s->other_aux = st->aux[2 * cand_index(st, s->other_row, s->other_pos)];
		i += len;
	}
	return ns;
}

size_t
tfp_repeat_row_removed(const tfp_repeat *st, uint32_t row, tfp_rrange *out)
{
	size_t		g0,
				cnt,
				nr = 0;
	uint32_t	L = st->L;
	int64_t		end = -2;		/* last unit of the open range */

	if (row >= st->nrows || st->wrow == NULL)
		return 0;
	g0 = st->row_start[row];
	cnt = st->row_count[row];
	for (size_t i = 0; i < cnt; i++)
	{
		size_t		g = g0 + i;
		uint32_t	p = st->cpos[g];

		if (st->wrow[g] == TFP_REPEAT_NONE || st->wrow[g] >= row)
			continue;
		/* units [p, p + L) go: a new range unless they touch the open one */
		if (nr > 0 && (int64_t) p <= end + 1)
		{
			tfp_rrange *r = &out[nr - 1];

			end = (int64_t) p + L - 1;
			r->units = (uint32_t) (end - r->first + 1);
			r->end_aux = st->aux[2 * g + 1];
			continue;
		}
		out[nr].first = p;
		out[nr].units = L;
		out[nr].start_aux = st->aux[2 * g];
		out[nr].end_aux = st->aux[2 * g + 1];
		end = (int64_t) p + L - 1;
		nr++;
	}
	return nr;
}

void
tfp_repeat_get_stats(const tfp_repeat *st, tfp_repeat_stats *s)
{
	s->pass1_hashes = st->pass1_hashes ? st->pass1_hashes : st->nhashes;
	s->shared = st->pass1_hashes ? st->nhashes : 0;
	s->candidates = st->nc;
	s->repeated = st->repeated;
	s->peak_bytes = st->peak;
}

/* ------------------------------------------------------------------------
 * The reference (unit tests): every L-gram against every L-gram of every
 * other row, rows in order, through the longest common extension of every
 * pair of positions of two rows (lce[p][p'] = the number of equal keys from
 * p and p'; the L-grams are equal iff it is at least L), computed from the
 * ends backwards, a row of the table at a time.
 * ------------------------------------------------------------------------ */

void
tfp_repeat_reference(const uint64_t *const *keys, const size_t *n, uint32_t nrows,
					 uint32_t L, uint32_t **wrow, uint32_t **wpos, uint8_t **early)
{
	size_t		maxn = 1;
	uint32_t   *cur,
			   *nxt;

	for (uint32_t r = 0; r < nrows; r++)
	{
		if (n[r] + 1 > maxn)
			maxn = n[r] + 1;
		for (size_t p = 0; p < n[r]; p++)
		{
			wrow[r][p] = wpos[r][p] = TFP_REPEAT_NONE;
			early[r][p] = 0;
		}
	}
	cur = calloc(maxn, sizeof(uint32_t));
	nxt = calloc(maxn, sizeof(uint32_t));
	for (uint32_t r = 0; r < nrows; r++)
		for (uint32_t o = 0; o < nrows; o++)
		{
			const uint64_t *a = keys[r],
					   *b = keys[o];
			size_t		na = n[r],
						nb = n[o];

			if (o == r || na < L || nb < L)
				continue;
			memset(nxt, 0, (nb + 1) * sizeof(uint32_t));
			for (size_t p = na; p-- > 0;)
			{
				cur[nb] = 0;
				for (size_t q = nb; q-- > 0;)
					cur[q] = a[p] == b[q] ? nxt[q + 1] + 1 : 0;
				if (p + L <= na &&
					(wrow[r][p] == TFP_REPEAT_NONE || (o < r && !early[r][p])))
				{
					/* the first equal L-gram of o; the witness if the rows
					 * before o had none */
					for (size_t q = 0; q + L <= nb; q++)
						if (cur[q] >= L)
						{
							if (wrow[r][p] == TFP_REPEAT_NONE)
							{
								wrow[r][p] = o;
								wpos[r][p] = (uint32_t) q;
							}
							if (o < r)
								early[r][p] = 1;
							break;
						}
				}
				{
					uint32_t   *t = cur;

					cur = nxt;
					nxt = t;
				}
			}
		}
	free(cur);
	free(nxt);
}
