/*
 * fuzz_align.c -- libFuzzer target for the passage alignment and its HTML
 * rendering (tfp_align.c, tfp_align_pick.c, tfp_align_html.c): arbitrary
 * bytes and options must never crash or touch memory out of bounds, and
 *  - every result keeps the invariants of test/unit/align_check.h
 *    (passages inside the texts, disjoint on each side, in b order,
 *    matched within [min_length, length], character offsets, totals);
 *  - the same call gives the same result again;
 *  - a text aligned with itself is one passage covering all of it, when
 *    it is at least as long as the seed and min_length;
 *  - the HTML (fragment or page, with or without context) measures what
 *    it writes, is well formed, links only to its own ids, and has every
 *    byte of the texts escaped.
 * Six option bytes: min_length (1..40), seed (1..32), max_gap (0..64),
 * fold and how b is made (0: the rest of the input after a split; 1: that
 * plus a copy of a's middle; 2: a with every 7th byte dropped; 3: a twice
 * with the split part between), context (-1..253) and the split.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/core/generated -Itest/unit \
 *       test/fuzz/fuzz_align.c src/core/tfp_align.c src/core/tfp_align_pick.c \
 *       src/core/tfp_align_html.c src/core/tfp_features.c src/core/tfp_unicode.c \
 *       src/core/generated/tfp_unicode_data.c -o /tmp/fuzz_align
 *   /tmp/fuzz_align -max_total_time=60
 *
 * test/unit/test_fuzz_align.c runs it without libFuzzer (corpus in
 * test/fuzz/corpus/align/, then random inputs; see test/README.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_align.h"
#include "../unit/align_check.h"

#ifndef FUZZ_FAIL
#define FUZZ_FAIL() abort()		/* a broken invariant: a crash for libFuzzer */
#endif

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tfp_align_env env = {check_alloc, check_free, NULL, NULL};
	tfp_align_opts o;
	tfp_align_result r,
				r2;
	tfp_html_opts h;
	const char *a,
			   *rest;
	char	   *b;
	size_t		alen,
				restlen,
				blen = 0,
				split;
	int			mode,
				bad = 0;

	if (size < 6)
		return 0;
	o.min_length = 1 + data[0] % 40;
	o.seed = 1 + data[1] % TFP_ALIGN_MAX_SEED;
	o.max_gap = data[2] % (TFP_ALIGN_MAX_GAP + 1);
	o.fold = data[3] & 7;
	o.reading = (data[3] >> 3) & 1;
	mode = (data[3] >> 3) & 3;
	memset(&h, 0, sizeof(h));
	h.page = (data[3] >> 5) & 1;
	h.context = (int) data[4] - 2 < -1 ? -1 : (int) data[4] - 2;
	h.a_title = "a";
	h.a_title_len = 1;
	h.b_title = "b <&>";
	h.b_title_len = 5;
	split = (size - 6) * data[5] / 255;
	a = (const char *) data + 6;
	alen = split;
	rest = a + split;
	restlen = size - 6 - split;

	/* b */
	b = malloc(2 * alen + restlen + 1);
	switch (mode)
	{
		case 0:
			memcpy(b, rest, restlen);
			blen = restlen;
			break;
		case 1:
			memcpy(b, rest, restlen);
			memcpy(b + restlen, a + alen / 4, alen / 2);
			blen = restlen + alen / 2;
			break;
		case 2:
			for (size_t i = 0; i < alen; i++)
				if (i % 7 != 6)
					b[blen++] = a[i];
			break;
		default:
			memcpy(b, a, alen);
			memcpy(b + alen, rest, restlen);
			memcpy(b + alen + restlen, a, alen);
			blen = 2 * alen + restlen;
			break;
	}

	if (tfp_align(a, alen, b, blen, &o, &env, &r) != TFP_ALIGN_OK)
		FUZZ_FAIL();
	if (align_invariants(a, alen, b, blen, &o, &r) != NULL)
		bad = 1;
	/* again: the same */
	if (tfp_align(a, alen, b, blen, &o, &env, &r2) != TFP_ALIGN_OK)
		FUZZ_FAIL();
	if (r2.n != r.n || r2.a_covered != r.a_covered || r2.b_covered != r.b_covered ||
		(r.n > 0 && memcmp(r.p, r2.p, r.n * sizeof(tfp_align_passage)) != 0))
		bad = 1;
	free(r2.p);
	if (!bad && html_render_check(a, alen, b, blen, &r, &h, NULL, NULL) != NULL)
		bad = 1;
	free(r.p);

	/* a with itself */
	if (!bad)
	{
		if (tfp_align(a, alen, a, alen, &o, &env, &r) != TFP_ALIGN_OK)
			FUZZ_FAIL();
		if (align_invariants(a, alen, a, alen, &o, &r) != NULL)
			bad = 1;
		else if (r.a_total >= (uint64_t) o.seed && r.a_total >= (uint64_t) o.min_length &&
				 (r.n != 1 || r.p[0].matched != r.a_total || r.b_covered != r.b_total ||
				  r.p[0].a_start != r.p[0].b_start || r.p[0].a_end != r.p[0].b_end))
			bad = 1;
		free(r.p);
	}
	free(b);
	if (bad)
		FUZZ_FAIL();
	return 0;
}
