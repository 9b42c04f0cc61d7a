/*
 * fuzz_match.c -- libFuzzer target for textfp_match() in the core
 * (tfp_match_side.c): two texts of arbitrary bytes (any UTF-8 validity),
 * the model and the HTML mode from the first byte, the split from the
 * second, must never crash; the score is 1 / (1 + exp(-z)) in [0, 1], the
 * verdict z >= the model's threshold, every similarity in [0, 1] and the
 * simhash distance in [0, 64]; (a, b) and (b, a) give the same answer; a
 * side kept and met twice gives what fresh sides give; a text against
 * itself has bigram Jaccard 1 (or 0 without features).  The same for the
 * two texts inside one site template (fixed header and footer lines: the
 * common edges and the middles of model 2).  For both pairs the z of
 * textfp_match_features()' values (tfp_match_eval_features, tfp_match_z)
 * is the verdict's, unless a text has no feature, and kept sides give the
 * features of fresh ones.  Every block is given back once the sides are
 * freed (tfp_match_side_free; arena.h counts them and poisons what is
 * given back).
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

static const tfp_match_env fm_env = {arena_alloc, arena_realloc, arena_free, NULL, NULL};

/* the site template around both texts of the second pair */
static const char fm_head[] = "Example News | Home | World\nPosted today\n";
static const char fm_foot[] = "\nShare this article\n\xe7\x89\x88\xe6\x9d\x83\xe6\x89\x80\xe6\x9c\x89 Example News";

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

/* a fresh pair of sides: the verdict (m) or the features (m NULL) */
static void
fm_eval(const char *x, size_t nx, const char *y, size_t ny, int html,
		const tfp_match_model *m, tfp_match_result *r, tfp_match_pair *p)
{
	tfp_match_side a,
				b;

	if (tfp_match_side_read(x, nx, html, &fm_env, &a) != TFP_MATCH_OK ||
		tfp_match_side_read(y, ny, html, &fm_env, &b) != TFP_MATCH_OK)
		abort();
	if (m)
		tfp_match_eval(&a, &b, m, &fm_env, r);
	else
		tfp_match_eval_features(&a, &b, &fm_env, p);
	tfp_match_side_free(&a);
	tfp_match_side_free(&b);
}

/*
 * The invariants of one pair x, y (model m): sane, symmetric, the z of the
 * features, kept sides met by m, another model and m again, then by the
 * features; 0 if one is broken
 */
static int
fm_pair(const char *x, size_t nx, const char *y, size_t ny, int html,
		const tfp_match_model *m)
{
	tfp_match_result r,
				s,
				t;
	tfp_match_pair p,
				q;
	tfp_match_side kept,
				b;

	fm_eval(x, nx, y, ny, html, m, &r, NULL);
	fm_eval(y, ny, x, nx, html, m, &s, NULL);
	fm_eval(x, nx, y, ny, html, NULL, NULL, &p);
	if (!fm_sane(&r, m) || !fm_same(&r, &s) ||
		(isfinite(r.z) && tfp_match_z(m, &p) != r.z))
		return 0;
	/* a kept side met twice, another model between, then the features */
	tfp_match_side_read(x, nx, html, &fm_env, &kept);
	for (int k = 0; k < 4; k++)
	{
		const tfp_match_model *mk = k == 1 ? tfp_match_get_model(1 + m->version % 3) : m;
		int			ok = 1;

		tfp_match_side_read(y, ny, html, &fm_env, &b);
		if (k < 3)
		{
			tfp_match_eval(&kept, &b, mk, &fm_env, &t);
			ok = k == 1 || fm_same(&t, &r);
		}
		else
		{
			tfp_match_eval_features(&kept, &b, &fm_env, &q);
			ok = memcmp(&p, &q, sizeof(p)) == 0;
		}
		tfp_match_side_free(&b);
		if (!ok)
		{
			tfp_match_side_free(&kept);
			return 0;
		}
	}
	tfp_match_side_free(&kept);
	return 1;
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
	tfp_match_result t;
	char	   *tx,
			   *ty;

	if (size < 2)
		return 0;
	m = tfp_match_get_model(1 + data[0] % 3);
	html = (data[0] / 3) % 3;
	x = (const char *) data + 2;
	nx = (size - 2) * data[1] / 256;
	y = x + nx;
	ny = size - 2 - nx;
	if (!fm_pair(x, nx, y, ny, html, m))
		fail = 1;
	/* a text against itself */
	if (!fail)
	{
		fm_eval(x, nx, x, nx, html, m, &t, NULL);
		if (!fm_sane(&t, m) || (t.f.j2 != 0.0 && t.f.j2 != 1.0))
			fail = 1;
	}
	/* both inside one site template */
	if (!fail)
	{
		size_t		nh = sizeof(fm_head) - 1,
					nf = sizeof(fm_foot) - 1;

		tx = malloc(nh + nx + nf);
		ty = malloc(nh + ny + nf);
		memcpy(tx, fm_head, nh);
		memcpy(tx + nh, x, nx);
		memcpy(tx + nh + nx, fm_foot, nf);
		memcpy(ty, fm_head, nh);
		memcpy(ty + nh, y, ny);
		memcpy(ty + nh + ny, fm_foot, nf);
		if (!fm_pair(tx, nh + nx + nf, ty, nh + ny + nf, html, m))
			fail = 1;
		free(tx);
		free(ty);
	}
	if (arena_live != 0)
		fail = 1;				/* a block not given back */
	arena_reset();
	if (fail)
		FUZZ_FAIL();
	return 0;
}
