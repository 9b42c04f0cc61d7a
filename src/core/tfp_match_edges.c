/*
 * tfp_match_edges.c -- the shared edges of two texts, for textfp_match()'s
 * model 2: the longest common leading and trailing runs of lines (a site
 * template's header and footer around two articles), so that the
 * similarities can be measured again on what is left, the middles
 * (definition in tfp_match.h)
 */
#include <string.h>

#include "tfp_match.h"
#include "tfp_sort.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

static inline int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

size_t
tfp_match_line_bound(const char *s, size_t len)
{
	size_t		n = 1;
	const char *p = s,
			   *end = s + len;

	while (p < end && (p = memchr(p, '\n', (size_t) (end - p))) != NULL)
	{
		n++;
		p++;
	}
	return n;
}

/*
 * The lines of s that are not blank: their byte ranges without the leading
 * and trailing white space.  Their hashes are computed when first asked for
 * (tfp_match_line_hash(): the edges compare only the lines near the ends
 * of two texts that share no edge).  tfp_match_lines_part() splits from
 * *pos and stops when out[0..cap) is full (*pos: where it stopped, len at
 * the end), so that a caller can split in one pass into a buffer it grows,
 * without counting the lines first.
 */
size_t
tfp_match_lines_part(const char *s, size_t len, size_t *pos, tfp_match_line *out, size_t cap)
{
	size_t		n = 0,
				i = *pos;

	while (i < len && n < cap)
	{
		const char *nl = memchr(s + i, '\n', len - i);
		size_t		st = i,
					en = nl ? (size_t) (nl - s) : len;

		i = nl ? en + 1 : len;	/* past the newline */
		while (st < en && is_space((unsigned char) s[st]))
			st++;
		while (en > st && is_space((unsigned char) s[en - 1]))
			en--;
		if (st == en)
			continue;			/* blank: only white space */
		out[n].hash = 0;
		out[n].start = st;
		out[n].end = en;
		n++;
	}
	*pos = i;
	return n;
}

size_t
tfp_match_lines(const char *s, size_t len, tfp_match_line *out)
{
	size_t		pos = 0;

	return tfp_match_lines_part(s, len, &pos, out, (size_t) -1);
}

/*
 * The hash of a line of s (64-bit FNV-1a of its bytes other than white
 * space: a line re-indented or re-spaced is the same line), computed once
 * (0 means not yet: a hash that comes out 0 is taken as 1).
 */
uint64_t
tfp_match_line_hash(const char *s, tfp_match_line *l)
{
	uint64_t	h = 14695981039346656037ULL;

	if (l->hash != 0)
		return l->hash;
	for (size_t k = l->start; k < l->end; k++)
	{
		if (is_space((unsigned char) s[k]))
			continue;
		h = (h ^ (unsigned char) s[k]) * 1099511628211ULL;
	}
	l->hash = h != 0 ? h : 1;
	return l->hash;
}

/*
 * Do two lines differ in their first HEAD bytes other than white space (or
 * in the count of those bytes when either has fewer)?  Then their hashes
 * differ (but for a collision), without computing them: the lines near the
 * ends of two texts without a common edge, compared by the edges' resync,
 * mostly differ at once.
 */
#define HEAD 4

static inline int
heads_differ(const char *sa, const tfp_match_line *a, const char *sb, const tfp_match_line *b)
{
	size_t		p = a->start,
				q = b->start;

	for (int k = 0; k < HEAD; k++)
	{
		while (p < a->end && is_space((unsigned char) sa[p]))
			p++;
		while (q < b->end && is_space((unsigned char) sb[q]))
			q++;
		if (p == a->end || q == b->end)
			return (p == a->end) != (q == b->end);
		if (sa[p++] != sb[q++])
			return 1;
	}
	return 0;
}

/*
 * Are lines a[i] of sa and b[j] of sb equal (their hashes)?  The hashes are
 * computed only when two cheap tests do not decide: lines whose bytes other
 * than white space differ at their start or whose last bytes differ (a
 * line's ends are not white space: tfp_match_lines) are not equal; two
 * lines with the same bytes are (a copy's lines: memcmp, not hashing,
 * tried before the heads: equal lines pass the heads' test anyway).
 */
static inline int
same_line(const char *sa, tfp_match_line *a, size_t i, const char *sb, tfp_match_line *b, size_t j)
{
	size_t		w = a[i].end - a[i].start;

	if (sa[a[i].end - 1] != sb[b[j].end - 1])
		return 0;
	if (w == b[j].end - b[j].start && memcmp(sa + a[i].start, sb + b[j].start, w) == 0)
		return 1;
	if (heads_differ(sa, &a[i], sb, &b[j]))
		return 0;
	return tfp_match_line_hash(sa, &a[i]) == tfp_match_line_hash(sb, &b[j]);
}

/*
 * How many consecutive lines from l[i] on in the direction step (+1 or -1)
 * are short (shorter than TFP_MATCH_SHORT bytes), at most TFP_MATCH_RESYNC
 * and at most room (the lines there are, ahead of i in that direction and
 * l[i] itself)?
 */
static inline size_t
short_run(const tfp_match_line *l, size_t i, int step, size_t room)
{
	size_t		k = 0;

	while (k < TFP_MATCH_RESYNC && k < room)
	{
		const tfp_match_line *x = step > 0 ? &l[i + k] : &l[i - k];

		if (x->end - x->start >= TFP_MATCH_SHORT)
			break;
		k++;
	}
	return k;
}

/*
 * The next pair of equal lines at most TFP_MATCH_RESYNC lines ahead on each
 * side, from a[i], b[j] (step +1) or backwards (step -1) within the bounds
 * [alo, ahi) and [blo, bhi), the lines skipped all short (shorter than
 * TFP_MATCH_SHORT bytes: a date, a list of related posts, a line of a
 * template that changes from page to page, not a paragraph); the nearest
 * (least di + dj, then the least di): 1 and *di, *dj, or 0.
 *
 * The candidates are a[i + x] (or a[i - x]) and b[j + y] (or b[j - y]) by
 * increasing x + y, then x; x lines of a are skipped: a[i..i + x) forwards,
 * a(i - x..i] backwards.  With ka = short_run() of a from i (room: the
 * lines up to ahi forwards, down to alo + 1 backwards, which are all the
 * lines a candidate in the bounds skips), those x lines are all short iff
 * x <= ka for every x in the bounds (a longer x either skips the first
 * long line or lies out of the bounds); the same for b.  So the loops stop
 * at ka and kb, without testing the skipped lines again, and a
 * difference between two long lines (ka = kb = 0) has no candidate.
 */
static int
resync(const char *sa, tfp_match_line *a, size_t i, size_t alo, size_t ahi,
	   const char *sb, tfp_match_line *b, size_t j, size_t blo, size_t bhi,
	   int step, size_t *di, size_t *dj)
{
	size_t		ka = short_run(a, i, step, step > 0 ? ahi - i : i - alo),
				kb = short_run(b, j, step, step > 0 ? bhi - j : j - blo);

	if (ka == 0 && kb == 0)
		return 0;
	for (size_t s = 1; s <= ka + kb; s++)
		for (size_t x = 0; x <= s && x <= ka; x++)
		{
			size_t		y = s - x;
			size_t		ii,
						jj;

			if (y > kb)
				continue;
			if (step > 0)
			{
				if (i + x >= ahi || j + y >= bhi)
					continue;
				ii = i + x;
				jj = j + y;
			}
			else
			{
				if (i < alo + x || j < blo + y)
					continue;
				ii = i - x;
				jj = j - y;
			}
			if (same_line(sa, a, ii, sb, b, jj))
			{
				*di = x;
				*dj = y;
				return 1;
			}
		}
	return 0;
}

/*
 * Are the lines a[i..na) of sa and b[j..nb) of sb the same bytes, from the
 * start of the first to the end of the last?  Then they are equal line for
 * line (same_line()'s memcmp): the same bytes from the start of a line are
 * split into the same lines (tfp_match_lines), and neither text has a line
 * after them.  One memcmp instead of one comparison per line for a copy.
 */
static int
same_tail(const char *sa, const tfp_match_line *a, size_t i, size_t na,
		  const char *sb, const tfp_match_line *b, size_t j, size_t nb)
{
	size_t		w;

	if (i >= na || j >= nb)
		return 0;
	w = a[na - 1].end - a[i].start;
	return w == b[nb - 1].end - b[j].start && memcmp(sa + a[i].start, sb + b[j].start, w) == 0;
}

/*
 * The edges.  Leading: from the first lines, equal lines advance both
 * sides; at a difference, the nearest equal pair at most TFP_MATCH_RESYNC
 * short lines ahead on each side (resync()) continues the run, else the run
 * ends after its last equal pair.  Trailing: the same from the last lines backwards, never into the
 * leading run.  When the lines left on both sides are the same bytes, at
 * the start or after a resync (a copy with a line added at its head), the
 * leading run takes them all at once (same_tail()).  O((na + nb) R^2) for
 * R = TFP_MATCH_RESYNC.  The result is
 * not symmetric in a and b when a resync has ties; the caller orders them.
 */
void
tfp_match_edges(const char *sa, tfp_match_line *a, size_t na,
				const char *sb, tfp_match_line *b, size_t nb, tfp_match_cut *cut)
{
	size_t		i = 0,
				j = 0,
				di,
				dj;
	int			tail;

	cut->lead_a = cut->lead_b = 0;
	tail = same_tail(sa, a, 0, na, sb, b, 0, nb);
	while (i < na && j < nb)
	{
		if (tail)
		{
			/* the rest of the run: every line pair equal (same_tail()) */
			i = na;
			j = nb;
			cut->lead_a = i;
			cut->lead_b = j;
			break;
		}
		if (!same_line(sa, a, i, sb, b, j))
		{
			if (!resync(sa, a, i, 0, na, sb, b, j, 0, nb, 1, &di, &dj))
				break;
			i += di;
			j += dj;
			tail = same_tail(sa, a, i, na, sb, b, j, nb);
			if (tail)
				continue;		/* a[i] and b[j] are equal: the run goes on to the end */
		}
		i++;
		j++;
		cut->lead_a = i;
		cut->lead_b = j;
	}
	cut->trail_a = na;
	cut->trail_b = nb;
	i = na;
	j = nb;
	while (i > cut->lead_a && j > cut->lead_b)
	{
		if (!same_line(sa, a, i - 1, sb, b, j - 1))
		{
			if (!resync(sa, a, i - 1, cut->lead_a, na, sb, b, j - 1, cut->lead_b, nb, -1,
						&di, &dj))
				break;
			i -= di;
			j -= dj;
		}
		i--;
		j--;
		cut->trail_a = i;
		cut->trail_b = j;
	}
}

/* is h among v[0..n), sorted as int64 (tfp_sort_unique_u64)? */
static int
sorted_has(const uint64_t *v, size_t n, uint64_t h)
{
	size_t		lo = 0,
				hi = n;

	while (lo < hi)
	{
		size_t		m = lo + (hi - lo) / 2;

		if ((int64_t) v[m] < (int64_t) h)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < n && v[lo] == h;
}

size_t
tfp_match_short_set(const char *s, tfp_match_line *l, size_t lo, size_t hi, uint64_t *set)
{
	size_t		n = 0;

	for (size_t i = lo; i < hi; i++)
		if (l[i].end - l[i].start < TFP_MATCH_SHORT)
			set[n++] = tfp_match_line_hash(s, &l[i]);
	return tfp_sort_unique_u64(set, n, NULL);
}

/*
 * The middle of a text: its lines [lo, hi) joined by newlines, without the
 * short lines that are among the other middle's short lines (set[0..n),
 * tfp_match_short_set()): a template's lines that changed place (a longer
 * list of related posts, an advert moved) are no evidence of a copy.  With
 * join, two lines of Han text are run together (tfp_match_han_break()).
 */
size_t
tfp_match_middle(const char *s, tfp_match_line *l, size_t lo, size_t hi,
				 const uint64_t *set, size_t n, int join, char *out)
{
	size_t		len = 0,
				prev = hi;		/* the last line kept */

	for (size_t i = lo; i < hi; i++)
	{
		size_t		w = l[i].end - l[i].start;

		if (w < TFP_MATCH_SHORT && n > 0 && sorted_has(set, n, tfp_match_line_hash(s, &l[i])))
			continue;
		if (prev < hi && !(join && tfp_match_han_break(s, &l[prev], &l[i])))
			out[len++] = '\n';
		memcpy(out + len, s + l[i].start, w);
		len += w;
		prev = i;
	}
	return len;
}

/*
 * The lines shared anywhere (model 3): each line's XXH3 (of its bytes, the
 * white space at its ends left out by tfp_match_lines(): not the edges'
 * hash, which skips every white space byte one at a time, several times
 * slower), their sorted distinct set, and the share of a text's line bytes
 * in lines whose hash is not in the other's set (tfp_match.h: unshared).
 */
static inline uint64_t
line_xxh3(const char *s, const tfp_match_line *l)
{
	return XXH3_64bits(s + l->start, l->end - l->start);
}

void
tfp_match_line_hashes(const char *s, const tfp_match_line *l, size_t n, uint64_t *h)
{
	for (size_t i = 0; i < n; i++)
		h[i] = line_xxh3(s, &l[i]);
}

size_t
tfp_match_line_set(const uint64_t *h, size_t n, uint64_t *set)
{
	memcpy(set, h, n * sizeof(uint64_t));
	return tfp_sort_unique_u64(set, n, NULL);
}

double
tfp_match_unshared(const char *s, const tfp_match_line *l, size_t n, uint64_t *h, size_t *nh,
				   const uint64_t *set, size_t nset, double cap)
{
	double		all = 0,
				out = 0,
				stop;

	for (size_t i = 0; i < n; i++)
		all += (double) (l[i].end - l[i].start);
	if (all == 0)
		return 1.0;

	/*
	 * above cap by a margin far beyond rounding: a share returned as 1 is
	 * one that out / all puts above cap too, so that a reader of
	 * min(unshared, cap) gets the same bits either way
	 */
	stop = cap * all * (1 + 1e-9);
	for (size_t i = 0; i < n; i++)
	{
		if (i == *nh)
		{
			h[i] = line_xxh3(s, &l[i]);
			*nh = i + 1;
		}
		if (!sorted_has(set, nset, h[i]))
		{
			out += (double) (l[i].end - l[i].start);
			if (out > stop)
				return 1.0;
		}
	}
	return out / all;
}
