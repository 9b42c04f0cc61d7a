/*
 * test_core.c -- unit tests of the PostgreSQL-free core: UTF-8, feature
 * extraction rules, and the SimHash accumulator against a naive reference.
 * Prints TAP lines; exits 1 if any check fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "tfp_core.h"

#include "tap.h"

/* collect features */
typedef struct
{
	uint64_t	h[4096];
	size_t		n;
	size_t		ticks;
} coll;

static void
coll_sink(void *arg, const uint64_t *h, size_t n)
{
	coll	   *c = arg;

	if (n == 0)
		c->ticks++;
	while (n-- > 0 && c->n < 4096)
		c->h[c->n++] = *h++;
}

static size_t
features(const char *s, int ngram, int shingle, unsigned fold, coll *c)
{
	tfp_feature_opts o = {ngram, shingle, fold};

	memset(c, 0, sizeof(*c));
	return (size_t) tfp_extract_features(s, strlen(s), &o, coll_sink, c);
}

static uint64_t
hs(const char *s, uint64_t seed)
{
	return XXH3_64bits_withSeed(s, strlen(s), seed);
}

/* han feature key: code points as 32-bit little-endian integers */
static uint64_t
hk(int n, uint32_t a, uint32_t b)
{
	unsigned char k[8];
	uint32_t	cps[2] = {a, b};
	int			i;

	for (i = 0; i < n; i++)
	{
		k[4 * i] = (unsigned char) cps[i];
		k[4 * i + 1] = (unsigned char) (cps[i] >> 8);
		k[4 * i + 2] = (unsigned char) (cps[i] >> 16);
		k[4 * i + 3] = (unsigned char) (cps[i] >> 24);
	}
	return XXH3_64bits_withSeed(k, 4 * (size_t) n, TFP_SEED_HAN);
}

static uint64_t
simhash_of(const char *s, int ngram, int shingle, unsigned fold)
{
	coll		c;
	tfp_simhash_acc acc;

	features(s, ngram, shingle, fold, &c);
	tfp_simhash_init(&acc);
	tfp_simhash_add(&acc, c.h, c.n);
	return tfp_simhash_finish(&acc);
}

static uint64_t
naive_simhash(const uint64_t *h, size_t n)
{
	long long	v[64] = {0};
	uint64_t	fp = 0,
				tie = 0;
	size_t		k;
	int			i;

	for (k = 0; k < n; k++)
	{
		tie += tfp_fmix64(h[k]);
		for (i = 0; i < 64; i++)
			v[i] += ((h[k] >> i) & 1) ? 1 : -1;
	}
	for (i = 0; i < 64; i++)
		if (v[i] > 0 || (v[i] == 0 && ((tie >> i) & 1)))
			fp |= (uint64_t) 1 << i;
	return fp;
}

static uint64_t
rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int
main(void)
{
	coll		c;
	uint32_t	cp;
	unsigned char buf[8];
	uint64_t	seed = 88172645463325252ULL;
	const unsigned fold = TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN;

	/* UTF-8 decoding */
	check(tfp_utf8_decode((const unsigned char *) "\xe4\xb8\xad", 3, &cp) == 3 && cp == 0x4E2D,
		  "decode 3-byte sequence");
	check(tfp_utf8_decode((const unsigned char *) "\xf0\x9f\x98\x80", 4, &cp) == 4 && cp == 0x1F600,
		  "decode 4-byte sequence");
	check(tfp_utf8_decode((const unsigned char *) "\xc0\xaf", 2, &cp) == 1 && cp == 0xFFFD,
		  "overlong form is U+FFFD, one byte consumed");
	check(tfp_utf8_decode((const unsigned char *) "\xed\xa0\x80", 3, &cp) == 1 && cp == 0xFFFD,
		  "encoded surrogate is U+FFFD");
	check(tfp_utf8_decode((const unsigned char *) "\xe4\xb8", 2, &cp) == 1 && cp == 0xFFFD,
		  "truncated sequence is U+FFFD");
	check(tfp_utf8_decode((const unsigned char *) "\xf4\x90\x80\x80", 4, &cp) == 1 && cp == 0xFFFD,
		  "beyond U+10FFFF is U+FFFD");
	check(tfp_utf8_encode(0x10FFFF, buf) == 4 && tfp_utf8_decode(buf, 4, &cp) == 4 && cp == 0x10FFFF,
		  "encode/decode round trip at U+10FFFF");

	/* word features */
	check(features("Hello, world!", 2, 1, fold, &c) == 2 &&
		  c.h[0] == hs("hello", TFP_SEED_WORD) && c.h[1] == hs("world", TFP_SEED_WORD),
		  "words are case-folded XXH3 of their UTF-8, in order");
	check(features("Hello, world!", 2, 1, 0, &c) == 2 && c.h[0] == hs("Hello", TFP_SEED_WORD),
		  "fold_case off keeps case");
	check(features("a b c d", 2, 3, fold, &c) == 2, "3-shingles over 4 words: 2 features");
	check(features("a b", 2, 3, fold, &c) == 1, "fewer words than the shingle size: one feature");
	check(features("", 2, 1, fold, &c) == 0, "empty text: no features");
	check(features(" ,.!? \t\n", 2, 1, fold, &c) == 0, "only separators: no features");

	/* han features */
	check(features("\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97", 2, 1, fold, &c) == 2 &&
		  c.h[0] == hk(2, 0x4E2D, 0x6587) && c.h[1] == hk(2, 0x6587, 0x5B57),
		  "han bigrams: 中文字 gives 中文, 文字");
	check(features("\xe4\xb8\xad", 2, 1, fold, &c) == 1 &&
		  c.h[0] == hk(1, 0x4E2D, 0),
		  "one han character: one feature, itself");
	check(features("\xe4\xb8\xad\xef\xbc\x8c\xe6\x96\x87", 2, 1, fold, &c) == 2,
		  "han runs are split by punctuation (中，文: two unigrams)");
	check(features("\xe4\xb8\xad\xe6\x96\x87PostgreSQL\xe6\x95\xb0\xe6\x8d\xae", 2, 1, fold, &c) == 3 &&
		  c.h[0] == hk(2, 0x4E2D, 0x6587) &&
		  c.h[1] == hs("postgresql", TFP_SEED_WORD) &&
		  c.h[2] == hk(2, 0x6570, 0x636E),
		  "mixed text: han runs and a word, in text order");
	check(features("\xe6\xbc\xa2\xe5\xad\x97", 2, 1, fold, &c) == 1 &&
		  c.h[0] == hk(2, 0x6C49, 0x5B57),
		  "traditional 漢字 folds to simplified 汉字");
	check(features("\xef\xbc\xa1\xef\xbc\xa2\xef\xbc\xa3", 2, 1, fold, &c) == 1 &&
		  c.h[0] == hs("abc", TFP_SEED_WORD),
		  "full-width ＡＢＣ folds to abc");
	check(features("caf\xc3\xa9", 2, 1, fold, &c) == 1 &&
		  c.h[0] == hs("cafe\xcc\x81", TFP_SEED_WORD),
		  "precomposed é is decomposed (café)");
	check(simhash_of("caf\xc3\xa9 au lait", 2, 1, fold) == simhash_of("cafe\xcc\x81 au lait", 2, 1, fold),
		  "precomposed and decomposed spellings give the same simhash");
	check(features("Hel\xc2\xadlo", 2, 1, fold, &c) == 1 && c.h[0] == hs("hello", TFP_SEED_WORD),
		  "soft hyphen is ignored inside a word");
	check(features("\xf0\x9f\x98\x80\xf0\x9f\x98\x80", 2, 1, fold, &c) == 0,
		  "emoji are separators");
	{
		/* a Thai run: marks join the preceding character's unit */
		const char *thai = "\xe0\xb8\x81\xe0\xb8\xb4\xe0\xb8\x99";	/* ก ิ น */

		check(features(thai, 2, 1, fold, &c) == 1,
			  "a combining mark joins its han-class unit (Thai: 2 units, 1 bigram)");
	}
	check(features("\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97\xe5\x85\xb8", 3, 1, fold, &c) == 2,
		  "trigrams: 4 characters give 2 features");

	/* long words stream through XXH3 with the same result */
	{
		static char big[5000];

		memset(big, 'x', sizeof(big) - 1);
		check(features(big, 2, 1, fold, &c) == 1 && c.h[0] == hs(big, TFP_SEED_WORD),
			  "a 4999-byte word hashes like the one-shot XXH3");
	}

	/* ticks for long texts without features */
	{
		size_t		n = 3 * TFP_TICK + 10;
		char	   *sp = malloc(n + 1);
		tfp_feature_opts o = {2, 1, fold};

		memset(sp, ' ', n);
		sp[n] = 0;
		memset(&c, 0, sizeof(c));
		tfp_extract_features(sp, n, &o, coll_sink, &c);
		check(c.ticks >= 3, "sink is ticked during long featureless text");
		free(sp);
	}

	/* accumulator against the naive reference */
	{
		static uint64_t h[10000];
		int			trial,
					ok = 1;

		for (trial = 0; trial < 200 && ok; trial++)
		{
			size_t		n = rng(&seed) % 10000,
						k;
			tfp_simhash_acc acc;

			for (k = 0; k < n; k++)
			{
				h[k] = rng(&seed);
				/* bias some trials towards ties and skewed bits */
				if (trial % 3 == 1)
					h[k] &= 0xFFFF0000FFFF0000ULL;
				if (trial % 3 == 2)
					h[k] = (k & 1) ? h[k] : ~h[k - (k > 0)];
			}
			tfp_simhash_init(&acc);
			/* add in uneven batches */
			for (k = 0; k < n;)
			{
				size_t		b = 1 + rng(&seed) % 700;

				if (b > n - k)
					b = n - k;
				tfp_simhash_add(&acc, h + k, b);
				k += b;
			}
			ok = tfp_simhash_finish(&acc) == naive_simhash(h, n);
		}
		check(ok, "bit-sliced accumulator equals naive counters on 200 random sets");
	}
	{
		tfp_simhash_wacc w;
		uint64_t	h[3] = {0xF0F0F0F0F0F0F0F0ULL, 0xFF00FF00FF00FF00ULL, 0x0ULL};

		tfp_simhash_winit(&w);
		tfp_simhash_wadd(&w, h[0], 1.0);
		tfp_simhash_wadd(&w, h[1], 1.0);
		tfp_simhash_wadd(&w, h[2], 1.0);
		check(tfp_simhash_wfinish(&w) == naive_simhash(h, 3), "weighted accumulator with unit weights");
		tfp_simhash_winit(&w);
		tfp_simhash_wadd(&w, h[0], 3.0);
		tfp_simhash_wadd(&w, h[1], -1.0);
		check(tfp_simhash_wfinish(&w) == 0xF0F0F0F0F0F0F0F0ULL, "weights dominate");
		tfp_simhash_winit(&w);
		check(tfp_simhash_wfinish(&w) == 0, "no features: fingerprint 0");
	}
	{
		/* two features: agreeing bits kept, ties from T, about half 1s */
		uint64_t	a = 0x0123456789ABCDEFULL,
					b = 0xFEDCBA9876543210ULL;	/* b = ~a: all ties */
		uint64_t	pair[2] = {a, b};
		tfp_simhash_acc acc;

		tfp_simhash_init(&acc);
		tfp_simhash_add(&acc, pair, 2);
		check(tfp_simhash_finish(&acc) == tfp_fmix64(a) + tfp_fmix64(b),
			  "all-tie fingerprint is the tie-breaker T");
	}
	{
		/* tie rule is unbiased: over many 2-feature sets, ~50% ones */
		uint64_t	ones = 0;
		int			t;

		for (t = 0; t < 20000; t++)
		{
			uint64_t	pair[2] = {rng(&seed), rng(&seed)};
			tfp_simhash_acc acc;

			tfp_simhash_init(&acc);
			tfp_simhash_add(&acc, pair, 2);
			ones += (uint64_t) tfp_popcount64(tfp_simhash_finish(&acc));
		}
		check(ones > 20000 * 64 * 0.49 && ones < 20000 * 64 * 0.51,
			  "two-feature fingerprints have 50% +- 1% one bits");
	}
	{
		/*
		 * Centering against a direct computation: V'[i] * 2^16 =
		 * (2 ones[i] - n) * 2^16 - nhan * refhan[i] - nword * refword[i],
		 * ties from T, over random feature sets and han/word splits.
		 */
		static uint64_t h[3000];
		int			trial,
					ok = 1;

		for (trial = 0; trial < 300 && ok; trial++)
		{
			size_t		n = rng(&seed) % 3000,
						k;
			uint64_t	nhan = n ? rng(&seed) % (n + 1) : 0;
			int			ngram = 1 + (int) (rng(&seed) % 4);	/* 4: no reference */
			int			shingle = 1 + (int) (rng(&seed) % 4);
			long long	ones[64] = {0};
			uint64_t	tie = 0,
						want = 0;
			tfp_simhash_acc acc;
			int			i;

			for (k = 0; k < n; k++)
			{
				h[k] = rng(&seed);
				tie += tfp_fmix64(h[k]);
				for (i = 0; i < 64; i++)
					ones[i] += (h[k] >> i) & 1;
			}
			for (i = 0; i < 64; i++)
			{
				long long	v = (2 * ones[i] - (long long) n) * TFP_REF_SCALE;

				if (ngram <= TFP_REF_MAX_NGRAM)
					v -= (long long) nhan * tfp_simhash_ref_han[ngram - 1][i];
				if (shingle <= TFP_REF_MAX_SHINGLE)
					v -= (long long) (n - nhan) * tfp_simhash_ref_word[shingle - 1][i];
				if (v > 0 || (v == 0 && ((tie >> i) & 1)))
					want |= (uint64_t) 1 << i;
			}
			tfp_simhash_init(&acc);
			tfp_simhash_add(&acc, h, n);
			ok = tfp_simhash_finish_centered(&acc, nhan, ngram, shingle) == want;
		}
		check(ok, "centered finish equals a direct computation on 300 random sets");
	}
	{
		/* one feature: centering never flips it (|reference| < 1) */
		uint64_t	one = 0x0123456789ABCDEFULL;
		tfp_simhash_acc acc;

		tfp_simhash_init(&acc);
		tfp_simhash_add(&acc, &one, 1);
		check(tfp_simhash_finish_centered(&acc, 1, 2, 1) == one,
			  "a one-feature text keeps its feature's hash when centered");
	}
	{
		/*
		 * A deployment's reference (tfp_simhash_balance.c): thresholds
		 * chosen from texts' ratios, and the fingerprints they give, agree
		 * with the documented rule -- bit i is 1 if q > t or (q == t and
		 * the division not exact), a tie (bit of T) if q == t and exact --
		 * over random word texts; zero thresholds give the plain
		 * fingerprint; and the chosen thresholds balance their own texts.
		 */
		static const char *const words[] = {"the", "of", "and", "to", "in",
			"data", "text", "copy", "中文", "新闻", "北京", "文章", "is", "a",
		"page", "site", "重复", "检测"};
		enum
		{
			NT = 3000
		};
		static char texts[NT][400];
		static size_t lens[NT];
		static int32_t q[NT * 64];
		static uint64_t exact[NT];
		static uint32_t counts[TFP_BALANCE_SCRATCH];
		int32_t		thr[64],
					zero[64] = {0};
		tfp_feature_opts o = {2, 1, TFP_FOLD_WIDTH | TFP_FOLD_CASE | TFP_FOLD_HAN};
		size_t		n = 0;
		long		rule_bad = 0,
					ties = 0,
					plain_bad = 0,
					ones[64] = {0};
		int			worst = 0;

		for (int t = 0; t < NT; t++)
		{
			int			nw = 4 + (int) (rng(&seed) % 20);

			/* words of two syllables: 324 of them */
			lens[t] = 0;
			for (int w = 0; w < nw; w++)
				for (int k = 0; k < 3; k++)
				{
					const char *x = k == 2 ? " " :
						words[rng(&seed) % (sizeof(words) / sizeof(words[0]))];

					memcpy(texts[t] + lens[t], x, strlen(x));
					lens[t] += strlen(x);
				}
			if (tfp_simhash_text_ratios(texts[t], lens[t], &o, NULL, q + 64 * n, exact + n) > 0)
				n++;
		}
		tfp_simhash_choose_thresholds(q, exact, n, thr, counts);
		for (size_t t = 0; t < n; t++)
		{
			uint64_t	fp = tfp_simhash_text_thresholds(texts[t], lens[t], &o, thr, NULL, NULL);

			if (tfp_simhash_text_thresholds(texts[t], lens[t], &o, zero, NULL, NULL) !=
				tfp_simhash_text(texts[t], lens[t], &o, 0, NULL, NULL))
				plain_bad++;
			for (int b = 0; b < 64; b++)
			{
				int32_t		v = q[t * 64 + (size_t) b];
				int			ex = (int) ((exact[t] >> b) & 1);

				ones[b] += (long) ((fp >> b) & 1);
				if (v == thr[b] && ex)
					ties++;
				else if ((int) ((fp >> b) & 1) != (v > thr[b] || (v == thr[b] && !ex)))
					rule_bad++;
			}
		}
		for (int b = 0; b < 64; b++)
		{
			int			dev = (int) (ones[b] * 1000 / (long) n) - 500;

			if (dev < 0)
				dev = -dev;
			if (dev > worst)
				worst = dev;
		}
		check(n > NT / 2 && rule_bad == 0 && ties > 0,
			  "reference thresholds: fingerprints follow the q/exact rule");
		check(plain_bad == 0, "zero thresholds give the plain fingerprint");
		check(worst <= 30, "chosen thresholds: every bit within 50% +- 3% of their own short texts");
	}
	{
		/* the choice on a small sample: t = 0 balances {-10, 0, 0, 5, 7}
		 * (the two exact zeros are ties, half ones) */
		int32_t		q5[5 * 64] = {0},
					thr[64];
		uint64_t	ex5[5] = {0};
		static uint32_t counts[TFP_BALANCE_SCRATCH];
		const int32_t vals[5] = {-10, 0, 0, 5, 7};

		for (int r = 0; r < 5; r++)
		{
			q5[r * 64] = vals[r];
			q5[r * 64 + 1] = 100 + r;	/* bit 1: all well above 0 */
			ex5[r] = (vals[r] == 0) ? 1 : 0;
		}
		tfp_simhash_choose_thresholds(q5, ex5, 5, thr, counts);
		check(thr[0] == 0, "threshold of {-10, 0, 0, 5, 7}: 0");
		check(thr[1] == 102, "threshold of {100 .. 104}: the median, 102");
	}
	check(tfp_popcount64(0) == 0 && tfp_popcount64(~0ULL) == 64 &&
		  tfp_popcount64(0x8000000000000001ULL) == 2, "popcount");

	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
