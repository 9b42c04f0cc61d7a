/*
 * test_pinyin_paths.c -- the pinyin core's fast code changes no result
 *
 * 1. tfp_pinyin_letters(): the fast path over runs of 3-byte characters
 *    (each read with the next one, the polyphone-phrase test done from the
 *    two characters' flags and the pair filter) against the general code
 *    (tfp_pinyin_fastpath = 0), on random mixtures of the inputs it must
 *    hand back correctly: phrase starts and continuations, one-character
 *    entries, traditional spellings, 4-byte characters, ASCII runs of every
 *    length, malformed UTF-8 (overlong, surrogate, truncated, stray bytes),
 *    and every cut of the text; copies of exactly the text's size, so that
 *    the ASan build sees any read past the end.
 * 2. The same letters against tfp_pinyin_text(TFP_PY_INITIALS) without its
 *    spaces, on text of Han characters and punctuation: the two conversions
 *    share no loop, only the tables.
 * 3. tfp_dna_windows() against a naive reference written here from the
 *    definition in tfp_pinyin_dna.c (every winnowing run scanned for its
 *    rightmost minimum, every window counted from scratch and packed), over
 *    random letter strings and real letters, with random options, across
 *    block boundaries and long texts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_pinyin.h"
#include "tfp_sort.h"

#include "tap.h"

/* ---------------------------------------------------------------- letters */

static const char *const pieces[] = {
	/* phrases and their parts, simplified and traditional */
	"银行", "行长", "会计", "會計", "重新", "重要", "长大", "長大", "还是",
	"還是", "还款", "重庆", "重慶", "长城", "音乐", "角色", "便宜", "厦门",
	"的确", "了解", "成长", "增长", "校长", "调试", "解调器", "命令行",
	/* one-character entries and common characters */
	"长", "長", "似", "佛", "粘", "泊", "茄", "乘", "行", "重", "还", "会",
	"的", "了", "中", "国", "人", "文", "大", "是", "一", "在", "有",
	/* punctuation, full-width forms, kana, hangul */
	"，", "。", "！", "“", "”", "、", "（", "）", "Ａ", "１", "あ", "한",
	/* 4-byte characters: Han with a reading, Han without, an emoji */
	"𠀀", "𪚥", "\xf0\xa0\xae\xb7", "\xf0\x9f\x98\x80",
	/* ASCII of several lengths */
	" ", "\n", "a", "ok", "2024", "hello world ", "abcdefghijklmnop",
	/* two-byte characters */
	"é", "ß", "Ω",
	/* malformed: overlong, surrogate, truncated, stray, invalid bytes */
	"\xe0\x80\x80", "\xed\xa0\x80", "\xe4\xb8", "\xe4", "\x80", "\xbf",
	"\xff", "\xfe", "\xc0\xaf", "\xf4\x90\x80\x80", "\xf0\xa0\x80"
};

#define NPIECES (sizeof(pieces) / sizeof(pieces[0]))

static size_t
random_text(char *buf, size_t cap, size_t npieces)
{
	size_t		n = 0;

	for (size_t i = 0; i < npieces; i++)
	{
		const char *s = pieces[rnd(NPIECES)];
		size_t		l = strlen(s);

		if (n + l > cap)
			break;
		memcpy(buf + n, s, l);
		n += l;
	}
	return n;
}

static size_t
letters_with(int fast, const char *text, size_t len, char *out)
{
	/* an exact-size heap copy: ASan sees any read past the end */
	char	   *copy = malloc(len ? len : 1);
	size_t		n;

	memcpy(copy, text, len);
	tfp_pinyin_fastpath = fast;
	n = tfp_pinyin_letters(copy, len, out);
	tfp_pinyin_fastpath = 1;
	free(copy);
	return n;
}

static void
test_letters_paths(void)
{
	char		buf[4096],
				a[4096],
				b[4096];
	int			bad = 0,
				cases = 0,
				cuts = 0;

	for (int t = 0; t < 60000; t++)
	{
		size_t		len = random_text(buf, sizeof(buf), 1 + rnd(t < 1000 ? 200 : 40));
		size_t		na,
					nb;

		na = letters_with(1, buf, len, a);
		nb = letters_with(0, buf, len, b);
		cases++;
		if (na != nb || memcmp(a, b, na) != 0)
		{
			if (bad++ < 3)
				fprintf(stderr, "# letters differ: fast %zu, general %zu letters, text %zu bytes\n",
						na, nb, len);
		}
		/* every cut of some of them */
		if (t % 50 == 0)
			for (size_t c = 0; c <= len; c++)
			{
				na = letters_with(1, buf, c, a);
				nb = letters_with(0, buf, c, b);
				cuts++;
				if (na != nb || memcmp(a, b, na) != 0)
					bad++;
			}
	}
	check(bad == 0, "fast letters = general letters on 60,000 random texts and their cuts");
	check(cases == 60000 && cuts > 10000, "(the texts were run)");
}

/* Han and punctuation only: letters = initials without spaces */
static void
test_letters_vs_initials(void)
{
	static const char *const han[] = {
		"银行", "行长", "会计", "會計", "重新", "长大", "長大", "还是", "還是",
		"重庆", "角色", "便宜", "的确", "成长", "调试", "长", "似", "乘", "行",
		"重", "还", "的", "了", "中", "国", "人", "大", "是", "，", "。", "！",
		"𠀀", "𪚥", "　"		/* 4-byte Han with a reading; ideographic space */
	};
	char		buf[2048],
				a[2048],
				b[4096];
	int			bad = 0;

	for (int t = 0; t < 20000; t++)
	{
		size_t		len = 0,
					na,
					nb,
					k = 0;
		int			np = 1 + rnd(60);

		for (int i = 0; i < np; i++)
		{
			const char *s = han[rnd(sizeof(han) / sizeof(han[0]))];

			memcpy(buf + len, s, strlen(s));
			len += strlen(s);
		}
		na = tfp_pinyin_letters(buf, len, a);
		nb = tfp_pinyin_text(buf, len, TFP_PY_INITIALS, b);
		for (size_t i = 0; i < nb; i++)
			if (b[i] != ' ')
				b[k++] = b[i];
		if (na != k || memcmp(a, b, na) != 0)
			bad++;
	}
	check(bad == 0, "letters = pinyin_initials without spaces on 20,000 Han texts");
}

/* ---------------------------------------------------------------- windows */

/* the definition, naively */
static int64_t
ref_pack(const char *l, size_t n, int window, int levels)
{
	uint32_t	c[TFP_DNA_BUCKETS] = {0};

	for (size_t i = 0; i < n; i++)
		if (tfp_dna_bucket(l[i]) >= 0)
			c[tfp_dna_bucket(l[i])]++;
	return tfp_dna_pack(c, window, levels);
}

static size_t
ref_windows(const char *l, size_t n, const tfp_dna_opts *o, int64_t *out)
{
	size_t		w = (size_t) o->window,
				step = (size_t) tfp_dna_step(o),
				nout = 0;

	if (n == 0)
		return 0;
	if (n < w)
	{
		out[0] = ref_pack(l, n, (int) n, o->levels);
		return 1;
	}
	if (!o->content_defined || n < 5)
	{
		for (size_t a = 0; a + w <= n; a += step)
			out[nout++] = ref_pack(l + a, w, o->window, o->levels);
	}
	else
	{
		size_t		nh = n - 4,
					wn = 2 * step - 1,
					last = (size_t) -1;
		uint64_t   *h = malloc(nh * sizeof(uint64_t));

		for (size_t i = 0; i < nh; i++)
		{
			uint64_t	key = 0;

			for (int j = 0; j < 5; j++)
				key = (key << 5) | (uint64_t) (l[i + j] & 31);
			h[i] = (key * UINT64_C(0x9E3779B97F4A7C15)) >> 20;
		}
		/* runs of wn hashes (or one run of all of them, if fewer) */
		for (size_t end = (nh < wn ? nh : wn); end <= nh; end++)
		{
			size_t		start = end - (nh < wn ? nh : wn),
						a = start;

			for (size_t i = start; i < end; i++)
				if (h[i] <= h[a])
					a = i;		/* rightmost minimum */
			if (a != last)
			{
				last = a;
				if (a + w <= n)
					out[nout++] = ref_pack(l + a, w, o->window, o->levels);
			}
		}
		free(h);
		if (nout == 0)
			out[nout++] = ref_pack(l, n, (int) n, o->levels);
	}
	return tfp_sort_unique_u64((uint64_t *) out, nout, NULL);
}

static void
test_windows(void)
{
	static const char alphabet[] = "abcdefghjklmnopqrstwxyziuv";
	size_t		max = 300000;
	char	   *l = malloc(max);
	int64_t    *a = malloc(sizeof(int64_t) * (2 * max + 2)),
			   *b = malloc(sizeof(int64_t) * (2 * max + 2));
	int			bad = 0,
				cases = 0,
				multiblock = 0;

	for (int t = 0; t < 6000; t++)
	{
		tfp_dna_opts o;
		size_t		n,
					na,
					nb;
		int			r = rnd(10),
					alph = 1 + rnd(26);

		o.window = r < 4 ? 32 : r < 6 ? 8 + rnd(60) : r < 8 ? 8 + rnd(1017) : 16;
		o.overlap = rnd(3) ? 50 : (int) rnd(91);
		o.levels = rnd(2) ? 4 : 2 + (int) rnd(7);
		o.content_defined = rnd(6) != 0;
		/* mostly short texts; some long ones with small runs (the naive
		 * reference is O(n * run)) */
		if (t % 500 == 7)
		{
			o.window = 8 + rnd(24);
			n = 70000 + rnd(100000);
		}
		else
			n = rnd(t % 10 == 0 ? 12000 : 3 * (size_t) o.window + 100);
		for (size_t i = 0; i < n; i++)
			l[i] = (i > 8 && rnd(6) == 0) ? l[i - 1 - rnd(8)] :
				alphabet[rnd((uint32_t) alph)];
		na = tfp_dna_windows(l, n, &o, a);
		nb = ref_windows(l, n, &o, b);
		cases++;
		if (n > (size_t) 2 * (2 * tfp_dna_step(&o) - 1))
			multiblock++;
		if (na != nb || memcmp(a, b, na * sizeof(int64_t)) != 0)
		{
			if (bad++ < 3)
				fprintf(stderr, "# windows differ: n %zu, window %d, overlap %d, levels %d, cd %d: %zu vs %zu DNAs\n",
						n, o.window, o.overlap, o.levels, o.content_defined, na, nb);
		}
	}
	check(bad == 0, "DNA windows = naive reference on 6,000 random letter strings and options");
	check(cases == 6000 && multiblock > 1000, "(many spanned several winnowing blocks)");
	free(l);
	free(a);
	free(b);
}

int
main(void)
{
	test_letters_paths();
	test_letters_vs_initials();
	test_windows();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
