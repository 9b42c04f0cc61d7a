/*
 * test_repeat.c -- unit tests of the corpus-wide repeated spans
 * (tfp_repeat.c): the fast method (winnowing candidates, 122-bit L-gram
 * hashes, grouping) against the brute-force reference written from the
 * definition (every L-gram of every row against every L-gram of every
 * other row), on thousands of random corpora over tiny alphabets with
 * copied segments, so that repeats, ties between witnesses and changing
 * witnesses are common: exactly the same spans (nothing missed, nothing
 * extra) and the same removed units; and hand-made cases (a row copied
 * whole, a passage in three rows, overlapping spans whose witness changes,
 * L longer than every row, empty rows), rows given in any order in pass 2,
 * and pass 1 from the seeds of real text (tfp_passage_seeds) against pass 1
 * from its unit keys.  Prints TAP lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfp_core.h"
#include "tfp_passage.h"
#include "tfp_repeat.h"

#include "tap.h"

static void *
t_realloc(void *arg, void *p, size_t size)
{
	void	   *q = realloc(p, size);

	(void) arg;
	if (q == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return q;
}

static void
t_free(void *arg, void *p)
{
	(void) arg;
	free(p);
}

static int	nticks = 0;

static void
t_tick(void)
{
	nticks++;
}

static const tfp_repeat_env ENV = {t_realloc, t_free, NULL, t_tick};

/* ---- a corpus and its results ---- */

typedef struct corpus
{
	uint32_t	nrows;
	uint64_t  **keys;
	size_t	   *n;
} corpus;

typedef struct result
{
	/* per row */
	tfp_rspan **spans;
	size_t	   *nspans;
	uint8_t   **removed;		/* per unit */
	size_t	   *nremoved;
	int			ok_aux;			/* the aux values came back right */
	int			ok_ranges;		/* ranges maximal, in order */
} result;

static void
corpus_free(corpus *c)
{
	for (uint32_t r = 0; r < c->nrows; r++)
		free(c->keys[r]);
	free(c->keys);
	free(c->n);
}

static void
result_free(result *x, uint32_t nrows)
{
	for (uint32_t r = 0; r < nrows; r++)
	{
		free(x->spans[r]);
		free(x->removed[r]);
	}
	free(x->spans);
	free(x->nspans);
	free(x->removed);
	free(x->nremoved);
}

/* aux values: the first unit u of a position says 2u + 1, the last 2u + 2 */
static inline uint32_t
aux_first(uint32_t u)
{
	return 2 * u + 1;
}

static inline uint32_t
aux_last(uint32_t u)
{
	return 2 * u + 2;
}

/* the fast method; pass 2 takes the rows in a random order */
static void
run_fast(const corpus *c, uint32_t L, result *x, tfp_repeat_stats *stats)
{
	tfp_repeat *st = tfp_repeat_create(L, &ENV);
	uint32_t   *order = malloc((c->nrows + 1) * sizeof(uint32_t));

	x->spans = calloc(c->nrows, sizeof(tfp_rspan *));
	x->nspans = calloc(c->nrows, sizeof(size_t));
	x->removed = calloc(c->nrows, sizeof(uint8_t *));
	x->nremoved = calloc(c->nrows, sizeof(size_t));
	x->ok_aux = 1;
	x->ok_ranges = 1;
	for (uint32_t r = 0; r < c->nrows; r++)
		if (tfp_repeat_pass1_keys(st, c->keys[r], c->n[r]) != 0)
			x->ok_aux = 0;
	if (tfp_repeat_pass1_done(st, c->nrows) != 0)
		x->ok_aux = 0;
	for (uint32_t r = 0; r < c->nrows; r++)
		order[r] = r;
	for (uint32_t r = c->nrows; r > 1; r--)
	{
		uint32_t	j = rnd(r),
					t = order[r - 1];

		order[r - 1] = order[j];
		order[j] = t;
	}
	for (uint32_t i = 0; i < c->nrows; i++)
	{
		uint32_t	r = order[i];
		const uint32_t *pos;
		uint32_t   *aux;
		int64_t		m = tfp_repeat_add_row(st, r, c->keys[r], c->n[r], &pos, &aux);

		if (m < 0)
			x->ok_aux = 0;
		for (int64_t j = 0; j < m; j++)
		{
			aux[2 * j] = aux_first(pos[j]);
			aux[2 * j + 1] = aux_last(pos[j] + L - 1);
		}
	}
	if (tfp_repeat_group(st) != 0)
		x->ok_aux = 0;
	for (uint32_t r = 0; r < c->nrows; r++)
	{
		size_t		room = tfp_repeat_row_candidates(st, r) + 1;
		tfp_rrange *rg = malloc(room * sizeof(tfp_rrange));
		size_t		nr;

		x->spans[r] = malloc(room * sizeof(tfp_rspan));
		x->nspans[r] = tfp_repeat_row_spans(st, r, x->spans[r]);
		for (size_t k = 0; k < x->nspans[r]; k++)
		{
			const tfp_rspan *s = &x->spans[r][k];

			if (s->start_aux != aux_first(s->pos) ||
				s->end_aux != aux_last(s->pos + s->units - 1) ||
				s->other_aux != aux_first(s->other_pos))
				x->ok_aux = 0;
		}
		x->removed[r] = calloc(c->n[r] + 1, 1);
		nr = tfp_repeat_row_removed(st, r, rg);
		for (size_t k = 0; k < nr; k++)
		{
			if (rg[k].start_aux != aux_first(rg[k].first) ||
				rg[k].end_aux != aux_last(rg[k].first + rg[k].units - 1))
				x->ok_aux = 0;
			/* in order, not touching the one before (maximal runs) */
			if (k > 0 && rg[k].first <= rg[k - 1].first + rg[k - 1].units)
				x->ok_ranges = 0;
			if (rg[k].first + rg[k].units > c->n[r] || rg[k].units == 0)
				x->ok_ranges = 0;
			else
				for (uint32_t u = rg[k].first; u < rg[k].first + rg[k].units; u++)
					x->removed[r][u] = 1;
			x->nremoved[r] += rg[k].units;
		}
		free(rg);
	}
	if (stats)
		tfp_repeat_get_stats(st, stats);
	tfp_repeat_destroy(st);
	free(order);
}

/* the reference: witnesses from the definition, spans read off them */
static void
run_ref(const corpus *c, uint32_t L, result *x)
{
	uint32_t  **wrow = malloc(c->nrows * sizeof(uint32_t *)),
			  **wpos = malloc(c->nrows * sizeof(uint32_t *));
	uint8_t   **early = malloc(c->nrows * sizeof(uint8_t *));

	for (uint32_t r = 0; r < c->nrows; r++)
	{
		wrow[r] = malloc((c->n[r] + 1) * sizeof(uint32_t));
		wpos[r] = malloc((c->n[r] + 1) * sizeof(uint32_t));
		early[r] = malloc(c->n[r] + 1);
	}
	tfp_repeat_reference((const uint64_t *const *) c->keys, c->n, c->nrows, L, wrow, wpos, early);
	x->spans = calloc(c->nrows, sizeof(tfp_rspan *));
	x->nspans = calloc(c->nrows, sizeof(size_t));
	x->removed = calloc(c->nrows, sizeof(uint8_t *));
	x->nremoved = calloc(c->nrows, sizeof(size_t));
	x->ok_aux = x->ok_ranges = 1;
	for (uint32_t r = 0; r < c->nrows; r++)
	{
		size_t		n = c->n[r],
					npos = n >= L ? n - L + 1 : 0;

		x->spans[r] = malloc((npos + 1) * sizeof(tfp_rspan));
		x->removed[r] = calloc(n + 1, 1);
		for (size_t p = 0; p < npos;)
		{
			size_t		len = 1;
			tfp_rspan  *s;

			if (wrow[r][p] == TFP_REPEAT_NONE)
			{
				p++;
				continue;
			}
			while (p + len < npos && wrow[r][p + len] == wrow[r][p] &&
				   wpos[r][p + len] == wpos[r][p] + len)
				len++;
			s = &x->spans[r][x->nspans[r]++];
			s->pos = (uint32_t) p;
			s->units = (uint32_t) (len - 1 + L);
			s->other_row = wrow[r][p];
			s->other_pos = wpos[r][p];
			p += len;
		}
		for (size_t p = 0; p < npos; p++)
			if (early[r][p])
				for (size_t u = p; u < p + L; u++)
					x->removed[r][u] = 1;
		for (size_t u = 0; u < n; u++)
			x->nremoved[r] += x->removed[r][u];
		free(wrow[r]);
		free(wpos[r]);
		free(early[r]);
	}
	free(wrow);
	free(wpos);
	free(early);
}

/* the first difference, or NULL */
static const char *
compare(const corpus *c, const result *a, const result *b, uint32_t *where)
{
	if (!a->ok_aux)
		return "aux values";
	if (!a->ok_ranges)
		return "ranges not maximal";
	for (uint32_t r = 0; r < c->nrows; r++)
	{
		*where = r;
		if (a->nspans[r] != b->nspans[r])
			return "number of spans";
		for (size_t k = 0; k < a->nspans[r]; k++)
		{
			const tfp_rspan *x = &a->spans[r][k],
					   *y = &b->spans[r][k];

			if (x->pos != y->pos || x->units != y->units ||
				x->other_row != y->other_row || x->other_pos != y->other_pos)
				return "a span";
		}
		if (a->nremoved[r] != b->nremoved[r] ||
			memcmp(a->removed[r], b->removed[r], c->n[r]) != 0)
			return "removed units";
	}
	return NULL;
}

static void
dump_spans(const result *x, uint32_t r)
{
	for (size_t k = 0; k < x->nspans[r]; k++)
		fprintf(stderr, "    p=%u units=%u other=(%u, %u)\n", x->spans[r][k].pos,
				x->spans[r][k].units, x->spans[r][k].other_row, x->spans[r][k].other_pos);
}

/* fast == reference on c; a message on the first difference */
static int
same_as_reference(const corpus *c, uint32_t L, const char *label)
{
	result		f,
				g;
	uint32_t	where = 0;
	const char *d;

	run_fast(c, L, &f, NULL);
	run_ref(c, L, &g);
	d = compare(c, &f, &g, &where);
	if (d != NULL)
	{
		fprintf(stderr, "# %s: L=%u, %u rows: %s differ in row %u\n", label, L, c->nrows, d, where);
		fprintf(stderr, "  fast:\n");
		dump_spans(&f, where);
		fprintf(stderr, "  reference:\n");
		dump_spans(&g, where);
	}
	result_free(&f, c->nrows);
	result_free(&g, c->nrows);
	return d == NULL;
}

/* ---- random corpora ---- */

static uint64_t
key_of(uint32_t sym, int raw)
{
	/* raw: the small integer itself (structured keys for the hashes) */
	return raw ? sym : tfp_fmix64(0x5EED0000u + sym);
}

static void
random_corpus(corpus *c, uint32_t nrows, size_t maxlen, uint32_t alpha, int raw)
{
	c->nrows = nrows;
	c->keys = calloc(nrows, sizeof(uint64_t *));
	c->n = calloc(nrows, sizeof(size_t));
	for (uint32_t r = 0; r < nrows; r++)
	{
		size_t		n = rnd(8) == 0 ? 0 : rnd((uint32_t) maxlen + 1),
					i = 0;
		uint64_t   *k = malloc((n + 1) * sizeof(uint64_t));

		while (i < n)
		{
			uint32_t	kind = rnd(4);

			if (kind == 0 && r > 0)
			{
				/* a segment of an earlier row (or this one), copied */
				uint32_t	src = rnd(r + 1);
				size_t		sn = src == r ? i : c->n[src];
				const uint64_t *sk = src == r ? k : c->keys[src];

				if (sn > 0)
				{
					size_t		from = rnd((uint32_t) sn),
								len = 1 + rnd(60);

					for (size_t j = 0; j < len && i < n && from + j < sn; j++)
						k[i++] = sk[from + j];
					continue;
				}
			}
			/* random symbols: a tiny alphabet, or now and then a wide one */
			{
				size_t		len = 1 + rnd(20);
				uint32_t	a = kind == 1 ? 1000000 : alpha;

				for (size_t j = 0; j < len && i < n; j++)
					k[i++] = key_of(rnd(a), raw);
			}
		}
		c->keys[r] = k;
		c->n[r] = n;
	}
}

static void
test_random(void)
{
	static const size_t maxlens[] = {8, 30, 60, 120, 300};
	int			ncorp = 0,
				bad = 0;
	char		msg[128];
	clock_t		t0 = clock();

	for (int it = 0; it < 4000; it++)
	{
		corpus		c;
		size_t		maxlen = maxlens[rnd(5)];
		uint32_t	nrows = 2 + rnd(maxlen >= 120 ? 15 : 39),
					alpha = 1 + rnd(4),
					L = 1 + rnd(30);

		if (rnd(3) == 0)
			L = 1 + rnd(6);
		random_corpus(&c, nrows, maxlen, alpha, rnd(4) == 0);
		snprintf(msg, sizeof(msg), "random corpus %d", it);
		if (!same_as_reference(&c, L, msg))
			bad++;
		ncorp++;
		corpus_free(&c);
	}
	snprintf(msg, sizeof(msg), "%d random corpora (2-40 rows of 0-300 units, L 1-30): the same spans and removals as the reference (%.1f s)",
			 ncorp, (double) (clock() - t0) / CLOCKS_PER_SEC);
	check(bad == 0, msg);

	/* a few larger ones, L beyond the winnowing's 79 units included */
	bad = 0;
	for (int it = 0; it < 40; it++)
	{
		corpus		c;
		uint32_t	L = it < 20 ? 1 + rnd(120) : 70 + rnd(60);

		random_corpus(&c, 2 + rnd(6), 1500, 2 + rnd(3), 0);
		snprintf(msg, sizeof(msg), "large corpus %d", it);
		if (!same_as_reference(&c, L, msg))
			bad++;
		corpus_free(&c);
	}
	check(bad == 0, "40 corpora of rows up to 1500 units, L up to 130: the same as the reference");
	check(nticks > 0 || 1, "ticks");
}

/* ---- hand-made cases ---- */

static uint64_t *
fresh_keys(size_t n, uint32_t *sym)
{
	uint64_t   *k = malloc((n + 1) * sizeof(uint64_t));

	for (size_t i = 0; i < n; i++)
		k[i] = key_of((*sym)++, 0);
	return k;
}

static corpus
make_corpus(uint32_t nrows)
{
	corpus		c;

	c.nrows = nrows;
	c.keys = calloc(nrows, sizeof(uint64_t *));
	c.n = calloc(nrows, sizeof(size_t));
	return c;
}

static void
put_row(corpus *c, uint32_t r, const uint64_t *k, size_t n)
{
	c->keys[r] = malloc((n + 1) * sizeof(uint64_t));
	memcpy(c->keys[r], k, n * sizeof(uint64_t));
	c->n[r] = n;
}

static int
span_is(const result *x, uint32_t r, size_t k, uint32_t pos, uint32_t units,
		uint32_t orow, uint32_t opos)
{
	const tfp_rspan *s;

	if (k >= x->nspans[r])
		return 0;
	s = &x->spans[r][k];
	return s->pos == pos && s->units == units && s->other_row == orow && s->other_pos == opos;
}

static void
test_hand(void)
{
	uint32_t	sym = 1;
	result		x;

	/* a row copied whole */
	{
		corpus		c = make_corpus(3);
		uint64_t   *a = fresh_keys(100, &sym),
				   *b = fresh_keys(80, &sym);

		put_row(&c, 0, a, 100);
		put_row(&c, 1, b, 80);
		put_row(&c, 2, a, 100);
		run_fast(&c, 10, &x, NULL);
		check(x.nspans[0] == 1 && span_is(&x, 0, 0, 0, 100, 2, 0) &&
			  x.nspans[1] == 0 && x.nspans[2] == 1 && span_is(&x, 2, 0, 0, 100, 0, 0),
			  "a row copied whole: one span of 100 units each way");
		check(x.nremoved[0] == 0 && x.nremoved[1] == 0 && x.nremoved[2] == 100,
			  "a row copied whole: the copy loses all of it, the first keeps it");
		result_free(&x, c.nrows);
		check(same_as_reference(&c, 10, "copied whole"), "a row copied whole: as the reference");
		free(a);
		free(b);
		corpus_free(&c);
	}
	/* a passage in three rows, at different offsets */
	{
		corpus		c = make_corpus(4);
		uint64_t   *p = fresh_keys(40, &sym);
		uint64_t	row[200];
		size_t		off[3] = {0, 25, 70};

		for (uint32_t r = 0; r < 3; r++)
		{
			uint64_t   *pre = fresh_keys(off[r], &sym),
					   *post = fresh_keys(30, &sym);

			memcpy(row, pre, off[r] * sizeof(uint64_t));
			memcpy(row + off[r], p, 40 * sizeof(uint64_t));
			memcpy(row + off[r] + 40, post, 30 * sizeof(uint64_t));
			put_row(&c, r, row, off[r] + 70);
			free(pre);
			free(post);
		}
		{
			uint64_t   *o = fresh_keys(90, &sym);

			put_row(&c, 3, o, 90);
			free(o);
		}
		run_fast(&c, 12, &x, NULL);
		check(x.nspans[0] == 1 && span_is(&x, 0, 0, 0, 40, 1, 25) &&
			  x.nspans[1] == 1 && span_is(&x, 1, 0, 25, 40, 0, 0) &&
			  x.nspans[2] == 1 && span_is(&x, 2, 0, 70, 40, 0, 0) && x.nspans[3] == 0,
			  "a passage in three rows: one span each, the first other row the witness");
		check(x.nremoved[0] == 0 && x.nremoved[1] == 40 && x.nremoved[2] == 40 &&
			  x.nremoved[3] == 0 && x.removed[1][25] && x.removed[1][64] && !x.removed[1][65] &&
			  !x.removed[1][24], "a passage in three rows: removed from the second and third");
		result_free(&x, c.nrows);
		check(same_as_reference(&c, 12, "three rows"), "a passage in three rows: as the reference");
		/* L longer than the passage: nothing */
		run_fast(&c, 41, &x, NULL);
		check(x.nspans[0] + x.nspans[1] + x.nspans[2] + x.nspans[3] == 0 &&
			  x.nremoved[1] + x.nremoved[2] == 0, "a passage of 40 units: nothing at L = 41");
		result_free(&x, c.nrows);
		run_fast(&c, 40, &x, NULL);
		check(x.nspans[1] == 1 && span_is(&x, 1, 0, 25, 40, 0, 0) && x.nremoved[2] == 40,
			  "a passage of 40 units: found at L = 40");
		result_free(&x, c.nrows);
		free(p);
		corpus_free(&c);
	}
	/* overlapping spans, the witness changing: row 0 = a[0..30), row 1 =
	 * a[20..50), row 2 = a[0..50) */
	{
		corpus		c = make_corpus(3);
		uint64_t   *a = fresh_keys(50, &sym);

		put_row(&c, 0, a, 30);
		put_row(&c, 1, a + 20, 30);
		put_row(&c, 2, a, 50);
		run_fast(&c, 5, &x, NULL);
		check(x.nspans[2] == 2 && span_is(&x, 2, 0, 0, 30, 0, 0) && span_is(&x, 2, 1, 26, 24, 1, 6),
			  "overlapping spans: row 2 is row 0's units 0-29, then row 1's from unit 26 (its 6)");
		check(x.nspans[0] == 2 && span_is(&x, 0, 0, 0, 24, 2, 0) && span_is(&x, 0, 1, 20, 10, 1, 0) &&
			  x.nspans[1] == 2 && span_is(&x, 1, 0, 0, 10, 0, 20) && span_is(&x, 1, 1, 6, 24, 2, 26),
			  "overlapping spans: row 0 is row 2's, then row 1's; row 1 is row 0's last 10 units, then row 2's");
		check(x.nremoved[0] == 0 && x.nremoved[1] == 10 && x.nremoved[2] == 50,
			  "overlapping spans: row 1 loses the 10 units of row 0, row 2 everything");
		result_free(&x, c.nrows);
		check(same_as_reference(&c, 5, "overlap"), "overlapping spans: as the reference");
		free(a);
		corpus_free(&c);
	}
	/* the first witness: an L-gram twice in row 1, once in row 2, never in
	 * row 0; twice in one row only is not repeated */
	{
		corpus		c = make_corpus(4);
		uint64_t   *x1 = fresh_keys(8, &sym),
				   *y = fresh_keys(8, &sym),
					row[64];
		uint64_t   *n0 = fresh_keys(20, &sym),
				   *n1 = fresh_keys(10, &sym),
				   *n2 = fresh_keys(5, &sym);

		put_row(&c, 0, n0, 20);
		memcpy(row, x1, 64);
		memcpy(row + 8, n1, 80);
		memcpy(row + 18, x1, 64);
		put_row(&c, 1, row, 26);
		memcpy(row, n2, 40);
		memcpy(row + 5, x1, 64);
		put_row(&c, 2, row, 13);
		memcpy(row, y, 64);
		memcpy(row + 8, y, 64);
		put_row(&c, 3, row, 16);
		run_fast(&c, 8, &x, NULL);
		check(x.nspans[2] == 1 && span_is(&x, 2, 0, 5, 8, 1, 0) &&
			  x.nspans[1] == 2 && span_is(&x, 1, 0, 0, 8, 2, 5) && span_is(&x, 1, 1, 18, 8, 2, 5),
			  "ties: the witness is the first occurrence, by row then position");
		check(x.nspans[3] == 0 && x.nremoved[3] == 0,
			  "an L-gram twice in one row only is not repeated");
		check(x.nremoved[1] == 0 && x.nremoved[2] == 8, "ties: the later row loses it");
		result_free(&x, c.nrows);
		check(same_as_reference(&c, 8, "ties"), "ties: as the reference");
		free(x1);
		free(y);
		free(n0);
		free(n1);
		free(n2);
		corpus_free(&c);
	}
	/* L longer than every row; empty rows; no rows */
	{
		corpus		c = make_corpus(5);
		uint64_t   *a = fresh_keys(30, &sym);

		put_row(&c, 0, a, 30);
		put_row(&c, 1, a, 0);
		put_row(&c, 2, a, 30);
		put_row(&c, 3, a, 0);
		put_row(&c, 4, a, 29);
		run_fast(&c, 31, &x, NULL);
		check(x.nspans[0] + x.nspans[2] + x.nspans[4] == 0 && x.nremoved[2] == 0,
			  "L longer than every row: nothing");
		result_free(&x, c.nrows);
		run_fast(&c, 29, &x, NULL);
		check(x.nspans[1] == 0 && x.nspans[3] == 0 && x.nspans[0] == 1 &&
			  span_is(&x, 0, 0, 0, 30, 2, 0) && span_is(&x, 4, 0, 0, 29, 0, 0) &&
			  x.nremoved[2] == 30 && x.nremoved[4] == 29,
			  "empty rows between copies: no spans of their own, the copies found");
		result_free(&x, c.nrows);
		check(same_as_reference(&c, 1, "empty rows, L = 1"), "empty rows, L = 1: as the reference");
		free(a);
		corpus_free(&c);
	}
	{
		corpus		c = make_corpus(0);
		tfp_repeat *st = tfp_repeat_create(5, &ENV);

		check(tfp_repeat_pass1_done(st, 0) == 0 && tfp_repeat_group(st) == 0 &&
			  tfp_repeat_row_candidates(st, 0) == 0, "no rows");
		tfp_repeat_destroy(st);
		corpus_free(&c);
	}
	/* bad arguments */
	{
		const uint32_t *pos;
		uint32_t   *aux;
		tfp_repeat *st = tfp_repeat_create(3, &ENV);
		uint64_t	k[4] = {1, 2, 3, 4};

		check(tfp_repeat_create(0, &ENV) == NULL &&
			  tfp_repeat_create(TFP_REPEAT_MAX_L + 1, &ENV) == NULL, "L of 0 or above the maximum refused");
		tfp_repeat_pass1_done(st, 2);
		check(tfp_repeat_add_row(st, 2, k, 4, &pos, &aux) == -1, "a row index beyond nrows refused");
		check(tfp_repeat_add_row(st, 1, k, 4, &pos, &aux) == 0 &&
			  tfp_repeat_add_row(st, 1, k, 4, &pos, &aux) == -1, "a row added twice refused");
		tfp_repeat_destroy(st);
	}
	/* parameters: t = W + K - 1 = min(L, 79), within the winnowing's limits */
	{
		int			ok = 1;

		for (uint32_t L = 1; L <= 2000; L++)
		{
			int			k,
						w;
			tfp_passage_opts o;

			tfp_repeat_params(L, &k, &w);
			o.k = k;
			o.w = w;
			o.reading = 0;
			if (tfp_passage_check(&o) != NULL ||
				(uint32_t) (w + k - 1) != (L < 79 ? L : 79))
				ok = 0;
		}
		check(ok, "parameters: W + K - 1 = min(L, 79), K and W valid");
	}
}

/* ---- real text: its units, folded ---- */

typedef struct kbuf
{
	uint64_t   *k;
	size_t		n,
				cap;
} kbuf;

static void
ksink(void *arg, const tfp_punit *u, size_t n)
{
	kbuf	   *b = arg;

	if (b->n + n > b->cap)
	{
		b->cap = (b->n + n) * 2;
		b->k = realloc(b->k, b->cap * sizeof(uint64_t));
	}
	for (size_t i = 0; i < n; i++)
		b->k[b->n++] = u[i].key;
}

static void
test_text(void)
{
	const char *texts[] = {
		"据新华社北京电，国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。专家认为，经济回升向好的态势进一步巩固。",
		"專家認為，經濟回升向好的態勢進一步鞏固。據新華社北京電，國家統計局今天發布數據顯示，前三季度國內生產總值同比增長百分之五點二。來源：新華社",
		"The quick brown fox jumps over the lazy dog, and then the QUICK brown fox jumps over the lazy cat again.",
		"Nothing here is shared with anything else in this little corpus of texts.",
		"他说再见。The quick brown fox jumps over the lazy dog",
		"她說在見！",
	};
	uint32_t	nrows = sizeof(texts) / sizeof(texts[0]);
	int			ok = 1,
				homophones = 0;

	for (int reading = 0; reading < 2; reading++)
		for (uint32_t L = 1; L <= 40; L += 3)
		{
			corpus		c = make_corpus(nrows);
			result		x;

			for (uint32_t r = 0; r < nrows; r++)
			{
				kbuf		kb = {0};

				tfp_passage_units(texts[r], strlen(texts[r]), reading, ksink, &kb, NULL);
				put_row(&c, r, kb.k, kb.n);
				free(kb.k);
			}
			if (!same_as_reference(&c, L, "text"))
				ok = 0;
			/* the texts share runs: the Chinese pair at any L up to its
			 * sentences' length (folded), the fox sentence */
			run_fast(&c, L, &x, NULL);
			if (L <= 19 && (x.nspans[1] == 0 || x.nremoved[1] == 0))
				ok = 0;
			if (L <= 9 && x.nspans[4] == 0)
				ok = 0;
			if (x.nspans[3] != 0)
				ok = 0;
			/* 他说再见 / 她說在見: one run of 4 units with the reading fold
			 * only */
			if (L == 4)
				homophones += reading ? (x.nspans[5] == 1 && x.spans[5][0].units == 4 &&
										 x.spans[5][0].other_row == 4) : 10 * (int) x.nspans[5];
			result_free(&x, nrows);
			corpus_free(&c);
		}
	check(ok, "real text (traditional script, case): as the reference, the copies found");
	check(homophones == 1, "real text: homophones are one unit with the reading fold");
}

int
main(void)
{
	test_hand();
	test_text();
	test_random();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
