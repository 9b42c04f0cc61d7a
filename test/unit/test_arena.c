/*
 * test_arena.c -- tfp_arena (src/core/tfp_arena.c): random allocations,
 * reallocations and frees keep every live allocation's bytes and never
 * overlap; the last allocation freed is handed out again; a reset keeps at
 * most TFP_ARENA_KEEP bytes of blocks and gives back every direct
 * allocation; a release gives back everything; and textfp_match's core
 * gives the same answers with an arena as with the tests' allocator
 * (arena.h: every block its own malloc), for fresh pairs
 * and for one side kept against many (under AddressSanitizer the arena
 * poisons what it has not handed out: a kept side that used the pair's
 * memory after its reset would be reported).
 */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "tap.h"
#include "tfp_arena.h"
#include "tfp_match_side.h"

/* the owner: malloc, counting what is held */
static size_t owner_live = 0,
			owner_calls = 0;

static void *
o_alloc(void *owner, size_t n)
{
	size_t	   *p = malloc(n + 16);

	(void) owner;
	if (!p)
		abort();
	p[0] = n;
	owner_live += n;
	owner_calls++;
	return (char *) p + 16;
}

static void
o_free(void *owner, void *p)
{
	size_t	   *q = (size_t *) ((char *) p - 16);

	(void) owner;
	owner_live -= q[0];
	free(q);
}

typedef struct live
{
	unsigned char *p;
	size_t		n;
	unsigned char fill;
} live;

#define NLIVE 64

static int
intact(const live *l, int n)
{
	for (int i = 0; i < n; i++)
		for (size_t k = 0; k < l[i].n; k++)
			if (l[i].p[k] != (unsigned char) (l[i].fill + k))
				return 0;
	return 1;
}

/* the first and last bytes of each (every step: cheaper than intact()) */
static int
ends_intact(const live *l, int n)
{
	for (int i = 0; i < n; i++)
		for (size_t k = 0; k < l[i].n; k = k + 1 == 16 && l[i].n > 32 ? l[i].n - 16 : k + 1)
			if (l[i].p[k] != (unsigned char) (l[i].fill + k))
				return 0;
	return 1;
}

static size_t
any_size(void)
{
	switch (rnd(10))
	{
		case 0:
			return 0;
		case 1:
		case 2:
		case 3:
			return 1 + rnd(64);
		case 4:
		case 5:
			return 1 + rnd(8192);
		case 6:
		case 7:
		case 8:
			return 8192 + rnd(300000);
		default:
			return rnd(3) == 0 ? TFP_ARENA_DIRECT + rnd(600000) : 300000 + rnd(700000);
	}
}

static void
put(live *l, size_t n, unsigned char fill)
{
	l->n = n;
	l->fill = fill;
	for (size_t k = 0; k < n; k++)
		l->p[k] = (unsigned char) (fill + k);
}

static void
random_use(void)
{
	tfp_arena	a;
	live		l[NLIVE];
	int			nl = 0,
				ok = 1,
				aligned = 1,
				kept = 1;

	tfp_arena_init(&a, o_alloc, o_free, NULL);
	for (int round = 0; round < 40; round++)
	{
		for (int op = 0; op < 300; op++)
		{
			int			what = rnd(10);

			if (nl < NLIVE && (what < 5 || nl == 0))
			{
				size_t		n = any_size();

				l[nl].p = tfp_arena_alloc(&a, n);
				aligned &= ((uintptr_t) l[nl].p & 15) == 0;
				put(&l[nl], n, (unsigned char) rnd(256));
				nl++;
			}
			else if (what < 8)
			{
				/* free: the last one most often, as the core does */
				int			i = rnd(3) ? nl - 1 : (int) rnd((uint32_t) nl);

				tfp_arena_free(&a, l[i].p);
				l[i] = l[--nl];
			}
			else
			{
				int			i = rnd((uint32_t) nl);
				size_t		n = rnd(2) ? l[i].n * 2 + rnd(100) : l[i].n / 2,
							keep = n < l[i].n ? n : l[i].n;

				/* the kept prefix must survive */
				l[i].p = tfp_arena_realloc(&a, l[i].p, n);
				aligned &= ((uintptr_t) l[i].p & 15) == 0;
				for (size_t k = 0; k < keep; k++)
					ok &= l[i].p[k] == (unsigned char) (l[i].fill + k);
				put(&l[i], n, l[i].fill);
			}
			ok &= op % 16 == 0 ? intact(l, nl) : ends_intact(l, nl);
		}
		ok &= intact(l, nl);
		tfp_arena_reset(&a);
		nl = 0;
		/* what is held: the kept blocks and their headers, no more */
		kept &= a.big == NULL && a.blocks <= TFP_ARENA_KEEP && owner_live >= a.blocks &&
			owner_live <= a.blocks + 1024;
	}
	check(ok, "random allocations, reallocations and frees keep every live allocation's bytes");
	check(aligned, "every allocation is 16-byte aligned (the owner's are)");
	check(kept, "a reset gives back the direct allocations and keeps at most TFP_ARENA_KEEP of blocks");
	tfp_arena_release(&a);
	check(owner_live == 0, "a release gives everything back");
}

static void
reuse(void)
{
	tfp_arena	a;
	void	   *x,
			   *y,
			   *z;
	size_t		calls;

	tfp_arena_init(&a, o_alloc, o_free, NULL);
	x = tfp_arena_alloc(&a, 100000);
	y = tfp_arena_alloc(&a, 5000);
	tfp_arena_free(&a, y);
	z = tfp_arena_alloc(&a, 5000);
	check(z == y, "the last allocation freed is handed out again");
	tfp_arena_free(&a, z);
	y = tfp_arena_realloc(&a, x, 150000);
	check(y == x, "the last allocation grows in place");
	tfp_arena_free(&a, y);
	calls = owner_calls;
	for (int i = 0; i < 1000; i++)
	{
		void	   *p = tfp_arena_alloc(&a, 200000),
				   *q = tfp_arena_alloc(&a, 30000);

		tfp_arena_free(&a, q);
		tfp_arena_free(&a, p);
		tfp_arena_reset(&a);
	}
	check(owner_calls == calls, "allocations freed in reverse order and resets take no new block");
	x = tfp_arena_alloc(&a, TFP_ARENA_DIRECT);
	calls = owner_live;
	tfp_arena_free(&a, x);
	check(owner_live + TFP_ARENA_DIRECT <= calls, "a direct allocation is given back when freed");
	tfp_arena_release(&a);
	check(owner_live == 0, "nothing held after the release");
}

/* ------------------------------------------------------------- the core */

static const char *const words[] = {
	"新闻", "记者", "报道", "今天", "北京", "市场", "经济", "发展", "公司", "技术",
	"的", "了", "在", "是", "我们", "表示", "进行", "问题", "國際", "臺灣",
	"the", "market", "reported", "today", "company", "growth", "said", "of",
	"，", "。", "、", "！", " ", " ", "\n", "\n\n"
};

static size_t
random_text(char *buf, size_t cap, int zh)
{
	size_t		n = 0,
				nw = 200 + rnd(900);

	for (size_t i = 0; i < nw; i++)
	{
		const char *w = words[zh ? rnd(36) : 20 + rnd(16)];
		size_t		l = strlen(w);

		if (n + l + 1 >= cap)
			break;
		memcpy(buf + n, w, l);
		n += l;
		if (!zh)
			buf[n++] = ' ';
	}
	buf[n] = 0;
	return n;
}

static int
same_result(const tfp_match_result *x, const tfp_match_result *y)
{
	return x->verdict == y->verdict && x->dist == y->dist &&
		memcmp(&x->z, &y->z, sizeof(double)) == 0 &&
		memcmp(&x->f, &y->f, sizeof(x->f)) == 0;
}

static void
core_same(void)
{
	static char ta[16384],
				tb[16384];
	/* the reference: the tests' poisoning allocator (arena.h) */
	const tfp_match_env menv = {arena_alloc, arena_realloc, arena_free, NULL, NULL};
	tfp_arena	pair,
				sa,
				sb;
	tfp_match_env penv = {tfp_arena_alloc, tfp_arena_realloc, tfp_arena_free, &pair, NULL},
				aenv = penv,
				benv = penv;
	int			ok = 1,
				okmany = 1;
	tfp_match_side ka;

	aenv.arg = &sa;
	benv.arg = &sb;
	tfp_arena_init(&pair, o_alloc, o_free, NULL);
	tfp_arena_init(&sa, o_alloc, o_free, NULL);
	tfp_arena_init(&sb, o_alloc, o_free, NULL);
	for (int i = 0; i < 300; i++)
	{
		int			zh = rnd(4) != 0,
					model = 1 + (int) rnd(3);
		size_t		la = random_text(ta, sizeof(ta), zh),
					lb;
		tfp_match_side a,
					b;
		tfp_match_result r1,
					r2;

		/* a copy with a head line, a part, or another text */
		if (rnd(3) == 0)
		{
			lb = (size_t) snprintf(tb, sizeof(tb), "转载 reposted\n%s", ta);
		}
		else if (rnd(2) == 0)
		{
			lb = la / 2;
			memcpy(tb, ta + la / 4, lb);
			tb[lb] = 0;
		}
		else
			lb = random_text(tb, sizeof(tb), zh);
		tfp_match_side_read(ta, la, TFP_MATCH_HTML_AUTO, &menv, &a);
		tfp_match_side_read(tb, lb, TFP_MATCH_HTML_AUTO, &menv, &b);
		tfp_match_eval(&a, &b, tfp_match_get_model(model), &menv, &r1);
		tfp_match_side_free(&a);
		tfp_match_side_free(&b);
		arena_reset();
		tfp_arena_reset(&sa);
		tfp_arena_reset(&sb);
		tfp_arena_reset(&pair);
		tfp_match_side_read(ta, la, TFP_MATCH_HTML_AUTO, &aenv, &a);
		tfp_match_side_read(tb, lb, TFP_MATCH_HTML_AUTO, &benv, &b);
		tfp_match_eval(&a, &b, tfp_match_get_model(model), &penv, &r2);
		ok &= same_result(&r1, &r2);
	}
	check(ok, "300 pairs: the same results with tfp_arena as with every block its own malloc");

	/* one side kept, the other and the pair's memory reset every time */
	random_text(ta, sizeof(ta), 1);
	tfp_arena_reset(&sa);
	tfp_match_side_read(ta, strlen(ta), TFP_MATCH_HTML_AUTO, &aenv, &ka);
	for (int i = 0; i < 100; i++)
	{
		size_t		lb = random_text(tb, sizeof(tb), 1);
		tfp_match_side a,
					b;
		tfp_match_result r1,
					r2;

		if (i % 5 == 0)
			lb = (size_t) snprintf(tb, sizeof(tb), "%s\n新闻", ta);
		tfp_match_side_read(ta, strlen(ta), TFP_MATCH_HTML_AUTO, &menv, &a);
		tfp_match_side_read(tb, lb, TFP_MATCH_HTML_AUTO, &menv, &b);
		tfp_match_eval(&a, &b, tfp_match_get_model(3), &menv, &r1);
		tfp_match_side_free(&a);
		tfp_match_side_free(&b);
		arena_reset();
		tfp_arena_reset(&sb);
		tfp_arena_reset(&pair);
		tfp_match_side_read(tb, lb, TFP_MATCH_HTML_AUTO, &benv, &b);
		tfp_match_eval(&ka, &b, tfp_match_get_model(3), &penv, &r2);
		okmany &= same_result(&r1, &r2);
	}
	check(okmany, "one side kept against 100 others: the same results");
	tfp_arena_release(&pair);
	tfp_arena_release(&sa);
	tfp_arena_release(&sb);
	check(owner_live == 0, "the arenas give everything back");
}

int
main(void)
{
	random_use();
	reuse();
	core_same();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
