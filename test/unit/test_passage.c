/*
 * test_passage.c -- unit tests of the passage fingerprint (tfp_passage.c):
 * units (the same as textfp_align's, keys folded: case, width, script,
 * homophones under the reading fold), the winnowing against a brute-force
 * reference (every window's rightmost minimum, ties included), the
 * streaming path against the array path, THE GUARANTEE (random texts with
 * a planted run of t = w + k - 1 units always share a seed at the same
 * offset with one equal context byte; runs of t - 1 units do not always
 * share one), the density, options, and golden values that must never
 * change.  Prints TAP lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_align.h"
#include "tfp_cpu.h"
#include "tfp_passage.h"

#include "tap.h"

/* ---- collecting sinks ---- */

typedef struct ubuf
{
	tfp_punit  *u;
	size_t		n,
				cap;
} ubuf;

static void
usink(void *arg, const tfp_punit *u, size_t n)
{
	ubuf	   *b = arg;

	if (b->n + n > b->cap)
	{
		b->cap = (b->n + n) * 2;
		b->u = realloc(b->u, b->cap * sizeof(*b->u));
	}
	memcpy(b->u + b->n, u, n * sizeof(*u));
	b->n += n;
}

typedef struct sbuf
{
	tfp_pseed  *s;
	size_t		n,
				cap;
	size_t		batches,
				maxbatch;
} sbuf;

static void
ssink(void *arg, const tfp_pseed *s, size_t n)
{
	sbuf	   *b = arg;

	if (b->n + n > b->cap)
	{
		b->cap = (b->n + n) * 2;
		b->s = realloc(b->s, b->cap * sizeof(*b->s));
	}
	memcpy(b->s + b->n, s, n * sizeof(*s));
	b->n += n;
	b->batches++;
	if (n > b->maxbatch)
		b->maxbatch = n;
}

static ubuf
units_of(const char *s, int reading)
{
	ubuf		b = {0};

	tfp_passage_units(s, strlen(s), reading, usink, &b, NULL);
	return b;
}

static sbuf
seeds_of_len(const char *s, size_t len, const tfp_passage_opts *o)
{
	sbuf		b = {0};

	tfp_passage_seeds(s, len, o, ssink, &b, NULL, NULL);
	return b;
}

static sbuf
seeds_of(const char *s, const tfp_passage_opts *o)
{
	return seeds_of_len(s, strlen(s), o);
}

static const tfp_passage_opts DEF = {TFP_PASSAGE_DEFAULT_K, TFP_PASSAGE_DEFAULT_W, 1};

/* ---- the brute-force reference of steps 3-5 (lens NULL: all 1) ---- */

static size_t
ref_winnow(const uint64_t *keys, const uint8_t *lens, size_t n, const tfp_passage_opts *o,
		   tfp_pseed *out)
{
	int			k = o->k,
				w = o->w,
				c = tfp_passage_ctx(o);
	uint64_t   *P = malloc((n + 1) * sizeof(uint64_t));
	uint64_t   *g = malloc((n + 1) * sizeof(uint64_t));
	size_t	   *e = malloc((n + 1) * sizeof(size_t));
	unsigned char *sel = calloc(n + 1, 1);
	size_t		ng = 0,
				nout = 0;
	int			evaluated = 0;

	P[0] = 0;
	for (size_t i = 0; i < n; i++)
		P[i + 1] = P[i] + (lens ? lens[i] : 1);
	/* k-grams: the shortest run of length >= k from each unit */
	for (size_t i = 0; i < n; i++)
	{
		size_t		j = i;

		while (j < n && P[j] - P[i] < (uint64_t) k)
			j++;
		if (P[j] - P[i] < (uint64_t) k)
			break;
		e[i] = j;
		g[i] = tfp_passage_gram(keys + i, (int) (j - i), k);
		ng = i + 1;
	}
	/* every window whose k-grams are all complete: the first unit starting
	 * no k-gram (ng) at least w after it */
	for (size_t i = 0; i < ng; i++)
	{
		size_t		best = SIZE_MAX;

		if (P[ng] - P[i] < (uint64_t) w)
			continue;
		for (size_t j = i; j < ng && P[j] - P[i] < (uint64_t) w; j++)
			if (best == SIZE_MAX || g[j] <= g[best])
				best = j;
		if (best != SIZE_MAX)
		{
			sel[best] = 1;
			evaluated = 1;
		}
	}
	if (!evaluated && ng > 0)
	{
		size_t		best = 0;

		for (size_t j = 1; j < ng; j++)
			if (g[j] <= g[best])
				best = j;
		sel[best] = 1;
	}
	for (size_t p = 0; p < ng; p++)
		if (sel[p])
		{
			size_t		l = p,
						r = e[p];
			uint64_t	len = 0;

			while (l > 0 && len + (P[l] - P[l - 1]) <= (uint64_t) c)
				len += P[l] - P[l - 1], l--;
			len = 0;
			while (r < n && len + (P[r + 1] - P[r]) <= (uint64_t) c)
				len += P[r + 1] - P[r], r++;
			out[nout].hash = g[p];
			out[nout].unit = (uint32_t) p;
			out[nout].left = tfp_passage_ctx_byte(keys + l, (int) (p - l));
			out[nout].right = tfp_passage_ctx_byte(keys + e[p], (int) (r - e[p]));
			out[nout].pad = 0;
			nout++;
		}
	free(P);
	free(g);
	free(e);
	free(sel);
	return nout;
}

static int
same_seeds(const tfp_pseed *a, size_t na, const tfp_pseed *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (a[i].hash != b[i].hash || a[i].unit != b[i].unit ||
			a[i].left != b[i].left || a[i].right != b[i].right || b[i].pad != 0)
			return 0;
	return 1;
}

/* ---- random text ---- */

static const char *const zh_chars[] = {
	"的", "一", "是", "在", "不", "了", "有", "和", "人", "这", "中", "大",
	"为", "上", "个", "国", "我", "以", "要", "他", "时", "来", "用", "们",
	"生", "到", "作", "地", "于", "出", "就", "分", "对", "成", "会", "可",
	"主", "发", "年", "动", "同", "工", "也", "能", "下", "过", "子", "说",
	"產", "種", "學", "經", "濟", "發", "展", "與", "華", "語", "新", "聞"
};
static const char *const en_words[] = {
	"the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was",
	"with", "be", "by", "on", "not", "he", "this", "are", "or", "his",
	"from", "at", "which", "but", "have", "an", "had", "they", "you",
	"Package", "SYSTEM", "ｆｕｌｌ", "naïve", "café", "x86_64", "2026"
};
static const char *const seps[] = {" ", "，", "。", ", ", ". ", "\n", "、", " - "};

/* append a random piece: a Han character, a word with a space, or a
 * separator; returns the number of units it adds (a word after Han text
 * starts a unit, Han after a word too) */
static void
rand_piece(char *buf, size_t *len, size_t cap)
{
	const char *p;
	uint32_t	r = rnd(10);

	if (r < 6)
		p = zh_chars[rnd(sizeof(zh_chars) / sizeof(zh_chars[0]))];
	else if (r < 9)
	{
		p = en_words[rnd(sizeof(en_words) / sizeof(en_words[0]))];
		if (*len + strlen(p) + 2 < cap)
		{
			buf[(*len)++] = ' ';
			memcpy(buf + *len, p, strlen(p));
			*len += strlen(p);
			buf[(*len)++] = ' ';
		}
		return;
	}
	else
		p = seps[rnd(sizeof(seps) / sizeof(seps[0]))];
	if (*len + strlen(p) < cap)
	{
		memcpy(buf + *len, p, strlen(p));
		*len += strlen(p);
	}
}

static char *
rand_text(size_t pieces)
{
	size_t		cap = pieces * 16 + 16,
				len = 0;
	char	   *buf = malloc(cap);

	for (size_t i = 0; i < pieces; i++)
		rand_piece(buf, &len, cap);
	buf[len] = '\0';
	return buf;
}

/* ---- checks ---- */

static void
test_units(void)
{
	ubuf		a,
				b;
	int			ok = 1;

	/* the units are textfp_align's */
	for (int t = 0; t < 300 && ok; t++)
	{
		char	   *s = rand_text(1 + rnd(200));
		uint64_t	length;
		ubuf		u = units_of(s, 1);
		uint64_t	want = tfp_align_units(s, strlen(s), TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN,
										   &length);
		uint64_t	mine = 0;

		for (size_t i = 0; i < u.n; i++)
			mine += u.u[i].han ? 1 : 2;
		ok = u.n == want && mine == length;
		for (size_t i = 0; ok && i < u.n; i++)
			ok = u.u[i].start < u.u[i].end && u.u[i].end <= strlen(s) &&
				(i == 0 || u.u[i].start >= u.u[i - 1].end);
		free(u.u);
		free(s);
	}
	check(ok, "units: the units of 300 random texts are textfp_align's, with byte spans in order");

	/* folds: case, width, traditional script; punctuation and spacing */
	a = units_of("Hello, WORLD 中華人民共和國", 1);
	b = units_of("hello world  中华人民共和国", 1);
	ok = a.n == 9 && b.n == 9;
	for (size_t i = 0; ok && i < a.n; i++)
		ok = a.u[i].key == b.u[i].key;
	check(ok, "units: case, spacing, punctuation and traditional script give equal keys");
	free(a.u);
	free(b.u);
	a = units_of("ＡＢＣ　１２３", 1);
	b = units_of("abc 123", 1);
	check(a.n == 2 && b.n == 2 && a.u[0].key == b.u[0].key && a.u[1].key == b.u[1].key,
		  "units: full-width letters and digits are their ASCII words");
	free(a.u);
	free(b.u);

	/* homophones under the reading fold */
	a = units_of("在他的地", 1);
	b = units_of("再她地的", 1);
	ok = a.n == 4 && b.n == 4;
	for (size_t i = 0; ok && i < 4; i++)
		ok = a.u[i].key == b.u[i].key;
	check(ok, "reading fold: 在/再, 他/她, 的/地 (toneless readings) are equal units");
	free(a.u);
	free(b.u);
	a = units_of("在他的地", 0);
	b = units_of("再她地的", 0);
	ok = a.n == 4 && b.n == 4;
	for (size_t i = 0; ok && i < 4; i++)
		ok = a.u[i].key != b.u[i].key;
	check(ok, "without the reading fold they are different units");
	free(a.u);
	free(b.u);
	a = units_of("是 shi", 1);
	check(a.n == 2 && a.u[0].key != a.u[1].key && a.u[0].han == 1 && a.u[1].han == 0,
		  "a reading is not the word spelled like it (是 is not \"shi\")");
	free(a.u);
	a = units_of("カタカナ", 1);
	b = units_of("カタカナ", 0);
	ok = a.n == 4 && b.n == 4 && a.u[0].key == b.u[0].key && a.u[0].key == a.u[2].key &&
		a.u[0].key != a.u[1].key;
	check(ok, "han units without a Mandarin reading are keyed by their code points");
	free(a.u);
	free(b.u);
	a = units_of("", 1);
	b = units_of(" ,.!? \n\t。，", 1);
	check(a.n == 0 && b.n == 0, "no units in empty or punctuation-only text");
	free(a.u);
	free(b.u);
	a = units_of("ab\xff" "cd \xe4\xb8", 1);
	check(a.n == 2, "an invalid byte separates words; a cut sequence is a separator");
	free(a.u);
}

/*
 * n random keys (from an alphabet of alpha: many ties when small) and
 * lengths for trial t: mix t % 5 is 0 han units only, 1 words only, 2-3
 * mixed, 4 runs of each of up to runmax units (across batches)
 */
static void
rand_units(int t, size_t n, uint32_t alpha, uint32_t runmax, uint64_t *keys, uint8_t *lens)
{
	const int	mix = t % 5;
	size_t		run = 0;
	uint8_t		rlen = 1;

	for (size_t i = 0; i < n; i++)
	{
		keys[i] = tfp_fmix64(rnd(alpha) + 1);
		if (mix == 4 && run-- == 0)
		{
			run = rnd(runmax);
			rlen = (uint8_t) (1 + rnd(2));
		}
		lens[i] = mix == 0 ? 1 : mix == 1 ? 2 : mix == 4 ? rlen : (uint8_t) (1 + rnd(2));
	}
}

static void
test_reference(void)
{
	int			ok = 1;
	int			combos[][2] = {{5, 9}, {1, 1}, {1, 7}, {3, 2}, {4, 10}, {16, 64}, {2, 64}, {16, 1}, {8, 8},
	{1, 2}, {2, 3}, {5, 8}, {6, 17}, {7, 33}};

	for (size_t c = 0; c < sizeof(combos) / sizeof(combos[0]); c++)
	{
		tfp_passage_opts o = {combos[c][0], combos[c][1], 1};

		for (int t = 0; t < 400 && ok; t++)
		{
			int			mix = t % 5;
			size_t		n = mix == 4 ? rnd(2000) : rnd(300);
			uint32_t	alpha = 1 + rnd(t % 3 == 0 ? 3 : 1000);
			uint64_t   *keys = malloc((n + 1) * sizeof(uint64_t));
			uint8_t    *lens = malloc(n + 1);
			tfp_pseed  *x = malloc((n + 1) * sizeof(tfp_pseed)),
					   *y = malloc((n + 1) * sizeof(tfp_pseed));
			size_t		nx,
						ny;

			rand_units(t, n, alpha, 600, keys, lens);
			nx = tfp_passage_winnow_len(keys, lens, n, &o, x);
			ny = ref_winnow(keys, lens, n, &o, y);
			ok = same_seeds(x, nx, y, ny);
			if (ok && mix == 0)
			{
				/* all of length 1: tfp_passage_winnow is the same */
				nx = tfp_passage_winnow(keys, n, &o, x);
				ok = same_seeds(x, nx, y, ny);
			}
			if (!ok)
				printf("# k=%d w=%d n=%zu alpha=%u mix=%d: %zu seeds, the reference %zu\n",
					   o.k, o.w, n, alpha, mix, nx, ny);
			free(keys);
			free(lens);
			free(x);
			free(y);
		}
	}
	check(ok, "winnowing equals the brute-force reference (every window's rightmost minimum, lengths "
		  "of han units and words) on 5,600 random unit sequences, ties included, k 1-16, w 1-64, runs of either across batches");
}

/*
 * The two paths over text s: tfp_passage_seeds (the keys-only tokenizer,
 * streamed) against tfp_passage_winnow_len over the units of
 * tfp_passage_units (the tokenizer with spans); 1 if they give the same
 * seeds, in increasing unit order.  *maxbatch: the largest batch seen.
 */
static int
same_both_paths(const char *s, size_t len, const tfp_passage_opts *o, size_t *maxbatch)
{
	ubuf		u = {0};
	sbuf		sb = {0};
	uint64_t	nunits = 0,
				total;
	uint64_t   *keys;
	uint8_t    *lens;
	tfp_pseed  *x;
	size_t		nx;
	int			ok;

	tfp_passage_units(s, len, o->reading, usink, &u, NULL);
	keys = malloc((u.n + 1) * sizeof(uint64_t));
	lens = malloc(u.n + 1);
	x = malloc((u.n + 1) * sizeof(tfp_pseed));
	for (size_t i = 0; i < u.n; i++)
	{
		keys[i] = u.u[i].key;
		lens[i] = u.u[i].han ? 1 : 2;
	}
	nx = tfp_passage_winnow_len(keys, lens, u.n, o, x);
	total = tfp_passage_seeds(s, len, o, ssink, &sb, NULL, &nunits);
	ok = nunits == u.n && total == sb.n && same_seeds(x, nx, sb.s, sb.n);
	for (size_t i = 1; ok && i < sb.n; i++)
		ok = sb.s[i].unit > sb.s[i - 1].unit;
	if (!ok)
		printf("# %zu bytes, k=%d w=%d reading=%d: %llu units, the spans path %zu; %llu seeds, %zu\n",
			   len, o->k, o->w, o->reading, (unsigned long long) nunits, u.n,
			   (unsigned long long) total, nx);
	if (maxbatch && sb.maxbatch > *maxbatch)
		*maxbatch = sb.maxbatch;
	free(keys);
	free(lens);
	free(x);
	free(u.u);
	free(sb.s);
	return ok;
}

static void
test_streaming(void)
{
	int			ok = 1;
	size_t		maxbatch = 0;

	for (int t = 0; t < 200 && ok; t++)
	{
		char	   *s = rand_text(1 + rnd(3000));
		tfp_passage_opts o = {1 + rnd(8), 1 + rnd(20), rnd(2)};

		ok = same_both_paths(s, strlen(s), &o, &maxbatch);
		free(s);
	}
	check(ok, "tfp_passage_seeds equals tfp_passage_winnow_len over the units of tfp_passage_units "
		  "(200 texts, random options), seeds in increasing unit order");
	check(maxbatch <= TFP_PASSAGE_BATCH && maxbatch > 0, "seeds come in batches of at most TFP_PASSAGE_BATCH");
}

/*
 * Text mostly ASCII, the keys-only tokenizer's two-stream loop and its
 * short-run loop (tfp_passage_seeds) against the byte loop with spans
 * (tfp_passage_units): runs of a few bytes to a few thousand, words of 1
 * to 700 characters (longer than a chunk, than a batch's room), digits,
 * capitals, every ASCII separator, runs of separators, Han and accented
 * letters between runs, a word open when a run ends.
 */
static char *
rand_ascii_text(size_t *lenp)
{
	size_t		cap = 40000,
				len = 0,
				target = 1 + rnd(20000);
	char	   *buf = malloc(cap + 800);

	while (len < target)
	{
		uint32_t	r = rnd(100);

		if (r < 60)
		{
			/* a word: usually short, sometimes very long */
			size_t		n = rnd(10) == 0 ? 1 + rnd(700) : 1 + rnd(12);

			for (size_t i = 0; i < n; i++)
			{
				uint32_t	c = rnd(64);

				buf[len++] = c < 26 ? 'a' + c : c < 52 ? 'A' + (c - 26) : c < 62 ? '0' + (c - 52) : 'z';
			}
		}
		else if (r < 90)
		{
			/* separators: one, or a run of them */
			size_t		n = rnd(4) == 0 ? 1 + rnd(40) : 1;

			for (size_t i = 0; i < n; i++)
			{
				char		c = (char) (1 + rnd(127));

				/* any ASCII byte that is not a word character */
				if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
					c = ' ';
				buf[len++] = c;
			}
		}
		else
		{
			static const char *const other[] = {"的", "學", "é", "ß", "\xcc\x81", "，", "Ｗ", "\xff"};
			const char *o = other[rnd(sizeof(other) / sizeof(other[0]))];

			memcpy(buf + len, o, strlen(o));
			len += strlen(o);
		}
	}
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

static void
test_streaming_ascii(void)
{
	int			ok = 1;
	size_t		longest = 0;

	for (int t = 0; t < 300 && ok; t++)
	{
		size_t		len,
					run = 0;
		char	   *s = rand_ascii_text(&len);
		tfp_passage_opts o = {1 + rnd(8), 1 + rnd(20), rnd(2)};

		for (size_t i = 0; i < len; i++)
		{
			run = (unsigned char) s[i] < 0x80 ? run + 1 : 0;
			if (run > longest)
				longest = run;
		}
		if (t % 3 == 0)
			o = (tfp_passage_opts) {TFP_PASSAGE_DEFAULT_K, TFP_PASSAGE_DEFAULT_W, 1};
		ok = same_both_paths(s, len, &o, NULL);
		free(s);
	}
	check(ok && longest > 2000,
		  "keys-only ASCII loops (two streams, short runs) equal the byte loop: 300 mostly "
		  "ASCII texts, runs up to thousands of bytes, words up to 700 characters");
}

/*
 * THE GUARANTEE: texts A and B with a planted run of units of equal keys
 * and lengths (A's units random, B's others, the run copied into both at
 * random places), han units only, words only, or mixed.  With a run of
 * length t (w + k; w + k - 1 for han units only) there is always a seed of
 * A and one of B with the same hash at the same offset in the run, and
 * tfp_pseed_match(); with runs of length t - 1 (or as near below as words
 * reach) some trials share no seed hash inside the run.
 */
static void
make_units(uint64_t *keys, uint8_t *lens, size_t n, int mix, uint32_t alpha, uint64_t salt)
{
	for (size_t i = 0; i < n; i++)
	{
		keys[i] = tfp_fmix64((salt << 40) + rnd(alpha));
		lens[i] = mix == 0 ? 1 : mix == 1 ? 2 : (uint8_t) (1 + rnd(2));
	}
}

static void
test_guarantee(void)
{
	int			combos[][2] = {{5, 9}, {4, 10}, {1, 1}, {2, 3}, {3, 8}, {8, 2}, {6, 16}, {1, 64}};
	static const char *const mixes[] = {"han units", "words", "mixed"};

	for (size_t c = 0; c < sizeof(combos) / sizeof(combos[0]); c++)
		for (int mix = 0; mix < 3; mix++)
		{
			tfp_passage_opts o = {combos[c][0], combos[c][1], 1};
			int			t = tfp_passage_t(&o) - (mix == 0 ? 1 : 0);
			/* the tight bound for words: ceil(w / 2) k-gram starts of
			 * ceil(k / 2) words each, the last starting ceil(w / 2) - 1
			 * words in; below it the promise fails (shown for han units and
			 * words; mixed runs only have the bound t) */
			int			tight = mix == 0 ? t : 2 * ((o.w + 1) / 2 - 1 + (o.k + 1) / 2);
			int			trials = 6000;
			int			found_t = 0,
						missed_short = 0,
						short_trials = 0;
			char		what[240];

			for (int longrun = 0; longrun < 2; longrun++)
				for (int trial = 0; trial < trials; trial++)
				{
					uint64_t	rk[200];
					uint8_t		rl[200];
					size_t		rn = 0;
					uint64_t	len = 0;
					uint32_t	alpha = trial % 4 == 0 ? 4 : 1u << 30;
					size_t		na,
								nb,
								pa,
								pb;
					uint64_t   *ka,
							   *kb;
					uint8_t    *la,
							   *lb;
					tfp_pseed  *sa,
							   *sb;
					size_t		nsa,
								nsb;
					int			hit = 0,
								anyhash = 0;

					/* the run: length >= t, or the longest below t */
					for (;;)
					{
						uint8_t		l = mix == 0 ? 1 : mix == 1 ? 2 : (uint8_t) (1 + rnd(2));

						if (longrun && len >= (uint64_t) t)
							break;
						if (!longrun && len + l > (uint64_t) tight - 1)
						{
							if (mix != 2 || l == 1 || len + 1 > (uint64_t) tight - 1)
								break;
							l = 1;
						}
						rk[rn] = tfp_fmix64(((uint64_t) 3 << 40) + rnd(alpha));
						rl[rn++] = l;
						len += l;
					}
					if (rn == 0)
						continue;
					if (!longrun)
						short_trials++;
					na = rn + rnd(60);
					nb = rn + rnd(60);
					pa = rnd((uint32_t) (na - rn + 1));
					pb = rnd((uint32_t) (nb - rn + 1));
					ka = malloc(na * sizeof(uint64_t));
					kb = malloc(nb * sizeof(uint64_t));
					la = malloc(na);
					lb = malloc(nb);
					sa = malloc(na * sizeof(tfp_pseed));
					sb = malloc(nb * sizeof(tfp_pseed));
					make_units(ka, la, na, mix, alpha, 1);
					make_units(kb, lb, nb, mix, alpha, 2);
					memcpy(ka + pa, rk, rn * sizeof(uint64_t));
					memcpy(kb + pb, rk, rn * sizeof(uint64_t));
					memcpy(la + pa, rl, rn);
					memcpy(lb + pb, rl, rn);
					nsa = tfp_passage_winnow_len(ka, la, na, &o, sa);
					nsb = tfp_passage_winnow_len(kb, lb, nb, &o, sb);
					for (size_t i = 0; i < nsa; i++)
					{
						if (sa[i].unit < pa || sa[i].unit >= pa + rn)
							continue;
						for (size_t j = 0; j < nsb; j++)
						{
							if (sb[j].unit < pb || sb[j].unit >= pb + rn)
								continue;
							if (sa[i].hash == sb[j].hash)
								anyhash = 1;
							if (sa[i].unit - pa == sb[j].unit - pb && tfp_pseed_match(&sa[i], &sb[j]))
								hit = 1;
						}
					}
					if (longrun)
						found_t += hit;
					else
						missed_short += !anyhash;
					free(ka);
					free(kb);
					free(la);
					free(lb);
					free(sa);
					free(sb);
				}
			snprintf(what, sizeof(what), "guarantee k=%d w=%d, %s: a shared run of length t=%d always "
					 "gives matching seeds at one offset (%d of %d)", o.k, o.w, mixes[mix], t, found_t, trials);
			check(found_t == trials, what);
			if (tight > 2 && o.w > 1 && mix != 2)
			{
				snprintf(what, sizeof(what), "k=%d w=%d, %s: runs shorter than %d (the tight bound) are "
						 "not always found (%d of %d trials share no seed inside the run)", o.k, o.w,
						 mixes[mix], tight, missed_short, short_trials);
				check(missed_short > 0, what);
			}
		}
}

static void
test_text_guarantee(void)
{
	/* the same on real units: a Chinese passage with homophones and
	 * traditional script, copied into unrelated text */
	const char *pass = "国家统计局今天发布数据显示前三季度国内生产总值同比增长";
	const char *pass_b = "國家統計局今天發布數據顯示前三季度國內生產總值同比增長";
	const char *pass_h = "国家统计局今天发布数局显示前三季度国内生产总值同比增长";	/* 据 -> 局 (ju) */
	char		a[1024],
				b[1024],
				h[1024];
	sbuf		sa,
				sb,
				sh;
	int			shared = 0,
				shared_h = 0;

	snprintf(a, sizeof(a), "Some English words before it. %s。后来的文字完全不同。", pass);
	snprintf(b, sizeof(b), "完全無關的開頭，講的是別的事情：%s，然後 something else entirely.", pass_b);
	snprintf(h, sizeof(h), "一段开头。%s。", pass_h);
	sa = seeds_of(a, &DEF);
	sb = seeds_of(b, &DEF);
	sh = seeds_of(h, &DEF);
	for (size_t i = 0; i < sa.n; i++)
	{
		for (size_t j = 0; j < sb.n; j++)
			shared += tfp_pseed_match(&sa.s[i], &sb.s[j]);
		for (size_t j = 0; j < sh.n; j++)
			shared_h += tfp_pseed_match(&sa.s[i], &sh.s[j]);
	}
	printf("# %zu, %zu, %zu seeds; %d shared with the traditional copy, %d with the homophone one\n",
		   sa.n, sb.n, sh.n, shared, shared_h);
	check(shared >= 2, "a 27-character passage copied in traditional script shares seeds");
	check(shared_h >= 2, "a homophone (据 -> 局) does not break the passage under the reading fold");
	free(sa.s);
	free(sb.s);
	free(sh.s);
}

static void
test_density(void)
{
	char		what[160];
	int			ws[] = {9, 4, 20};

	for (size_t c = 0; c < 3; c++)
	{
		tfp_passage_opts o = {5, ws[c], 1};
		size_t		n = 200000;
		uint64_t   *keys = malloc(n * sizeof(uint64_t));
		tfp_pseed  *x = malloc(n * sizeof(tfp_pseed));
		size_t		nx;
		double		d,
					want = 2.0 / (o.w + 1);

		for (size_t i = 0; i < n; i++)
			keys[i] = tfp_fmix64(rnd(1u << 30));
		nx = tfp_passage_winnow(keys, n, &o, x);
		d = (double) nx / (double) (n - o.k + 1);
		snprintf(what, sizeof(what), "density w=%d: %.4f seeds per k-gram, 2/(w+1) = %.4f", o.w, d, want);
		check(d > want * 0.97 && d < want * 1.03, what);
		free(keys);
		free(x);
	}
}

static void
test_edges(void)
{
	tfp_passage_opts o = DEF;
	sbuf		s;
	uint64_t	keys[20];
	tfp_pseed	out[20];
	size_t		n;

	check(tfp_passage_check(&DEF) == NULL, "the defaults are valid options");
	o.k = 0;
	check(tfp_passage_check(&o) != NULL && strcmp(tfp_passage_check(&o), "k") == 0, "k = 0 is refused");
	o.k = TFP_PASSAGE_MAX_K + 1;
	check(tfp_passage_check(&o) != NULL, "k above the maximum is refused");
	o = DEF;
	o.w = 0;
	check(tfp_passage_check(&o) != NULL && strcmp(tfp_passage_check(&o), "w") == 0, "w = 0 is refused");
	o.w = TFP_PASSAGE_MAX_W + 1;
	check(tfp_passage_check(&o) != NULL, "w above the maximum is refused");
	check(tfp_passage_t(&DEF) == 14 && tfp_passage_ctx(&DEF) == 4,
		  "defaults: t = 14 (13 for han units only), c = 4");

	s = seeds_of("一二三四", &DEF);
	check(s.n == 0, "fewer than k units: no seeds");
	free(s.s);
	s = seeds_of("一二三四五", &DEF);
	check(s.n == 1 && s.s[0].unit == 0, "exactly k units: one seed");
	free(s.s);
	s = seeds_of("一二三四五六七", &DEF);
	check(s.n == 1, "fewer k-grams than a window: one seed, the minimum of them all");
	free(s.s);
	for (int i = 0; i < 20; i++)
		keys[i] = 42;
	n = tfp_passage_winnow(keys, 20, &DEF, out);
	check(n == 8, "20 equal keys: the rightmost of each window, 8 seeds (positions 8-15)");
	check(tfp_passage_winnow(keys, 0, &DEF, NULL) == 0, "no keys: no seeds");
}

/*
 * Golden values: the fingerprint is stored in tables and indexes and
 * compared across machines and releases, so these must never change.
 */
static void
test_golden(void)
{
	static const struct
	{
		const char *text;
		int			k,
					w,
					reading;
		size_t		n;
		uint64_t	xor_hash;
		uint64_t	sum_pos;
		uint64_t	first;
	}			g[] = {
#include "test_passage_golden.h"
	};
	int			ok = 1;

	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++)
	{
		tfp_passage_opts o = {g[i].k, g[i].w, g[i].reading};
		sbuf		s = seeds_of(g[i].text, &o);
		uint64_t	x = 0,
					p = 0;

		for (size_t j = 0; j < s.n; j++)
		{
			x ^= s.s[j].hash * (j + 1);
			p += s.s[j].unit * 1000003u + s.s[j].left * 257u + s.s[j].right;
		}
		if (s.n != g[i].n || x != g[i].xor_hash || p != g[i].sum_pos ||
			(s.n > 0 && s.s[0].hash != g[i].first))
		{
			ok = 0;
			printf("# golden %zu changed: {\"...\", %d, %d, %d, %zu, UINT64_C(0x%016llx), UINT64_C(%llu), UINT64_C(0x%016llx)}\n",
				   i, o.k, o.w, o.reading, s.n, (unsigned long long) x, (unsigned long long) p,
				   (unsigned long long) (s.n ? s.s[0].hash : 0));
		}
		free(s.s);
	}
	check(ok, "golden values of the passage fingerprint (never to change)");
}

/*
 * The AVX-512 kernels (tfp_passage_x86.c) against the portable code: the
 * same seeds on random texts (Chinese, ASCII, both, with separators and
 * marks) through the streaming tokenizer, across batches, with many
 * options.  (test_reference compares each path with the brute-force
 * reference on random unit sequences, and main() runs it on both.)
 */
static void
test_simd_paths(void)
{
	int			combos[][2] = {{5, 9}, {1, 1}, {1, 2}, {2, 3}, {3, 2}, {4, 10}, {5, 8}, {6, 17},
	{16, 64}, {2, 64}, {16, 1}, {8, 8}, {7, 33}};
	static const char *const pieces[] = {"的", "是", "在", "再", "國", "国", "文", "字", "，", "。",
		" ", "word", "Text", "42", "é", "e\xcc\x81", "\n", "ＡＢ", "、", "x"};
	int			bad = 0;

	for (size_t c = 0; c < sizeof(combos) / sizeof(combos[0]); c++)
	{
		tfp_passage_opts o = {combos[c][0], combos[c][1], (int) (c % 2)};

		for (int t = 0; t < 100; t++)
		{
			size_t		np = 1 + rnd(t % 4 == 0 ? 3000 : 400),
						len = 0;
			char	   *s = malloc(np * 8 + 1);
			sbuf		a,
						b;

			for (size_t i = 0; i < np; i++)
			{
				/* Chinese, ASCII (long runs), or any */
				const char *q = pieces[t % 3 == 0 ? rnd(10) : t % 3 == 1 ? 10 + rnd(4) : rnd(20)];

				memcpy(s + len, q, strlen(q));
				len += strlen(q);
			}
			tfp_simd_enabled = 0;
			a = seeds_of_len(s, len, &o);
			tfp_simd_enabled = 1;
			b = seeds_of_len(s, len, &o);
			bad += !same_seeds(a.s, a.n, b.s, b.n);
			free(a.s);
			free(b.s);
			free(s);
		}
	}
	printf("# AVX-512 kernels: %s\n", tfp_cpu_avx512() ? "yes, compared" :
		   "not on this CPU (both sides run the portable code)");
	check(bad == 0, "the AVX-512 kernels give the portable code's seeds on 1,300 random texts, "
		  "13 options");
}

int
main(void)
{
	test_units();
	test_simd_paths();
	/* the winnowing tests on each path: the portable code, then the
	 * kernels where the CPU has them */
	for (int path = 0; path < 2; path++)
	{
		tfp_simd_enabled = path;
		printf("# winnowing with %s\n", path ? "the AVX-512 kernels (where the CPU has them)" :
			   "the portable code");
		test_reference();
		test_streaming();
		test_streaming_ascii();
		test_guarantee();
		test_text_guarantee();
		test_density();
		test_edges();
		test_golden();
	}
	tfp_simd_enabled = 1;
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
