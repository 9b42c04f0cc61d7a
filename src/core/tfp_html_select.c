/*
 * tfp_html_select.c -- html_text(), version 1: character references, and
 * which paragraphs of a page make its text (the boilerplate rules: forms,
 * main content, link density; definition in tfp_html.h)
 */
#include <string.h>

#include "tfp_html_int.h"

/* ------------------------------------------------------------------ */
/* character references                                                */

static int
is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* the table entry named exactly s[0..n), or NULL (binary search by bytes) */
static const tfp_html_entity_def *
entity_lookup(const char *s, size_t n)
{
	size_t		lo = 0,
				hi = TFP_HTML_ENTITY_COUNT;

	while (lo < hi)
	{
		size_t		mid = (lo + hi) / 2;
		const tfp_html_entity_def *e = &tfp_html_entities[mid];
		size_t		m = e->len < n ? e->len : n;
		int			c = memcmp(e->name, s, m);

		if (c == 0)
			c = (e->len > n) - (e->len < n);
		if (c == 0)
			return e;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static size_t
numeric_ref(const char *s, size_t len, uint32_t *cp)
{
	size_t		i = 1;			/* s[0] is '#' */
	int			hex = 0;
	uint32_t	v = 0;
	size_t		digits = 0;

	if (i < len && (s[i] == 'x' || s[i] == 'X'))
	{
		hex = 1;
		i++;
	}
	for (; i < len; i++)
	{
		unsigned char c = (unsigned char) s[i];
		uint32_t	d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (hex && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (hex && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			break;
		digits++;
		/* saturate above U+10FFFF: the value only matters up to there */
		v = v > 0x10FFFF ? v : v * (hex ? 16 : 10) + d;
	}
	if (digits == 0)
		return 0;				/* "&#" or "&#x" alone: text */
	if (i < len && s[i] == ';')
		i++;
	if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		v = 0xFFFD;
	else if (v >= 0x80 && v <= 0x9F && tfp_html_cp1252[v - 0x80] != 0)
		v = tfp_html_cp1252[v - 0x80];
	*cp = v;
	return i;
}

size_t
tfp_html_charref(const char *s, size_t len, int in_attr, uint32_t cp[2], int *ncp)
{
	size_t		run = 0,
				l;
	const tfp_html_entity_def *e = NULL;

	if (len == 0)
		return 0;
	if (s[0] == '#')
	{
		*ncp = 1;
		cp[1] = 0;
		return numeric_ref(s, len, &cp[0]);
	}
	while (run < len && run < TFP_HTML_ENTITY_MAXLEN && is_alnum((unsigned char) s[run]))
		run++;
	if (run == 0)
		return 0;
	/* the longest name that matches: with ';' only the whole run can */
	if (run < len && s[run] == ';')
		e = entity_lookup(s, run + 1);
	for (l = run < TFP_HTML_ENTITY_MAXLEGACY ? run : TFP_HTML_ENTITY_MAXLEGACY;
		 e == NULL && l >= 2; l--)
		e = entity_lookup(s, l);
	if (e == NULL)
		return 0;
	if (in_attr && e->name[e->len - 1] != ';' && e->len < len &&
		(is_alnum((unsigned char) s[e->len]) || s[e->len] == '='))
		return 0;				/* "&amp=" or "&notit" in an attribute value */
	cp[0] = e->cp1;
	cp[1] = e->cp2;
	*ncp = e->cp2 ? 2 : 1;
	return e->len;
}

/* ------------------------------------------------------------------ */
/* choosing the paragraphs                                             */

enum
{
	CLS_DROP = 0,				/* dropped by the container rules */
	CLS_GOOD,					/* kept */
	CLS_BAD,					/* dropped: mostly links */
	CLS_SHORT					/* short, not links: decided by neighbours */
};

/* the end of the run of blocks from i with the same outermost form (or
 * article): the blocks inside one element are consecutive */
static size_t
run_end(const html_block *b, size_t n, size_t i, int article)
{
	size_t		j = i;

	while (j < n && (article ? b[j].article == b[i].article : b[j].form == b[i].form))
		j++;
	return j;
}

size_t
tfp_html_select(char *buf, html_block *b, size_t n, const tfp_html_opts *o)
{
	size_t		i,
				w = 0;
	uint64_t	total = 0,
				best = 0;
	int32_t		best_article = -1;
	int			prev_cls,
				any_good = 0;
	size_t		prev_kept = (size_t) -1;

	for (i = 0; i < n; i++)
	{
		b[i].cls = CLS_GOOD;
		total += b[i].chars;
	}
	if (o->boilerplate)
	{
		uint64_t	left = 0,
					in_main = 0;

		/* a form is dropped unless it holds half of the page's text */
		for (i = 0; i < n;)
		{
			size_t		j = run_end(b, n, i, 0);
			uint64_t	f = 0;

			if (b[i].form >= 0)
			{
				for (size_t k = i; k < j; k++)
					f += b[k].chars;
				if (f * 2 < total)
					for (size_t k = i; k < j; k++)
						b[k].cls = CLS_DROP;
			}
			i = j;
		}
		/* main content: <main>, else the largest outermost <article> */
		for (i = 0; i < n; i++)
			if (b[i].cls != CLS_DROP)
			{
				left += b[i].chars;
				if (b[i].main)
					in_main += b[i].chars;
			}
		if (o->main_content && left > 0)
		{
			if (in_main * 4 >= left)
			{
				for (i = 0; i < n; i++)
					if (!b[i].main)
						b[i].cls = CLS_DROP;
			}
			else
			{
				for (i = 0; i < n;)
				{
					size_t		j = run_end(b, n, i, 1);
					uint64_t	a = 0;

					if (b[i].article >= 0)
					{
						for (size_t k = i; k < j; k++)
							if (b[k].cls != CLS_DROP)
								a += b[k].chars;
						if (a > best)
						{
							best = a;
							best_article = b[i].article;
						}
					}
					i = j;
				}
				if (best_article >= 0 && best * 4 >= left)
					for (i = 0; i < n; i++)
						if (b[i].article != best_article)
							b[i].cls = CLS_DROP;
			}
		}
		/* link density */
		for (i = 0; i < n; i++)
		{
			if (b[i].cls == CLS_DROP)
				continue;
			if (b[i].links * 2 > b[i].chars)
				b[i].cls = CLS_BAD;
			else if (b[i].weight < TFP_HTML_SHORT)
				b[i].cls = CLS_SHORT;
			else
				any_good = 1;
		}
		/*
		 * A short paragraph goes when the nearest longer ones on both sides
		 * are bad or absent, at least one bad.  Forward pass: the class of
		 * the nearest non-short paragraph before, kept in cls's high bits.
		 */
		prev_cls = -1;
		for (i = 0; i < n; i++)
		{
			if (b[i].cls == CLS_DROP)
				continue;
			if (b[i].cls == CLS_SHORT)
				b[i].cls = (uint8_t) (CLS_SHORT | ((prev_cls == CLS_GOOD ? 1 :
													prev_cls == CLS_BAD ? 2 : 0) << 4));
			else
				prev_cls = b[i].cls;
		}
		prev_cls = -1;
		for (i = n; i-- > 0;)
		{
			int			before;

			if (b[i].cls == CLS_DROP)
				continue;
			if ((b[i].cls & 15) != CLS_SHORT)
			{
				prev_cls = b[i].cls;
				continue;
			}
			before = b[i].cls >> 4;		/* 0 none, 1 good, 2 bad */
			if (any_good && before != 1 && prev_cls != CLS_GOOD &&
				(before == 2 || prev_cls == CLS_BAD))
				b[i].cls = CLS_BAD;
			else
				b[i].cls = CLS_GOOD;
		}
	}
	/* join the kept paragraphs: LF between them, TAB between row cells */
	for (i = 0; i < n; i++)
	{
		size_t		len = b[i].end - b[i].start - 1;

		if (b[i].cls != CLS_GOOD)
			continue;
		if (prev_kept != (size_t) -1)
		{
			const html_block *p = &b[prev_kept];

			buf[w++] = (b[i].cell >= 0 && p->cell >= 0 && b[i].cell != p->cell &&
						b[i].row == p->row) ? '\t' : '\n';
		}
		memmove(buf + w, buf + b[i].start + 1, len);
		w += len;
		prev_kept = i;
	}
	return w;
}
