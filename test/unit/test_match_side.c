/*
 * test_match_side.c -- textfp_match() in the core (tfp_match_side.c): the
 * verdicts, scores and similarities the SQL function gives for the same
 * texts (golden values read from textfp_match() and textfp_match_features()
 * in SQL), symmetry, the fold and the HTML reading of a side, an arena as
 * the memory of a pair.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "tap.h"
#include "tfp_match_side.h"

static int	ticks = 0;

static void
tick(void)
{
	ticks++;
}

static const tfp_match_env env = {arena_alloc, arena_realloc, NULL, NULL, tick};

static void
eval(const char *x, const char *y, int version, tfp_match_result *r)
{
	tfp_match_side a,
				b;

	if (tfp_match_side_read(x, strlen(x), TFP_MATCH_HTML_AUTO, &env, &a) != TFP_MATCH_OK ||
		tfp_match_side_read(y, strlen(y), TFP_MATCH_HTML_AUTO, &env, &b) != TFP_MATCH_OK)
		abort();
	tfp_match_eval(&a, &b, tfp_match_get_model(version), &env, r);
}

static int
same_result(const tfp_match_result *x, const tfp_match_result *y)
{
	return x->verdict == y->verdict && x->score == y->score && x->dist == y->dist &&
		memcmp(&x->f, &y->f, sizeof(x->f)) == 0;
}

static const char *const tw = "我們今天討論的是資訊安全的問題，軟體的漏洞需要及時修補。";
static const char *const cn = "我们今天讨论的是信息安全的问题，软件的漏洞需要及时修补。";
static const char *const t1 = "首页 新闻 关于\n今天的天气很好，我们去公园散步，看到很多花。\n版权所有";
static const char *const t2 = "首页 新闻 关于\n明天可能下雨，记得带伞出门，路上注意安全。\n版权所有";

int
main(void)
{
	tfp_match_result r,
				s;

	/* golden values: SELECT textfp_match(a, b[, model => 1]) in SQL */
	eval("abc def ghi", "abc def ghx", 1, &r);
	check(!r.verdict && r.score == 0.00015434535360451387 && r.f.j2 == 0.5 &&
		  r.f.c2 == 0.6666666666666666 && r.dist == 13,
		  "model 1: 'abc def ghi' / 'abc def ghx' as in SQL (score 0.000154, distance 13)");
	eval("abc def ghi", "abc def ghx", 2, &r);
	check(r.verdict && r.score == 0.8783302067048602 && r.f.ord == 0.6666666666666666,
		  "model 2: the same pair, a copy with score 0.8783 as in SQL");
	eval(tw, cn, 2, &r);
	check(r.verdict && r.score == 1.0 && r.f.j5 == 1.0 && r.f.pj == 1.0 && r.f.zh == 1.0,
		  "model 2: traditional script and Taiwan wording against simplified: all similarities 1");
	eval(tw, cn, 1, &r);
	check(r.verdict && r.score == 0.9999999999765481, "model 1: the same pair as in SQL");
	eval(t1, t2, 2, &r);
	check(!r.verdict && r.score == 0.5773040071616569 && r.f.j5 == 0.15 &&
		  r.f.c5 == 0.2727272727272727 && r.f.pj == 0.1276595744680851 &&
		  r.f.run == 0.18181818181818182 && r.dist == 25,
		  "model 2: two Chinese texts in one template are no copy (score 0.5773 as in SQL)");
	eval("<html><body><p>hello world</p></body></html>", "hello world", 2, &r);
	check(r.verdict && r.score == 0.9999999999997757 && r.f.j5 == 1.0,
		  "model 2: a page read as HTML against its text");
	eval("", "abc", 2, &r);
	check(!r.verdict && r.score == 0.0 && isinf(r.z) && r.z < 0 && r.dist == 32,
		  "a text without features copies nothing (z = -inf, score 0)");

	/* textfp_match_features(t1, t2) in SQL */
	{
		tfp_match_side a,
					b;
		tfp_match_pair p;

		tfp_match_side_read(t1, strlen(t1), TFP_MATCH_HTML_AUTO, &env, &a);
		tfp_match_side_read(t2, strlen(t2), TFP_MATCH_HTML_AUTO, &env, &b);
		tfp_match_eval_features(&a, &b, &env, &p);
		check(p.full.j5 == 0.23529411764705882 && p.full.c5 == 0.4 && p.full.sim == 0.609375 &&
			  p.full.run == 0.3 && p.mid.j5 == 0.15 && p.mid.run == 0.18181818181818182 &&
			  p.edge == 0 && p.edge_long == 0,
			  "textfp_match_features: the full texts' and model 2's values as in SQL");
	}

	/* symmetry, over both models */
	{
		const char *const texts[] = {tw, cn, t1, t2, "abc def ghi", "hello world\nabc def ghi",
		"<p>hello</p>", "Site header\nSome article text here.\nFooter line"};
		int			ok = 1;

		for (int v = 1; v <= 2; v++)
			for (int i = 0; i < 8; i++)
				for (int j = 0; j < 8; j++)
				{
					eval(texts[i], texts[j], v, &r);
					eval(texts[j], texts[i], v, &s);
					ok &= same_result(&r, &s);
				}
		check(ok, "symmetric: (a, b) and (b, a) give the same verdict, score and similarities");
	}

	/* one side met by many: the same answers as fresh sides, models mixed */
	{
		const char *const texts[] = {tw, cn, t1, t2, "abc def ghi", "hello world\nabc def ghi",
		"<p>hello</p>", "Site header\nSome article text here.\nFooter line"};
		int			ok = 1;

		for (int i = 0; i < 8; i++)
		{
			tfp_match_side kept;

			tfp_match_side_read(texts[i], strlen(texts[i]), TFP_MATCH_HTML_AUTO, &env, &kept);
			for (int round = 0; round < 3; round++)
				for (int j = 0; j < 8; j++)
				{
					int			v = 1 + (round + j) % 2;
					tfp_match_side b;

					tfp_match_side_read(texts[j], strlen(texts[j]), TFP_MATCH_HTML_AUTO, &env, &b);
					tfp_match_eval(&kept, &b, tfp_match_get_model(v), &env, &r);
					eval(texts[i], texts[j], v, &s);
					ok &= same_result(&r, &s);
				}
		}
		check(ok, "a side kept and met by many others, models 1 and 2 in turn: the answers of fresh sides");
	}

	/* a side */
	{
		tfp_match_side m;
		const char *ascii = "plain ASCII text";

		check(tfp_match_side_read(ascii, strlen(ascii), TFP_MATCH_HTML_AUTO, &env, &m) == TFP_MATCH_OK &&
			  m.text == ascii && m.len == strlen(ascii) && !m.wide && !m.html,
			  "a text without Han letters is its own fold: not copied");
		tfp_match_side_read(tw, strlen(tw), TFP_MATCH_HTML_AUTO, &env, &m);
		check(m.wide && m.len == strlen(cn) && memcmp(m.text, cn, m.len) == 0,
			  "the Taiwan wording fold of a side: the simplified mainland text");
		tfp_match_side_read("<p>x</p>", 8, TFP_MATCH_HTML_NEVER, &env, &m);
		check(!m.html && m.len == 8, "html => never reads a page as text");
		tfp_match_side_read("x <b>y</b>", 10, TFP_MATCH_HTML_ALWAYS, &env, &m);
		check(m.html && m.len == 3 && memcmp(m.text, "x y", 3) == 0,
			  "html => always reads a text that does not look like a page as HTML");
	}

	/* memory and interrupts: all from the arena, the tick called */
	{
		char	   *big = malloc(200001);

		for (int i = 0; i < 200000; i++)
			big[i] = (char) ("abcdefgh \n"[rnd(10)]);
		big[200000] = '\0';
		arena_reset();
		ticks = 0;
		eval(big, big, 2, &r);
		check(r.verdict && arena_blocks > 0 && ticks > 0,
			  "a 200 KB text against itself: a copy; memory from the arena, the tick called");
		free(big);
		arena_reset();
	}
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
