/*
 * fuzz_features.c -- libFuzzer target for the feature extractor and the
 * SimHash accumulator: arbitrary bytes (any UTF-8 validity) and options must
 * never crash, read out of bounds or overflow, and the result must not depend
 * on how the features were batched; bigrams and characters read in one pass
 * (tfp_extract_features_dual) are those of two passes.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/core/generated \
 *       test/fuzz/fuzz_features.c src/core/tfp_features.c src/core/tfp_simhash.c \
 *       src/core/generated/tfp_simhash_ref.c src/core/tfp_unicode.c src/core/generated/tfp_unicode_data.c -o /tmp/fuzz_features
 *   /tmp/fuzz_features -max_total_time=60
 *
 * test/unit/test_fuzz_features.c runs it without libFuzzer (corpus in
 * test/fuzz/corpus/features/, then random inputs; see test/README.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_unicode.h"
#include "../unit/hash_vec.h"

typedef struct
{
	tfp_simhash_acc acc;
	uint64_t	n;
} ctx;

static void
sink(void *arg, const uint64_t *h, size_t n)
{
	ctx		   *c = arg;
	size_t		k;

	/* add one by one: must equal adding the whole batch */
	for (k = 0; k < n; k++)
		tfp_simhash_add(&c->acc, h + k, 1);
	c->n += n;
}

static void
sink_batch(void *arg, const uint64_t *h, size_t n)
{
	ctx		   *c = arg;

	tfp_simhash_add(&c->acc, h, n);
	c->n += n;
}

/* tfp_extract_features_dual() of s[0..len) (bigrams, words; characters,
 * words) against two passes, with the folds fold */
static int
dual_differs(const char *s, size_t len, unsigned fold)
{
	tfp_feature_opts o2 = {2, 1, fold},
				o1 = {1, 1, fold};
	vec			r2 = {NULL, 0, 0},
				r1 = {NULL, 0, 0},
				d2 = {NULL, 0, 0},
				d1 = {NULL, 0, 0};
	uint64_t	h2,
				h1,
				hd,
				lead;
	int			differs;

	tfp_extract_features_counted(s, len, &o2, vsink, &r2, &h2);
	tfp_extract_features_counted(s, len, &o1, vsink, &r1, &h1);
	tfp_extract_features_dual(s, len, &o2, vsink, &d2, vsink, &d1, &hd, &lead);
	differs = hd != h2 || d2.n != r2.n || (r2.n && memcmp(d2.h, r2.h, r2.n * 8) != 0) ||
		lead > d2.n || lead + d1.n != r1.n ||
		(lead && memcmp(r1.h, d2.h, lead * 8) != 0) ||
		(d1.n && memcmp(r1.h + lead, d1.h, d1.n * 8) != 0) ||
		(h1 > 0 && lead + d1.n == 0);
	free(r2.h);
	free(r1.h);
	free(d2.h);
	free(d1.h);
	return differs;
}

/* number of code points of s[0..len) after folding (tfp_cp_fold) */
static uint64_t
folded_cps(const char *s, size_t len, unsigned fold)
{
	uint32_t	out[TFP_FOLD_MAX];
	uint64_t	n = 0;

	while (len > 0)
	{
		uint32_t	cp;
		size_t		k = tfp_utf8_decode((const unsigned char *) s, len, &cp);

		n += (uint64_t) tfp_cp_fold(cp, fold, out);
		s += k;
		len -= k;
	}
	return n;
}

#ifndef FUZZ_FAIL
#define FUZZ_FAIL() abort()	/* a broken invariant: a crash for libFuzzer */
#endif

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tfp_feature_opts o;
	ctx			a,
				b;
	uint64_t	nhan_a,
				nhan_b,
				na,
				nb;

	if (size < 3)
		return 0;
	o.ngram = 1 + data[0] % TFP_MAX_NGRAM;
	o.shingle = 1 + data[1] % TFP_MAX_SHINGLE;
	o.fold = data[2] & 7;
	data += 3;
	size -= 3;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	tfp_simhash_init(&a.acc);
	tfp_simhash_init(&b.acc);
	na = tfp_extract_features_counted((const char *) data, size, &o, sink, &a, &nhan_a);
	nb = tfp_extract_features_counted((const char *) data, size, &o, sink_batch, &b, &nhan_b);
	if (na != nb || na != a.n || nhan_a != nhan_b || nhan_a > na)
		FUZZ_FAIL();
	if (tfp_simhash_finish_centered(&a.acc, nhan_a, o.ngram, o.shingle) !=
		tfp_simhash_finish_centered(&b.acc, nhan_b, o.ngram, o.shingle))
		FUZZ_FAIL();
	/* no more features than folded code points (a fold may give several:
	 * U+3347 SQUARE MANSYON is five katakana under the width fold): each
	 * feature ends at a distinct one, plus at most one short-run or
	 * short-shingle feature */
	if (na > folded_cps((const char *) data, size, o.fold) + 1)
		FUZZ_FAIL();
	if (dual_differs((const char *) data, size, o.fold))
		FUZZ_FAIL();
	return 0;
}
