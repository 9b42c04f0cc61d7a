/*
 * test_pinyin_paths.c -- the pinyin core's fast code changes no result
 *
 * 1. tfp_pinyin_letters(): the AVX-512 kernel (tfp_pinyin_x86.c, where the
 *    CPU has it) and the portable fast path over runs of 3-byte characters
 *    (each read with the next one, the polyphone-phrase test done from the
 *    two characters' flags and the pair filter) against the general code
 *    (tfp_pinyin_fastpath = 0), on random mixtures of the inputs they must
 *    hand back correctly: phrase starts and continuations, one-character
 *    entries, traditional spellings, 4-byte characters, ASCII runs of every
 *    length, malformed UTF-8 (overlong, surrogate, truncated, stray bytes),
 *    and every cut of the text; on mostly Chinese text of up to 12 KB with
 *    rare oddities (the kernel's clean blocks, its 1 KB segments, phrases
 *    across blocks and segments); and on the Chinese pool of test/data.
 *    Copies of exactly the text's size, so that the ASan build sees any
 *    read past the end.
 * 2. The same letters against tfp_pinyin_text(TFP_PY_INITIALS) without its
 *    spaces, on text of Han characters and punctuation: the two conversions
 *    share no loop, only the tables.
 * 3. tfp_dna_windows() against a naive reference written here from the
 *    definition in tfp_pinyin_dna.c (every winnowing run scanned for its
 *    rightmost minimum, every window counted from scratch and packed), over
 *    random letter strings and real letters, with random options, across
 *    block boundaries and long texts; and the AVX-512 kernel
 *    (tfp_pinyin_dna_x86.c) against the portable code on more of them,
 *    across its chunks of 1,024 runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_cpu.h"
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

/*
 * A piece of text: any (odd = 0), or mostly Chinese (phrases, common
 * characters, punctuation, short ASCII) with an odd piece (2- or 4-byte,
 * malformed) at a rate of 1 in odd: the kernel's clean blocks and the blocks
 * it must give up.
 */
static const char *
piece(uint32_t odd)
{
	/*
	 * pieces[0..48]: Han and phrases; 49..60 punctuation, full-width, kana,
	 * hangul; 65..71 ASCII; odd: 61..64 (4-byte), 72..85 (2-byte, malformed)
	 */
	uint32_t	r = rnd(100),
				o = rnd(18);

	if (odd == 0)
		return pieces[rnd(NPIECES)];
	return rnd(odd) == 0 ? pieces[o < 4 ? 61 + o : 68 + o] :
		r < 85 ? pieces[rnd(49)] : r < 93 ? pieces[49 + rnd(12)] :
		pieces[65 + rnd(7)];
}

/* a text of up to npieces pieces (see piece()) in buf[0..cap) */
static size_t
random_text(char *buf, size_t cap, size_t npieces, uint32_t odd)
{
	size_t		n = 0;

	for (size_t i = 0; i < npieces; i++)
	{
		const char *s = piece(odd);
		size_t		l = strlen(s);

		if (n + l > cap)
			break;
		memcpy(buf + n, s, l);
		n += l;
	}
	return n;
}

/* the paths: GENERAL code only, the portable FAST path, the SIMD kernel */
#define GENERAL 0
#define FAST	1
#define SIMD	2

static size_t
letters_with(int path, const char *text, size_t len, char *out)
{
	/* an exact-size heap copy: ASan sees any read past the end */
	char	   *copy = malloc(len ? len : 1);
	size_t		n;

	memcpy(copy, text, len);
	tfp_pinyin_fastpath = path != GENERAL;
	tfp_simd_enabled = path == SIMD;
	n = tfp_pinyin_letters(copy, len, out);
	tfp_pinyin_fastpath = 1;
	tfp_simd_enabled = 1;
	free(copy);
	return n;
}

/* letters of the three paths agree on text[0..len) */
static int
letters_agree(const char *text, size_t len, char *a, char *b)
{
	size_t		nb = letters_with(GENERAL, text, len, b),
				na = letters_with(FAST, text, len, a);

	if (na != nb || memcmp(a, b, na) != 0)
		return 0;
	na = letters_with(SIMD, text, len, a);
	return na == nb && memcmp(a, b, na) == 0;
}

static void
test_letters_paths(void)
{
	static char buf[12288],
				a[12288],
				b[12288];
	int			bad = 0,
				cases = 0,
				cuts = 0;

	for (int t = 0; t < 60000; t++)
	{
		size_t		len = random_text(buf, 4096, 1 + rnd(t < 1000 ? 200 : 40), 0);

		cases++;
		if (!letters_agree(buf, len, a, b) && bad++ < 3)
			fprintf(stderr, "# letters differ on a random text of %zu bytes\n", len);
		/* every cut of some of them */
		if (t % 50 == 0)
			for (size_t c = 0; c <= len; c++)
			{
				cuts++;
				if (!letters_agree(buf, c, a, b))
					bad++;
			}
	}
	check(bad == 0, "SIMD and fast letters = general letters on 60,000 random texts and their cuts");
	check(cases == 60000 && cuts > 10000, "(the texts were run)");

	bad = cases = cuts = 0;
	for (int t = 0; t < 6000; t++)
	{
		uint32_t	odd = t % 3 == 0 ? 1000000 : t % 3 == 1 ? 200 : 20;
		size_t		len = random_text(buf, sizeof(buf), 1 + rnd(t % 10 == 0 ? 4000 : 400), odd);

		cases++;
		if (!letters_agree(buf, len, a, b) && bad++ < 3)
			fprintf(stderr, "# letters differ on a Chinese text of %zu bytes\n", len);
		if (t % 250 == 0)
			for (size_t c = 0; c <= len && c < 3000; c++)
			{
				cuts++;
				if (!letters_agree(buf, c, a, b))
					bad++;
			}
	}
	check(bad == 0, "SIMD and fast letters = general letters on 6,000 mostly Chinese texts up to 12 KB and their cuts");
	check(cases == 6000 && cuts > 10000, "(the texts were run)");
}

/* the Chinese pool: every 2,000-byte slice, and 64 KB pieces */
static void
test_letters_pool(void)
{
	FILE	   *f = fopen("test/data/pool_zh.txt", "rb");
	static char text[3 << 20],
				a[1 << 16],
				b[1 << 16];
	size_t		len = f ? fread(text, 1, sizeof(text), f) : 0;
	int			bad = 0;

	if (f)
		fclose(f);
	for (size_t i = 0; i + 2000 <= len; i += 2000)
		bad += !letters_agree(text + i, 2000, a, b);
	for (size_t i = 0; i + 65536 <= len; i += 65536 + 7)
		bad += !letters_agree(text + i, 65536, a, b);
	check(len > 2000000 && bad == 0,
		  "SIMD and fast letters = general letters on every 2,000-byte slice and 64 KB pieces of pool_zh.txt");
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

/*
 * Random options: windows mostly short (for the kernels, `kernel`: mostly up
 * to their limit of 254 letters), overlaps, levels, a few fixed offsets.
 */
static tfp_dna_opts
random_opts(int kernel)
{
	tfp_dna_opts o;
	uint32_t	r = rnd(10);

	if (kernel)
		o.window = (int) (r < 4 ? 32 : r < 7 ? 8 + rnd(60) : r < 9 ? 8 + rnd(247) : 8 + rnd(1017));
	else
		o.window = (int) (r < 4 ? 32 : r < 6 ? 8 + rnd(60) : r < 8 ? 8 + rnd(1017) : 16);
	o.overlap = rnd(3) ? 50 : (int) rnd(91);
	o.levels = rnd(2) ? 4 : 2 + (int) rnd(7);
	o.content_defined = rnd(kernel ? 8 : 6) != 0;
	return o;
}

/* n random letters of the first alph of the alphabet, with repeats */
static void
random_letters(char *l, size_t n, uint32_t alph)
{
	static const char alphabet[] = "abcdefghjklmnopqrstwxyziuv";

	for (size_t i = 0; i < n; i++)
		l[i] = (i > 8 && rnd(6) == 0) ? l[i - 1 - rnd(8)] : alphabet[rnd(alph)];
}

/* 1 if the two DNA sets are equal, else 0 (said for the first 3 of what) */
static int
same_windows(const char *what, int *bad, size_t n, const tfp_dna_opts *o,
			 const int64_t *a, size_t na, const int64_t *b, size_t nb)
{
	if (na == nb && memcmp(a, b, na * sizeof(int64_t)) == 0)
		return 1;
	if ((*bad)++ < 3)
		fprintf(stderr, "# %s differ: n %zu, window %d, overlap %d, levels %d, cd %d: %zu vs %zu DNAs\n",
				what, n, o->window, o->overlap, o->levels, o->content_defined, na, nb);
	return 0;
}

static void
test_windows(void)
{
	size_t		max = 300000;
	char	   *l = malloc(max);
	int64_t    *a = malloc(sizeof(int64_t) * (2 * max + 2)),
			   *b = malloc(sizeof(int64_t) * (2 * max + 2));
	int			bad = 0,
				cases = 0,
				multiblock = 0;

	for (int t = 0; t < 6000; t++)
	{
		tfp_dna_opts o = random_opts(0);
		size_t		n,
					na,
					nb;
		int			alph = 1 + rnd(26);

		/* mostly short texts; some long ones with small runs (the naive
		 * reference is O(n * run)) */
		if (t % 500 == 7)
		{
			o.window = 8 + rnd(24);
			n = 70000 + rnd(100000);
		}
		else
			n = rnd(t % 10 == 0 ? 12000 : 3 * (size_t) o.window + 100);
		random_letters(l, n, (uint32_t) alph);
		na = tfp_dna_windows(l, n, &o, a);
		nb = ref_windows(l, n, &o, b);
		cases++;
		if (n > (size_t) 2 * (2 * tfp_dna_step(&o) - 1))
			multiblock++;
		same_windows("windows", &bad, n, &o, a, na, b, nb);
	}
	check(bad == 0, "DNA windows = naive reference on 6,000 random letter strings and options");
	check(cases == 6000 && multiblock > 1000, "(many spanned several winnowing blocks)");
	free(l);
	free(a);
	free(b);
}

/* the AVX-512 windows (and small sort) against the portable code */
static void
test_windows_simd(void)
{
	size_t		max = 60000;
	char	   *l = malloc(max + 1);
	int64_t    *a = malloc(sizeof(int64_t) * (2 * max + 2)),
			   *b = malloc(sizeof(int64_t) * (2 * max + 2));
	int			bad = 0,
				chunks = 0;
	FILE	   *f = fopen("test/data/pool_zh.txt", "rb");
	static char text[1 << 20],
				pool[1 << 20];
	size_t		tlen = f ? fread(text, 1, sizeof(text), f) : 0,
				real;

	if (f)
		fclose(f);
	real = tfp_pinyin_letters(text, tlen, pool);
	for (int t = 0; t < 20000; t++)
	{
		tfp_dna_opts o = random_opts(1);
		size_t		n,
					na,
					nb;
		int			alph = 1 + rnd(26);

		n = t % 20 == 0 ? 1000 + rnd(40000) : rnd(3 * (size_t) o.window + 600);
		if (t % 40 == 1 && real > max)
		{
			/* real letters (the pool's), from a random offset */
			n = rnd((uint32_t) max);
			memcpy(l, pool + rnd((uint32_t) (real - n)), n);
		}
		else
			random_letters(l, n, (uint32_t) alph);
		tfp_simd_enabled = 0;
		nb = tfp_dna_windows(l, n, &o, b);
		tfp_simd_enabled = 1;
		na = tfp_dna_windows(l, n, &o, a);
		if (o.content_defined && n > 1024 + (size_t) (2 * tfp_dna_step(&o) + 4))
			chunks++;
		same_windows("SIMD windows", &bad, n, &o, a, na, b, nb);
	}
	check(bad == 0, "SIMD DNA windows = portable windows on 20,000 random and real letter strings and options");
	check(chunks > 200, "(many spanned several chunks of the kernel)");
	free(l);
	free(a);
	free(b);
}

int
main(void)
{
	printf("# AVX-512 kernels: %s\n", tfp_cpu_avx512() ? "yes, compared" :
		   "not on this CPU (the SIMD comparisons run the portable code)");
	test_letters_paths();
	test_letters_pool();
	test_letters_vs_initials();
	test_windows();
	test_windows_simd();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
