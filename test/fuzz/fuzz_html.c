/*
 * fuzz_html.c -- libFuzzer target for html_text()'s core (tfp_html.c,
 * tfp_html_tree.c, tfp_html_select.c): arbitrary bytes must never crash, hang or touch memory
 * out of bounds, and
 *  - the text is valid UTF-8 without NUL, at most 3 bytes per input byte,
 *    not ending in white space;
 *  - the same input gives the same text (twice, and with the input in a
 *    buffer of its exact size);
 *  - an allocation that fails anywhere is reported (-1), never a crash;
 *  - a text without '<', '&', white space, CR or NUL is its own text;
 *  - tfp_html_looks_like is false for an input that does not start with '<'
 *    after white space and a BOM.
 * The first byte chooses the options.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/core/generated -Itest/unit \
 *       test/fuzz/fuzz_html.c src/core/tfp_html.c src/core/tfp_html_tree.c src/core/tfp_html_select.c \
 *       src/core/generated/tfp_html_entities.c src/core/tfp_features.c src/core/tfp_unicode.c \
 *       src/core/generated/tfp_unicode_data.c -o /tmp/fuzz_html
 *   /tmp/fuzz_html -max_total_time=60
 *
 * test/unit/test_fuzz_html.c runs it without libFuzzer (corpus in
 * test/fuzz/corpus/html/, then random inputs; see test/README.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_html.h"
#include "../unit/html_run.h"

#ifndef FUZZ_FAIL
#define FUZZ_FAIL() abort()		/* a broken invariant: a crash for libFuzzer */
#endif

static int
valid_text(const char *s, size_t n)
{
	size_t		i = 0;

	if (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\t'))
		return 0;
	while (i < n)
	{
		uint32_t	cp;
		size_t		l = tfp_utf8_decode((const unsigned char *) s + i, n - i, &cp);
		unsigned char enc[4];

		if (cp == 0 || (size_t) tfp_utf8_encode(cp, enc) != l || memcmp(enc, s + i, l) != 0)
			return 0;			/* NUL, or not the shortest valid form */
		i += l;
	}
	return 1;
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int			b,
				m,
				alt;
	const char *in;
	size_t		n,
				n1,
				n2,
				i;
	char	   *copy,
			   *t1,
			   *t2;
	int			plain = 1;

	if (size < 1)
		return 0;
	b = data[0] & 1;
	m = (data[0] >> 1) & 1;
	alt = (data[0] >> 2) & 1;
	in = (const char *) data + 1;
	n = size - 1;
	copy = malloc(n ? n : 1);
	memcpy(copy, in, n);
	t1 = html_run(in, n, b, m, alt, &n1);
	t2 = html_run(copy, n, b, m, alt, &n2);
	if (t1 == NULL || t2 == NULL || n1 != n2 || memcmp(t1, t2, n1) != 0)
		FUZZ_FAIL();
	if (n1 > 3 * n + 8 || !valid_text(t1, n1))
		FUZZ_FAIL();
	for (i = 0; i < n; i++)
		if (strchr("<& \t\n\f\r", in[i]) != NULL || in[i] == 0)
			plain = 0;
	if (plain)
	{
		/* invalid UTF-8 becomes U+FFFD, so compare with the decoded input */
		size_t		j = 0,
					k = 0;

		while (j < n)
		{
			uint32_t	cp;
			unsigned char enc[4];
			int			l;

			j += tfp_utf8_decode((const unsigned char *) in + j, n - j, &cp);
			if (cp == 0xA0)
			{
				plain = 0;		/* NBSP is white space */
				break;
			}
			l = tfp_utf8_encode(cp, enc);
			if (k + (size_t) l > n1 || memcmp(t1 + k, enc, (size_t) l) != 0)
				FUZZ_FAIL();
			k += (size_t) l;
		}
		if (plain && k != n1)
			FUZZ_FAIL();
	}
	if (n > 0 && in[0] != '<' && in[0] != ' ' && in[0] != '\t' && in[0] != '\n' &&
		in[0] != '\f' && in[0] != '\r' && (unsigned char) in[0] != 0xEF &&
		tfp_html_looks_like(in, n))
		FUZZ_FAIL();
	free(t2);
	/* a failing allocation somewhere */
	html_alloc_budget = (long) (data[0] >> 3);
	t2 = html_run(in, n, b, m, alt, &n2);
	html_alloc_budget = -1;
	if (t2 != NULL && (n2 != n1 || memcmp(t1, t2, n1) != 0))
		FUZZ_FAIL();
	free(t2);
	free(t1);
	free(copy);
	return 0;
}
