/*
 * align_check.h -- checks of tfp_align() results and tfp_align_html()
 * output shared by test/unit/test_align.c and the fuzz target
 * test/fuzz/fuzz_align.c: the invariants every result keeps, and a strict
 * well-formedness check of the HTML (tags balanced, entities and
 * attributes well formed, valid UTF-8 without control characters, ids
 * unique, every link pointing at an id of the output).  Each returns NULL
 * or what is wrong.
 */
#ifndef TFP_ALIGN_CHECK_H
#define TFP_ALIGN_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_align.h"

static void *
check_alloc(void *arg, size_t n)
{
	if (arg)
		(*(long *) arg)++;
	return malloc(n);
}

static void
check_free(void *arg, void *p)
{
	if (arg)
		(*(long *) arg)--;
	free(p);
}

/* code points of s[from, to), an invalid byte counting as one */
static uint32_t
check_cps(const char *s, size_t from, size_t to)
{
	uint32_t	n = 0,
				cp;

	while (from < to)
	{
		from += tfp_utf8_decode((const unsigned char *) s + from, to - from, &cp);
		n++;
	}
	return n;
}

/*
 * Invariants of a result: passages within the texts, starting on a
 * character, in b order, disjoint on each side, matched within
 * [min_length, the shorter side's length], character offsets the code
 * point counts, covered lengths the sums, totals the texts' lengths.
 */
static const char *
align_invariants(const char *a, size_t alen, const char *b, size_t blen,
				 const tfp_align_opts *o, const tfp_align_result *r)
{
	uint64_t	acov = 0,
				bcov = 0,
				atot,
				btot;

	tfp_align_units(a, alen, o->fold, &atot);
	tfp_align_units(b, blen, o->fold, &btot);
	if (atot != r->a_total || btot != r->b_total)
		return "totals are not the texts' lengths";
	for (size_t k = 0; k < r->n; k++)
	{
		const tfp_align_passage *p = &r->p[k];

		if (p->a_start > p->a_end || p->a_end > alen ||
			p->b_start > p->b_end || p->b_end > blen)
			return "passage outside the texts";
		if ((p->a_start < alen && ((unsigned char) a[p->a_start] & 0xC0) == 0x80) ||
			(p->b_start < blen && ((unsigned char) b[p->b_start] & 0xC0) == 0x80))
			return "passage starts inside a character";
		if (p->matched < (uint32_t) o->min_length)
			return "passage shorter than min_length";
		if (p->matched > p->a_len || p->matched > p->b_len)
			return "matched longer than the passage";
		if (p->a_cstart != check_cps(a, 0, p->a_start) ||
			p->a_clen != check_cps(a, p->a_start, p->a_end) ||
			p->b_cstart != check_cps(b, 0, p->b_start) ||
			p->b_clen != check_cps(b, p->b_start, p->b_end))
			return "character offsets are not code point counts";
		acov += p->a_len;
		bcov += p->b_len;
		for (size_t q = 0; q < k; q++)
		{
			const tfp_align_passage *e = &r->p[q];

			if (e->b_start > p->b_start ||
				(e->b_start == p->b_start && e->a_start > p->a_start))
				return "passages not in b order";
			if ((p->a_start < e->a_end && e->a_start < p->a_end) ||
				(p->b_start < e->b_end && e->b_start < p->b_end))
				return "passages overlap";
		}
	}
	if (acov != r->a_covered || bcov != r->b_covered)
		return "covered lengths are not the sums";
	if (acov > atot || bcov > btot)
		return "more covered than the text";
	return NULL;
}

/* ------------------------------------------------------------------------
 * HTML
 * ------------------------------------------------------------------------ */

#define CHECK_MAX_IDS 4096

typedef struct html_names
{
	char	   *ids[CHECK_MAX_IDS];
	int			nids;
	char	   *refs[CHECK_MAX_IDS];
	int			nrefs;
} html_names;

static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '-' || c == '_';
}

/* an entity at s (after '&'): one of the five, or a numeric reference */
static size_t
entity_len(const char *s, size_t n)
{
	static const char *const named[] = {"amp;", "lt;", "gt;", "quot;", "#39;"};
	size_t		i = 0;

	for (int k = 0; k < 5; k++)
		if (strlen(named[k]) <= n && strncmp(s, named[k], strlen(named[k])) == 0)
			return strlen(named[k]);
	if (n < 3 || s[0] != '#')
		return 0;
	i = 1;
	if (s[1] == 'x')
	{
		i = 2;
		while (i < n && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'A' && s[i] <= 'F')))
			i++;
	}
	else
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	return (i < n && s[i] == ';' && i > (size_t) (s[1] == 'x' ? 2 : 1)) ? i + 1 : 0;
}

/*
 * Well-formedness of h[0, n): only elements of the rendering, properly
 * nested; attribute values in double quotes without '<'; text with '<'
 * and '&' only as markup and entities; valid UTF-8 without control
 * characters other than tab and LF; ids unique; links to ids present.
 */
static const char *
html_wellformed(const char *h, size_t n)
{
	static const char *const names[] = {"html", "head", "meta", "title", "style", "body",
		"div", "p", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td",
	"mark", "span", "br"};
	const char *stack[64];
	int			depth = 0;
	size_t		i = 0;
	static html_names nm;
	const char *err = NULL;

	nm.nids = nm.nrefs = 0;
	if (n >= 16 && strncmp(h, "<!DOCTYPE html>\n", 16) == 0)
		i = 16;
	while (i < n && err == NULL)
	{
		unsigned char c = (unsigned char) h[i];

		if (c == '<')
		{
			int			closing = h[i + 1] == '/',
						k,
						self = 0;
			size_t		s = i + 1 + closing,
						e = s;
			const char *name = NULL;

			while (e < n && h[e] >= 'a' && h[e] <= 'z')
				e++;
			for (k = 0; k < (int) (sizeof(names) / sizeof(names[0])); k++)
				if (strlen(names[k]) == e - s && strncmp(h + s, names[k], e - s) == 0)
					name = names[k];
			if (name == NULL)
				return "unknown element";
			/* attributes: name="value" */
			while (e < n && h[e] == ' ' && !closing)
			{
				size_t		an = ++e,
							v;

				while (e < n && name_char(h[e]))
					e++;
				if (e == an || e + 1 >= n || h[e] != '=' || h[e + 1] != '"')
					return "malformed attribute";
				v = e + 2;
				e = v;
				while (e < n && h[e] != '"')
				{
					if (h[e] == '<')
						return "'<' in an attribute value";
					e++;
				}
				if (e >= n)
					return "unterminated attribute value";
				if (e - an >= 2 && strncmp(h + an, "id=", 3) == 0 && nm.nids < CHECK_MAX_IDS)
					nm.ids[nm.nids++] = strndup(h + v, e - v);
				if (strncmp(h + an, "href=", 5) == 0 && nm.nrefs < CHECK_MAX_IDS)
				{
					if (h[v] != '#')
						return "link outside the document";
					nm.refs[nm.nrefs++] = strndup(h + v + 1, e - v - 1);
				}
				e++;
			}
			if (e < n && h[e] == '/')
			{
				self = 1;
				e++;
			}
			if (e >= n || h[e] != '>')
				return "malformed tag";
			if (closing)
			{
				if (depth == 0 || stack[depth - 1] != name)
					return "misnested closing tag";
				depth--;
			}
			else if (!self)
			{
				if (name == names[2] || name == names[19])
					return "void element not self-closed";
				if (depth == 64)
					return "nesting too deep";
				stack[depth++] = name;
			}
			i = e + 1;
		}
		else if (c == '&')
		{
			size_t		l = entity_len(h + i + 1, n - i - 1);

			if (l == 0)
				return "bare '&' or unknown entity";
			i += 1 + l;
		}
		else if (c == '>')
			return "bare '>' in text";
		else if (c < 0x20 && c != '\t' && c != '\n')
			return "control character in the output";
		else
		{
			uint32_t	cp;
			size_t		l = tfp_utf8_decode((const unsigned char *) h + i, n - i, &cp);

			if (cp == 0xFFFD && !(l == 3 && (unsigned char) h[i] == 0xEF))
				return "invalid UTF-8 in the output";
			if ((cp >= 0x7F && cp <= 0x9F) || (cp & 0xFFFE) == 0xFFFE ||
				(cp >= 0xFDD0 && cp <= 0xFDEF))
				return "control character or noncharacter in the output";
			i += l;
		}
	}
	if (err == NULL && depth != 0)
		err = "unclosed element";
	for (int x = 0; x < nm.nids && err == NULL; x++)
		for (int y = 0; y < x; y++)
			if (strcmp(nm.ids[x], nm.ids[y]) == 0)
				err = "duplicate id";
	for (int x = 0; x < nm.nrefs && err == NULL; x++)
	{
		int			found = 0;

		for (int y = 0; y < nm.nids && !found; y++)
			found = strcmp(nm.refs[x], nm.ids[y]) == 0;
		if (!found)
			err = "link to a missing id";
	}
	for (int x = 0; x < nm.nids; x++)
		free(nm.ids[x]);
	for (int x = 0; x < nm.nrefs; x++)
		free(nm.refs[x]);
	return err;
}

/* Render (measure, then write into a buffer with a guard byte) and check:
 * same length both times, nothing past it, well formed.  *out (malloc'd)
 * receives the HTML unless out is NULL. */
static const char *
html_render_check(const char *a, size_t alen, const char *b, size_t blen,
				  const tfp_align_result *r, const tfp_html_opts *ho,
				  char **out, size_t *outlen)
{
	tfp_align_env env = {check_alloc, check_free, NULL, NULL};
	size_t		len = tfp_align_html(NULL, SIZE_MAX - 1, a, alen, b, blen, r, ho, &env),
				len2;
	char	   *buf;
	const char *err;

	if (len == SIZE_MAX)
		return "rendering failed";
	buf = malloc(len + 1);
	buf[len] = '\x7f';
	len2 = tfp_align_html(buf, len, a, alen, b, blen, r, ho, &env);
	if (len2 != len || buf[len] != '\x7f')
		err = "measured and written lengths differ";
	else
		err = html_wellformed(buf, len);
	buf[len] = '\0';
	if (out && err == NULL)
	{
		*out = buf;
		*outlen = len;
	}
	else
		free(buf);
	return err;
}

#endif							/* TFP_ALIGN_CHECK_H */
