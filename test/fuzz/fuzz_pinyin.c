/*
 * fuzz_pinyin.c -- libFuzzer target for the pinyin core: arbitrary bytes
 * (any UTF-8 validity) and DNA options must never crash or touch memory out
 * of bounds; the sizing pass of tfp_pinyin_text must equal the writing pass;
 * the letter count never exceeds the input length; DNAs are sorted, distinct,
 * non-negative and below levels^21; the words of the pinyin text
 * (tfp_pinyin_words) give the written text's features; the letters' fast
 * path and the AVX-512 kernels (where the CPU has them) give the letters
 * and DNAs of the portable general code.  The first five bytes choose the options (window
 * lengths over the whole range 8..1024: long windows on short texts reach the
 * whole-text window of up to 3 x window_length letters).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/core/generated \
 *       test/fuzz/fuzz_pinyin.c src/core/tfp_pinyin*.c src/core/generated/tfp_pinyin*.c src/core/tfp_sort.c src/core/tfp_cpu.c src/core/tfp_unicode.c src/core/tfp_features.c src/core/generated/tfp_unicode_data.c -lm \
 *       -o /tmp/fuzz_pinyin
 *   /tmp/fuzz_pinyin -max_total_time=60
 *
 * test/unit/test_fuzz_pinyin.c runs it without libFuzzer (corpus in
 * test/fuzz/corpus/pinyin/, then random inputs; see test/README.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_cpu.h"
#include "tfp_pinyin.h"
#include "../unit/hash_vec.h"

#ifndef FUZZ_FAIL
#define FUZZ_FAIL() abort()	/* a broken invariant: a crash for libFuzzer */
#endif

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the words of the pinyin text (tfp_pinyin_words) give the features the
 * extractor gives the written text, 3-word shingles, textfp_match's folds */
static int
check_words(const char *s, size_t len)
{
	uint64_t   *w = malloc((len + 1) * sizeof(uint64_t));
	size_t		nw = tfp_pinyin_words(s, len, w),
				n,
				m;
	char	   *py;
	tfp_feature_opts o = {5, 3, TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN};
	vec			v = {NULL, 0, 0};

	if (nw == SIZE_MAX)
	{
		free(w);
		return 0;
	}
	if (nw > len)
		FUZZ_FAIL();
	m = tfp_word_shingles(w, nw, 3, w);
	n = tfp_pinyin_text(s, len, 0, NULL);
	py = malloc(n + 1);
	tfp_pinyin_text(s, len, 0, py);
	tfp_extract_features(py, n, &o, vsink, &v);
	if (v.n != m || (m > 0 && memcmp(v.h, w, m * sizeof(uint64_t)) != 0))
		FUZZ_FAIL();
	free(v.h);
	free(py);
	free(w);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tfp_dna_opts o;
	const char *s;
	size_t		len,
				n,
				m,
				k;
	char	   *out,
			   *l,
			   *l0;
	int64_t    *w,
			   *w0;
	double		lim = 1;

	if (size < 5)
		return 0;
	o.window = TFP_DNA_MIN_WINDOW + (data[0] | data[1] << 8) %
		(TFP_DNA_MAX_WINDOW - TFP_DNA_MIN_WINDOW + 1);
	if (data[4] & 2)			/* half the time a short window */
		o.window = TFP_DNA_MIN_WINDOW + data[0] % 64;
	o.overlap = data[2] % (TFP_DNA_MAX_OVERLAP + 1);
	o.levels = TFP_DNA_MIN_LEVELS + data[3] % (TFP_DNA_MAX_LEVELS - 1);
	o.content_defined = data[4] & 1;
	if (tfp_dna_check(&o) != NULL)
		FUZZ_FAIL();
	s = (const char *) data + 5;
	len = size - 5;

	for (unsigned flags = 0; flags < 2; flags++)
	{
		n = tfp_pinyin_text(s, len, flags, NULL);
		out = malloc(n + 1);
		m = tfp_pinyin_text(s, len, flags, out);
		if (m != n)
			FUZZ_FAIL();
		free(out);
	}
	(void) check_words(s, len);
	l = malloc(len + 1);
	l0 = malloc(len + 1);
	n = tfp_pinyin_letters(s, len, l);
	if (n > len)
		FUZZ_FAIL();
	tfp_pinyin_fastpath = 0;
	if (tfp_pinyin_letters(s, len, l0) != n || memcmp(l, l0, n) != 0)
		FUZZ_FAIL();
	tfp_pinyin_fastpath = 1;
	tfp_simd_enabled = 0;
	if (tfp_pinyin_letters(s, len, l0) != n || memcmp(l, l0, n) != 0)
		FUZZ_FAIL();
	tfp_simd_enabled = 1;
	free(l0);
	for (size_t i = 0; i < n; i++)
		if (tfp_dna_bucket(l[i]) < 0)
			FUZZ_FAIL();
	w = malloc(sizeof(int64_t) * tfp_dna_max_windows(n, &o));
	w0 = malloc(sizeof(int64_t) * tfp_dna_max_windows(n, &o));
	k = tfp_dna_windows(l, n, &o, w);
	if ((n == 0) != (k == 0) || k > tfp_dna_max_windows(n, &o))
		FUZZ_FAIL();
	tfp_simd_enabled = 0;
	if (tfp_dna_windows(l, n, &o, w0) != k || memcmp(w, w0, k * sizeof(int64_t)) != 0)
		FUZZ_FAIL();
	tfp_simd_enabled = 1;
	free(w0);
	for (int i = 0; i < TFP_DNA_BUCKETS; i++)
		lim *= o.levels;
	for (size_t i = 0; i < k; i++)
		if (w[i] < 0 || (double) w[i] >= lim || (i > 0 && w[i] <= w[i - 1]))
			FUZZ_FAIL();
	free(w);
	free(l);
	return 0;
}
