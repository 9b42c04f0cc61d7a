/*
 * fuzz_match.c -- libFuzzer target for textfp_match() in the core
 * (tfp_match_side.c): two texts of arbitrary bytes (any UTF-8 validity),
 * the model and the HTML mode from the first byte, the split from the
 * second, must never crash; the score is 1 / (1 + exp(-z)) in [0, 1], the
 * verdict z >= the model's threshold, every similarity in [0, 1] and the
 * simhash distance in [0, 64]; (a, b) and (b, a) give the same answer; a
 * side kept and met twice gives what fresh sides give; a text against
 * itself has bigram Jaccard 1 (or 0 without features).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/core/generated \
 *       test/fuzz/fuzz_match.c $(find src/core -name '*.c') -lxxhash -lm -o /tmp/fuzz_match
 *   /tmp/fuzz_match -max_total_time=60
 *
 * test/unit/test_fuzz_match.c runs it without libFuzzer (corpus in
 * test/fuzz/corpus/match/, then random inputs; see test/README.md).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_match_side.h"
#include "../unit/arena.h"

#ifndef FUZZ_FAIL
#define FUZZ_FAIL() abort()	/* a broken invariant: a crash for libFuzzer */
#endif

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const tfp_match_env fm_env = {arena_alloc, arena_realloc, NULL, NULL, NULL};

static int
fm_unit(double x)
{
	return x >= 0.0 && x <= 1.0;
}

static int
fm_sane(const tfp_match_result *r, const tfp_match_model *m)
{
	const tfp_match_features *f = &r->f;

	return (r->verdict != 0) == (r->z >= m->threshold) &&
		r->score == 1.0 / (1.0 + exp(-r->z)) && fm_unit(r->score) &&
		fm_unit(f->j5) && fm_unit(f->c5) && fm_unit(f->j2) && fm_unit(f->c2) &&
		fm_unit(f->sim) && fm_unit(f->dna) && fm_unit(f->pj) && fm_unit(f->pc) &&
		fm_unit(f->ord) && fm_unit(f->ord1) && fm_unit(f->run) && fm_unit(f->zh) &&
		r->dist >= 0 && r->dist <= 64;
}

static int
fm_same(const tfp_match_result *x, const tfp_match_result *y)
{
	return x->verdict == y->verdict && x->score == y->score && x->dist == y->dist &&
		memcmp(&x->f, &y->f, sizeof(x->f)) == 0;
}

/* a fresh pair of sides */
static void
fm_eval(const char *x, size_t nx, const char *y, size_t ny, int html,
		const tfp_match_model *m, tfp_match_result *r)
{
	tfp_match_side a,
				b;

	if (tfp_match_side_read(x, nx, html, &fm_env, &a) != TFP_MATCH_OK ||
		tfp_match_side_read(y, ny, html, &fm_env, &b) != TFP_MATCH_OK)
		abort();
	tfp_match_eval(&a, &b, m, &fm_env, r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const tfp_match_model *m;
	const char *x,
			   *y;
	size_t		nx,
				ny;
	int			html,
				fail = 0;
	tfp_match_result r,
				s,
				t;
	tfp_match_side kept,
				b;

	if (size < 2)
		return 0;
	m = tfp_match_get_model(1 + data[0] % 2);
	html = (data[0] >> 1) % 3;
	x = (const char *) data + 2;
	nx = (size - 2) * data[1] / 256;
	y = x + nx;
	ny = size - 2 - nx;
	fm_eval(x, nx, y, ny, html, m, &r);
	fm_eval(y, ny, x, nx, html, m, &s);
	if (!fm_sane(&r, m) || !fm_same(&r, &s))
		fail = 1;
	/* a kept side met twice, the other model between */
	if (!fail)
	{
		tfp_match_side_read(x, nx, html, &fm_env, &kept);
		for (int k = 0; k < 3 && !fail; k++)
		{
			const tfp_match_model *mk = k == 1 ? tfp_match_get_model(3 - m->version) : m;

			tfp_match_side_read(y, ny, html, &fm_env, &b);
			tfp_match_eval(&kept, &b, mk, &fm_env, &t);
			if (k != 1 && !fm_same(&t, &r))
				fail = 1;
		}
	}
	/* a text against itself */
	if (!fail)
	{
		fm_eval(x, nx, x, nx, html, m, &t);
		if (!fm_sane(&t, m) || (t.f.j2 != 0.0 && t.f.j2 != 1.0))
			fail = 1;
	}
	arena_reset();
	if (fail)
		FUZZ_FAIL();
	return 0;
}
