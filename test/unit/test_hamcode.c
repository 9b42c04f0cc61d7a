/*
 * test_hamcode.c -- unit tests of the hamming index's entry code
 * (src/core/tfp_hamcode.h): rows written by tfp_hamwriter over small pages and
 * read back run by run (a run starts at each bucket and each page, as the
 * index's scans and VACUUM read them) give back every row's 48 bits and
 * TID, in order, whatever the TIDs: ascending, descending (a synchronized
 * scan's wrap-around), far apart, with large offsets; escapes never end a
 * page; byte layout pinned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_hamcode.h"

#include "tap.h"

#define MAXROWS		4000
#define MAXENT		(3 * MAXROWS + 8)
#define NBUCKETS	64

typedef struct row
{
	uint32_t	v;
	uint64_t	rest;
	uint32_t	block;
	uint32_t	offset;
} row;

typedef struct sink
{
	uint8_t		ent[MAXENT][TFP_HAMCODE_ENTRY];
	int			dead[MAXENT];
	size_t		n;
} sink;

static void
sink_put(void *arg, uint64_t rest, uint32_t code, int dead)
{
	sink	   *s = arg;

	if (s->n < MAXENT)
	{
		tfp_hamcode_put(s->ent[s->n], rest, code);
		s->dead[s->n] = dead;
	}
	s->n++;
}

static int
cmp_row(const void *a, const void *b)
{
	const row  *x = a,
			   *y = b;

	return x->v < y->v ? -1 : x->v > y->v ? 1 : 0;
}

static row	rows[MAXROWS];
static sink out;
static uint32_t dir[NBUCKETS + 1];

/*
 * Write n rows with per_page entries a page; read them back; 1 if every
 * row comes back in order and every escape shares its page with its row.
 */
static int
roundtrip(int n, uint32_t per_page, int *nesc)
{
	tfp_hamwriter w;
	size_t		e,
				got = 0;
	uint32_t	v = 0;
	int			ok = 1;

	memset(&w, 0, sizeof(w));
	memset(&out, 0, sizeof(out));
	w.per_page = per_page;
	w.dir = dir;
	w.put = sink_put;
	w.arg = &out;
	for (int i = 0; i < n; i++)
		tfp_hamwriter_row(&w, rows[i].v, rows[i].rest, rows[i].block, rows[i].offset);
	tfp_hamwriter_finish(&w, NBUCKETS);
	if (out.n != w.e || out.n > MAXENT || dir[NBUCKETS] != out.n)
		return 0;
	*nesc = 0;
	for (e = 0; e < out.n;)
	{
		size_t		page_end = (e / per_page + 1) * per_page;
		size_t		run_end;
		tfp_hamdec	d;

		while (dir[v + 1] <= e)
			v++;
		run_end = dir[v + 1] < page_end ? dir[v + 1] : page_end;
		if (run_end > out.n)
			run_end = out.n;
		memset(&d, 0, sizeof(d));
		for (; e < run_end; e++)
		{
			uint32_t	blk,
						off;

			if (!tfp_hamcode_decode(&d, out.ent[e], &blk, &off))
			{
				(*nesc)++;
				if (!out.dead[e] || e + 1 >= run_end)
					ok = 0;		/* an escape ends its run */
				continue;
			}
			if (out.dead[e])
				continue;		/* a filler */
			if (got >= (size_t) n || rows[got].v != v || rows[got].block != blk ||
				rows[got].offset != off ||
				tfp_hamcode_rest(out.ent[e]) != rows[got].rest)
				ok = 0;
			got++;
		}
	}
	return ok && got == (size_t) n;
}

static uint64_t
rnd48(void)
{
	return ((uint64_t) rnd(1u << 24) << 24 | rnd(1u << 24)) & TFP_HAMCODE_MASK48;
}

int
main(void)
{
	uint8_t		e[TFP_HAMCODE_ENTRY];
	int			nesc = 0,
				mode;
	uint32_t	blk,
				off;
	tfp_hamdec	d;

	/* byte layout: 48 bits least significant byte first, then the code */
	tfp_hamcode_put(e, UINT64_C(0x060504030201), 0x0A0908);
	check(e[0] == 0x01 && e[1] == 0x02 && e[5] == 0x06 && e[6] == 0x08 && e[8] == 0x0A &&
		  tfp_hamcode_rest(e) == UINT64_C(0x060504030201) &&
		  tfp_hamcode_code(e) == 0x0A0908, "entry bytes");
	check(tfp_hamcode_encode(0, 0, 1) == 1 &&
		  tfp_hamcode_encode(10, 12, 7) == ((2u << 9) | 7) &&
		  tfp_hamcode_encode(0, TFP_HAMCODE_GAPMAX, TFP_HAMCODE_OFFMAX) != TFP_HAMCODE_ESC &&
		  tfp_hamcode_encode(0, TFP_HAMCODE_GAPMAX + 1, 1) == TFP_HAMCODE_ESC &&
		  tfp_hamcode_encode(0, 5, TFP_HAMCODE_OFFMAX + 1) == TFP_HAMCODE_ESC &&
		  tfp_hamcode_encode(9, 8, 1) == TFP_HAMCODE_ESC, "codes and escapes");
	memset(&d, 0, sizeof(d));
	tfp_hamcode_put(e, tfp_hamcode_escape_rest(4000000000u, 65535), TFP_HAMCODE_ESC);
	check(tfp_hamcode_decode(&d, e, &blk, &off) == 0, "an escape is no row");
	tfp_hamcode_put(e, 77, 0);
	check(tfp_hamcode_decode(&d, e, &blk, &off) == 1 && blk == 4000000000u && off == 65535,
		  "the row after an escape has the escaped TID");
	tfp_hamcode_put(e, 78, (3u << 9) | 2);
	check(tfp_hamcode_decode(&d, e, &blk, &off) == 1 && blk == 4000000003u && off == 2,
		  "the next row is coded against it");

	/* random tables: 0 ascending TIDs, 1 far apart, 2 any order, 3 mixed */
	for (mode = 0; mode < 4; mode++)
	{
		int			ok = 1,
					esc_total = 0;

		for (int rep = 0; rep < 60; rep++)
		{
			int			n = 1 + (int) rnd(MAXROWS);
			uint32_t	per_page = 2 + rnd(9);
			uint32_t	b = rnd(100);

			for (int i = 0; i < n; i++)
			{
				rows[i].v = rnd(rep % 3 == 0 ? 3 : NBUCKETS);
				rows[i].rest = rnd48();
				switch (mode)
				{
					case 0:
						b += rnd(8);	/* stays below the largest gap */
						rows[i].block = b;
						rows[i].offset = 1 + rnd(291);
						break;
					case 1:
						b += rnd(3 * TFP_HAMCODE_GAPMAX);
						rows[i].block = b;
						rows[i].offset = 1 + rnd(291);
						break;
					case 2:
						rows[i].block = (uint32_t) rnd(1u << 31) * 2 + rnd(2);
						rows[i].offset = rnd(65536);
						break;
					default:
						b += rnd(5) == 0 ? rnd(70000) : rnd(8);
						rows[i].block = rnd(20) == 0 ? b / 2 : b;
						rows[i].offset = rnd(10) == 0 ? 500 + rnd(20) : 1 + rnd(200);
						break;
				}
			}
			/* stable: a bucket keeps the input's TID order */
			for (int i = 1; i < n; i++)
			{
				row			x = rows[i];
				int			j = i - 1;

				while (j >= 0 && cmp_row(&rows[j], &x) > 0)
				{
					rows[j + 1] = rows[j];
					j--;
				}
				rows[j + 1] = x;
			}
			if (!roundtrip(n, per_page, &nesc))
				ok = 0;
			esc_total += nesc;
		}
		if (mode == 0)
			check(ok && esc_total == 0, "ascending TIDs round-trip, without escapes");
		else if (mode == 1)
			check(ok && esc_total > 0, "far-apart TIDs round-trip, with escapes");
		else if (mode == 2)
			check(ok && esc_total > 0, "TIDs in any order round-trip, with escapes");
		else
			check(ok && esc_total > 0, "mixed TIDs round-trip, with escapes");
	}

	/* an empty table and empty buckets */
	{
		tfp_hamwriter w;

		memset(&w, 0, sizeof(w));
		memset(&out, 0, sizeof(out));
		w.per_page = 4;
		w.dir = dir;
		w.put = sink_put;
		w.arg = &out;
		tfp_hamwriter_finish(&w, NBUCKETS);
		check(out.n == 0 && dir[0] == 0 && dir[NBUCKETS] == 0, "empty table");
	}

	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
