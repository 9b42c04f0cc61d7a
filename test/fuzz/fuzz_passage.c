/*
 * fuzz_passage.c -- libFuzzer target for the passage fingerprint
 * (tfp_passage.c, and its AVX-512 kernels in tfp_passage_x86.c): arbitrary
 * bytes (any UTF-8 validity) and options must never crash; the streamed
 * keys-only path (tfp_passage_seeds) gives the seeds that winnowing the
 * units of the path with spans gives (tfp_passage_units, then
 * tfp_passage_winnow_len), in increasing unit order, each within the
 * text's units; and where the CPU has the kernels, the portable code gives
 * the same seeds, bit for bit.  Two option bytes: k and w (1-16, 1-64) and
 * the reading fold; one input in four takes the defaults.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/core/generated \
 *       test/fuzz/fuzz_passage.c src/core/tfp_passage.c src/core/tfp_passage_x86.c src/core/tfp_cpu.c \
 *       src/core/tfp_pinyin.c src/core/tfp_pinyin_x86.c src/core/generated/tfp_pinyin_data.c \
 *       src/core/tfp_features.c src/core/tfp_unicode.c src/core/generated/tfp_unicode_data.c \
 *       -lxxhash -o /tmp/fuzz_passage
 *   /tmp/fuzz_passage -max_total_time=60
 *
 * test/unit/test_fuzz_passage.c runs it without libFuzzer (corpus in
 * test/fuzz/corpus/passage/, then random inputs; see test/README.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_cpu.h"
#include "tfp_passage.h"

#ifndef FUZZ_FAIL
#define FUZZ_FAIL() abort()	/* a broken invariant: a crash for libFuzzer */
#endif

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fz_buf
{
	void	   *p;
	size_t		n,
				cap,
				size;
} fz_buf;

static void
fz_put(fz_buf *b, const void *x, size_t n)
{
	if (b->n + n > b->cap)
	{
		b->cap = (b->n + n) * 2 + 16;
		b->p = realloc(b->p, b->cap * b->size);
	}
	memcpy((char *) b->p + b->n * b->size, x, n * b->size);
	b->n += n;
}

static void
fz_units(void *arg, const tfp_punit *u, size_t n)
{
	fz_put((fz_buf *) arg, u, n);
}

static void
fz_seeds(void *arg, const tfp_pseed *s, size_t n)
{
	fz_put((fz_buf *) arg, s, n);
}

/* the seeds of s[0..len) through the streamed path, *units its units */
static fz_buf
fz_stream(const char *s, size_t len, const tfp_passage_opts *o, uint64_t *units)
{
	fz_buf		b = {NULL, 0, 0, sizeof(tfp_pseed)};

	tfp_passage_seeds(s, len, o, fz_seeds, &b, NULL, units);
	return b;
}

static int
fz_same(const fz_buf *a, const fz_buf *b)
{
	return a->n == b->n && (a->n == 0 || memcmp(a->p, b->p, a->n * sizeof(tfp_pseed)) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tfp_passage_opts o = {TFP_PASSAGE_DEFAULT_K, TFP_PASSAGE_DEFAULT_W, 1};
	const char *s;
	size_t		len;
	fz_buf		u = {NULL, 0, 0, sizeof(tfp_punit)},
				a,
				b = {NULL, 0, 0, 0};
	uint64_t   *keys;
	uint8_t    *lens;
	tfp_pseed  *x;
	size_t		nx;
	uint64_t	units = 0,
				units_b = 0;
	int			fail = 0;

	if (size < 2)
		return 0;
	if (data[0] & 3)
	{
		o.k = 1 + (data[0] >> 2) % TFP_PASSAGE_MAX_K;
		o.w = 1 + data[1] % TFP_PASSAGE_MAX_W;
		o.reading = (data[1] >> 6) & 1;
	}
	s = (const char *) data + 2;
	len = size - 2;

	/* the units with spans, winnowed as an array */
	tfp_passage_units(s, len, o.reading, fz_units, &u, NULL);
	keys = malloc((u.n + 1) * sizeof(uint64_t));
	lens = malloc(u.n + 1);
	x = malloc((u.n + 1) * sizeof(tfp_pseed));
	for (size_t i = 0; i < u.n; i++)
	{
		keys[i] = ((tfp_punit *) u.p)[i].key;
		lens[i] = ((tfp_punit *) u.p)[i].han ? 1 : 2;
	}
	nx = tfp_passage_winnow_len(keys, lens, u.n, &o, x);

	/* the streamed keys-only path, with the kernels where there are some */
	a = fz_stream(s, len, &o, &units);
	if (units != u.n || a.n != nx || (nx > 0 && memcmp(a.p, x, nx * sizeof(tfp_pseed)) != 0))
		fail = 1;
	for (size_t i = 0; !fail && i < a.n; i++)
	{
		const tfp_pseed *p = (const tfp_pseed *) a.p + i;

		if (p->unit >= units || (i > 0 && p->unit <= p[-1].unit) || p->pad != 0)
			fail = 1;
	}

	/* the portable code alone */
	if (!fail && tfp_cpu_avx512())
	{
		tfp_simd_enabled = 0;
		b = fz_stream(s, len, &o, &units_b);
		nx = tfp_passage_winnow_len(keys, lens, u.n, &o, x);
		tfp_simd_enabled = 1;
		if (units_b != units || !fz_same(&a, &b) || a.n != nx ||
			(nx > 0 && memcmp(a.p, x, nx * sizeof(tfp_pseed)) != 0))
			fail = 1;
	}
	free(keys);
	free(lens);
	free(x);
	free(u.p);
	free(a.p);
	free(b.p);
	if (fail)
		FUZZ_FAIL();
	return 0;
}
