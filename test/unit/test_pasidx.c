/*
 * test_pasidx.c -- unit tests of the passage index's entry code and merge
 * policy (tfp_pasidx.h) and of the source query's evidence, frequency and
 * masks (tfp_sources.c): round trips of random entries, the bit layout,
 * residual order, saturation of units; the policy's geometric sizes and
 * run bound; chains of hits on diagonals, with edits, unknown units and
 * scattered hits; medians; unit masks.  Prints TAP lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_pasidx.h"
#include "tfp_sources.h"

#include "tap.h"

static uint64_t
r64(void)
{
	return ((uint64_t) rnd(1u << 31) << 33) ^ ((uint64_t) rnd(1u << 31) << 2) ^ rnd(4);
}

static void
test_codec(void)
{
	int			ok = 1;
	unsigned char buf[TFP_PASIDX_ENTRY];
	tfp_pasent	e,
				d;

	for (int i = 0; i < 200000 && ok; i++)
	{
		e.key = tfp_pasidx_key(r64());
		e.unit = i % 7 == 0 ? rnd(1u << 30) : rnd(TFP_PASIDX_UNIT_MAX);
		e.left = (uint8_t) rnd(256);
		e.right = (uint8_t) rnd(256);
		e.off = (uint16_t) (1 + rnd(TFP_PASIDX_OFF_MAX));
		e.blk = (uint32_t) r64();
		tfp_pasidx_put(buf, &e);
		tfp_pasidx_get(buf, tfp_pasidx_bucket(e.key), &d);
		ok = d.key == e.key && d.unit == tfp_pasidx_unit(e.unit) && d.left == e.left &&
			d.right == e.right && d.off == e.off && d.blk == e.blk &&
			tfp_pasidx_get_residual(buf) == tfp_pasidx_residual(e.key);
	}
	check(ok, "entry code: 200,000 random entries decode to themselves (units saturated)");

	memset(&e, 0, sizeof(e));
	e.key = (UINT64_C(1) << TFP_PASIDX_KEY_BITS) - 1;
	e.unit = TFP_PASIDX_UNIT_MAX;
	e.left = e.right = 0xFF;
	e.off = TFP_PASIDX_OFF_MAX;
	e.blk = UINT32_MAX;
	tfp_pasidx_put(buf, &e);
	ok = 1;
	for (int i = 0; i < TFP_PASIDX_ENTRY; i++)
		ok &= buf[i] == 0xFF;
	check(ok, "entry code: all fields at their maximum fill the 96 bits exactly");
	memset(&e, 0, sizeof(e));
	e.off = 1;
	tfp_pasidx_put(buf, &e);
	check(buf[0] == 1 && buf[1] == 0 && buf[11] == 0, "entry code: offset in the low bits, little-endian");
	e.off = 0;
	e.key = 1;
	tfp_pasidx_put(buf, &e);
	check(buf[11] == 0 && buf[9] == 0x40 && tfp_pasidx_get_residual(buf) == 1,
		  "entry code: the residual in the top 18 bits");
	check(tfp_pasidx_key(UINT64_C(0xFFFFFFFFFFFFFFFF)) == (UINT64_C(1) << 34) - 1 &&
		  tfp_pasidx_bucket(tfp_pasidx_key(UINT64_C(0xABCD000000000000))) == 0xABCD,
		  "the key is the hash's top 34 bits, the bucket its top 16");
	check(tfp_pasidx_unit(5) == 5 && tfp_pasidx_unit(TFP_PASIDX_UNIT_MAX + 7) == TFP_PASIDX_UNIT_MAX,
		  "units at or past 2^20 - 1 saturate");
}

static void
test_policy(void)
{
	uint64_t	sizes[TFP_PASIDX_MAX_RUNS + 1];
	int			nruns = 0,
				ok = 1,
				maxruns = 0;
	uint64_t	total = 0,
				written = 0;
	char		what[200];

	/* 20,000 merges of 32,768 entries each into an index */
	for (int m = 0; m < 20000 && ok; m++)
	{
		uint64_t	s = 32768;
		int			take = tfp_pasidx_merge_inputs(sizes, nruns, s);
		uint64_t	acc = s;

		ok = take >= 0 && take <= nruns;
		for (int i = 0; i < take; i++)
			acc += sizes[nruns - 1 - i];
		nruns -= take;
		sizes[nruns++] = acc;
		written += acc;
		total += s;
		/* keep them decreasing */
		for (int i = nruns - 1; i > 0 && sizes[i] > sizes[i - 1]; i--)
		{
			uint64_t	t = sizes[i];

			sizes[i] = sizes[i - 1];
			sizes[i - 1] = t;
		}
		ok &= nruns <= TFP_PASIDX_MAX_RUNS;
		if (nruns > maxruns)
			maxruns = nruns;
		for (int i = 1; i < nruns; i++)
			ok &= sizes[i] <= sizes[i - 1];
	}
	snprintf(what, sizeof(what), "merge policy: 20,000 merges keep at most %d runs (%d), each entry written %.1f times",
			 TFP_PASIDX_MAX_RUNS, maxruns, (double) written / (double) total);
	check(ok && maxruns < TFP_PASIDX_MAX_RUNS && (double) written / (double) total < 20, what);
	{
		uint64_t	big[3] = {1000000, 1000, 10};

		check(tfp_pasidx_merge_inputs(big, 3, 10) == 1, "a merge takes the runs no larger than four times what it holds");
		check(tfp_pasidx_merge_inputs(big, 3, 600000) == 3, "a large merge takes them all");
	}
	{
		uint64_t	eight[8] = {1 << 30, 1 << 27, 1 << 24, 1 << 21, 1 << 18, 1 << 15, 1 << 12, 1 << 9};

		check(tfp_pasidx_merge_inputs(eight, 8, 1) == 1, "at the bound a merge takes one run more, so the runs stay 8");
	}
	check(tfp_pasidx_pending_limit(0) == 32768 && tfp_pasidx_pending_limit(UINT64_C(1) << 40) == 262144,
		  "pending limit between 32,768 and 262,144 entries");
}

static void
test_evidence(void)
{
	tfp_src_hit h[64];
	tfp_src_evidence ev;
	int			n = 0;

	/* a copied passage at query 100..200 from document 500..600, seeds every ~5 units */
	for (uint32_t q = 100; q < 195; q += 5)
	{
		h[n].qi = (uint32_t) n;
		h[n].q = q;
		h[n].d = q + 400 + (q > 150 ? 2 : 0);	/* an insertion of 2 units at 150 */
		n++;
	}
	/* scattered hits elsewhere */
	h[n].qi = 90;
	h[n].q = 10;
	h[n].d = 3000;
	n++;
	h[n].qi = 91;
	h[n].q = 400;
	h[n].d = 20;
	n++;
	tfp_src_evidence_of(h, (size_t) n, 5, 40, 12, &ev);
	check(ev.seeds == (uint32_t) n && ev.chains == 3, "evidence: distinct seeds; the passage is one chain, scattered hits two");
	check(ev.q0 == 100 && ev.q1 == 195 && ev.span == 95 && ev.d0 == 500 && ev.d1 == 597,
		  "evidence: the chain spans the passage in both texts, across the edit");

	n = 0;
	for (uint32_t q = 0; q < 60; q += 10)
	{
		h[n].qi = (uint32_t) n;
		h[n].q = q;
		h[n].d = n % 2 ? q + 100 : q + 1000;	/* alternating far diagonals */
		n++;
	}
	tfp_src_evidence_of(h, (size_t) n, 5, 40, 12, &ev);
	check(ev.chains == 2 && ev.span == 45, "evidence: two interleaved passages on far diagonals are two chains");

	n = 0;
	for (uint32_t q = 0; q < 100; q += 10)
	{
		h[n].qi = (uint32_t) n;
		h[n].q = q;
		h[n].d = q % 20 ? TFP_SRC_UNIT_UNKNOWN : 2000000;
		n++;
	}
	tfp_src_evidence_of(h, (size_t) n, 5, 40, 12, &ev);
	check(ev.chains == 1 && ev.span == 95 && ev.d0 == 0 && ev.d1 == 0,
		  "evidence: unknown document units join any chain, and its document range is unknown");

	tfp_src_evidence_of(h, 0, 5, 40, 12, &ev);
	check(ev.seeds == 0 && ev.span == 0 && ev.chains == 0, "evidence: no hits");
	{
		tfp_src_evidence a = {10, 1, 50, 0, 50, 0, 0},
					b = {20, 1, 40, 0, 40, 0, 0},
					c = {30, 1, 50, 0, 50, 0, 0};

		check(tfp_src_evidence_cmp(&a, &b) < 0 && tfp_src_evidence_cmp(&c, &a) < 0 &&
			  tfp_src_evidence_cmp(&a, &a) == 0, "evidence order: longest chain, then more seeds");
	}
}

static void
test_frequency(void)
{
	uint32_t	units[6] = {0, 10, 20, 30, 40, 50},
				df[6] = {1, 7, 3, 900, 5, 2},
				scratch[6];
	uint8_t		common[6] = {0, 0, 0, 1, 0, 0};

	check(tfp_src_frequency(units, df, common, 6, 10, 45, 5, 100, scratch) == 5,
		  "frequency: the median of the seeds inside the passage (7, 3, 101, 5 -> 5)");
	check(tfp_src_frequency(units, df, common, 6, 30, 35, 5, 100, scratch) == 101,
		  "frequency: a seed too common counts as the cap plus one");
	check(tfp_src_frequency(units, df, common, 6, 11, 19, 5, 100, scratch) == 0,
		  "frequency: no seed inside");
	check(tfp_src_frequency(units, df, common, 6, 0, 60, 5, 100, scratch) == 3,
		  "frequency: the lower median of an even count");
}

static void
test_masks(void)
{
	uint32_t	ends[5] = {3, 7, 12, 20, 25},
				starts[5] = {0, 4, 8, 13, 21},
				lines[4] = {4, 13, 21, 30};
	uint8_t		mask[5];

	check(tfp_src_unit_of_byte(ends, 5, 0) == 0 && tfp_src_unit_of_byte(ends, 5, 3) == 1 &&
		  tfp_src_unit_of_byte(ends, 5, 11) == 2 && tfp_src_unit_of_byte(ends, 5, 25) == 5,
		  "the unit of a byte: the first whose span ends after it");
	tfp_src_mask_units(starts, 5, lines, 2, mask);
	check(!mask[0] && mask[1] && mask[2] && !mask[3] && mask[4], "masks: units starting inside the lines");
	tfp_src_mask_units(starts, 5, lines, 0, mask);
	check(!mask[0] && !mask[1] && !mask[4], "masks: no lines, no mask");
	{
		uint32_t	b0,
					b1;

		tfp_src_window(starts, ends, 5, 2, 3, 1, &b0, &b1);
		check(b0 == 4 && b1 == 20, "window: units 1..3 around unit 2");
		tfp_src_window(starts, ends, 5, 0, 5, 9, &b0, &b1);
		check(b0 == 0 && b1 == 25, "window: clipped to the text");
		tfp_src_window(starts, ends, 5, 7, 9, 0, &b0, &b1);
		check(b0 == 21 && b1 == 25, "window: past the end, the last unit");
		tfp_src_window(starts, ends, 0, 0, 1, 3, &b0, &b1);
		check(b0 == 0 && b1 == 0, "window: no units");
	}
}

int
main(void)
{
	test_codec();
	test_policy();
	test_evidence();
	test_frequency();
	test_masks();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
