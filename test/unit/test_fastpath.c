/*
 * test_fastpath.c -- the extractor's fast paths change no result
 *
 * tfp_extract_features has fast paths (runs of plain han characters read
 * through a per-fold table, bigrams held in registers, ASCII words copied and
 * lower-cased eight bytes at a time and hashed on the spot).  Here the same
 * texts go through it twice, with tfp_extract_fastpath = 1 and = 0 (the
 * general code alone), and the feature sequences, feature counts and han
 * counts must be identical, for every n-gram size 1..6, shingle size 1..4
 * and fold flags 0..7.  The texts are random mixtures of the inputs the fast
 * paths must hand back correctly: marks after han characters, traditional
 * characters, fullwidth letters, kana, 4-byte characters, invalid, overlong,
 * surrogate and truncated UTF-8, words of every length up to past the
 * 240-byte word buffer, upper case, digits, and text cut at every length.
 *
 * Also: the lazy tie-breaker (tfp_simhash_text) gives the same
 * fingerprints as the eager one, centered and not, on short texts full of
 * ties.
 */
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "tfp_core.h"
#include "tap.h"
#include "hash_vec.h"

static size_t
put(char *b, const char *s)
{
	size_t		n = strlen(s);

	memcpy(b, s, n);
	return n;
}

/* one random piece of text at b; returns its length (<= 300) */
static size_t
piece(char *b)
{
	static const char *const han[] = {
		"\xe4\xb8\xad", "\xe6\x96\x87", "\xe5\x9c\x8b",	/* 中 文 國 (folds) */
		"\xe9\x95\xb7", "\xe4\xb9\x90", "\xe8\xaa\xaa",	/* 長 乐 說 */
		"\xe3\x81\x82", "\xe3\x82\xab",	/* あ カ (kana: han class) */
		"\xe3\x90\x80",			/* U+3400, ext A */
		"\xf0\xa0\x80\x80",		/* U+20000, 4 bytes */
		"\xef\xa4\x80",			/* U+F900 compatibility ideograph (folds) */
	};
	static const char *const other[] = {
		"\xcc\x81",				/* combining acute: a mark */
		"\xe3\x80\x82", "\xef\xbc\x8c",	/* 。 ， */
		"\xef\xbc\xa1", "\xef\xbd\x82",	/* fullwidth A b */
		"\xc3\xa9", "\xc3\x89",	/* é É */
		"\xe2\x80\x8b",			/* ZWSP: ignorable */
		"\xef\xb8\x8f",			/* VS16 */
		"\xe0\x80\x80",			/* overlong */
		"\xed\xa0\x80",			/* surrogate */
		"\xe4\xb8",				/* truncated */
		"\x80", "\xff", " ", "\n", ".", "-", "\t", ", ",
	};
	size_t		n = 0;
	uint32_t	k = rnd(10),
				i,
				m;

	switch (k)
	{
		case 0:
		case 1:
		case 2:
			m = 1 + rnd(12);
			for (i = 0; i < m; i++)
				n += put(b + n, han[rnd(sizeof(han) / sizeof(han[0]))]);
			break;
		case 3:
			n += put(b + n, other[rnd(sizeof(other) / sizeof(other[0]))]);
			break;
		case 4:
		case 5:
		case 6:
			/* an ASCII word of 1..20 or, rarely, up to 300 bytes */
			m = rnd(20) ? 1 + rnd(20) : 200 + rnd(100);
			for (i = 0; i < m; i++)
			{
				static const char alnum[] =
					"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

				b[n++] = alnum[rnd(sizeof(alnum) - 1)];
			}
			break;
		default:
			b[n++] = " .,;:!?'\"()[]{}-_/\\@#`~|^&*+=<>\n"[rnd(33)];
			break;
	}
	return n;
}

static int
same_features(const char *s, size_t len, const tfp_feature_opts *o)
{
	static vec	a,
				b;
	uint64_t	ha,
				hb,
				na,
				nb;

	/* an exact-size heap copy: under AddressSanitizer (make unitcheck-san)
	 * any read past the end of the text is reported */
	char	   *t = malloc(len ? len : 1);
	int			same;

	memcpy(t, s, len);
	a.n = b.n = 0;
	tfp_extract_fastpath = 1;
	na = tfp_extract_features_counted(t, len, o, vsink, &a, &ha);
	tfp_extract_fastpath = 0;
	nb = tfp_extract_features_counted(t, len, o, vsink, &b, &hb);
	tfp_extract_fastpath = 1;
	same = na == nb && ha == hb && a.n == b.n && na == a.n &&
		memcmp(a.h, b.h, a.n * sizeof(uint64_t)) == 0;
	free(t);
	return same;
}

/*
 * Bigrams and characters in one pass (tfp_extract_features_dual), with the
 * fast paths and without, against two passes of the general code: the
 * bigram stream, the Han count, and the characters' stream as the words
 * before the first Han unit (the first lead of the bigram stream) and the
 * second stream; with other options than bigrams and words, two passes.
 */
static int
same_dual(const char *s, size_t len, unsigned fold)
{
	static vec	r2,
				r1,
				d2,
				d1;
	tfp_feature_opts o2 = {2, 1, fold},
				o1 = {1, 1, fold};
	uint64_t	h2,
				h1,
				hd,
				lead;
	char	   *t = malloc(len ? len : 1);
	int			same = 1;

	memcpy(t, s, len);
	r2.n = r1.n = 0;
	tfp_extract_fastpath = 0;
	tfp_extract_features_counted(t, len, &o2, vsink, &r2, &h2);
	tfp_extract_features_counted(t, len, &o1, vsink, &r1, &h1);
	for (int fast = 0; fast <= 1; fast++)
	{
		tfp_extract_fastpath = fast;
		d2.n = d1.n = 0;
		tfp_extract_features_dual(t, len, &o2, vsink, &d2, vsink, &d1, &hd, &lead);
		same = same && hd == h2 && d2.n == r2.n &&
			(r2.n == 0 || memcmp(d2.h, r2.h, r2.n * sizeof(uint64_t)) == 0) &&
			lead <= d2.n && lead + d1.n == r1.n &&
			(lead == 0 || memcmp(r1.h, d2.h, lead * sizeof(uint64_t)) == 0) &&
			(d1.n == 0 || memcmp(r1.h + lead, d1.h, d1.n * sizeof(uint64_t)) == 0);
	}
	/* other options: two passes, the whole character stream to sink1 */
	{
		tfp_feature_opts o5 = {5, 3, fold};
		static vec	r5;

		r5.n = 0;
		tfp_extract_features_counted(t, len, &o5, vsink, &r5, &h2);
		d2.n = d1.n = 0;
		tfp_extract_features_dual(t, len, &o5, vsink, &d2, vsink, &d1, &hd, &lead);
		same = same && hd == h2 && lead == 0 && d2.n == r5.n && d1.n == r1.n &&
			(r5.n == 0 || memcmp(d2.h, r5.h, r5.n * sizeof(uint64_t)) == 0) &&
			(r1.n == 0 || memcmp(d1.h, r1.h, r1.n * sizeof(uint64_t)) == 0);
	}
	tfp_extract_fastpath = 1;
	free(t);
	return same;
}

/*
 * A text without Han features: its word 3-shingles (ngram 5, shingle 3, as
 * textfp_match reads them) are those of its words (shingle 1), made by
 * tfp_word_shingles() -- what textfp_match does instead of reading the
 * text again.  1 when they agree or the text has Han features; *words is
 * set when it had none.
 */
static int
same_word_shingles(const char *s, size_t len, unsigned fold, int *words)
{
	static vec	w,
				sh;
	tfp_feature_opts o1 = {2, 1, fold},
				o5 = {5, 3, fold};
	uint64_t	h1,
				h5;
	uint64_t   *made;
	size_t		n;
	int			same;

	w.n = sh.n = 0;
	tfp_extract_features_counted(s, len, &o1, vsink, &w, &h1);
	*words = h1 == 0;
	if (h1 != 0)
		return 1;
	tfp_extract_features_counted(s, len, &o5, vsink, &sh, &h5);
	made = malloc((w.n + 1) * sizeof(uint64_t));
	n = tfp_word_shingles(w.h, w.n, 3, made);
	same = h5 == 0 && n == sh.n && (n == 0 || memcmp(made, sh.h, n * sizeof(uint64_t)) == 0);
	free(made);
	return same;
}

static uint64_t
simhash_eager(const char *s, size_t len, const tfp_feature_opts *o, int center)
{
	tfp_simhash_acc acc;
	vec			v = {0};
	uint64_t	nhan,
				fp;

	tfp_extract_features_counted(s, len, o, vsink, &v, &nhan);
	tfp_simhash_init(&acc);
	tfp_simhash_add(&acc, v.h, v.n);
	fp = center ? tfp_simhash_finish_centered(&acc, nhan, o->ngram, o->shingle)
		: tfp_simhash_finish(&acc);
	free(v.h);
	return fp;
}

int
main(void)
{
	static char text[70000];
	int			t,
				ok = 1,
				nowords = 0,
				cases = 0,
				retried = 0;
	char		what[200];

	/* random texts, every option set, and every prefix of some of them */
	for (t = 0; t < 1500 && ok; t++)
	{
		size_t		len = 0;
		int			pieces = 1 + (int) rnd(t % 10 == 0 ? 400 : 40);
		int			ngram,
					shingle;
		unsigned	fold;

		while (pieces-- > 0 && len < sizeof(text) - 400)
			len += piece(text + len);
		for (ngram = 1; ngram <= 6 && ok; ngram++)
			for (shingle = 1; shingle <= 4 && ok; shingle++)
				for (fold = 0; fold < 8 && ok; fold++)
				{
					tfp_feature_opts o = {ngram, shingle, fold};

					cases++;
					if (!same_features(text, len, &o))
					{
						ok = 0;
						snprintf(what, sizeof(what),
								 "text %d differs: ngram %d shingle %d fold %u", t, ngram, shingle, fold);
					}
				}
		if (t % 50 == 0)
		{
			tfp_feature_opts o = {2, 1, 7};
			size_t		cut;

			for (cut = 0; cut <= len && ok; cut++)
			{
				cases++;
				if (!same_features(text, cut, &o))
				{
					ok = 0;
					snprintf(what, sizeof(what), "text %d cut at %zu differs", t, cut);
				}
			}
		}
	}
	if (ok)
		snprintf(what, sizeof(what),
				 "fast paths give the general code's features (%d cases)", cases);
	check(ok, what);

	/* bigrams and characters in one pass, on the same kind of texts */
	ok = 1;
	cases = 0;
	nowords = 0;
	for (t = 0; t < 1500 && ok; t++)
	{
		size_t		len = 0;
		int			pieces = 1 + (int) rnd(t % 10 == 0 ? 400 : 40);

		while (pieces-- > 0 && len < sizeof(text) - 400)
			len += piece(text + len);
		for (unsigned fold = 0; fold < 8 && ok; fold++)
		{
			int			words;

			cases++;
			if (!same_dual(text, len, fold))
			{
				ok = 0;
				snprintf(what, sizeof(what), "one pass: text %d differs (fold %u)", t, fold);
			}
			if (!same_word_shingles(text, len, fold, &words))
			{
				ok = 0;
				snprintf(what, sizeof(what), "word shingles: text %d differs (fold %u)", t, fold);
			}
			nowords += words;
		}
		for (size_t cut = 0; t % 50 == 0 && cut <= len && ok; cut++)
		{
			cases++;
			if (!same_dual(text, cut, 7))
			{
				ok = 0;
				snprintf(what, sizeof(what), "one pass: text %d cut at %zu differs", t, cut);
			}
		}
	}
	if (ok)
		snprintf(what, sizeof(what),
				 "bigrams and characters in one pass = two passes, and the word shingles of "
				 "texts without Han = their words' (%d cases, %d without Han)", cases, nowords);
	check(ok && nowords > 500, what);
	/* English text, every prefix */
	{
		const char *en = "The city council approved a new budget for public transport on Monday, "
			"adding twelve bus routes \xe2\x80\x94 and extending the night service until two.";
		int			words,
					all = 1;

		for (size_t cut = 0; cut <= strlen(en); cut++)
			all &= same_word_shingles(en, cut, 7, &words) && words;
		check(all, "word shingles of an English text = its words' at every length");
	}

	/* a long han run crossing the tick, and long words, against the general code */
	{
		size_t		len = 0;
		tfp_feature_opts o = {2, 1, 7};
		tfp_feature_opts o5 = {5, 3, 7};

		while (len + 3 < sizeof(text))
			len += put(text + len, (len / 3) % 7 ? "\xe4\xb8\xad" : "\xe5\x9c\x8b");
		check(same_features(text, len, &o) && same_features(text, len, &o5),
			  "a 70 KB han run across the interrupt tick");
		check(same_dual(text, len, 7), "a 70 KB han run in one pass of bigrams and characters");
		memset(text, 'A', 5000);
		text[2500] = ' ';
		check(same_features(text, 5000, &o) && same_features(text, 5000, &o5),
			  "words longer than the word buffer");
	}

	/* the inlined short XXH3 == the library's, at every length 0..16 */
	{
		unsigned char b[16];
		int			i,
					len,
					same = 1;

		for (i = 0; i < 20000; i++)
			for (len = 0; len <= 16; len++)
			{
				uint64_t	seed = i % 3 ? TFP_SEED_WORD : ((uint64_t) rnd(1u << 31) << 32) | rnd(1u << 31);
				int			j;

				for (j = 0; j < 16; j++)
					b[j] = (unsigned char) rnd(256);
				if (tfp_xxh3_upto16(b, (size_t) len, seed) != XXH3_64bits_withSeed(b, (size_t) len, seed))
					same = 0;
			}
		check(same, "tfp_xxh3_upto16 equals XXH3_64bits_withSeed for 0..16 bytes");
	}

	/* lazy tie-breaker == eager, on short texts (many ties) and long ones */
	ok = 1;
	for (t = 0; t < 3000 && ok; t++)
	{
		size_t		len = 0;
		int			pieces = 1 + (int) rnd(t % 3 ? 3 : 60);
		int			center;
		tfp_feature_opts o = {1 + (int) rnd(3), 1 + (int) rnd(3), 7};

		while (pieces-- > 0)
			len += piece(text + len);
		for (center = 0; center <= 1; center++)
		{
			int			reread = 0;
			uint64_t	eager = simhash_eager(text, len, &o, center),
						lazy = tfp_simhash_text(text, len, &o, center, NULL, &reread);

			retried += reread;
			if (eager != lazy)
			{
				ok = 0;
				snprintf(what, sizeof(what),
						 "lazy tie differs on text %d (center %d): %016llx, %016llx", t, center,
						 (unsigned long long) eager, (unsigned long long) lazy);
			}
		}
	}
	if (ok)
		snprintf(what, sizeof(what),
				 "lazy tie-breaker gives the eager fingerprints (%d of 6000 needed T)", retried);
	check(ok && retried > 100, what);

	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
