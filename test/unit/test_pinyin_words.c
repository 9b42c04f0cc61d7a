/*
 * test_pinyin_words.c -- tfp_pinyin_words() and tfp_word_shingles() give
 * the features the extractor gives the pinyin text (tfp_pinyin_text(), then
 * tfp_extract_features() with the folds of textfp_match()), in the same
 * order, with shingles of 1, 2, 3 and 5 words: on every line of the
 * Chinese pool and on random texts made of Han characters (simplified,
 * traditional, polyphones and phrases, without a reading, outside the
 * BMP), ASCII words, digits, full-width letters, punctuation, white space,
 * ignorables, marks, accented Latin letters, kana and malformed UTF-8; and
 * that the texts the words cannot take (SIZE_MAX) are those with a token
 * outside ASCII, and only those.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash_vec.h"
#include "tap.h"
#include "tfp_core.h"
#include "tfp_pinyin.h"

#define FOLDS (TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN)

/* the features of the written pinyin text with k-word shingles */
static vec
reference(const char *s, size_t len, int k)
{
	size_t		n = tfp_pinyin_text(s, len, 0, NULL);
	char	   *py = malloc(n + 1);
	tfp_feature_opts o = {5, k, FOLDS};
	vec			v = {NULL, 0, 0};

	tfp_pinyin_text(s, len, 0, py);
	py[n] = 0;
	tfp_extract_features(py, n, &o, vsink, &v);
	free(py);
	return v;
}

/* whether the pinyin text has a token with a byte outside ASCII letters
 * and digits, or one longer than 64 bytes */
static int
needs_text(const char *s, size_t len)
{
	size_t		n = tfp_pinyin_text(s, len, 0, NULL),
				run = 0;
	char	   *py = malloc(n + 1);
	int			r = 0;

	tfp_pinyin_text(s, len, 0, py);
	for (size_t i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) py[i];

		if (c == ' ')
			run = 0;
		else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			r |= ++run > 64;
		else
			r = 1;
	}
	free(py);
	return r;
}

static long nfast = 0,
			nslow = 0,
			nbad = 0;

/* one text: the words' features against the reference, every k */
static void
compare(const char *s, size_t len, const char *what)
{
	uint64_t   *w = malloc((len + 1) * sizeof(uint64_t));
	size_t		nw = tfp_pinyin_words(s, len, w);
	static const int ks[] = {1, 2, 3, 5};
	int			ok = 1;

	if (nw == SIZE_MAX)
	{
		nslow++;
		if (!needs_text(s, len))
		{
			nbad++;
			if (nbad <= 5)
				check(0, what);
		}
		free(w);
		return;
	}
	nfast++;
	ok = nw <= len && !needs_text(s, len);
	for (size_t i = 0; ok && i < sizeof(ks) / sizeof(ks[0]); i++)
	{
		vec			ref = reference(s, len, ks[i]);
		uint64_t   *sh = malloc((nw + 1) * sizeof(uint64_t));
		size_t		m;

		memcpy(sh, w, nw * sizeof(uint64_t));
		m = tfp_word_shingles(sh, nw, ks[i], sh);	/* in place */
		ok = m == ref.n && (m == 0 || memcmp(sh, ref.h, m * sizeof(uint64_t)) == 0);
		free(sh);
		free(ref.h);
	}
	if (!ok)
	{
		nbad++;
		if (nbad <= 5)
			check(0, what);
	}
	free(w);
}

/* pieces of random texts */
static const char *const pieces[] = {
	"中", "华", "人", "民", "共", "和", "国", "银行", "行长", "会计", "會計", "重庆", "重慶",
	"长大", "长城", "还是", "还款", "音乐", "角色", "便宜", "厦门", "标识", "命令行", "上一行",
	"體", "臺灣", "軟體", "的", "了", "是", "在", "有", "我", "们", "这", "个", "说", "为",
	"\xf0\xa0\x80\x80",		/* U+20000, a reading outside the BMP */
	"\xe3\x90\x80",				/* U+3400, extension A */
	"\xe9\xbe\xa5",				/* U+9FA5 */
	"\xe9\xbf\xbf",				/* U+9FFF: no reading */
	"Hello", "WORLD", "iPhone", "A", "b", "2026", "7", "x86_64", "COVID-19",
	"ＡＢＣ", "１２３", "ｈｅｌｌｏ", " ", "  ", "\n", "\t", "，", "。", "！", "、", "：",
	"\"", "'", "(", ")", "-", ".", ",", "/", "#", "@", "%",
	"\xc2\xad",					/* soft hyphen: ignorable */
	"\xe2\x80\x8b",				/* zero width space */
	"\xcc\x81",					/* combining acute */
	"café", "Ünïcode", "naïve", "ß", "かな", "カタカナ", "한국", "Ωμέγα", "Привет",
	"\xff", "\xe4\xb8", "\xe0\x80\x80", "\xed\xa0\x80", "\x80",
};

static void
random_texts(int count, int maxpieces, int ascii_only_weight)
{
	size_t		np = sizeof(pieces) / sizeof(pieces[0]);
	char		buf[4096],
				what[128];

	for (int t = 0; t < count; t++)
	{
		size_t		len = 0;
		int			k = 1 + (int) rnd((uint32_t) maxpieces);

		for (int i = 0; i < k; i++)
		{
			/* mostly the pieces before the accented ones (the common case) */
			size_t		lim = rnd(100) < (uint32_t) ascii_only_weight ? 80 : np;
			const char *p = pieces[rnd((uint32_t) (lim < np ? lim : np))];
			size_t		l = strlen(p);

			if (len + l >= sizeof(buf))
				break;
			memcpy(buf + len, p, l);
			len += l;
		}
		snprintf(what, sizeof(what), "random text %d (%zu bytes)", t, len);
		compare(buf, len, what);
	}
}

int
main(void)
{
	FILE	   *f = fopen("test/data/pool_zh.txt", "rb");
	char	   *line = NULL;
	size_t		cap = 0;
	long		lines = 0;
	ssize_t		n;
	char		what[64];

	check(f != NULL, "test/data/pool_zh.txt opened");
	nfast = nslow = nbad = 0;
	while (f && (n = getline(&line, &cap, f)) > 0)
	{
		snprintf(what, sizeof(what), "pool line %ld", lines);
		compare(line, (size_t) n, what);
		lines++;
	}
	if (f)
		fclose(f);
	free(line);
	printf("# pool: %ld lines, %ld by the words, %ld by the text\n", lines, nfast, nslow);
	check(nbad == 0 && lines > 1000, "pool: the words give the written text's features");
	check(nfast * 10 > lines * 9, "pool: nine lines in ten or more take the words");

	nfast = nslow = nbad = 0;
	random_texts(20000, 40, 95);
	printf("# random: %ld by the words, %ld by the text\n", nfast, nslow);
	check(nbad == 0, "random texts: the same features, and the text only when a token needs it");
	check(nfast > 5000 && nslow > 1000, "random texts: both paths taken");

	nfast = nslow = nbad = 0;
	compare("", 0, "empty text");
	compare("，。！", strlen("，。！"), "punctuation only");
	compare("中", strlen("中"), "one syllable");
	compare("中国", strlen("中国"), "two syllables (one shingle of both)");
	compare("银行行长", strlen("银行行长"), "phrases");
	{
		char		longw[200];

		memset(longw, 'a', 64);
		strcpy(longw + 64, " 中国人");
		compare(longw, strlen(longw), "a word of 64 letters");
		memset(longw, 'a', 65);
		strcpy(longw + 65, " 中国人");
		compare(longw, strlen(longw), "a word of 65 letters (the text)");
	}
	check(nbad == 0 && nfast == 6 && nslow == 1, "edge cases");
	{
		uint64_t	w[32];

		check(tfp_pinyin_words("café 中国", strlen("café 中国"), w) == 3,
			  "an accented Latin letter: its accent goes (cafe zhong guo)");
		check(tfp_pinyin_words("Ωμέγα 中国", strlen("Ωμέγα 中国"), w) == SIZE_MAX,
			  "a Greek word: the text");
	}
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
