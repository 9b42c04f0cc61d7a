/*
 * test_sentences.c -- unit tests of the top-k longest sentences
 * (tfp_sentences.c): where sentences end (worked examples for every end
 * mark and the cases that must not end a sentence), the normalized hash as
 * defined, the top-k choice against a naive reference on random texts,
 * interrupt ticks on long texts.
 * Prints TAP lines; exits 1 if any check fails.
 */
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "tfp_core.h"
#include "tfp_sentences.h"
#include "tfp_sort.h"

#include "tap.h"
#include "hash_vec.h"

typedef struct sent
{
	size_t		start,
				end;
	uint64_t	ntokens,
				hash;
} sent;

typedef struct sents
{
	int			n;
	sent		s[4096];
} sents;

static void
collect(void *arg, size_t start, size_t end, uint64_t ntokens, uint64_t hash)
{
	sents	   *v = (sents *) arg;

	if (v->n < 4096)
		v->s[v->n++] = (sent) {start, end, ntokens, hash};
}

static sents S;

static int
split(const char *text)
{
	S.n = 0;
	tfp_sentences_each(text, strlen(text), NULL, collect, &S);
	return S.n;
}

/* "n:t1,t2,..." : the number of sentences and their token counts */
static const char *
shape(const char *text)
{
	static char buf[256];
	size_t		l;

	split(text);
	l = (size_t) snprintf(buf, sizeof(buf), "%d:", S.n);
	for (int i = 0; i < S.n && l < sizeof(buf) - 8; i++)
		l += (size_t) snprintf(buf + l, sizeof(buf) - l, "%s%llu", i ? "," : "",
							   (unsigned long long) S.s[i].ntokens);
	return buf;
}

static void
expect_shape(const char *text, const char *want, const char *what)
{
	const char *got = shape(text);
	int			ok = strcmp(got, want) == 0;

	if (!ok)
		printf("# %s: got %s, want %s\n", what, got, want);
	check(ok, what);
}

/* the hash of a sentence by the definition: XXH3 of its tokens' hashes */
static uint64_t
ref_hash(const char *piece)
{
	tfp_feature_opts o = {1, 1, TFP_SENTENCE_FOLDS};
	vec			v = {0};
	unsigned char *b;
	uint64_t	h;

	tfp_extract_features(piece, strlen(piece), &o, vsink, &v);
	b = malloc(8 * v.n + 1);
	for (size_t i = 0; i < v.n; i++)
		for (int j = 0; j < 8; j++)
			b[8 * i + j] = (unsigned char) (v.h[i] >> (8 * j));
	h = XXH3_64bits_withSeed(b, 8 * v.n, TFP_SENTENCE_SEED);
	free(b);
	free(v.h);
	return h;
}

static void
test_split(void)
{
	expect_shape("Hello world. This is a test! Is it? Yes", "4:2,4,2,1", "ASCII . ! ? end sentences");
	expect_shape("你好世界。这是测试！对吗？对", "4:4,4,2,1", "Chinese 。！？ end sentences (a character is a token)");
	expect_shape("半角｡句号", "2:2,2", "half-width ideographic full stop ｡ ends a sentence");
	expect_shape("Pi is 3.14 and e is 2.718.", "1:9", "a full stop before a digit does not end a sentence");
	expect_shape("See example.com now.", "1:4", "a full stop before a letter does not end a sentence");
	expect_shape("Vers 3.0版本发布。下一句", "2:7,3", "a full stop before a Han character does not end a sentence");
	expect_shape("Ends here.\"Quoted\" next", "2:2,2", "a full stop before a quote ends a sentence");
	expect_shape("全角３．５版本． 结束", "2:6,2", "full-width ． follows the full stop's rule");
	expect_shape("版本．结束", "1:4", "full-width ． before a Han character does not end a sentence");
	expect_shape("one line\nsame sentence", "1:4", "a single line feed does not end a sentence");
	expect_shape("first\n\nsecond", "2:1,1", "a blank line ends a sentence");
	expect_shape("first\n \t\r\nsecond", "2:1,1", "a line of spaces and tabs ends a sentence");
	expect_shape("first\n\xe3\x80\x80\nsecond", "2:1,1", "a line of U+3000 ends a sentence");
	expect_shape("first\xe2\x80\xa9second", "2:1,1", "U+2029 ends a sentence");
	expect_shape("... !!! ??? 。。。", "0:", "punctuation only: no sentence");
	expect_shape("", "0:", "empty text: no sentence");
	expect_shape("no end mark at all", "1:5", "a text without end marks is one sentence");
	expect_shape("Wait...what?!", "2:1,1", "runs of end marks make no empty sentences");
	expect_shape("bad \xff\xfe bytes. ok", "2:2,1", "invalid UTF-8 is a separator inside a sentence");
	expect_shape("end.\xe2\x80", "1:1", "a truncated sequence after a full stop");
	split("One two. 三四五。");
	check(S.n == 2 && S.s[0].start == 0 && S.s[0].end == 7 && S.s[1].start == 8 && S.s[1].end == 18,
		  "sentence byte ranges exclude the end marks");
}

static void
test_hash(void)
{
	split("Hello, World!");
	check(S.n == 1 && S.s[0].hash == ref_hash("Hello, World"), "hash: XXH3 of the token hashes, seed tfp1sent");
	{
		uint64_t	a = ref_hash("hello world"),
					b = ref_hash("HELLO   world"),
					c = ref_hash("Ｈｅｌｌｏ,world"),
					d = ref_hash("國家"),
					e = ref_hash("国家"),
					f = ref_hash("world hello");

		check(a == b && b == c && d == e && a != f,
			  "normalized: case, width, spacing, punctuation and script do not matter; order does");
	}
}

/* naive top-k: all sentences, distinct by hash, longest first */
static size_t
naive_topk(int k, uint64_t *out)
{
	sent		all[4096];
	int			n = 0;

	for (int i = 0; i < S.n; i++)
	{
		int			dup = 0;

		for (int j = 0; j < n; j++)
			dup |= all[j].hash == S.s[i].hash;
		if (!dup)
			all[n++] = S.s[i];
	}
	/* selection of the k best */
	for (int i = 0; i < n && i < k; i++)
	{
		int			b = i;

		for (int j = i + 1; j < n; j++)
			if (all[j].ntokens > all[b].ntokens ||
				(all[j].ntokens == all[b].ntokens && (int64_t) all[j].hash < (int64_t) all[b].hash))
				b = j;
		sent		t = all[i];

		all[i] = all[b];
		all[b] = t;
		out[i] = all[i].hash;
	}
	n = n < k ? n : k;
	tfp_insertion_sort_i64((int64_t *) out, (size_t) n);
	return (size_t) n;
}

static void
test_topk(void)
{
	static const char *const pieces[] = {
		"a", "b", "c", "word", "中", "文", "國", "。", "！", "？", ". ", ".", "\n\n", "\n", " ",
		"3", "．", "｡", "ＡＢ", "e", ",", "，",
	};
	int			ok = 1;
	uint64_t	got[TFP_SENTENCE_MAX_K],
				want[TFP_SENTENCE_MAX_K];

	for (int trial = 0; trial < 3000 && ok; trial++)
	{
		char		text[2000];
		size_t		len = 0;
		int			np = rnd(300),
					k = 1 + rnd(12);
		size_t		n,
					m;

		for (int i = 0; i < np; i++)
		{
			const char *p = pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))];

			memcpy(text + len, p, strlen(p));
			len += strlen(p);
		}
		text[len] = '\0';
		n = tfp_sentences_topk(text, len, k, NULL, got);
		split(text);
		m = naive_topk(k, want);
		ok = n == m && (n == 0 || memcmp(got, want, n * 8) == 0);
		if (!ok)
			printf("# trial %d: k %d: %zu sentences, naive %zu\n", trial, k, n, m);
	}
	check(ok, "top-k equals the naive choice (3000 random texts, k 1..12)");
	{
		const char *t = "Short one. A much longer sentence here. Mid size one. A much longer sentence here! x";
		uint64_t	o[4];
		size_t		n = tfp_sentences_topk(t, strlen(t), 2, NULL, o);
		uint64_t	a = ref_hash("A much longer sentence here"),
					b = ref_hash("Mid size one");

		check(n == 2 && ((o[0] == a && o[1] == b) || (o[0] == b && o[1] == a)),
			  "a repeated sentence counts once: the two longest distinct ones");
	}
}

static int ticks;
static void
tick(void)
{
	ticks++;
}

static void
test_ticks(void)
{
	size_t		len = 1000000;
	char	   *t = malloc(len + 1);
	uint64_t	o[3];

	memset(t, 'x', len);		/* one long word */
	t[len] = '\0';
	ticks = 0;
	tfp_sentences_topk(t, len, 3, tick, o);
	check(ticks >= 10, "ticks during a long sentence");
	for (size_t i = 0; i < len; i++)
		t[i] = (i % 2) ? '.' : ' ';	/* no sentence at all */
	ticks = 0;
	check(tfp_sentences_topk(t, len, 3, tick, o) == 0 && ticks >= 10, "ticks while scanning end marks");
	free(t);
}

int
main(void)
{
	test_split();
	test_hash();
	test_topk();
	test_ticks();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
