/*
 * test_spotsigs.c -- unit tests of the SpotSigs core (tfp_spotsigs.c): the
 * paper's example and a Chinese one worked by hand, the streaming state
 * machine against a naive reference on random token sequences fed in random
 * batches, the built-in lists, edge cases.
 * Prints TAP lines; exits 1 if any check fails.
 */
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "tfp_core.h"
#include "tfp_sort.h"
#include "tfp_spotsigs.h"

#include "tap.h"
#include "hash_vec.h"

static uint64_t
tok(const char *s)
{
	uint64_t	h;

	if (tfp_spot_token(s, strlen(s), &h) != 1)
		return 0;
	return h;
}

/* the spot of a chain of hashes, byte by byte as the definition says */
static uint64_t
ref_spot(const uint64_t *v, size_t n)
{
	unsigned char b[8 * (TFP_SPOT_MAX_CHAIN + 1)];

	for (size_t i = 0; i < n; i++)
		for (int j = 0; j < 8; j++)
			b[8 * i + j] = (unsigned char) (v[i] >> (8 * j));
	return XXH3_64bits_withSeed(b, 8 * n, TFP_SPOT_SEED);
}

typedef struct lists
{
	tfp_termset ante,
				stop,
				skip;
	uint64_t	aslots[256],
				sslots[1024],
				kslots[1024];
	size_t		nante;
} lists;

static void
make_lists(lists *l, const uint64_t *a, size_t na, const uint64_t *s, size_t ns)
{
	uint64_t	both[512];

	if (na > 0)
		memcpy(both, a, na * sizeof(uint64_t));
	if (ns > 0)
		memcpy(both + na, s, ns * sizeof(uint64_t));
	tfp_termset_build(&l->ante, l->aslots, tfp_termset_slots(na), a, na);
	tfp_termset_build(&l->stop, l->sslots, tfp_termset_slots(ns), s, ns);
	tfp_termset_build(&l->skip, l->kslots, tfp_termset_slots(na + ns), both, na + ns);
	l->nante = na;
}

static void
vsink1(void *arg, uint64_t spot)
{
	vsink(arg, &spot, 1);
}

/* spots of a token sequence fed in batches of random sizes (or all at once) */
static vec
run(const lists *l, int chain, const uint64_t *t, size_t n, int random_batches)
{
	tfp_spot_state st;
	uint64_t   *stage = malloc(sizeof(uint64_t) * (size_t) chain * (l->nante + 1));
	vec			v = {0};
	size_t		i = 0;

	tfp_spot_init(&st, &l->ante, &l->skip, chain, l->nante + 1, stage, vsink1, &v);
	while (i < n)
	{
		size_t		b = random_batches ? 1 + rnd(7) : n;

		if (b > n - i)
			b = n - i;
		tfp_spot_feed(&st, t + i, b);
		i += b;
	}
	free(stage);
	v.n = tfp_sort_unique_u64(v.h, v.n, NULL);
	return v;
}

/* the definition, naively: every antecedent, then the next c content tokens */
static vec
naive(const lists *l, int chain, const uint64_t *t, size_t n)
{
	vec			v = {0};

	for (size_t i = 0; i < n; i++)
	{
		uint64_t	key[TFP_SPOT_MAX_CHAIN + 1];
		int			c = 0;

		if (!tfp_termset_contains(&l->ante, t[i]))
			continue;
		key[0] = t[i];
		for (size_t j = i + 1; j < n && c < chain; j++)
			if (!tfp_termset_contains(&l->ante, t[j]) && !tfp_termset_contains(&l->stop, t[j]))
				key[++c] = t[j];
		if (c == chain)
		{
			uint64_t	s = ref_spot(key, (size_t) chain + 1);

			vsink(&v, &s, 1);
		}
	}
	v.n = tfp_sort_unique_u64(v.h, v.n, NULL);
	return v;
}

/* the tokens of a text */
static vec
tokens(const char *s)
{
	tfp_feature_opts o = {1, 1, TFP_SPOT_FOLDS};
	vec			v = {0};

	tfp_extract_features(s, strlen(s), &o, vsink, &v);
	return v;
}

static int
has(const vec *v, uint64_t x)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->h[i] == x)
			return 1;
	return 0;
}

static void
test_examples(void)
{
	/* The paper's example, antecedents {a, the, is}, stopwords {to, off,
	 * for, at}, chain 2: a:rally:kick (to skipped), a:weeklong:campaign,
	 * the:south:carolina -- three spots. */
	uint64_t	a[3] = {tok("a"), tok("the"), tok("is")};
	uint64_t	s[4] = {tok("to"), tok("off"), tok("for"), tok("at")};
	lists		l;
	vec			t = tokens("At a rally to kick off a weeklong campaign for the South Carolina primary");
	vec			r;
	uint64_t	k1[3] = {tok("a"), tok("rally"), tok("kick")};
	uint64_t	k2[3] = {tok("a"), tok("weeklong"), tok("campaign")};
	uint64_t	k3[3] = {tok("the"), tok("south"), tok("carolina")};

	make_lists(&l, a, 3, s, 4);
	r = run(&l, 2, t.h, t.n, 0);
	check(r.n == 3 && has(&r, ref_spot(k1, 3)) && has(&r, ref_spot(k2, 3)) && has(&r, ref_spot(k3, 3)),
		  "paper's example: a:rally:kick, a:weeklong:campaign, the:south:carolina");
	check(tok("South") == tok("south") && tok("ＳＯＵＴＨ") == tok("south"),
		  "tokens are folded: case and width");
	free(r.h);
	r = run(&l, 3, t.h, t.n, 0);
	/* chain 3: a:rally:kick:weeklong, a:weeklong:campaign:south,
	 * the:south:carolina:primary */
	check(r.n == 3, "paper's example, chain 3: three spots");
	free(r.h);
	r = run(&l, 6, t.h, t.n, 0);
	/* chain 6: only the first a has 6 content tokens after it */
	check(r.n == 1, "chain 6: only the first antecedent has 6 content tokens after it");
	free(r.h);
	free(t.h);

	/* Chinese: 我们的国家在发展 -- tokens 我 们 的 国 家 在 发 展;
	 * antecedents 的 在, stopwords 我 们: 的:国:家 and 在:发:展 */
	{
		uint64_t	za[2] = {tok("的"), tok("在")};
		uint64_t	zs[2] = {tok("我"), tok("们")};
		uint64_t	z1[3] = {tok("的"), tok("国"), tok("家")};
		uint64_t	z2[3] = {tok("在"), tok("发"), tok("展")};

		make_lists(&l, za, 2, zs, 2);
		t = tokens("我们的国家，在发展。");
		r = run(&l, 2, t.h, t.n, 0);
		check(t.n == 8 && r.n == 2 && has(&r, ref_spot(z1, 3)) && has(&r, ref_spot(z2, 3)),
			  "Chinese example: 的:国:家 and 在:发:展 (punctuation is not a token)");
		check(tok("們") == tok("们") && tok("國") == tok("国"), "traditional characters fold to simplified");
		free(r.h);
		free(t.h);
	}
	/* antecedents only, and no antecedent */
	t = tokens("the the a the");
	make_lists(&l, a, 3, s, 4);
	r = run(&l, 1, t.h, t.n, 0);
	check(r.n == 0, "a text of antecedents only has no spot");
	free(r.h);
	free(t.h);
	make_lists(&l, NULL, 0, s, 4);
	t = tokens("a rally to kick off a campaign");
	r = run(&l, 1, t.h, t.n, 0);
	check(r.n == 0, "no antecedents, no spots");
	free(r.h);
	free(t.h);
	/* consecutive antecedents share the chain: a the x y -> a:x:y the:x:y */
	make_lists(&l, a, 3, s, 4);
	t = tokens("a the x y");
	r = run(&l, 2, t.h, t.n, 0);
	{
		uint64_t	q1[3] = {tok("a"), tok("x"), tok("y")};
		uint64_t	q2[3] = {tok("the"), tok("x"), tok("y")};

		check(r.n == 2 && has(&r, ref_spot(q1, 3)) && has(&r, ref_spot(q2, 3)),
			  "consecutive antecedents: a:x:y and the:x:y");
	}
	free(r.h);
	free(t.h);
}

static void
test_random(void)
{
	int			ok = 1,
				nonempty = 0;

	for (int trial = 0; trial < 2000 && ok; trial++)
	{
		uint64_t	vocab[40],
					t[300];
		lists		l;
		int			na = rnd(6),
					ns = rnd(10),
					chain = 1 + rnd(TFP_SPOT_MAX_CHAIN),
					n = rnd(300);
		vec			a,
					b,
					c;

		for (int i = 0; i < 40; i++)
			vocab[i] = i == 0 ? 0 : (uint64_t) rnd(1u << 30) * 0x9E3779B97F4A7C15u;
		/* vocab[0..na) antecedents, [na, na+ns) stopwords, the rest content;
		 * the antecedent list may repeat values */
		make_lists(&l, vocab, (size_t) na, vocab + na, (size_t) ns);
		for (int i = 0; i < n; i++)
			t[i] = vocab[rnd(chain > 8 ? 20 : 40)];
		a = run(&l, chain, t, (size_t) n, 0);
		b = run(&l, chain, t, (size_t) n, 1);
		c = naive(&l, chain, t, (size_t) n);
		ok = a.n == c.n && b.n == c.n &&
			(c.n == 0 || (memcmp(a.h, c.h, c.n * 8) == 0 && memcmp(b.h, c.h, c.n * 8) == 0));
		if (!ok)
			printf("# trial %d: chain %d, %d tokens: %zu / %zu spots, naive %zu\n",
				   trial, chain, n, a.n, b.n, c.n);
		nonempty += c.n > 0;
		free(a.h);
		free(b.h);
		free(c.h);
	}
	check(ok && nonempty > 500, "streaming spots equal the naive definition (2000 random sequences, random batches)");
}

static void
test_lists(void)
{
	int			ok = 1;
	static uint64_t h[512];

	for (size_t i = 0; i < tfp_spot_ndefault_antecedents; i++)
		ok &= tfp_spot_token(tfp_spot_default_antecedents[i],
							 strlen(tfp_spot_default_antecedents[i]), &h[i]) == 1;
	for (size_t i = 0; i < tfp_spot_ndefault_stopwords; i++)
		ok &= tfp_spot_token(tfp_spot_default_stopwords[i],
							 strlen(tfp_spot_default_stopwords[i]), &h[256 + i]) == 1;
	check(ok && tfp_spot_ndefault_stopwords <= 256, "built-in lists: every entry is one token");
	check(tfp_sort_unique_u64(h, tfp_spot_ndefault_antecedents, NULL) == tfp_spot_ndefault_antecedents &&
		  tfp_sort_unique_u64(h + 256, tfp_spot_ndefault_stopwords, NULL) == tfp_spot_ndefault_stopwords,
		  "built-in lists: no entry twice");
	check(tfp_spot_ndefault_antecedents == 22 && tfp_spot_ndefault_stopwords == 147,
		  "built-in lists: 22 antecedents, 147 stopwords (frozen)");
	{
		uint64_t	x;

		check(tfp_spot_token("two words", 9, &x) == 2 && tfp_spot_token("，", 3, &x) == 0 &&
			  tfp_spot_token("中文", 6, &x) == 2,
			  "list entries of two tokens or none are told apart");
	}
}

int
main(void)
{
	test_examples();
	test_random();
	test_lists();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
