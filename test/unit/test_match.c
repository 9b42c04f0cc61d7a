/*
 * test_match.c -- unit tests of textfp_match()'s core (tfp_match.c): set
 * similarities, the ordered overlap (longest common subsequence through the
 * first four occurrences) and the longest run against brute force on random
 * sequences, the model table.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_match.h"
#include "tfp_sort.h"
#include "tap.h"

#define KEY(v) ((uint64_t) (v) << 40)	/* distinct in the top 40 bits */

/* LCS of a and b where a[i] may match b[j] only if j is among the first
 * four positions of b holding that key */
static size_t
lcs_brute(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t	   *d = calloc((na + 1) * (nb + 1), sizeof(size_t));
	size_t		r;

	for (size_t i = 1; i <= na; i++)
		for (size_t j = 1; j <= nb; j++)
		{
			size_t		best = d[(i - 1) * (nb + 1) + j];
			int			occ = 0,
						ok = 0;

			if (d[i * (nb + 1) + j - 1] > best)
				best = d[i * (nb + 1) + j - 1];
			for (size_t k = 0; k < j; k++)
				if (b[k] >> 24 == a[i - 1] >> 24)
					occ++;
			ok = (b[j - 1] >> 24 == a[i - 1] >> 24) && occ <= 4;
			if (ok && d[(i - 1) * (nb + 1) + j - 1] + 1 > best)
				best = d[(i - 1) * (nb + 1) + j - 1] + 1;
			d[i * (nb + 1) + j] = best;
		}
	r = d[na * (nb + 1) + nb];
	free(d);
	return r;
}

static size_t
run_brute(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t		best = 0;

	for (size_t i = 0; i < na; i++)
	{
		size_t		l = 0;

		while (i + l < na)
		{
			int			in = 0;

			for (size_t j = 0; j < nb; j++)
				in |= b[j] == a[i + l];
			if (!in)
				break;
			l++;
		}
		if (l > best)
			best = l;
	}
	return best;
}


/*
 * The ordered overlap as tfp_match_order computed it before its hash
 * table: b's (key, position) values sorted, each element of a looked up by
 * binary search (a reference for long sequences, where the brute-force LCS
 * is too slow).
 */
static double
order_sorted(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	const uint64_t mask = ~(uint64_t) 0 << 24;
	uint64_t   *bk = malloc(sizeof(uint64_t) * (nb + 1)),
			   *tail = malloc(sizeof(uint64_t) * (nb + 1));
	size_t		n,
				len = 0;

	if (na == 0 || nb == 0)
		return 0.0;
	for (size_t j = 0; j < nb; j++)
		bk[j] = (b[j] & mask) | j;
	n = tfp_sort_unique_u64(bk, nb, NULL);
	for (size_t i = 0; i < na; i++)
	{
		uint64_t	key = a[i] & mask;
		size_t		lo = 0,
					hi = n;
		size_t		occ[4];
		int			k = 0;

		while (lo < hi)
		{
			size_t		mid = (lo + hi) / 2;

			if ((int64_t) (bk[mid] & mask) < (int64_t) key)
				lo = mid + 1;
			else
				hi = mid;
		}
		while (lo + k < n && k < 4 && (bk[lo + k] & mask) == key)
		{
			occ[k] = (size_t) (bk[lo + k] & ~mask);
			k++;
		}
		while (k-- > 0)
		{
			size_t		l = 0,
						h = len;

			while (l < h)
			{
				size_t		mid = (l + h) / 2;

				if (tail[mid] < occ[k])
					l = mid + 1;
				else
					h = mid;
			}
			tail[l] = occ[k];
			if (l == len)
				len++;
		}
	}
	free(bk);
	free(tail);
	return (double) len / (double) (na < nb ? na : nb);
}

/* tfp_match_order, one way and both, = the sort-based reference */
static int
order_agrees(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	uint64_t   *sc = malloc(sizeof(uint64_t) * tfp_match_order_scratch(na, nb));
	int			ok = tfp_match_order(a, na, b, nb, sc) == order_sorted(a, na, b, nb) &&
		tfp_match_order_both(a, na, b, nb, sc) ==
		fmax(order_sorted(a, na, b, nb), order_sorted(b, nb, a, na));

	free(sc);
	return ok;
}

/* an article's line, longer than TFP_MATCH_SHORT */
#define ART "An article line long enough not to be taken for a line of a template: " \
	"it runs on past one hundred bytes of text. "

/* the lines of s (as tfp_match_lines) into l, their count */
static size_t
lines_of(const char *s, tfp_match_line *l)
{
	check(tfp_match_line_bound(s, strlen(s)) <= 64, "line bound within the test's buffer");
	return tfp_match_lines(s, strlen(s), l);
}

/* the lines of two texts and their edges */
static void
edges_of(const char *pa, tfp_match_line *la, size_t *na,
		 const char *pb, tfp_match_line *lb, size_t *nb, tfp_match_cut *c)
{
	*na = lines_of(pa, la);
	*nb = lines_of(pb, lb);
	tfp_match_edges(pa, la, *na, pb, lb, *nb, c);
}

/*
 * Lines of Han text run together (tfp_match_join.c): a break between two
 * Han letters goes (Kana too: written without spaces), one after Chinese
 * punctuation or next to a word of a script with spaces stays.
 */
static void
test_join(void)
{
	tfp_match_line l[16];
	char		out[256];
	const char *s = "中文标题\n\n  正文内容。\n结束 word\nnext\n中文\nひらがな\nカタカナ\n한국어\n문장";
	size_t		n = lines_of(s, l),
				len;

	check(n == 9, "join: the lines");
	check(tfp_match_han_break(s, &l[0], &l[1]) && !tfp_match_han_break(s, &l[1], &l[2]) &&
		  !tfp_match_han_break(s, &l[2], &l[3]) && !tfp_match_han_break(s, &l[3], &l[4]) &&
		  tfp_match_han_break(s, &l[5], &l[6]) && !tfp_match_han_break(s, &l[6], &l[7]) &&
		  !tfp_match_han_break(s, &l[7], &l[8]),
		  "join: Han|Han and Kana|Kana breaks go, not after 。 nor next to a word or Hangul");
	check(tfp_match_han_breaks(s, l, 0, n) == 3, "join: three breaks of nine lines go (Han|Kana too)");
	len = tfp_match_middle(s, l, 0, 3, NULL, 0, 1, out);
	check(len == strlen("中文标题正文内容。\n结束 word") &&
		  memcmp(out, "中文标题正文内容。\n结束 word", len) == 0,
		  "join: the text with those breaks (and the blank line) removed");
	len = tfp_match_middle(s, l, 0, 3, NULL, 0, 0, out);
	check(len == strlen("中文标题\n正文内容。\n结束 word"), "join: none without join");
}

/*
 * The common edges of two texts and their middles (tfp_match_edges.c):
 * a template around two articles, the gap of short lines a run bridges and
 * the long line it does not, the trailing run that stops at the leading
 * one, and the middles without the short lines both have.
 */
static void
test_edges(void)
{
	tfp_match_line la[64],
				lb[64];
	tfp_match_cut c;
	size_t		na,
				nb;
	const char *pa = "Site | Home\n  Posted 2024-03-01\nNav a b c\n\n"
		"The first article has this long opening paragraph about installing the system on a server, " ART "\n"
		"Its second paragraph is shorter.\nFooter licence\n(c) site",
			   *pb = "Site  |  Home\nPosted 2024-03-09\nNav a b c\n"
		"The second article is about something else entirely and its paragraph is long as well, " ART "\n"
		"Footer licence\n(c) site\n";
	char		out[256];
	uint64_t	set[64];
	size_t		ns,
				len;

	na = lines_of(pa, la);
	nb = lines_of(pb, lb);
	check(na == 7 && nb == 6, "blank lines are not lines");
	check(la[0].hash == 0, "hashes are computed when asked for");
	check(tfp_match_line_hash(pa, &la[0]) == tfp_match_line_hash(pb, &lb[0]) &&
		  tfp_match_line_hash(pa, &la[1]) != tfp_match_line_hash(pb, &lb[1]),
		  "white space is ignored, text is not");
	check(la[0].hash == tfp_match_line_hash(pa, &la[0]), "a hash is kept once computed");
	check(la[1].start == 14 && pa[la[1].end] == '\n', "lines are trimmed");
	tfp_match_edges(pa, la, na, pb, lb, nb, &c);
	check(c.lead_a == 3 && c.lead_b == 3, "the leading run bridges a short line (the date)");
	check(c.trail_a == 5 && c.trail_b == 4, "the trailing run: footer and licence");
	/* a long line that differs ends the run: no resync over a paragraph */
	pa = "Head\nA long paragraph of the first text which is well over one hundred bytes long, so it is not a template line at all.\nSame\nTail";
	pb = "Head\nA long paragraph of the other text, also well over one hundred bytes long, and so it is not a template line either.\nSame\nTail";
	edges_of(pa, la, &na, pb, lb, &nb, &c);
	check(c.lead_a == 1 && c.trail_a == 2 && c.lead_b == 1 && c.trail_b == 2,
		  "a long line that differs is the middle");
	/* identical texts: the leading run takes all, the trailing run nothing */
	tfp_match_edges(pa, la, na, pa, la, na, &c);
	check(c.lead_a == na && c.trail_a == na && c.lead_b == na && c.trail_b == na,
		  "identical texts: all leading, no middle");
	/* the cheap tests before hashing (same_line): white space inside a
	 * line's first bytes is ignored, a line that is a prefix of the other
	 * or differs only in its middle is another line */
	pa = "Si te | Home\n" ART "A\nFoot X end\nab\n(c)";
	pb = "S ite | Home\n" ART "B\nFoot Y end\na b\n(c)";
	edges_of(pa, la, &na, pb, lb, &nb, &c);
	check(c.lead_a == 1 && c.lead_b == 1 && c.trail_a == 3 && c.trail_b == 3,
		  "edges: white space in a line's head ignored, a line differing in its middle ends the run");
	pa = "Home\n" ART "A\nab\n(c)";
	pb = "Home page\n" ART "B\nabc\n(c)";
	edges_of(pa, la, &na, pb, lb, &nb, &c);
	check(c.lead_a == 0 && c.trail_a == 3 && c.trail_b == 3,
		  "edges: a line that is the start of the other is another line");
	/* the middles without the short lines both have */
	pa = "H\nRelated: one\n" ART "A\nX1\nF";
	pb = "H\n" ART "B\nRelated: one\nX2\nF";
	edges_of(pa, la, &na, pb, lb, &nb, &c);
	ns = tfp_match_short_set(pb, lb, c.lead_b, c.trail_b, set);
	len = tfp_match_middle(pa, la, c.lead_a, c.trail_a, set, ns, 0, out);
	check(c.lead_a == 1 && c.trail_a == na - 1 && len == strlen(ART "A\nX1") &&
		  memcmp(out, ART "A\nX1", len) == 0,
		  "a middle without the short lines the other middle has");
}

int
main(void)
{
	uint64_t	x[] = {KEY(1), KEY(2), KEY(3), KEY(5)},
				y[] = {KEY(2), KEY(3), KEY(4)};
	double		j,
				c;
	int			bad_lcs = 0,
				bad_run = 0;
	uint64_t   *scratch = malloc(sizeof(uint64_t) * tfp_match_order_scratch(60, 60));

	tfp_match_sets(x, 4, y, 3, &j, &c);
	check(fabs(j - 2.0 / 5.0) < 1e-15 && fabs(c - 2.0 / 3.0) < 1e-15, "Jaccard 2/5, containment 2/3");
	tfp_match_sets(x, 4, y, 0, &j, &c);
	check(j == 0 && c == 0, "an empty set: 0, 0");
	check(tfp_match_order(x, 4, y, 0, scratch) == 0, "ordered overlap with nothing is 0");
	{
		/* the common values of two sorted distinct sets (signed order,
		 * negative values among them) against a count by brute force */
		int			bad = 0;

		for (int t = 0; t < 2000; t++)
		{
			uint64_t	p[80],
						q[80];
			size_t		np = rnd(80),
						nq = rnd(80),
						want = 0;
			uint32_t	alpha = 1 + rnd(t % 2 ? 40 : 400);

			for (size_t i = 0; i < np; i++)
				p[i] = (uint64_t) rnd(alpha) << (t % 3 == 0 ? 62 : 20);
			for (size_t i = 0; i < nq; i++)
				q[i] = (uint64_t) rnd(alpha) << (t % 3 == 0 ? 62 : 20);
			np = tfp_sort_unique_u64(p, np, NULL);
			nq = tfp_sort_unique_u64(q, nq, NULL);
			for (size_t i = 0; i < np; i++)
				for (size_t j = 0; j < nq; j++)
					want += p[i] == q[j];
			bad += tfp_intersect_count_u64(p, np, q, nq) != want;
		}
		check(bad == 0, "common values of two sorted sets = brute force (2,000 random)");
	}
	check(tfp_match_get_model(1) != NULL && tfp_match_get_model(2) != NULL &&
		  tfp_match_get_model(3) != NULL &&
		  tfp_match_get_model(0) == NULL && tfp_match_get_model(4) == NULL,
		  "models 1, 2 and 3 exist, 0 and 4 do not");
	test_edges();
	test_join();
	for (int t = 0; t < 3000; t++)
	{
		uint64_t	a[60],
					b[60],
					bs[60];
		size_t		na = 1 + rnd(60),
					nb = 1 + rnd(60),
					ns,
					want;
		uint32_t	alpha = 2 + rnd(t % 3 == 0 ? 4 : 30);
		double		got;

		for (size_t i = 0; i < na; i++)
			a[i] = KEY(rnd(alpha)) | rnd(1000);		/* low bits: not part of the key */
		for (size_t i = 0; i < nb; i++)
			b[i] = KEY(rnd(alpha)) | rnd(1000);
		want = lcs_brute(a, na, b, nb);
		got = tfp_match_order(a, na, b, nb, scratch);
		if (fabs(got - (double) want / (double) (na < nb ? na : nb)) > 1e-12)
			bad_lcs++;
		want = lcs_brute(b, nb, a, na) > want ? lcs_brute(b, nb, a, na) : want;
		got = tfp_match_order_both(a, na, b, nb, scratch);
		if (fabs(got - (double) want / (double) (na < nb ? na : nb)) > 1e-12)
			bad_lcs++;
		/* runs: against the set of b's exact values */
		for (size_t i = 0; i < nb; i++)
			a[i % na] = rnd(4) == 0 ? b[i] : a[i % na];
		memcpy(bs, b, sizeof(uint64_t) * nb);
		ns = tfp_sort_unique_u64(bs, nb, NULL);
		if (tfp_match_run(a, na, bs, ns, scratch) != run_brute(a, na, b, nb))
			bad_run++;
	}
	{
		/* long sequences (the hash table probes, grows and holds many keys
		 * with more than four occurrences) against the sort-based reference */
		int			bad = 0;

		for (int t = 0; t < 60; t++)
		{
			size_t		na = 1 + rnd(20000),
						nb = 1 + rnd(20000);
			uint32_t	alpha = 2 + rnd(t % 2 ? 50 : 20000);
			uint64_t   *a = malloc(sizeof(uint64_t) * na),
					   *b = malloc(sizeof(uint64_t) * nb);

			for (size_t i = 0; i < na; i++)
				a[i] = ((uint64_t) rnd(alpha) * UINT64_C(0x9E3779B97F4A7C15)) & ~UINT64_C(0xFFFFFF);
			for (size_t i = 0; i < nb; i++)
				b[i] = ((uint64_t) rnd(alpha) * UINT64_C(0x9E3779B97F4A7C15)) | rnd(1 << 24);
			bad += !order_agrees(a, na, b, nb);
			free(a);
			free(b);
		}
		check(bad == 0, "ordered overlap = the sort-based computation on 60 long random sequences, one way and both");
	}
	{
		/*
		 * Copies with edits (the path of order_lis() for steps that mostly
		 * append, taken when a quarter of the first 256 append): b is a
		 * with words changed, dropped, added and blocks moved, at rates
		 * from none to a half, few or many distinct keys.
		 */
		int			bad = 0;

		for (int t = 0; t < 80; t++)
		{
			size_t		na = 300 + rnd(6000),
						nb = 0;
			uint32_t	alpha = 2 + rnd(t % 2 ? 40 : 5000),
						rate = rnd(t % 4 == 0 ? 2 : 50);
			uint64_t   *a = malloc(sizeof(uint64_t) * na),
					   *b = malloc(sizeof(uint64_t) * (2 * na + 1));

			for (size_t i = 0; i < na; i++)
				a[i] = ((uint64_t) rnd(alpha) * UINT64_C(0x9E3779B97F4A7C15)) & ~UINT64_C(0xFFFFFF);
			for (size_t i = 0; i < na; i++)
			{
				uint32_t	e = rnd(100);

				if (e < rate / 3)
					continue;	/* dropped */
				if (e < 2 * rate / 3)
					b[nb++] = KEY(rnd(alpha)); /* added */
				b[nb++] = e < rate ? KEY(rnd(alpha)) : a[i] | rnd(1000);
			}
			if (t % 3 == 0 && nb > 100)
			{
				/* a block moved to the front */
				size_t		at = rnd((uint32_t) nb / 2),
							len = 1 + rnd((uint32_t) nb / 4);
				uint64_t   *c = malloc(sizeof(uint64_t) * nb);

				memcpy(c, b + at, len * sizeof(uint64_t));
				memcpy(c + len, b, at * sizeof(uint64_t));
				memcpy(c + len + at, b + at + len, (nb - at - len) * sizeof(uint64_t));
				memcpy(b, c, nb * sizeof(uint64_t));
				free(c);
			}
			bad += nb > 0 && !order_agrees(a, na, b, nb);
			free(a);
			free(b);
		}
		check(bad == 0, "ordered overlap = the sort-based computation on 80 long edited copies, one way and both");
	}
	{
		/*
		 * The two ways of holding tail: its bitmap up to 2^18 positions of
		 * the other sequence, the binary search above; and sparse tails,
		 * whose next value lies many words on (the bitmap's summary): a
		 * few high positions first, then every low one.
		 */
		int			bad = 0;
		size_t		sizes[][2] = {{300000, 280000}, {5000, 300000}, {300000, 5000},
		{(size_t) 1 << 18, (size_t) 1 << 18}, {((size_t) 1 << 18) + 1, 70000}};

		for (int t = 0; t < 10; t++)
		{
			size_t		na = sizes[t % 5][0],
						nb = sizes[t % 5][1];
			uint32_t	alpha = t < 5 ? 300 + rnd(3000) : 0;
			uint64_t   *a = malloc(sizeof(uint64_t) * na),
					   *b = malloc(sizeof(uint64_t) * nb);

			for (size_t j = 0; j < nb; j++)
				b[j] = (alpha ? rnd(alpha) : j) * UINT64_C(0x9E3779B97F4A7C15) & ~UINT64_C(0xFFFFFF);
			for (size_t i = 0; i < na; i++)
			{
				if (alpha)
					a[i] = b[rnd(nb)];
				else if (i < 8)
					a[i] = b[nb - 1 - rnd(nb / 50)];	/* high first */
				else
					a[i] = b[rnd(i < na / 2 ? nb / 8 : nb)];
			}
			bad += !order_agrees(a, na, b, nb);
			free(a);
			free(b);
		}
		check(bad == 0, "ordered overlap = the sort-based computation across the bitmap's limit and with sparse tails (10 sequences)");
	}
	{
		/* long runs: a copied share of 0 to 100% of b in a (few values of a
		 * in b: binary searches; many: the set), values of every sign */
		int			bad = 0,
					few = 0,
					many = 0;
		static uint64_t a[2000],
					b[2000],
					bs[2000];
		uint64_t   *sc = malloc(sizeof(uint64_t) * tfp_match_run_scratch(2000));

		for (int t = 0; t < 100; t++)
		{
			size_t		na = 1 + rnd(2000),
						nb = 1 + rnd(2000),
						ns,
						shared = 0;
			uint32_t	share = t % 5 == 0 ? 0 : rnd(t % 2 ? 3 : 101);

			for (size_t i = 0; i < nb; i++)
				b[i] = ((uint64_t) rnd(1 << 30) << 34) ^ ((uint64_t) rnd(1 << 30) << 4) ^ rnd(16);
			for (size_t i = 0; i < na; i++)
			{
				int			in = rnd(100) < share;

				a[i] = in ? b[rnd((uint32_t) nb)] : ((uint64_t) rnd(1 << 30) << 33) ^ rnd(1 << 30);
				shared += in;
			}
			memcpy(bs, b, sizeof(uint64_t) * nb);
			ns = tfp_sort_unique_u64(bs, nb, NULL);
			bad += tfp_match_run(a, na, bs, ns, sc) != run_brute(a, na, b, nb);
			few += shared <= 16;
			many += shared > 64;
		}
		free(sc);
		check(bad == 0 && few > 10 && many > 10,
			  "longest run = brute force on long sequences, few and many values shared (100)");
	}
	{
		/* a value 0 (the empty-slot mark of the run's set) */
		uint64_t	a0[] = {5, 0, 0, 7, 9},
					b0[] = {0, 7},
					b1[] = {5, 7};

		check(tfp_match_run(a0, 5, b0, 2, scratch) == 3, "longest run with a value 0 in both");
		check(tfp_match_run(a0, 5, b1, 2, scratch) == 1, "a value 0 of a is not in b");
	}
	check(bad_lcs == 0, "ordered overlap = brute-force LCS through the first four occurrences, one way and both (3,000 random)");
	check(bad_run == 0, "longest run = brute force (3,000 random)");
	free(scratch);
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
