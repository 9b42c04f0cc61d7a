/*
 * test_match_pair.c -- a pair of sides in the core (tfp_match_side.c) with
 * common edges: the verdicts, scores and similarities of textfp_match()
 * and the edge shares of textfp_match_features() in SQL for texts in one
 * site template (golden values), the z of the features equal to the z of
 * the verdict, a side's lines (split into a buffer that grows) and the
 * edge shares measured from them, model 3's verdicts, scores and unshared
 * share (golden values) and that share from the lines, and the memory:
 * with a free (arena.h) every block is given back once the sides are
 * freed, and a side met by models 1, 2 and 3 in turn does not grow.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "tap.h"
#include "tfp_match_side.h"

static long ticks = 0;

static void
tick(void)
{
	ticks++;
}

static const tfp_match_env env = {arena_alloc, arena_realloc, arena_free, NULL, tick};

/* the texts of the golden values (the same pieces concatenated in SQL) */
static const char *const hdr = "Example News | Home | World | Tech\nPosted in Technology\n";
static const char *const ftr_long = "\nShare this article: Facebook Twitter Email\n"
"The views expressed in this article are those of the author and do not necessarily "
"reflect the position of Example News, its editors or its owners; readers are invited "
"to send corrections to the address below.\n"
"Copyright 2026 Example News. All rights reserved.";
static const char *const ftr_short = "\nShare this article: Facebook Twitter Email\n"
"Copyright 2026 Example News. All rights reserved.";
static const char *const b1 = "The city council approved a new budget for public transport on Monday, "
"adding twelve bus routes and extending the night service until two in the morning.\n"
"Critics said the plan does not address the shortage of drivers, which has forced the "
"operator to cancel hundreds of trips every week since the spring.";
static const char *const b1e = "The city council approved a new budget for public transport on Tuesday, "
"adding eleven bus routes and extending the night service until two in the morning.\n"
"Critics said the plan does not address the shortage of drivers, which has forced the "
"operator to cancel hundreds of trips each week since the spring.";
static const char *const b2 = "Researchers at the university published a study showing that urban "
"gardens lower summer temperatures in nearby streets by up to three degrees.\n"
"The team measured temperatures at forty sites over two years and found the largest "
"effect in dense neighbourhoods with little shade.";
static const char *const hdr_zh = "示例新闻网 | 首页 | 国内 | 国际\n发布时间：二〇二六年一月五日\n";
static const char *const ftr_zh = "\n分享到：微博 微信\n版权所有 示例新闻网 转载请注明出处";
static const char *const b3 = "今年夏天，城市议会批准了一项新的公共交通预算，增加了十二条公交线路。\n"
"夜间服务将延长到凌晨两点，市民对此普遍表示欢迎。\n但批评者认为，这个计划没有解决司机短缺的问题。";
static const char *const b3e = "今年夏天，城市议会批准了一项新的公共交通预算，增加了十一条公交线路。\n"
"夜间服务将延长到凌晨两点，市民对此大多表示欢迎。\n但批评者认为，这个计划没有解决司机短缺的问题。";
static const char *const b4 = "研究人员发表了一项新的研究，城市花园可以让附近街道的夏季气温降低三度。\n"
"团队在两年里测量了四十个地点的温度。";

/*
 * A pair: a = h + x + f, b = h + y + f, and what SQL gives for it:
 * SELECT textfp_match(a, b, model => 1), textfp_match(a, b, model => 2),
 * textfp_match_features(a, b) (its [13] and [26]: edge and edge_long),
 * textfp_match(a, b, model => 3) and textfp_match_features(a, b)[27]
 */
typedef struct golden
{
	const char *name;
	const char *const *h,
			   *const *x,
			   *const *y,
			   *const *f;
	int			verdict1;
	double		score1,
				j5_1;
	int			verdict2;
	double		score2,
				j5_2,
				c5_2,
				j2_2,
				pj_2,
				ord1_2,
				run_2;
	int			dist2;
	double		edge,
				edge_long;
	int			verdict3;
	double		score3,
				unshared;
} golden;

static const golden pairs[] = {
	{"an edited article in its template", &hdr, &b1, &b1e, &ftr_long,
		1, 0.9999999998414659, 0.8608695652173913,
		1, 0.9999999999999221, 0.7241379310344828, 0.84, 0.875, 0, 0.8846153846153846, 0.62, 3,
	0.5388127853881279, 0.3181126331811263, 1, 0.9999999999999631, 0.4611872146118721},
	{"two articles in one template", &hdr, &b1, &b2, &ftr_short,
		1, 0.9896601033810523, 0.14655172413793102,
		0, 0.0031771014369746235, 0, 0, 0.07792207792207792, 0, 0.11627906976744186, 0, 35,
	0.34606205250596656, 0, 0, 0.0018795216875225197, 0.6539379474940334},

	/*
	 * frozen model 2 reads a template line of 200 bytes or more as a
	 * shared paragraph (edge_long): two articles in a template with a long
	 * disclaimer line are a copy to it, and so to model 3, fitted the same
	 * way (pinned as it is, not as it should be)
	 */
	{"two articles in one template with a long line", &hdr, &b1, &b2, &ftr_long,
		1, 0.9999987656093376, 0.34868421052631576,
		1, 0.9852958598200469, 0, 0, 0.07792207792207792, 0, 0.11627906976744186, 0, 35,
	0.5636942675159236, 0.3328025477707006, 1, 0.9796667703943698, 0.43630573248407645},
	{"an edited Chinese article in its template", &hdr_zh, &b3, &b3e, &ftr_zh,
		1, 0.9999983168042476, 0.7066666666666667,
		1, 0.9999999969111446, 0.5111111111111111, 0.6764705882352942, 0.8113207547169812,
		0.7586206896551724, 0.9433962264150944, 0.4117647058823529, 8,
	0.5671641791044777, 0, 1, 0.9999999996018099, 0.43283582089552236},
	{"two Chinese articles in one template", &hdr_zh, &b3, &b4, &ftr_zh,
		0, 0.8535624991985554, 0.1782178217821782,
		0, 0.06175940100181002, 0.011904761904761904, 0.02631578947368421, 0.046296296296296294,
		0.02564102564102564, 0.18, 0.02631578947368421, 36,
	0.5, 0, 0, 0.03996992796351047, 0.5},
};

#define NPAIRS (sizeof(pairs) / sizeof(pairs[0]))

static char *
cat3(const char *h, const char *x, const char *f)
{
	size_t		nh = strlen(h),
				nx = strlen(x),
				nf = strlen(f);
	char	   *s = malloc(nh + nx + nf + 1);

	memcpy(s, h, nh);
	memcpy(s + nh, x, nx);
	memcpy(s + nh + nx, f, nf + 1);
	return s;
}

static void
read_side(const char *s, tfp_match_side *m)
{
	if (tfp_match_side_read(s, strlen(s), TFP_MATCH_HTML_AUTO, &env, m) != TFP_MATCH_OK)
		abort();
}

/* a fresh pair's verdict */
static void
eval(const char *x, const char *y, int version, tfp_match_result *r)
{
	tfp_match_side a,
				b;

	read_side(x, &a);
	read_side(y, &b);
	tfp_match_eval(&a, &b, tfp_match_get_model(version), &env, r);
	tfp_match_side_free(&a);
	tfp_match_side_free(&b);
}

/* the bytes of lines [lo, hi) (long: only those of TFP_MATCH_LONG or more) */
static size_t
bytes_of(const tfp_match_line *l, size_t lo, size_t hi, int long_only)
{
	size_t		n = 0;

	for (size_t i = lo; i < hi; i++)
		if (!long_only || l[i].end - l[i].start >= TFP_MATCH_LONG)
			n += l[i].end - l[i].start;
	return n;
}

/* unshared from the lines themselves: the shorter text's (by line bytes)
 * line bytes in lines whose bytes are those of no line of the other */
static int
same_line_text(const char *sa, const tfp_match_line *a, const char *sb, const tfp_match_line *b)
{
	return a->end - a->start == b->end - b->start &&
		memcmp(sa + a->start, sb + b->start, a->end - a->start) == 0;
}

static double
unshared_of(const tfp_match_side *x, const tfp_match_side *y)
{
	double		all = 0,
				out = 0;

	for (size_t i = 0; i < x->nlines; i++)
	{
		int			found = 0;

		for (size_t j = 0; j < y->nlines && !found; j++)
			found = same_line_text(x->text, &x->lines[i], y->text, &y->lines[j]);
		all += (double) (x->lines[i].end - x->lines[i].start);
		if (!found)
			out += (double) (x->lines[i].end - x->lines[i].start);
	}
	return all > 0 ? out / all : 1.0;
}

static int
same_lines(const tfp_match_side *m)
{
	tfp_match_line *l = malloc((m->len / 2 + 2) * sizeof(tfp_match_line));
	size_t		n = tfp_match_lines(m->text, m->len, l);
	int			ok = m->have_lines && n == m->nlines;

	for (size_t i = 0; ok && i < n; i++)
		ok = l[i].start == m->lines[i].start && l[i].end == m->lines[i].end;
	free(l);
	return ok;
}

int
main(void)
{
	char		what[200];

	/* the golden pairs, both models, and the features */
	for (size_t i = 0; i < NPAIRS; i++)
	{
		const golden *g = &pairs[i];
		char	   *a = cat3(*g->h, *g->x, *g->f),
				   *b = cat3(*g->h, *g->y, *g->f);
		tfp_match_result r1,
					r2,
					r3;
		tfp_match_side sa,
					sb;
		tfp_match_pair p;

		eval(a, b, 1, &r1);
		snprintf(what, sizeof(what), "model 1, %s: verdict %d, score %.10g as in SQL (every bit)",
				 g->name, g->verdict1, g->score1);
		check(r1.verdict == g->verdict1 && r1.score == g->score1 && r1.f.j5 == g->j5_1, what);
		eval(a, b, 2, &r2);
		snprintf(what, sizeof(what), "model 2, %s: verdict %d, score %.10g and the middles' similarities as in SQL",
				 g->name, g->verdict2, g->score2);
		check(r2.verdict == g->verdict2 && r2.score == g->score2 && r2.f.j5 == g->j5_2 &&
			  r2.f.c5 == g->c5_2 && r2.f.j2 == g->j2_2 && r2.f.pj == g->pj_2 &&
			  r2.f.ord1 == g->ord1_2 && r2.f.run == g->run_2 && r2.dist == g->dist2, what);

		read_side(a, &sa);
		read_side(b, &sb);
		tfp_match_eval_features(&sa, &sb, &env, &p);
		snprintf(what, sizeof(what), "textfp_match_features, %s: edge %.10g, edge_long %.10g as in SQL",
				 g->name, g->edge, g->edge_long);
		check(p.edge == g->edge && p.edge_long == g->edge_long && p.full.j5 == g->j5_1 &&
			  p.mid.j5 == g->j5_2 && p.mid.run == g->run_2, what);
		eval(a, b, 3, &r3);
		snprintf(what, sizeof(what), "model 3, %s: verdict %d, score %.10g, unshared %.10g as in SQL, model 2's similarities",
				 g->name, g->verdict3, g->score3, g->unshared);
		check(r3.verdict == g->verdict3 && r3.score == g->score3 && p.unshared == g->unshared &&
			  memcmp(&r3.f, &r2.f, sizeof(r2.f)) == 0 && r3.dist == r2.dist, what);
		snprintf(what, sizeof(what), "%s: the z of the features is the z of the verdict, every model", g->name);
		check(tfp_match_z(tfp_match_get_model(1), &p) == r1.z &&
			  tfp_match_z(tfp_match_get_model(2), &p) == r2.z &&
			  tfp_match_z(tfp_match_get_model(3), &p) == r3.z, what);

		/* the lines (the shorter text first) and the edge shares from them */
		{
			const tfp_match_side *x = sa.len <= sb.len ? &sa : &sb,
					   *y = sa.len <= sb.len ? &sb : &sa;
			tfp_match_cut c;
			double		all;

			check(same_lines(&sa) && same_lines(&sb), "a side's lines are those of tfp_match_lines()");
			tfp_match_edges(x->text, x->lines, x->nlines, y->text, y->lines, y->nlines, &c);
			all = (double) bytes_of(x->lines, 0, x->nlines, 0);
			check(c.lead_a >= 2 && c.trail_a <= x->nlines - (*g->f == ftr_long ? 3 : 2) &&
				  p.edge == 1.0 - (double) bytes_of(x->lines, c.lead_a, c.trail_a, 0) / all &&
				  p.edge_long == ((double) bytes_of(x->lines, 0, c.lead_a, 1) +
								  (double) bytes_of(x->lines, c.trail_a, x->nlines, 1)) / all,
				  "the edges hold the template's lines; edge and edge_long are their shares of the shorter text");
			check(p.unshared == unshared_of(x, y),
				  "unshared is the share of the shorter text's line bytes in lines the other has nowhere");
		}
		tfp_match_side_free(&sa);
		tfp_match_side_free(&sb);
		free(a);
		free(b);
	}

	/* the lines of a long text: the buffer grows (one line in 48 bytes first) */
	{
		size_t		cap = 200000,
					len = 0;
		char	   *s = malloc(cap);
		tfp_match_side a,
					b;
		tfp_match_result r;

		for (int i = 0; len + 40 < cap; i++)
			len += (size_t) snprintf(s + len, cap - len, i % 7 == 0 ? "l%d\r\n\n" : i % 5 == 0 ? " \t\n%d\n" : "x%d\n", i);
		s[len] = '\0';
		read_side(s, &a);
		read_side("x1\nx2\nsomething else", &b);
		ticks = 0;
		tfp_match_eval(&a, &b, tfp_match_get_model(2), &env, &r);
		check(a.nlines > a.len / 48 + 16 && same_lines(&a) && ticks > 0,
			  "a text of 40,000 short lines: its lines are those of tfp_match_lines(), the tick called");
		tfp_match_side_free(&a);
		tfp_match_side_free(&b);
		free(s);
	}

	/* memory: all back once the sides are freed; a kept side does not grow */
	{
		const char *const texts[] = {"<html><body><nav>Home</nav><p>我們今天討論的是資訊安全的問題，軟體的漏洞需要及時修補。</p></body></html>",
			"我们今天讨论的是信息安全的问题，软件的漏洞需要及时修补。", "", "plain ASCII",
		"<p>x</p>", "首页\n今天的天气很好\n版权所有", "首页\n明天可能下雨\n版权所有"};
		const size_t nt = sizeof(texts) / sizeof(texts[0]);
		long		held[9] = {0};
		int			ok = 1;

		for (size_t i = 0; i < NPAIRS; i++)
		{
			char	   *a = cat3(*pairs[i].h, *pairs[i].x, *pairs[i].f),
					   *b = cat3(*pairs[i].h, *pairs[i].y, *pairs[i].f);
			tfp_match_side sa,
						sb;
			tfp_match_result r;
			tfp_match_pair p;

			read_side(a, &sa);
			read_side(b, &sb);
			for (int round = 0; round < 9; round++)
			{
				tfp_match_eval(&sa, &sb, tfp_match_get_model(1 + round % 3), &env, &r);
				held[round] = arena_live;
			}
			tfp_match_eval_features(&sa, &sb, &env, &p);
			tfp_match_eval(&sa, &sb, tfp_match_get_model(2), &env, &r);
			ok &= held[3] == held[6] && held[4] == held[7] && held[5] == held[8];
			tfp_match_side_free(&sa);
			tfp_match_side_free(&sb);
			free(a);
			free(b);
		}
		check(ok, "a side met by models 1, 2 and 3 in turn holds the same memory every third round");
		for (size_t i = 0; i < nt; i++)
			for (size_t j = 0; j < nt; j++)
			{
				tfp_match_side sa,
							sb;
				tfp_match_result r;
				tfp_match_pair p;

				read_side(texts[i], &sa);
				read_side(texts[j], &sb);
				tfp_match_eval(&sa, &sb, tfp_match_get_model(2), &env, &r);
				tfp_match_eval(&sa, &sb, tfp_match_get_model(1), &env, &r);
				tfp_match_eval(&sa, &sb, tfp_match_get_model(3), &env, &r);
				tfp_match_eval_features(&sa, &sb, &env, &p);
				tfp_match_side_free(&sa);
				tfp_match_side_free(&sb);
			}
		check(arena_live == 0,
			  "every block given back once the sides are freed (HTML, fold, middles, pinyin)");
	}
	arena_reset();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
