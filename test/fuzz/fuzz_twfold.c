/*
 * fuzz_twfold.c -- libFuzzer target for the Taiwan wording fold
 * (tfp_twfold.c): arbitrary bytes (any UTF-8 validity) must never crash or
 * write past TFP_TWFOLD_BOUND(len); the ASCII bytes of the text come out
 * unchanged and in order; the fold of the text up to an ASCII byte (the
 * first option byte picks which) is the start of the fold of the whole
 * text (runs end there); every Han letter of the output is in folded form.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/core/generated \
 *       test/fuzz/fuzz_twfold.c src/core/tfp_twfold.c src/core/generated/tfp_twfold_data.c src/core/tfp_features.c src/core/tfp_unicode.c src/core/generated/tfp_unicode_data.c \
 *       -lxxhash -o /tmp/fuzz_twfold
 *   /tmp/fuzz_twfold -max_total_time=60
 *
 * test/unit/test_fuzz_twfold.c runs it without libFuzzer (corpus in
 * test/fuzz/corpus/twfold/, then random inputs; see test/README.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_twfold.h"

#ifndef FUZZ_FAIL
#define FUZZ_FAIL() abort()	/* a broken invariant: a crash for libFuzzer */
#endif

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the ASCII bytes of s[0..n), in order, into out; their number */
static size_t
ascii_of(const char *s, size_t n, char *out)
{
	size_t		k = 0;

	for (size_t i = 0; i < n; i++)
		if ((unsigned char) s[i] < 0x80)
			out[k++] = s[i];
	return k;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s;
	size_t		len,
				n,
				cut,
				m,
				ka,
				kb;
	char	   *out,
			   *out2,
			   *a,
			   *b;
	int			fail = 0;

	if (size < 1)
		return 0;
	s = (const char *) data + 1;
	len = size - 1;
	/* a guard byte past the bound catches a write beyond it */
	out = malloc(TFP_TWFOLD_BOUND(len) + 1);
	out[TFP_TWFOLD_BOUND(len)] = 0x5A;
	n = tfp_twfold(s, len, out, NULL);
	if (n > TFP_TWFOLD_BOUND(len) || out[TFP_TWFOLD_BOUND(len)] != 0x5A)
		fail = 1;
	a = malloc(len + 1);
	b = malloc(n + 1);
	ka = ascii_of(s, len, a);
	kb = ascii_of(out, n, b);
	if (!fail && (ka != kb || memcmp(a, b, ka) != 0))
		fail = 1;
	/* a prefix ending at an ASCII byte */
	cut = len == 0 ? 0 : data[0] * len / 256;
	while (cut < len && (unsigned char) s[cut] >= 0x80)
		cut++;
	if (!fail && cut < len)
	{
		out2 = malloc(TFP_TWFOLD_BOUND(cut + 1) + 1);
		m = tfp_twfold(s, cut + 1, out2, NULL);
		if (m > n || memcmp(out2, out, m) != 0)
			fail = 1;
		free(out2);
	}
	/* Han letters of the output are folded */
	for (size_t i = 0; !fail && i < n;)
	{
		uint32_t	cp,
					f[TFP_FOLD_MAX];
		size_t		k = tfp_utf8_decode((const unsigned char *) out + i, n - i, &cp);

		if (cp >= 0x800 && cp != 0xFFFD && tfp_cp_fold(cp, TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN, f) == 1 &&
			tfp_cp_class(f[0]) == TFP_CC_HAN && f[0] != cp)
		{
			/* copied unfolded: only possible when it was not a Han letter
			 * of the input, i.e. never */
			fail = 1;
		}
		i += k;
	}
	free(out);
	free(a);
	free(b);
	if (fail)
		FUZZ_FAIL();
	return 0;
}
