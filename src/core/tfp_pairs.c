/*
 * tfp_pairs.c -- all pairs within a Hamming radius by sorted block-subset
 * tables, and a union-find (tfp_pairs.h)
 */
#include <math.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_pairs.h"

/* bits per radix-sort pass (2,048 counters: in L1) */
#define RADIX_BITS	11
/* interrupt checks: every this many rows, entries or comparisons */
#define TICK_EVERY	65536

/*
 * Cost model, in nanoseconds, measured on the development machine
 * (test/bench/pairs.sh): per row and table, computing and storing its entry;
 * per entry and radix pass; per candidate comparison in a run.
 */
#define COST_KEY	2.5
#define COST_PASS	3.0
#define COST_CMP	3.5

static uint64_t
binomial(int n, int k)
{
	uint64_t	c = 1;

	if (k < 0 || k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	/* c * (n - i) / (i + 1) stays exact: c is C(n, i) */
	for (int i = 0; i < k; i++)
	{
		c = c * (uint64_t) (n - i) / (uint64_t) (i + 1);
		if (c > ((uint64_t) 1 << 40))
			return (uint64_t) 1 << 40;	/* more than any plan allows */
	}
	return c;
}

/* bits of a row index: enough for n - 1, at least 1 */
static int
index_bits(uint64_t n)
{
	int			b = 1;

	while (b < 63 && (n - 1) >> b)
		b++;
	return b;
}

double
tfp_pairs_cost(uint64_t n, int radius, int nblocks)
{
	int			t = nblocks - radius;
	double		tables = (double) binomial(nblocks, t),
				pairs = (double) n * ((double) n - 1) / 2,
				p,
				passes;

	if (t == 0)
		return pairs * COST_CMP;
	/* average key length, as cut to fit beside the row index */
	p = 64.0 * t / nblocks;
	if (p > 64 - index_bits(n))
		p = 64 - index_bits(n);
	passes = ceil(p / RADIX_BITS);
	return tables * ((double) n * (COST_KEY + passes * COST_PASS) +
					 pairs * ldexp(1.0, -(int) p) * COST_CMP);
}

int
tfp_pairs_make_plan(tfp_pairs_plan *p, uint64_t n, int radius, int nblocks)
{
	int			pos = 0;

	if (radius < 0 || radius > TFP_PAIRS_MAX_RADIUS || n > ((uint64_t) 1 << 40))
		return -1;
	if (nblocks > 0)
	{
		if (nblocks < radius || nblocks > 64 ||
			binomial(nblocks, radius) > TFP_PAIRS_MAX_TABLES)
			return -1;
		p->cost = tfp_pairs_cost(n, radius, nblocks);
	}
	else
	{
		/* the cheapest B from r (one table of all pairs) up */
		for (int b = radius > 0 ? radius : 1; b <= 64; b++)
		{
			double		c;

			if (binomial(b, radius) > TFP_PAIRS_MAX_TABLES)
				break;			/* C(B, r) only grows with B */
			c = tfp_pairs_cost(n, radius, b);
			if (nblocks == 0 || c < p->cost)
			{
				nblocks = b;
				p->cost = c;
			}
		}
	}
	p->radius = radius;
	p->nblocks = nblocks;
	p->tblocks = nblocks - radius;
	p->ntables = binomial(nblocks, p->tblocks);
	p->idxbits = index_bits(n > 0 ? n : 1);
	/* 64 = q B + rem: the first rem blocks have q + 1 bits */
	for (int b = 0; b < nblocks; b++)
	{
		p->off[b] = (uint8_t) pos;
		p->len[b] = (uint8_t) (64 / nblocks + (b < 64 % nblocks ? 1 : 0));
		pos += p->len[b];
	}
	return 0;
}

/* The tables are the t-subsets of the B blocks, as bit sets, in increasing order. */
uint64_t
tfp_pairs_first_table(const tfp_pairs_plan *p)
{
	return p->tblocks == 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << p->tblocks) - 1;
}

uint64_t
tfp_pairs_next_table(const tfp_pairs_plan *p, uint64_t s)
{
	uint64_t	low,
				ripple;

	if (s == 0)
		return 0;				/* t = 0: the one empty table */
	/* the next larger number with as many bits set (Gosper) */
	low = s & -s;
	ripple = s + low;
	if (ripple == 0)
		return 0;				/* the bits were the top ones of 64 */
	s = ripple | (((s ^ ripple) >> 2) / low);
	return p->nblocks < 64 && (s >> p->nblocks) != 0 ? 0 : s;
}

static uint64_t
low_mask(int w)
{
	return w >= 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << w) - 1;
}

void
tfp_pairs_table_init(const tfp_pairs_plan *p, uint64_t blocks, tfp_pairs_table *t)
{
	int			pos = 64,
				b,
				top = -1;

	memset(t, 0, sizeof(*t));
	t->blocks = blocks;
	/* key parts, the highest block first: runs of adjacent blocks merged */
	for (b = p->nblocks - 1; b >= 0; b--)
	{
		int			lo = b,
					w;

		if (!((blocks >> b) & 1))
			continue;
		if (top < 0)
			top = b;
		while (lo > 0 && ((blocks >> (lo - 1)) & 1))
			lo--;
		w = p->off[b] + p->len[b] - p->off[lo];
		pos -= w;
		t->part_off[t->nparts] = p->off[lo];
		t->part_mask[t->nparts] = low_mask(w);
		t->part_shift[t->nparts] = (uint8_t) pos;
		t->nparts++;
		t->keymask |= low_mask(w) << p->off[lo];
		b = lo;
	}
	t->prefix_bits = 64 - pos;
	for (b = 0; b < top; b++)
		if (!((blocks >> b) & 1))
			t->beforemask[t->nbefore++] = low_mask(p->len[b]) << p->off[b];
	/* sort on the key's bits that fit above the row index */
	t->sort_lo = 64 - t->prefix_bits;
	if (t->sort_lo < p->idxbits)
		t->sort_lo = p->idxbits;
}

/*
 * Which table reports a pair.  Let A be the set of blocks on which the two
 * fingerprints agree and h the highest block of S.  Table S reports the
 * pair iff they agree on every block of S (S is a subset of A) and on no
 * block below h outside S.
 *
 * Claim: a pair at distance d <= r is reported by exactly one table, the
 * one whose S is F, the t lowest blocks of A; and that table finds it.
 * - F exists: the d differing bits lie in at most d blocks, so A has at
 *   least B - d >= B - r = t blocks; F is a t-subset, hence a table.
 * - F passes: F is in A, and a block of A below max(F) is one of the t
 *   lowest of A, so it is in F.
 * - No other S passes: if S passes, the blocks of A up to h are exactly S
 *   (S is in A, and A has no other block below h), so S is t blocks of A
 *   all lower than every other block of A: S = F.
 * - Table F finds the pair: both fingerprints have the same F bits, hence
 *   equal keys, equal entries above the row index (the key cut to fit
 *   there is still equal), hence the same range when the table is done in
 *   parts (range_of), so they are in one run, where every two members are
 *   compared.
 * A pair at distance > r is never emitted (the comparison checks d <= r),
 * and a pair is compared only within one run of one table, once.  With
 * t = 0 the only table is S = {} and passes every pair.
 */
int
tfp_pairs_reported_by(const tfp_pairs_table *t, uint64_t a, uint64_t b)
{
	uint64_t	x = a ^ b;

	if (x & t->keymask)
		return 0;
	for (int i = 0; i < t->nbefore; i++)
		if ((x & t->beforemask[i]) == 0)
			return 0;
	return 1;
}

void
tfp_radix_sort_u64(uint64_t *e, size_t n, uint64_t *tmp, int lo, tfp_tick_fn tick)
{
	size_t		count[1 << RADIX_BITS];
	int			bits = 64 - lo,
				npass = (bits + RADIX_BITS - 1) / RADIX_BITS,
				shift = lo;
	uint64_t   *src = e,
			   *dst = tmp;

	for (int pass = 0; pass < npass; pass++)
	{
		/* equal widths: the remainder of bits / npass goes to the first passes */
		int			w = bits / npass + (pass < bits % npass ? 1 : 0);
		size_t		nb = (size_t) 1 << w,
					sum = 0;
		uint64_t   *x;

		memset(count, 0, nb * sizeof(size_t));
		for (size_t i = 0; i < n; i++)
			count[(src[i] >> shift) & (nb - 1)]++;
		for (size_t k = 0; k < nb; k++)
		{
			size_t		c = count[k];

			count[k] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
		{
			if (tick && (i % TICK_EVERY) == 0)
				tick();
			dst[count[(src[i] >> shift) & (nb - 1)]++] = src[i];
		}
		shift += w;
		x = src;
		src = dst;
		dst = x;
	}
	if (src != e)
		memcpy(e, src, n * sizeof(uint64_t));
}

/*
 * The range a row belongs to when a table is processed in parts: 16 bits of
 * a hash of its entry's key bits, so that rows with equal keys share a
 * range whatever the data (a fingerprint set with constant bits spreads
 * over the ranges all the same); only rows with one equal key can crowd one.
 */
static inline uint32_t
range_of(uint64_t cutkey)
{
	return (uint32_t) ((cutkey * UINT64_C(0x9E3779B97F4A7C15)) >> 48);
}

/* entries of the rows whose range is in [lo, hi); returns count */
static size_t
build_entries(const tfp_pairs_plan *p, const tfp_pairs_table *t, const uint64_t *fp,
			  size_t n, uint32_t lo, uint32_t hi, uint64_t *e, tfp_tick_fn tick)
{
	uint64_t	keep = ~low_mask(p->idxbits);
	size_t		m = 0;
	int			all = (lo == 0 && hi == TFP_PAIRS_HIST);

	for (size_t i = 0; i < n; i++)
	{
		uint64_t	k = tfp_pairs_key(t, fp[i]) & keep;

		if (tick && (i % TICK_EVERY) == 0)
			tick();
		if (all || range_of(k) - lo < hi - lo)
			e[m++] = k | (uint64_t) i;
	}
	return m;
}

/*
 * Compare the members of every run of equal entries (above the row index):
 * emit the pairs within the radius that table t reports.  Returns the
 * number of comparisons, or -2 if emit asked to stop.
 */
static int64_t
scan_runs(const tfp_pairs_plan *p, const tfp_pairs_table *t, const uint64_t *e,
		  size_t m, const uint64_t *fp, tfp_pair_emit emit, void *arg, tfp_tick_fn tick)
{
	int			ib = p->idxbits,
				r = p->radius;
	uint64_t	imask = low_mask(ib);
	int64_t		cmp = 0;
	size_t		s = 0,
				since = 0;

	while (s < m)
	{
		uint64_t	key = e[s] >> ib;
		size_t		f = s + 1;

		while (f < m && (e[f] >> ib) == key)
			f++;
		for (size_t a = s; a + 1 < f; a++)
		{
			size_t		ia = (size_t) (e[a] & imask);
			uint64_t	fa = fp[ia];

			for (size_t b = a + 1; b < f; b++)
			{
				size_t		ibb = (size_t) (e[b] & imask);
				int			d = tfp_popcount64(fa ^ fp[ibb]);

				if (d <= r && tfp_pairs_reported_by(t, fa, fp[ibb]) &&
					emit(arg, ia, ibb, d))
					return -2;
			}
			cmp += (int64_t) (f - a - 1);
			since += f - a;
			if (tick && since >= TICK_EVERY)
			{
				tick();
				since = 0;
			}
		}
		s = f;
	}
	return cmp;
}

int64_t
tfp_pairs_run_table(const tfp_pairs_plan *p, const tfp_pairs_table *t,
					const uint64_t *fp, size_t n, uint64_t *e, uint64_t *tmp,
					size_t cap, uint32_t *hist, size_t *heavy,
					tfp_pair_emit emit, void *arg, tfp_tick_fn tick)
{
	int64_t		total = 0;
	uint32_t	lo = 0;

	if (cap < n)
	{
		/* how many rows each range holds */
		uint64_t	keep = ~low_mask(p->idxbits);

		memset(hist, 0, TFP_PAIRS_HIST * sizeof(uint32_t));
		for (size_t i = 0; i < n; i++)
		{
			if (tick && (i % TICK_EVERY) == 0)
				tick();
			hist[range_of(tfp_pairs_key(t, fp[i]) & keep)]++;
		}
	}
	while (lo < TFP_PAIRS_HIST)
	{
		uint32_t	hi = TFP_PAIRS_HIST;
		size_t		m;
		int64_t		c;

		if (cap < n)
		{
			/* the longest range from lo that fits */
			size_t		sum = 0;

			if (hist[lo] > cap)
			{
				*heavy = hist[lo];
				return -1;
			}
			for (hi = lo; hi < TFP_PAIRS_HIST && sum + hist[hi] <= cap; hi++)
				sum += hist[hi];
		}
		m = build_entries(p, t, fp, n, lo, hi, e, tick);
		if (m > 1)
		{
			tfp_radix_sort_u64(e, m, tmp, t->sort_lo, tick);
			c = scan_runs(p, t, e, m, fp, emit, arg, tick);
			if (c < 0)
				return c;
			total += c;
		}
		lo = hi;
	}
	return total;
}

void
tfp_uf_make(tfp_uf *u, uint32_t node, int64_t key)
{
	u->parent[node] = node;
	u->size[node] = 1;
	u->minkey[node] = key;
}

uint32_t
tfp_uf_find(tfp_uf *u, uint32_t x)
{
	uint32_t	root = x;

	while (u->parent[root] != root)
		root = u->parent[root];
	/* path compression: every node on the way points at the root */
	while (u->parent[x] != root)
	{
		uint32_t	next = u->parent[x];

		u->parent[x] = root;
		x = next;
	}
	return root;
}

void
tfp_uf_union(tfp_uf *u, uint32_t a, uint32_t b)
{
	a = tfp_uf_find(u, a);
	b = tfp_uf_find(u, b);
	if (a == b)
		return;
	/* the larger component's root stays root (union by size) */
	if (u->size[a] < u->size[b])
	{
		uint32_t	x = a;

		a = b;
		b = x;
	}
	u->parent[b] = a;
	u->size[a] += u->size[b];
	if (u->minkey[b] < u->minkey[a])
		u->minkey[a] = u->minkey[b];
}
