/*
 * tfp_match_join.c -- where two lines of a text are one run of Han letters
 * split by a line break, for textfp_match()'s model 2 (definition in
 * tfp_match.h)
 *
 * A Han n-gram does not cross a line break, so a passage copied with its
 * lines run together (a partial copy of a Chinese text, its headings and
 * list items joined into one paragraph) shares with its original only the
 * n-grams inside the former lines: its longest common run of shingles is
 * broken at every former line end whose neighbours are Han letters (the
 * copy's n-grams across it are not in the original, the original's short
 * runs at a line's end are not in the copy).  Read with those breaks
 * removed, both texts give the same n-grams there.  Only breaks between two
 * letters of a script written without spaces (class TFP_CC_HAN) go: words
 * of other scripts on two lines stay two words.
 */
#include <string.h>

#include "tfp_core.h"
#include "tfp_match.h"
#include "tfp_unicode.h"

/* the class of the code point that ends at s[end - 1] (after s[lo]) */
static int
class_before(const char *s, size_t lo, size_t end)
{
	size_t		st = end - 1;
	uint32_t	cp;

	while (st > lo && end - st < 4 && ((unsigned char) s[st] & 0xC0) == 0x80)
		st--;
	if (tfp_utf8_decode((const unsigned char *) s + st, end - st, &cp) != end - st)
		return TFP_CC_SEP;		/* not one whole sequence */
	return tfp_cp_class(cp);
}

static inline int
han_break(const char *s, const tfp_match_line *x, const tfp_match_line *y)
{
	const unsigned char *e = (const unsigned char *) s + x->end;
	uint32_t	cp;

	/*
	 * Han-class letters are U+0800 or above: three or four bytes, a last
	 * byte >= 0x80 and a first byte >= 0xE0; U+3000..U+303F (Chinese
	 * punctuation, E3 80 xx) are separators
	 */
	if (e[-1] < 0x80 || (unsigned char) s[y->start] < 0xE0 ||
		(x->end - x->start >= 3 && e[-3] == 0xE3 && e[-2] == 0x80))
		return 0;
	if (class_before(s, x->start, x->end) != TFP_CC_HAN)
		return 0;
	tfp_utf8_decode((const unsigned char *) s + y->start, y->end - y->start, &cp);
	return tfp_cp_class(cp) == TFP_CC_HAN;
}

int
tfp_match_han_break(const char *s, const tfp_match_line *x, const tfp_match_line *y)
{
	return han_break(s, x, y);
}

size_t
tfp_match_han_breaks(const char *s, const tfp_match_line *l, size_t lo, size_t hi)
{
	size_t		n = 0;

	for (size_t i = lo; i + 1 < hi; i++)
		n += (size_t) han_break(s, &l[i], &l[i + 1]);
	return n;
}

size_t
tfp_match_han_first(const char *s, const tfp_match_line *l, size_t lo, size_t hi)
{
	for (size_t i = lo; i + 1 < hi; i++)
		if (han_break(s, &l[i], &l[i + 1]))
			return i;
	return hi;
}

/*
 * The lines l[0..n) of s joined, without the breaks between two lines of
 * Han text, the first of which follows l[first] (tfp_match_han_first(): the
 * breaks before it are not tested again).  The same bytes as
 * tfp_match_middle(s, l, 0, n, NULL, 0, 1, out), which keeps every line
 * when no set is given and so tests the same pairs of lines.
 */
size_t
tfp_match_joined(const char *s, const tfp_match_line *l, size_t n, size_t first, char *out)
{
	size_t		len = 0;

	for (size_t i = 0; i < n; i++)
	{
		size_t		w = l[i].end - l[i].start;

		if (i > 0 && (i <= first || !han_break(s, &l[i - 1], &l[i])))
			out[len++] = '\n';
		memcpy(out + len, s + l[i].start, w);
		len += w;
	}
	return len;
}
