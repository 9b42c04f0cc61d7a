/*
 * fuzz_minhash.c -- libFuzzer target for MinHash signatures and the sorted
 * 64-bit sets (shingle sets, pinyin DNAs): arbitrary bytes and options must
 * never crash or touch memory out of bounds, and
 *  - a signature depends only on the set of features: the same hashes added
 *    in one batch, one by one, in reverse order and twice over give the same
 *    signature (and the same "empty" answer, which is "no feature at all");
 *  - a signature matches itself in all k positions;
 *  - tfp_sort_unique_u64 with scratch (bucket sort) and without (introsort)
 *    gives the same strictly increasing int64 sequence, the distinct input
 *    values, and tfp_intersect_count_u64 of it with itself is its length;
 *  - tfp_sort_unique_below_u64 on values below 2^width agrees with it.
 * The first five bytes choose k (1..4096, mostly <= 256), ngram, shingle,
 * fold and width.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/core/generated \
 *       test/fuzz/fuzz_minhash.c src/core/tfp_features.c src/core/tfp_minhash.c \
 *       src/core/tfp_sort.c src/core/tfp_unicode.c src/core/generated/tfp_unicode_data.c -o /tmp/fuzz_minhash
 *   /tmp/fuzz_minhash -max_total_time=60
 *
 * test/unit/test_fuzz_minhash.c runs it without libFuzzer (corpus in
 * test/fuzz/corpus/minhash/, then random inputs; see test/README.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_minhash.h"
#include "tfp_sort.h"
#include "../unit/hash_vec.h"

#ifndef FUZZ_FAIL
#define FUZZ_FAIL() abort()		/* a broken invariant: a crash for libFuzzer */
#endif

/* signature of h[0..n) added in the given way: 0 batch, 1 one by one,
 * 2 reverse, 3 twice; returns tfp_minhash_finish's answer */
static int
signature(const uint64_t *h, size_t n, int k, int how, uint32_t *vals, uint8_t *full)
{
	tfp_minhash_acc acc;

	tfp_minhash_init(&acc, k, vals, full);
	switch (how)
	{
		case 0:
			tfp_minhash_add(&acc, h, n);
			break;
		case 1:
			for (size_t i = 0; i < n; i++)
				tfp_minhash_add(&acc, h + i, 1);
			break;
		case 2:
			for (size_t i = n; i-- > 0;)
				tfp_minhash_add(&acc, h + i, 1);
			break;
		default:
			tfp_minhash_add(&acc, h, n);
			tfp_minhash_add(&acc, h, n);
			break;
	}
	return tfp_minhash_finish(&acc);
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t		x = *(const int64_t *) a,
				y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tfp_feature_opts o;
	vec			c = {NULL, 0, 0};
	int			k,
				width,
				e0;
	uint32_t   *v0,
			   *v1;
	uint8_t    *full;
	uint64_t   *a,
			   *b,
			   *r,
			   *scratch;
	size_t		na,
				nb,
				nr;

	if (size < 5)
		return 0;
	k = 1 + (data[0] | data[1] << 8) % TFP_MINHASH_MAX_K;
	if (data[1] & 0xF0)			/* 15 times in 16 k <= 256: densifying a few
								 * features into thousands of bins takes
								 * k * k / features probes */
		k = 1 + data[0];
	o.ngram = 1 + data[2] % TFP_MAX_NGRAM;
	o.shingle = 1 + (data[2] >> 4) % TFP_MAX_SHINGLE;
	o.fold = data[3] & 7;
	width = 1 + data[4] % 63;
	tfp_extract_features((const char *) data + 5, size - 5, &o, vsink, &c);

	/* MinHash: a function of the set */
	v0 = malloc(k * sizeof(uint32_t));
	v1 = malloc(k * sizeof(uint32_t));
	full = malloc(k);
	e0 = signature(c.h, c.n, k, 0, v0, full);
	if (e0 != (c.n > 0))
		FUZZ_FAIL();
	for (int how = 1; how <= 3; how++)
		if (signature(c.h, c.n, k, how, v1, full) != e0 ||
			(e0 && memcmp(v0, v1, k * sizeof(uint32_t)) != 0))
			FUZZ_FAIL();
	if (e0 && tfp_minhash_matches(v0, v0, k) != k)
		FUZZ_FAIL();
	free(v0);
	free(v1);
	free(full);

	/* sorted sets: bucket sort, introsort and a reference agree */
	na = nb = nr = c.n;
	a = malloc((na + 1) * sizeof(uint64_t));
	b = malloc((na + 1) * sizeof(uint64_t));
	r = malloc((na + 1) * sizeof(uint64_t));
	scratch = malloc((na + 1) * sizeof(uint64_t));
	if (c.n > 0)
	{
		memcpy(a, c.h, na * sizeof(uint64_t));
		memcpy(b, c.h, na * sizeof(uint64_t));
		memcpy(r, c.h, na * sizeof(uint64_t));
	}
	na = tfp_sort_unique_u64(a, na, scratch);
	nb = tfp_sort_unique_u64(b, nb, NULL);
	qsort(r, nr, sizeof(uint64_t), cmp_i64);
	if (nr > 0)
	{
		size_t		o2 = 1;

		for (size_t i = 1; i < nr; i++)
			if (r[i] != r[o2 - 1])
				r[o2++] = r[i];
		nr = o2;
	}
	if (na != nr || nb != nr || (nr > 0 && (memcmp(a, r, nr * sizeof(uint64_t)) != 0 ||
											memcmp(b, r, nr * sizeof(uint64_t)) != 0)))
		FUZZ_FAIL();
	if (tfp_intersect_count_u64(a, na, b, nb) != na)
		FUZZ_FAIL();

	/* the same values cut below 2^width (as window DNAs are) */
	for (size_t i = 0; i < c.n; i++)
		c.h[i] >>= 64 - width;
	if (c.n > 0)
	{
		memcpy(a, c.h, c.n * sizeof(uint64_t));
		memcpy(r, c.h, c.n * sizeof(uint64_t));
	}
	na = tfp_sort_unique_below_u64(a, c.n, scratch, width);
	nr = tfp_sort_unique_u64(r, c.n, NULL);
	if (na != nr || (nr > 0 && memcmp(a, r, nr * sizeof(uint64_t)) != 0))
		FUZZ_FAIL();
	free(a);
	free(b);
	free(r);
	free(scratch);
	free(c.h);
	return 0;
}
