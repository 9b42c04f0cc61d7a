/*
 * test_match_lines.c -- model 2's line work against plain references:
 * the split in parts into a small buffer (tfp_match_lines_part) against
 * the split at once, the first Han break and the joined text
 * (tfp_match_han_first, tfp_match_joined) against tfp_match_han_breaks
 * and tfp_match_middle, and the edges (tfp_match_edges, whose resync
 * stops at the runs of short lines) against the search over every
 * candidate that tests the skipped lines for each one, and model 3's lines
 * shared anywhere (tfp_match_line_hashes, tfp_match_line_set,
 * tfp_match_unshared) against the comparison of every pair of lines, on
 * random texts.
 */
#include <stdlib.h>
#include <string.h>

#include "tfp_match.h"
#include "tap.h"

/* a random text of n pieces: Han, Kana, punctuation, words, spaces,
 * newlines, blank lines, short and long lines from a small alphabet (so
 * that two texts share lines) */
static size_t
random_text(char *out, size_t n)
{
	static const char *const piece[] = {
		"中文", "内容", "。", "ひら", "word", "A", "B", " ", "\t", "\n", "\n", "\n\n", " \n ",
		"short line\n", "another short one\n",
		"A long line, long enough not to be taken for a line of a template: it runs on past one hundred bytes.\n",
		"一行很长的中文正文，长到不会被当作模板的一行：它超过了一百个字节的长度，还在继续写下去。\n",
	};
	size_t		len = 0;

	for (size_t i = 0; i < n; i++)
	{
		const char *p = piece[rnd(sizeof(piece) / sizeof(piece[0]))];

		memcpy(out + len, p, strlen(p));
		len += strlen(p);
	}
	return len;
}

/* the lines are equal: the hash of their bytes other than white space */
static int
same(const char *sa, tfp_match_line *a, size_t i, const char *sb, tfp_match_line *b, size_t j)
{
	return tfp_match_line_hash(sa, &a[i]) == tfp_match_line_hash(sb, &b[j]);
}

static int
all_short(const tfp_match_line *l, size_t from, size_t n)
{
	for (size_t k = from; k < from + n; k++)
		if (l[k].end - l[k].start >= TFP_MATCH_SHORT)
			return 0;
	return 1;
}

/* every candidate by x + y, then x, its skipped lines tested each time */
static int
ref_resync(const char *sa, tfp_match_line *a, size_t i, size_t alo, size_t ahi,
		   const char *sb, tfp_match_line *b, size_t j, size_t blo, size_t bhi,
		   int step, size_t *di, size_t *dj)
{
	for (size_t s = 1; s <= 2 * TFP_MATCH_RESYNC; s++)
		for (size_t x = 0; x <= s && x <= TFP_MATCH_RESYNC; x++)
		{
			size_t		y = s - x,
						ii,
						jj;

			if (y > TFP_MATCH_RESYNC)
				continue;
			if (step > 0 ? (i + x >= ahi || j + y >= bhi) : (i < alo + x || j < blo + y))
				continue;
			ii = step > 0 ? i + x : i - x;
			jj = step > 0 ? j + y : j - y;
			if (all_short(a, step > 0 ? i : ii + 1, x) && all_short(b, step > 0 ? j : jj + 1, y) &&
				same(sa, a, ii, sb, b, jj))
			{
				*di = x;
				*dj = y;
				return 1;
			}
		}
	return 0;
}

static void
ref_edges(const char *sa, tfp_match_line *a, size_t na,
		  const char *sb, tfp_match_line *b, size_t nb, tfp_match_cut *c)
{
	size_t		i = 0,
				j = 0,
				di,
				dj;

	c->lead_a = c->lead_b = 0;
	while (i < na && j < nb)
	{
		if (!same(sa, a, i, sb, b, j))
		{
			if (!ref_resync(sa, a, i, 0, na, sb, b, j, 0, nb, 1, &di, &dj))
				break;
			i += di;
			j += dj;
		}
		c->lead_a = ++i;
		c->lead_b = ++j;
	}
	c->trail_a = i = na;
	c->trail_b = j = nb;
	while (i > c->lead_a && j > c->lead_b)
	{
		if (!same(sa, a, i - 1, sb, b, j - 1))
		{
			if (!ref_resync(sa, a, i - 1, c->lead_a, na, sb, b, j - 1, c->lead_b, nb, -1, &di, &dj))
				break;
			i -= di;
			j -= dj;
		}
		c->trail_a = --i;
		c->trail_b = --j;
	}
}

/* are two lines the same bytes? */
static int
same_text(const char *sa, const tfp_match_line *a, const char *sb, const tfp_match_line *b)
{
	return a->end - a->start == b->end - b->start &&
		memcmp(sa + a->start, sb + b->start, a->end - a->start) == 0;
}

/* the share of a's line bytes in lines that are in no line of b */
static double
ref_unshared(const char *sa, const tfp_match_line *a, size_t na,
			 const char *sb, const tfp_match_line *b, size_t nb)
{
	double		all = 0,
				out = 0;

	for (size_t i = 0; i < na; i++)
	{
		int			found = 0;

		for (size_t j = 0; j < nb && !found; j++)
			found = same_text(sa, &a[i], sb, &b[j]);
		all += (double) (a[i].end - a[i].start);
		out += found ? 0.0 : (double) (a[i].end - a[i].start);
	}
	return all > 0 ? out / all : 1.0;
}

int
main(void)
{
	enum
	{
		N = 64, ROOM = N * 200
	};
	char	   *sa = malloc(ROOM),
			   *sb = malloc(ROOM),
			   *o1 = malloc(ROOM),
			   *o2 = malloc(ROOM);
	tfp_match_line *la = malloc(ROOM * sizeof(tfp_match_line)),
			   *lb = malloc(ROOM * sizeof(tfp_match_line)),
			   *lp = malloc(ROOM * sizeof(tfp_match_line));
	int			bad_split = 0,
				bad_first = 0,
				bad_join = 0,
				bad_edges = 0,
				bad_set = 0,
				bad_unshared = 0,
				bad_cap = 0,
				capped = 0,
				joined = 0,
				edged = 0,
				all_shared = 0,
				partly = 0;
	uint64_t   *set = malloc(ROOM * sizeof(uint64_t)),
			   *ha = malloc(ROOM * sizeof(uint64_t)),
			   *hb = malloc(ROOM * sizeof(uint64_t)),
			   *hc = malloc(ROOM * sizeof(uint64_t));

	for (int t = 0; t < 4000; t++)
	{
		size_t		lena = random_text(sa, rnd(N)),
					lenb,
					na = tfp_match_lines(sa, lena, la),
					nb,
					np = 0,
					pos = 0,
					first;
		tfp_match_cut c,
					r;

		/* the split in parts of at most 1 to 4 lines */
		while (pos < lena)
		{
			size_t		cap = 1 + rnd(4),
						k = tfp_match_lines_part(sa, lena, &pos, lp + np, cap);

			bad_split += k > cap;
			np += k;
		}
		bad_split += np != na || memcmp(lp, la, na * sizeof(tfp_match_line)) != 0;

		/* the first break and the joined text */
		first = tfp_match_han_first(sa, la, 0, na);
		bad_first += (first < na) != (tfp_match_han_breaks(sa, la, 0, na) > 0) ||
			(first < na && (!tfp_match_han_break(sa, &la[first], &la[first + 1]) ||
							tfp_match_han_breaks(sa, la, 0, first + 1) != 0));
		if (first < na)
		{
			size_t		l1 = tfp_match_joined(sa, la, na, first, o1),
						l2 = tfp_match_middle(sa, la, 0, na, NULL, 0, 1, o2);

			bad_join += l1 != l2 || memcmp(o1, o2, l1) != 0;
			joined++;
		}

		/* the edges against a text made from this one */
		lenb = rnd(3) == 0 ? random_text(sb, rnd(4)) : 0;	/* a head added */
		if (rnd(2))
		{
			memcpy(sb + lenb, sa, lena);
			lenb += lena;
			for (int k = (int) rnd(6) - 2; k > 0 && lenb > 0; k--)
				sb[rnd(lenb)] = (char) "\nAB "[rnd(4)];	/* a few bytes changed */
		}
		if (rnd(2))
			lenb += random_text(sb + lenb, rnd(N / 4));	/* a tail added */
		nb = tfp_match_lines(sb, lenb, lb);
		tfp_match_edges(sa, la, na, sb, lb, nb, &c);
		ref_edges(sa, la, na, sb, lb, nb, &r);
		bad_edges += memcmp(&c, &r, sizeof(c)) != 0;
		edged += c.lead_a > 0 || c.trail_a < na;

		/* the lines of b shared anywhere with a (b is a's lines changed,
		 * with lines added; its lines in another order when rnd says) */
		{
			size_t		ns;
			double		u,
						ref;

			tfp_match_line_hashes(sa, la, na, ha);
			ns = tfp_match_line_set(ha, na, set);
			for (size_t k = 1; k < ns; k++)
				bad_set += (int64_t) set[k - 1] >= (int64_t) set[k];	/* sorted, distinct */
			for (size_t k = 0; k < na; k++)
			{
				size_t		lo = 0,
							hi = ns;

				while (lo < hi)
				{
					size_t		m = lo + (hi - lo) / 2;

					if ((int64_t) set[m] < (int64_t) ha[k])
						lo = m + 1;
					else
						hi = m;
				}
				bad_set += lo == ns || set[lo] != ha[k];	/* every line's hash */
			}
			if (rnd(2) && nb > 1)
				for (size_t k = nb - 1; k > 0; k--)
				{
					size_t		j = rnd(k + 1);
					tfp_match_line tmp = lb[k];

					lb[k] = lb[j];
					lb[j] = tmp;
				}
			{
				size_t		nh = 0;

				u = tfp_match_unshared(sb, lb, nb, hb, &nh, set, ns, 1.0);
				ref = ref_unshared(sb, lb, nb, sa, la, na);
				bad_unshared += u != ref || nh != nb;	/* every line read, hashed */
				tfp_match_line_hashes(sb, lb, nb, hc);
				bad_unshared += memcmp(hb, hc, nb * sizeof(uint64_t)) != 0;
			}
			/*
			 * with a cap: the share when it is at most the cap, else 1; a
			 * prefix of the hashes given, the others computed as read
			 */
			{
				double		cap = rnd(2) ? 0.1 : 0.5,
							uc;
				size_t		nh = rnd(nb + 1),
							given = nh;

				for (size_t k = nh; k < nb; k++)
					hc[k] = 0x5a5a5a5a5a5a5a5aULL;	/* not computed yet */
				uc = tfp_match_unshared(sb, lb, nb, hc, &nh, set, ns, cap);
				bad_cap += ref <= cap ? uc != ref : uc != 1.0;
				bad_cap += nh < given || nh > nb || memcmp(hb, hc, nh * sizeof(uint64_t)) != 0;
				capped += ref > cap && ref < 1.0;
			}
			all_shared += nb > 0 && u == 0.0;
			partly += u > 0.0 && u < 1.0;
		}
	}
	check(bad_split == 0, "lines split in parts of 1 to 4 lines: the lines split at once (4000 texts)");
	check(bad_first == 0, "the first Han break: the first one tfp_match_han_breaks counts");
	check(bad_join == 0 && joined > 100, "joined from the first break: tfp_match_middle's bytes");
	check(bad_edges == 0 && edged > 1000,
		  "edges: those of every candidate with its skipped lines tested (4000 pairs)");
	check(bad_set == 0, "the line set: sorted, distinct, every line's hash in it");
	check(bad_unshared == 0 && all_shared > 100 && partly > 1000,
		  "unshared: the share of the line bytes in no line of the other with the same bytes");
	check(bad_cap == 0 && capped > 500, "unshared with a cap: the share up to the cap, 1 above it; the hashes computed as read");
	free(set);
	free(ha);
	free(hb);
	free(hc);
	free(sa);
	free(sb);
	free(o1);
	free(o2);
	free(la);
	free(lb);
	free(lp);
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
