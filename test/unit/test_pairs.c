/*
 * test_pairs.c -- unit tests of tfp_pairs.c: the table scheme finds exactly
 * the pairs a comparison of all pairs finds (every radius, forced block
 * counts, ranges forced by small buffers), the report rule picks one table
 * per pair, the radix sort sorts, the union-find labels components.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tfp_core.h"
#include "tfp_pairs.h"

static uint64_t
rnd64(void)
{
	return ((uint64_t) rnd(1u << 31) << 33) ^ ((uint64_t) rnd(1u << 31) << 2) ^ rnd(4);
}

/* n fingerprints: random, plus near-duplicates (1..6 bits) and exact copies */
static void
make_fps(uint64_t *fp, size_t n, uint64_t prefix_mask)
{
	for (size_t i = 0; i < n; i++)
	{
		if (i > 0 && rnd(3) == 0)
		{
			uint64_t	v = fp[rnd((uint32_t) i)];
			int			flips = (int) rnd(7);

			for (int k = 0; k < flips; k++)
				v ^= (uint64_t) 1 << rnd(64);
			fp[i] = v;
		}
		else
			fp[i] = rnd64() & ~prefix_mask;
	}
}

typedef struct pairlist
{
	uint64_t   *v;				/* i << 40 | j << 8 | d */
	size_t		n,
				cap;
} pairlist;

static int
add_pair(void *arg, size_t i, size_t j, int d)
{
	pairlist   *l = arg;

	if (l->n == l->cap)
	{
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->v = realloc(l->v, l->cap * sizeof(uint64_t));
	}
	l->v[l->n++] = ((uint64_t) i << 40) | ((uint64_t) j << 8) | (uint64_t) d;
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a,
				y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

static void
brute(const uint64_t *fp, size_t n, int r, pairlist *l)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
		{
			int			d = tfp_popcount64(fp[i] ^ fp[j]);

			if (d <= r)
				add_pair(l, i, j, d);
		}
}

/* the pairs of every table of the plan; cap limits the buffers (ranges) */
static int64_t
all_tables(const tfp_pairs_plan *p, const uint64_t *fp, size_t n, size_t cap, pairlist *l)
{
	uint64_t   *e = malloc((cap + 1) * sizeof(uint64_t)),
			   *tmp = malloc((cap + 1) * sizeof(uint64_t));
	uint32_t   *hist = malloc(TFP_PAIRS_HIST * sizeof(uint32_t));
	int64_t		total = 0;
	size_t		heavy = 0;

	uint64_t	s = tfp_pairs_first_table(p);

	do
	{
		tfp_pairs_table t;
		int64_t		c;

		tfp_pairs_table_init(p, s, &t);
		c = tfp_pairs_run_table(p, &t, fp, n, e, tmp, cap, hist, &heavy, add_pair, l, NULL);
		if (c < 0)
			return c;
		total += c;
	} while ((s = tfp_pairs_next_table(p, s)) != 0);
	free(e);
	free(tmp);
	free(hist);
	return total;
}

static int
same_pairs(pairlist *a, pairlist *b)
{
	qsort(a->v, a->n, sizeof(uint64_t), cmp_u64);
	qsort(b->v, b->n, sizeof(uint64_t), cmp_u64);
	return a->n == b->n && (a->n == 0 || memcmp(a->v, b->v, a->n * sizeof(uint64_t)) == 0);
}

static void
test_exact(void)
{
	size_t		n = 3000;
	uint64_t   *fp = malloc(n * sizeof(uint64_t));
	char		what[200];
	int			ok_all = 1,
				nonempty = 0,
				refused = 0;

	for (int round = 0; round < 3; round++)
	{
		/* round 2: the top 20 bits zero, so keys collide a lot */
		make_fps(fp, n, round == 2 ? ~(~(uint64_t) 0 >> 20) : 0);
		for (int r = 0; r <= 9; r++)
		{
			pairlist	want = {0};

			brute(fp, n, r, &want);
			nonempty += want.n > 0;
			for (int b = (r > 0 ? r : 1); b <= r + 4 && b <= 64; b++)
			{
				for (int capi = 0; capi < 2; capi++)
				{
					tfp_pairs_plan p;
					pairlist	got = {0};
					size_t		cap = capi ? n / 3 : n;
					int64_t		c;

					if (tfp_pairs_make_plan(&p, n, r, b) != 0)
						continue;
					c = all_tables(&p, fp, n, cap, &got);
					/*
					 * refused in parts: the one table of all rows, and keys
					 * shared by more than cap rows (round 2: 20 constant bits)
					 */
					if (c == -1 && capi && (p.tblocks == 0 || round == 2))
						refused += round < 2;
					else if (c < 0 || !same_pairs(&want, &got))
					{
						snprintf(what, sizeof(what),
								 "round %d r=%d B=%d cap=%zu: %zu pairs, want %zu (c=%lld)",
								 round, r, b, cap, got.n, want.n, (long long) c);
						check(0, what);
						ok_all = 0;
					}
					free(got.v);
				}
			}
			free(want.v);
		}
	}
	check(ok_all, "every radius 0..9, B = r..r+4, whole and in ranges: the pairs of the brute-force comparison, each once");
	check(nonempty >= 27, "the brute-force answers are not empty");
	check(refused == 18, "in parts, on random data only the tables of all rows (t = 0) are refused");
	free(fp);
}

static void
test_rule(void)
{
	int			ok = 1;

	for (int iter = 0; iter < 3000; iter++)
	{
		int			r = (int) rnd(9),
					b = r + 1 + (int) rnd(4);
		tfp_pairs_plan p;
		uint64_t	a = rnd64(),
					x = a;
		int			flips = (int) rnd(12),
					d,
					count = 0;

		if (tfp_pairs_make_plan(&p, 1000, r, b) != 0)
			continue;
		for (int k = 0; k < flips; k++)
			x ^= (uint64_t) 1 << rnd(64);
		d = tfp_popcount64(a ^ x);
		for (uint64_t s = tfp_pairs_first_table(&p); s; s = tfp_pairs_next_table(&p, s))
		{
			tfp_pairs_table t;

			tfp_pairs_table_init(&p, s, &t);
			count += tfp_pairs_reported_by(&t, a, x);
		}
		if (d <= r ? count != 1 : count > 1)
			ok = 0;
	}
	check(ok, "report rule: a pair within r is reported by exactly one table");
}

static void
test_plan(void)
{
	tfp_pairs_plan p;
	uint64_t	count = 0;
	int			ok = 1;

	check(tfp_pairs_make_plan(&p, 1000, -1, 0) == -1, "radius -1 rejected");
	check(tfp_pairs_make_plan(&p, 1000, TFP_PAIRS_MAX_RADIUS + 1, 0) == -1, "radius above the maximum rejected");
	check(tfp_pairs_make_plan(&p, 1000, 3, 2) == -1, "B < r rejected");
	for (int r = 0; r <= TFP_PAIRS_MAX_RADIUS; r++)
		for (uint64_t n = 1; n <= ((uint64_t) 1 << 34); n *= 8)
		{
			int			sum = 0;

			if (tfp_pairs_make_plan(&p, n, r, 0) != 0 || p.nblocks < r ||
				p.ntables > TFP_PAIRS_MAX_TABLES)
				ok = 0;
			for (int b = 0; b < p.nblocks; b++)
				sum += p.len[b];
			if (sum != 64 || p.off[p.nblocks - 1] + p.len[p.nblocks - 1] != 64)
				ok = 0;
		}
	check(ok, "plans for every radius and size: blocks cover 64 bits, tables within bounds");
	tfp_pairs_make_plan(&p, 1000, 3, 6);
	for (uint64_t s = tfp_pairs_first_table(&p); s; s = tfp_pairs_next_table(&p, s))
		count++;
	check(count == 20 && p.ntables == 20, "B = 6, r = 3: the 20 subsets of 3 blocks");
	tfp_pairs_make_plan(&p, 1000000, 3, 0);
	check(p.nblocks >= 4 && p.nblocks <= 6, "1M at radius 3: 4 to 6 blocks");
}

static void
test_sort(void)
{
	size_t		n = 100000;
	uint64_t   *a = malloc(n * sizeof(uint64_t)),
			   *b = malloc(n * sizeof(uint64_t)),
			   *tmp = malloc(n * sizeof(uint64_t));
	int			ok = 1;

	for (int lo = 0; lo <= 60; lo += 7)
	{
		for (size_t i = 0; i < n; i++)
			a[i] = b[i] = rnd64() >> (rnd(2) * 20);
		tfp_radix_sort_u64(a, n, tmp, lo, NULL);
		for (size_t i = 1; i < n; i++)
			if ((a[i - 1] >> lo) > (a[i] >> lo))
				ok = 0;
		/* a permutation of the input */
		qsort(a, n, sizeof(uint64_t), cmp_u64);
		qsort(b, n, sizeof(uint64_t), cmp_u64);
		if (memcmp(a, b, n * sizeof(uint64_t)) != 0)
			ok = 0;
	}
	check(ok, "radix sort on bits [lo, 64): sorted permutation");
	free(a);
	free(b);
	free(tmp);
}

static void
test_heavy(void)
{
	tfp_pairs_plan p;
	tfp_pairs_table t;
	size_t		n = 2000,
				heavy = 0;
	uint64_t   *fp = calloc(n, sizeof(uint64_t)),
			   *e = malloc(100 * sizeof(uint64_t)),
			   *tmp = malloc(100 * sizeof(uint64_t));
	uint32_t   *hist = malloc(TFP_PAIRS_HIST * sizeof(uint32_t));
	pairlist	l = {0};

	tfp_pairs_make_plan(&p, n, 3, 4);
	tfp_pairs_table_init(&p, tfp_pairs_first_table(&p), &t);
	check(tfp_pairs_run_table(&p, &t, fp, n, e, tmp, 100, hist, &heavy, add_pair, &l, NULL) == -1 &&
		  heavy == n, "2000 equal keys in buffers of 100: refused, size reported");
	free(fp);
	free(e);
	free(tmp);
	free(hist);
	free(l.v);
}

static void
test_uf(void)
{
	uint32_t	n = 5000,
				parent[5000],
				size[5000],
				label[5000];
	int64_t		minkey[5000];
	tfp_uf		u = {parent, size, minkey};
	int			ok = 1;

	for (uint32_t i = 0; i < n; i++)
	{
		tfp_uf_make(&u, i, (int64_t) (i * 7919u % n) - 100);
		label[i] = i;
	}
	for (int k = 0; k < 3000; k++)
	{
		uint32_t	a = rnd(n),
					b = rnd(n),
					la = label[a],
					lb = label[b];

		tfp_uf_union(&u, a, b);
		/* naive: relabel every node of b's component */
		for (uint32_t i = 0; i < n; i++)
			if (label[i] == lb)
				label[i] = la;
	}
	for (uint32_t i = 0; i < n; i++)
	{
		uint32_t	ri = tfp_uf_find(&u, i);
		uint32_t	cnt = 0;
		int64_t		mk = INT64_MAX;

		for (uint32_t j = 0; j < n; j++)
			if (label[j] == label[i])
			{
				cnt++;
				if ((int64_t) (j * 7919u % n) - 100 < mk)
					mk = (int64_t) (j * 7919u % n) - 100;
				if (tfp_uf_find(&u, j) != ri)
					ok = 0;
			}
		if (size[ri] != cnt || minkey[ri] != mk)
			ok = 0;
	}
	check(ok, "union-find: the components, sizes and smallest keys of a naive relabelling");
}

int
main(void)
{
	test_plan();
	test_rule();
	test_sort();
	test_heavy();
	test_uf();
	test_exact();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
