/*
 * test_align.c -- unit tests of the passage alignment (tfp_align.c,
 * tfp_align_pick.c) and its HTML rendering (tfp_align_html.c): worked
 * examples in Chinese and English (exact copies, typos, an inserted and a
 * deleted sentence, reordered paragraphs, traditional script, case and
 * width, punctuation, repeated text, partial copies, unrelated texts,
 * empty texts), pinned outputs, options and errors, memory and
 * interrupts; then random texts with planted passages and random small
 * edits (recall, and no passage between unrelated texts); the HTML
 * (escaping, structure, context, bounds).  Prints TAP lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_align.h"

#include "tap.h"
#include "align_check.h"

static long live_allocs = 0;
static long ticks = 0;

static void
count_tick(void)
{
	ticks++;
}

static tfp_align_env env = {check_alloc, check_free, &live_allocs, count_tick};

static tfp_align_opts
opts(int min_length, int seed, int max_gap)
{
	tfp_align_opts o = {min_length, seed, max_gap, TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN, 0};

	return o;
}

static const tfp_align_opts *
dflt(void)
{
	static tfp_align_opts o;

	o = opts(TFP_ALIGN_DEFAULT_MIN_LENGTH, TFP_ALIGN_DEFAULT_SEED, TFP_ALIGN_DEFAULT_MAX_GAP);
	return &o;
}

static void
print_result(const char *what, const char *a, const char *b, const tfp_align_result *r)
{
	printf("# %s: %zu passages, covered %llu/%llu of a, %llu/%llu of b\n", what, r->n,
		   (unsigned long long) r->a_covered, (unsigned long long) r->a_total,
		   (unsigned long long) r->b_covered, (unsigned long long) r->b_total);
	for (size_t k = 0; k < r->n; k++)
		printf("#   %zu: a [%u,%u) \"%.*s\" | b [%u,%u) \"%.*s\" matched %u\n", k + 1,
			   r->p[k].a_cstart, r->p[k].a_cstart + r->p[k].a_clen,
			   (int) (r->p[k].a_end - r->p[k].a_start), a + r->p[k].a_start,
			   r->p[k].b_cstart, r->p[k].b_cstart + r->p[k].b_clen,
			   (int) (r->p[k].b_end - r->p[k].b_start), b + r->p[k].b_start, r->p[k].matched);
}

/* align, check the invariants (a failure is reported), return the count */
static size_t
run(const char *a, const char *b, const tfp_align_opts *o, tfp_align_result *r)
{
	int			rc = tfp_align(a, strlen(a), b, strlen(b), o, &env, r);
	const char *err;

	if (rc != TFP_ALIGN_OK)
	{
		check(0, "tfp_align returns OK");
		return 0;
	}
	if (getenv("ALIGN_DEBUG"))
		print_result("result", a, b, r);
	err = align_invariants(a, strlen(a), b, strlen(b), o, r);
	if (err)
	{
		printf("# invariant broken: %s\n", err);
		check(0, "result invariants");
	}
	return r->n;
}

static void
done(tfp_align_result *r)
{
	if (r->p)
		check_free(&live_allocs, r->p);
	r->p = NULL;
}

static uint32_t
chars(const char *s)
{
	return check_cps(s, 0, strlen(s));
}

static uint32_t
units(const char *s)
{
	uint64_t	len;

	tfp_align_units(s, strlen(s), TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN, &len);
	return (uint32_t) len;
}

/* does passage k's text in a (in b) equal s? */
static int
a_is(const tfp_align_result *r, size_t k, const char *a, const char *s)
{
	return k < r->n && r->p[k].a_end - r->p[k].a_start == strlen(s) &&
		memcmp(a + r->p[k].a_start, s, strlen(s)) == 0;
}

static int
b_is(const tfp_align_result *r, size_t k, const char *b, const char *s)
{
	return k < r->n && r->p[k].b_end - r->p[k].b_start == strlen(s) &&
		memcmp(b + r->p[k].b_start, s, strlen(s)) == 0;
}

/* ------------------------------------------------------------------------
 * Worked examples
 * ------------------------------------------------------------------------ */

#define ZH1 "国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。"
#define ZH1_TRAD "國家統計局今天發布數據顯示，前三季度國內生產總值同比增長百分之五點二。"
#define ZH2 "专家认为，经济回升向好的态势进一步巩固，消费对经济增长的拉动作用明显增强。"
#define ZH3 "下一步要继续加大宏观政策调控力度，着力扩大有效需求，推动经济持续健康发展。"
#define ZHX "今天上午，市气象台发布暴雨橙色预警信号，提醒市民注意防范强降雨天气。"
#define EN1 "The committee reviewed the annual budget and approved the new spending plan for schools."
#define EN2 "Several members raised concerns about the rising cost of transport in rural districts."
#define EN3 "A final report will be published next month after a period of public consultation."
#define ENX "Heavy rain is expected across the northern coast tonight, with strong winds in the hills."

static void
test_examples(void)
{
	tfp_align_result r;
	const char *a,
			   *b;

	/* exact copy, embedded in other text: the copied sentences only */
	a = ZH1 ZH2;
	b = "据本报讯，" ZH1 ZH2 "（记者 张三）";
	check(run(a, b, dflt(), &r) == 1 && a_is(&r, 0, a, "国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。专家认为，经济回升向好的态势进一步巩固，消费对经济增长的拉动作用明显增强") &&
		  b_is(&r, 0, b, "国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。专家认为，经济回升向好的态势进一步巩固，消费对经济增长的拉动作用明显增强") &&
		  r.p[0].matched == r.p[0].a_len && r.p[0].a_cstart == 0 && r.p[0].b_cstart == 5,
		  "zh: an exact copy inside other text is one passage, from its first to its last character");
	done(&r);

	/* traditional script: found with fold_han, not without */
	a = ZH1;
	b = ZH1_TRAD;
	check(run(a, b, dflt(), &r) == 1 && r.p[0].matched == r.p[0].a_len && r.p[0].a_len == 33,
		  "zh: a traditional-script copy matches in full (fold_han)");
	done(&r);
	{
		tfp_align_opts o = *dflt();

		o.fold &= ~TFP_FOLD_HAN;
		check(run(a, b, &o, &r) == 0, "zh: without fold_han the traditional copy shares no passage");
		done(&r);
	}

	/* typos: one passage, matched counts the equal characters */
	a = ZH1 ZH2;
	b = "国家统计局今天发布数椐显示，前三季度国內生产总值同比增长百分之五点二。专家认为，经济回升向好的态势进一步巩固，消费对经济增长的拉动做用明显增强。";
	check(run(a, b, dflt(), &r) == 1 && r.p[0].a_len == r.p[0].b_len &&
		  r.p[0].matched == r.p[0].a_len - 2,
		  "zh: two typos (and a variant 內) inside: one passage, matched = length - 2");
	done(&r);

	/* a deleted sentence splits the copy in two passages */
	a = ZH1 ZH2 ZH3;
	b = ZH1 ZH3;
	check(run(a, b, dflt(), &r) == 2 && a_is(&r, 0, a, "国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二") &&
		  a_is(&r, 1, a, "下一步要继续加大宏观政策调控力度，着力扩大有效需求，推动经济持续健康发展") &&
		  r.p[1].b_cstart == chars(ZH1),
		  "zh: a deleted sentence: two passages around it");
	done(&r);

	/* an inserted sentence likewise */
	a = ZH1 ZH3;
	b = ZH1 ZHX ZH3;
	check(run(a, b, dflt(), &r) == 2 && r.p[0].b_cstart == 0 && r.p[1].b_cstart == chars(ZH1 ZHX),
		  "zh: an inserted sentence: two passages around it");
	done(&r);

	/* reordered paragraphs: each found where it is */
	a = ZH1 "\n" ZH2 "\n" ZH3;
	b = ZH3 "\n" ZH1 "\n" ZH2;
	check(run(a, b, dflt(), &r) == 2 && r.p[0].b_cstart == 0 && r.p[0].a_cstart == chars(ZH1 "\n" ZH2 "\n") &&
		  r.p[1].b_cstart == chars(ZH3 "\n") && r.p[1].a_cstart == 0 &&
		  r.p[1].a_clen == chars(ZH1 "\n" ZH2) - 1 && r.p[1].matched == units(ZH1 ZH2),
		  "zh: paragraphs moved: one passage per run of paragraphs in the same order");
	done(&r);

	/* English: case, width, punctuation and spacing do not matter */
	a = EN1 " " EN2;
	b = "THE  committee reviewed -- the annual budget, and approved the new spending plan for Schools! "
		"Several members raised concerns about the rising cost of transport in rural districts";
	check(run(a, b, dflt(), &r) == 1 && r.p[0].matched == r.p[0].a_len && r.p[0].a_len == units(a) &&
		  units(a) == 2 * 27,
		  "en: case, punctuation and spacing differences: one exact passage of all 27 words");
	done(&r);
	b = "\xef\xbc\xb4\xef\xbd\x88\xef\xbd\x85 committee reviewed the annual budget and approved the new spending plan";
	check(run(a, b, dflt(), &r) == 1 && r.p[0].b_cstart == 0 && r.p[0].matched == 2 * 12,
		  "en: a full-width word matches (fold_width)");
	done(&r);

	/* English edits: a changed word, an inserted word, a deleted word */
	b = "The committee reviewed the yearly budget and approved the new spending plan for all schools. "
		"Several members raised concerns about the cost of transport in rural districts.";
	check(run(a, b, dflt(), &r) == 1 && r.p[0].a_cstart == 0 && r.p[0].matched == 2 * 25 &&
		  r.p[0].a_len == units(a),
		  "en: a changed, an inserted and a deleted word: one passage, 25 of 27 words matched");
	done(&r);

	/* unrelated texts, and texts sharing only short common phrases */
	check(run(ZH1 ZH2, ZHX, dflt(), &r) == 0 && r.a_covered == 0, "zh: unrelated texts: no passage");
	done(&r);
	check(run(EN1 EN2, ENX " The committee reviewed the plan.", dflt(), &r) == 0,
		  "en: a shared four-word phrase is below min_length: no passage");
	done(&r);

	/* empty texts, texts without units */
	check(run("", "", dflt(), &r) == 0 && r.a_total == 0 && r.b_total == 0, "empty texts: nothing");
	done(&r);
	check(run(ZH1, "", dflt(), &r) == 0 && r.a_total == 33 && r.b_total == 0, "one empty text: nothing");
	done(&r);
	check(run("，。！？ ... --- \t\n", "，。！？ ... --- \t\n", dflt(), &r) == 0 && r.a_total == 0,
		  "punctuation only: no units, nothing");
	done(&r);

	/* repeated text: one to one */
	a = ZH2;
	b = ZH2 ZHX ZH2;
	check(run(a, b, dflt(), &r) == 1 && r.p[0].b_cstart == 0 && r.b_covered == r.a_total,
		  "a passage of a copied twice into b is matched once (the first, as both are as good)");
	done(&r);
	a = ZH2 ZHX ZH2;
	b = ZHX ZH2;
	check(run(a, b, dflt(), &r) == 1 && r.p[0].a_cstart == chars(ZH2) && r.p[0].b_cstart == 0 &&
		  r.p[0].matched == units(ZHX ZH2),
		  "a passage twice in a: b's copy is matched to the occurrence whose context matches too");
	done(&r);
	a = ZH1 ZH2 ZH3 ZH1;
	b = ZH3 ZH1;
	check(run(a, b, dflt(), &r) == 1 && r.p[0].a_cstart == chars(ZH1 ZH2) &&
		  r.p[0].matched == units(ZH3 ZH1),
		  "repeated sentence: the longer passage around it wins");
	done(&r);

	/* min_length, seed, max_gap */
	a = ZH1;
	b = "国家统计局今天发布数据显示";
	check(run(a, b, dflt(), &r) == 0, "12 characters in common: below the default min_length 16");
	done(&r);
	{
		tfp_align_opts o = opts(12, 4, 12);

		check(run(a, b, &o, &r) == 1 && r.p[0].matched == 13, "with min_length 12 they are a passage of 13");
		done(&r);
	}
	a = "国家统计局今天发布数据显示前三季度国内生产总值同比增长";
	b = "国家统计局今天发布数据显示啊啊啊啊啊前三季度国内生产总值同比增长";
	{
		tfp_align_opts o = opts(8, 4, 4);

		check(run(a, b, &o, &r) == 2, "max_gap 4: an insertion of 5 splits the passage");
		done(&r);
		o.max_gap = 5;
		check(run(a, b, &o, &r) == 1 && r.p[0].matched == 27 && r.p[0].b_len == 32, "max_gap 5: it is bridged");
		done(&r);
	}
	a = "一二三四五六七八九十甲乙丙丁戊己庚辛壬癸";
	b = "一二三四X六七八九X甲乙丙丁X己庚辛壬X";
	{
		tfp_align_opts o = opts(10, 5, 8);

		check(run(a, b, &o, &r) == 0, "seed 5: substitutions every 5th character leave no seed");
		done(&r);
		o.seed = 4;
		check(run(a, b, &o, &r) == 1 && r.p[0].matched == 16, "seed 4: one passage, 16 matched");
		done(&r);
	}
}

/* Outputs pinned: a change of the method shows here. */
static void
test_pinned(void)
{
	tfp_align_result r;
	const char *a = EN1 " " EN2 " " EN3 " " ZH1 ZH2,
			   *b = "In other news. " EN3 " Also: " ZH2 " " EN1 " Several members raised worries about rising costs of transport in districts.";
	char		buf[1024];
	size_t		n = 0;
	static const char pinned[] =
	"1:a176+81,b15+81,m28/28,28|2:a294+36,b104+36,m34/34,34|3:a0+158,b142+154,m44/50,48|";

	run(a, b, dflt(), &r);
	print_result("pinned", a, b, &r);
	for (size_t k = 0; k < r.n; k++)
		n += snprintf(buf + n, sizeof(buf) - n, "%zu:a%u+%u,b%u+%u,m%u/%u,%u|", k + 1,
					  r.p[k].a_cstart, r.p[k].a_clen, r.p[k].b_cstart, r.p[k].b_clen,
					  r.p[k].matched, r.p[k].a_len, r.p[k].b_len);
	printf("# got %s\n", buf);
	check(strcmp(buf, pinned) == 0, "pinned passages of a mixed Chinese-English pair");
	done(&r);
}

/* an allocator that fails at its fail_at-th call */
static struct
{
	long		live;
	int			calls;
	int			fail_at;
}			fa;

static void *
fail_alloc(void *arg, size_t n)
{
	(void) arg;
	if (fa.calls++ == fa.fail_at)
		return NULL;
	fa.live++;
	return malloc(n);
}

static void
fail_free(void *arg, void *p)
{
	(void) arg;
	if (p)
		fa.live--;
	free(p);
}

static void
test_errors(void)
{
	tfp_align_result r;
	tfp_align_opts o;
	long		before = live_allocs;

	o = opts(0, 4, 12);
	check(tfp_align("a", 1, "a", 1, &o, &env, &r) == TFP_ALIGN_EINVAL && r.p == NULL, "min_length 0 rejected");
	o = opts(16, 0, 12);
	check(tfp_align("a", 1, "a", 1, &o, &env, &r) == TFP_ALIGN_EINVAL, "seed 0 rejected");
	o = opts(16, TFP_ALIGN_MAX_SEED + 1, 12);
	check(tfp_align("a", 1, "a", 1, &o, &env, &r) == TFP_ALIGN_EINVAL, "seed above the maximum rejected");
	o = opts(16, 4, -1);
	check(tfp_align("a", 1, "a", 1, &o, &env, &r) == TFP_ALIGN_EINVAL, "max_gap -1 rejected");
	o = opts(16, 4, TFP_ALIGN_MAX_GAP + 1);
	check(tfp_align("a", 1, "a", 1, &o, &env, &r) == TFP_ALIGN_EINVAL, "max_gap above the maximum rejected");

	/* more units than the limit: refused while counting, nothing leaked */
	{
		size_t		len = 2 * ((size_t) TFP_ALIGN_MAX_UNITS + 1);
		char	   *big = malloc(len);

		for (size_t i = 0; i < len; i += 2)
		{
			big[i] = 'x';
			big[i + 1] = ' ';
		}
		ticks = 0;
		check(tfp_align(big, len, "x", 1, dflt(), &env, &r) == TFP_ALIGN_ETOOBIG && r.n == 0,
			  "a text of more than TFP_ALIGN_MAX_UNITS units: TFP_ALIGN_ETOOBIG");
		check(ticks > 100, "reading a long text calls tick");
		check(tfp_align("x", 1, big, len - 2, dflt(), &env, &r) == TFP_ALIGN_OK,
			  "exactly TFP_ALIGN_MAX_UNITS units are accepted");
		free(big);
		done(&r);
	}
	check(live_allocs == before, "no memory kept after errors");

	/* allocation failures at every step: ENOMEM, everything released */
	{
		const char *a = ZH1 ZH2 ZH3 EN1,
				   *b = ZH3 ZH1 EN1;
		int			ok = 1,
					failed = 0;
		tfp_align_env e = {fail_alloc, fail_free, &fa, NULL};

		for (int fail_at = 0; fail_at < 100; fail_at++)
		{
			int			rc;

			fa.live = 0;
			fa.calls = 0;
			fa.fail_at = fail_at;
			rc = tfp_align(a, strlen(a), b, strlen(b), dflt(), &e, &r);
			if (rc == TFP_ALIGN_OK)
			{
				fail_free(&fa, r.p);
				if (fa.live != 0)
					ok = 0;
				break;			/* fewer allocations than fail_at */
			}
			failed++;
			if (rc != TFP_ALIGN_ENOMEM || fa.live != 0 || r.p != NULL || r.n != 0)
				ok = 0;
		}
		printf("# %d allocation failures tried\n", failed);
		check(ok && failed >= 10, "every allocation failure gives ENOMEM and releases all memory");
	}
}

/* ------------------------------------------------------------------------
 * Random texts with planted passages
 * ------------------------------------------------------------------------ */

typedef struct gtext
{
	char	   *s;
	size_t		len,
				cap;
} gtext;

static void
gput(gtext *g, const char *s, size_t n)
{
	if (g->len + n + 1 > g->cap)
	{
		g->cap = (g->len + n + 1) * 2;
		g->s = realloc(g->s, g->cap);
	}
	memcpy(g->s + g->len, s, n);
	g->len += n;
	g->s[g->len] = '\0';
}

/* a random unit: a Han character of 5,000 (zh) or a word of a 3,000-word
 * vocabulary with a Zipf-like law, so common short phrases recur (en) */
static void
unit_text(int zh, char *out, size_t *n)
{
	if (zh)
	{
		*n = (size_t) tfp_utf8_encode(0x4E00 + rnd(5000), (unsigned char *) out);
		return;
	}
	{
		uint32_t	w = rnd(3000);
		uint32_t	v = rnd(w + 1);		/* small indices much more often */
		uint64_t	x = (uint64_t) v * UINT64_C(0x9E3779B97F4A7C15);
		size_t		len = 2 + (size_t) ((x >> 40) % 7);

		for (size_t i = 0; i < len; i++)
			out[i] = (char) ('a' + (x >> (5 * i)) % 26);
		*n = len;
	}
}

/* n random units with separators */
static void
random_units(gtext *g, int zh, int n)
{
	char		u[16];
	size_t		l;

	for (int i = 0; i < n; i++)
	{
		unit_text(zh, u, &l);
		gput(g, u, l);
		if (zh)
		{
			if (rnd(15) == 0)
				gput(g, "\xef\xbc\x8c", 3);
		}
		else if (rnd(12) == 0)
			gput(g, ". ", 2);
		else
			gput(g, " ", 1);
	}
}

/* copy s[from, to) into g with small random edits, one unit in `every`
 * on average substituted, deleted or followed by an inserted one */
static void
copy_edited(gtext *g, const char *s, size_t from, size_t to, int zh, int every)
{
	size_t		i = from;
	char		u[16];
	size_t		l;

	while (i < to)
	{
		/* one unit (a Han character, or a word with its separator) */
		size_t		j = i;

		if (zh)
			j += ((unsigned char) s[i] >= 0xE0) ? 3 : 1;
		else
		{
			while (j < to && s[j] != ' ')
				j++;
			if (j < to)
				j++;
		}
		if (j > to)
			j = to;
		if (every > 0 && rnd((uint32_t) every) == 0)
		{
			switch (rnd(3))
			{
				case 0:			/* substitution */
					unit_text(zh, u, &l);
					gput(g, u, l);
					if (!zh)
						gput(g, " ", 1);
					break;
				case 1:			/* deletion */
					break;
				default:		/* insertion after */
					gput(g, s + i, j - i);
					unit_text(zh, u, &l);
					gput(g, u, l);
					if (!zh)
						gput(g, " ", 1);
			}
		}
		else
			gput(g, s + i, j - i);
		i = j;
	}
}

/* a unit boundary at or after byte p of s */
static size_t
unit_start(const char *s, size_t len, size_t p, int zh)
{
	if (zh)
	{
		while (p < len && ((unsigned char) s[p] & 0xC0) == 0x80)
			p++;
		return p;
	}
	while (p < len && s[p] != ' ')
		p++;
	return p < len ? p + 1 : len;
}

static void
test_planted(int zh, int every, int trials, double min_recall)
{
	uint64_t	planted = 0,
				found = 0,
				spurious = 0,
				misplaced = 0;
	int			worst_ok = 1;
	char		what[200];

	for (int t = 0; t < trials; t++)
	{
		gtext		A = {0},
					B = {0};
		size_t		src[4][2],
					dst[4][2];
		int			k = 1 + (int) rnd(4);
		tfp_align_result r;

		/* k disjoint source regions of 30 to 180 units, one per slot of a */
		random_units(&A, zh, k * 200 + (int) rnd(1500));
		for (int i = 0; i < k; i++)
		{
			size_t		slot = A.len / k,
						len = (zh ? 3 : 5) * (30 + rnd(150));
			size_t		s = unit_start(A.s, A.len, i * slot + rnd((uint32_t) (slot - len)), zh);

			src[i][0] = s;
			src[i][1] = unit_start(A.s, A.len, s + len, zh);
		}
		/* b: random text with the passages, edited, in random order */
		random_units(&B, zh, (int) rnd(300));
		for (int i = 0; i < k; i++)
		{
			int			q = (i + t) % k;

			if (!zh)
				gput(&B, " ", 1);
			dst[q][0] = B.len;
			copy_edited(&B, A.s, src[q][0], src[q][1], zh, every);
			dst[q][1] = B.len;
			if (!zh)
				gput(&B, " ", 1);
			random_units(&B, zh, 50 + (int) rnd(300));
		}
		run(A.s, B.s, dflt(), &r);
		/* recall: bytes of each planted copy inside passages that come
		 * from its source; spurious: passage bytes outside every copy
		 * (a passage may run a few units past a copy's ends when the
		 * random text around it happens to match) */
		for (int i = 0; i < k; i++)
		{
			uint64_t	cov = 0;

			for (size_t p = 0; p < r.n; p++)
			{
				size_t		s = r.p[p].b_start > dst[i][0] ? r.p[p].b_start : dst[i][0],
							e = r.p[p].b_end < dst[i][1] ? r.p[p].b_end : dst[i][1];

				if (s >= e)
					continue;
				if (r.p[p].a_end <= src[i][0] || r.p[p].a_start >= src[i][1])
					misplaced += e - s;
				else
					cov += e - s;
			}
			planted += dst[i][1] - dst[i][0];
			found += cov;
			if (cov < (dst[i][1] - dst[i][0]) * 7 / 10)
				worst_ok = 0;
			if (getenv("ALIGN_DEBUG_PLANT") && cov < (dst[i][1] - dst[i][0]) * 95 / 100)
			{
				printf("# trial %d copy %d: src [%zu,%zu) dst [%zu,%zu) covered %llu\n", t, i,
					   src[i][0], src[i][1], dst[i][0], dst[i][1], (unsigned long long) cov);
				for (size_t p = 0; p < r.n; p++)
					printf("#   a [%u,%u) b [%u,%u) m %u\n", r.p[p].a_start, r.p[p].a_end,
						   r.p[p].b_start, r.p[p].b_end, r.p[p].matched);
			}
		}
		for (size_t p = 0; p < r.n; p++)
		{
			uint64_t	in = 0;

			for (int i = 0; i < k; i++)
			{
				size_t		s = r.p[p].b_start > dst[i][0] ? r.p[p].b_start : dst[i][0],
							e = r.p[p].b_end < dst[i][1] ? r.p[p].b_end : dst[i][1];

				if (s < e)
					in += e - s;
			}
			if (r.p[p].b_end - r.p[p].b_start > in + (zh ? 3 * 6 : 6 * 4))
				spurious++;
		}
		done(&r);
		free(A.s);
		free(B.s);
	}
	printf("# %s, one edit per %d units: recall %.4f (%llu of %llu bytes), misplaced %llu, spurious passages %llu\n",
		   zh ? "zh" : "en", every, (double) found / planted, (unsigned long long) found,
		   (unsigned long long) planted, (unsigned long long) misplaced, (unsigned long long) spurious);
	snprintf(what, sizeof(what), "%s, one edit per %d units (%d trials): recall >= %.2f, no passage mapped to the wrong source, none outside the copies",
			 zh ? "zh" : "en", every, trials, min_recall);
	check((double) found / planted >= min_recall && misplaced == 0 && spurious == 0, what);
	snprintf(what, sizeof(what), "%s, one edit per %d units: every planted passage at least 70%% found",
			 zh ? "zh" : "en", every);
	check(worst_ok, what);
}

static void
test_unrelated(int zh, int trials)
{
	uint64_t	passages = 0,
				units = 0;
	char		what[120];

	for (int t = 0; t < trials; t++)
	{
		gtext		A = {0},
					B = {0};
		tfp_align_result r;

		random_units(&A, zh, 2000);
		random_units(&B, zh, 2000);
		run(A.s, B.s, dflt(), &r);
		passages += r.n;
		units += r.a_total;
		done(&r);
		free(A.s);
		free(B.s);
	}
	printf("# %s unrelated: %llu passages in %d pairs of 2,000 units\n", zh ? "zh" : "en",
		   (unsigned long long) passages, trials);
	snprintf(what, sizeof(what), "%s: no passage between %d pairs of unrelated random texts", zh ? "zh" : "en", trials);
	check(passages == 0 && units > 0, what);
}

/* equal inputs give equal outputs, whatever the order of calls */
static void
test_deterministic(void)
{
	gtext		A = {0},
				B = {0};
	tfp_align_result r1,
				r2;
	int			same;

	random_units(&A, 1, 3000);
	copy_edited(&B, A.s, 0, A.len, 1, 20);
	random_units(&B, 0, 500);
	copy_edited(&B, A.s, 0, A.len / 2, 1, 30);
	run(A.s, B.s, dflt(), &r1);
	run(B.s, A.s, dflt(), &r2);
	done(&r2);
	run(A.s, B.s, dflt(), &r2);
	same = r1.n == r2.n && r1.n > 0 && memcmp(r1.p, r2.p, r1.n * sizeof(tfp_align_passage)) == 0;
	check(same, "the same texts give the same passages again");
	done(&r1);
	done(&r2);
	free(A.s);
	free(B.s);
}

/* repetitive texts stay linear: one passage, quickly */
static void
test_repetitive(void)
{
	gtext		A = {0},
				B = {0};
	tfp_align_result r;

	for (int i = 0; i < 200000; i++)
		gput(&A, "\xe5\x93\x88", 3);	/* 哈 */
	for (int i = 0; i < 100000; i++)
		gput(&B, "ab ", 3);
	check(run(A.s, A.s, dflt(), &r) == 1 && r.p[0].matched == 200000,
		  "200,000 times the same character against itself: one passage");
	done(&r);
	check(run(B.s, B.s, dflt(), &r) == 1 && r.p[0].matched == 2 * 100000,
		  "100,000 times the same word against itself: one passage");
	done(&r);
	check(run(A.s, B.s, dflt(), &r) == 0, "the two unrelated repetitive texts: nothing");
	done(&r);
	free(A.s);
	free(B.s);
}

/* ------------------------------------------------------------------------
 * HTML
 * ------------------------------------------------------------------------ */

static int
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void
test_html(void)
{
	tfp_align_result r;
	const char *a = "<script>alert('x')</script> & " EN1 "\n" EN2 " \x01\x7f",
			   *b = "Intro \"quoted\" text.\r\n" EN2 " " EN1 " \xff\xc0\xaf end \xef\xbf\xbe";
	tfp_html_opts ho = {-1, 0, "original <1>", 12, "copy & co", 9, NULL};
	char	   *h;
	size_t		n;
	const char *err;

	run(a, b, dflt(), &r);
	err = html_render_check(a, strlen(a), b, strlen(b), &r, &ho, &h, &n);
	if (err)
		printf("# %s\n", err);
	check(err == NULL, "fragment: well formed, links resolve, ids unique");
	if (err == NULL)
	{
		check(starts(h, "<div class=\"textfp-compare\" id=\"textfp-"), "fragment: one div, a hashed id");
		check(strstr(h, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp;") != NULL &&
			  strstr(h, "<script") == NULL, "text is escaped");
		check(strstr(h, "&quot;quoted&quot; text.<br/>") != NULL, "quotes escaped, CR LF a line break");
		check(strstr(h, "&#xFFFD;&#xFFFD;") != NULL && strstr(h, "\x01") == NULL && strstr(h, "\xff") == NULL &&
			  strstr(h, "\xef\xbf\xbe") == NULL,
			  "controls, invalid bytes and noncharacters become U+FFFD");
		check(strstr(h, "<th>original &lt;1&gt;</th><th>copy &amp; co</th>") != NULL, "titles escaped");
		check(strstr(h, "2 passages in common: ") != NULL, "summary line");
		check(strstr(h, "<mark class=\"textfp-p textfp-c0\"") != NULL && strstr(h, "textfp-c1") != NULL,
			  "passages marked in their colours");
		check(strstr(h, "<!DOCTYPE") == NULL && strstr(h, "<style") == NULL, "a fragment has no page or style");
		free(h);
	}
	ho.page = 1;
	err = html_render_check(a, strlen(a), b, strlen(b), &r, &ho, &h, &n);
	check(err == NULL && starts(h, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\"/>") &&
		  strstr(h, tfp_align_css()) != NULL && strcmp(h + n - 16, "</body>\n</html>\n") == 0,
		  "page: a whole document with the style sheet");
	if (err == NULL)
		free(h);
	ho.page = 0;
	ho.id = "my id!";
	err = html_render_check(a, strlen(a), b, strlen(b), &r, &ho, &h, &n);
	check(err == NULL && strstr(h, "id=\"my-id--a1\"") != NULL, "a given id prefix, sanitized");
	if (err == NULL)
		free(h);
	ho.id = NULL;
	{
		tfp_align_env e = {check_alloc, check_free, NULL, NULL};
		size_t		len = tfp_align_html(NULL, SIZE_MAX - 1, a, strlen(a), b, strlen(b), &r, &ho, &e);

		check(tfp_align_html(NULL, len - 1, a, strlen(a), b, strlen(b), &r, &ho, &e) == SIZE_MAX &&
			  tfp_align_html(NULL, len, a, strlen(a), b, strlen(b), &r, &ho, &e) == len,
			  "the size limit is exact");
	}
	done(&r);

	/* context: long texts outside the passages are elided */
	{
		gtext		A = {0},
					B = {0};
		tfp_html_opts hc = {20, 0, "a", 1, "b", 1, NULL};
		size_t		full;

		random_units(&A, 1, 20000);
		random_units(&B, 1, 5000);
		gput(&B, A.s + 3000, 300);
		random_units(&B, 1, 5000);
		run(A.s, B.s, dflt(), &r);
		check(r.n == 1, "context test: one passage");
		err = html_render_check(A.s, A.len, B.s, B.len, &r, &hc, &h, &n);
		check(err == NULL && n < 3000 && strstr(h, "<span class=\"textfp-elided\">[&#8230; ") != NULL,
			  "context 20: a few hundred bytes around the passage, the rest elided");
		if (err == NULL)
			free(h);
		hc.context = -1;
		err = html_render_check(A.s, A.len, B.s, B.len, &r, &hc, &h, &n);
		full = n;
		check(err == NULL && full > A.len + B.len && strstr(h, "textfp-elided") == NULL,
			  "context -1: the whole texts");
		if (err == NULL)
			free(h);
		done(&r);
		/* no passage: the beginning only */
		hc.context = 10;
		run(A.s, "nothing in common", dflt(), &r);
		err = html_render_check(A.s, A.len, "nothing in common", 17, &r, &hc, &h, &n);
		check(err == NULL && r.n == 0 && n < 2000 && strstr(h, "0 passages in common: 0.0% of b") != NULL,
			  "no passage: a summary, and the beginnings of the texts");
		if (err == NULL)
			free(h);
		done(&r);
		free(A.s);
		free(B.s);
	}

	/* passages from elsewhere: out of bounds, overlapping, any order */
	{
		tfp_align_passage p[3] = {
			{5, 2, 0, 100, 1, 1, 1, 0, 0, 0, 0},
			{0, 4, 3, 6, 1, 1, 1, 0, 0, 0, 0},
			{2, 3, 1, 2, 1, 1, 1, 0, 0, 0, 0}};
		tfp_align_result rr = {p, 3, 10, 10, 3, 3};

		err = html_render_check("abcdef", 6, "uvwxyz", 6, &rr, &ho, NULL, NULL);
		check(err == NULL, "passages out of bounds, overlapping or unordered still give well-formed HTML");
	}
}

int
main(void)
{
	test_examples();
	test_pinned();
	test_errors();
	test_deterministic();
	test_repetitive();
	test_planted(1, 0, 60, 0.99);
	test_planted(1, 50, 60, 0.99);
	test_planted(1, 20, 60, 0.99);
	test_planted(1, 8, 60, 0.97);
	test_planted(0, 0, 60, 0.99);
	test_planted(0, 50, 60, 0.99);
	test_planted(0, 20, 60, 0.99);
	test_planted(0, 8, 60, 0.97);
	test_unrelated(1, 50);
	test_unrelated(0, 50);
	test_html();
	check(live_allocs == 0, "every allocation released");
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
