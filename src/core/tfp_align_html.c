/*
 * tfp_align_html.c -- the side-by-side HTML comparison of two texts with
 * their matching passages (tfp_align_html(), the style sheet).  Pure C.
 *
 * Output: a summary line, a list of the passages (positions in both texts,
 * linked), and a two-column table with the texts, each passage a <mark> of
 * the same colour on both sides (eight colours in turn), numbered, its
 * number a link to its counterpart.  The markup is ASCII (non-ASCII
 * punctuation of the markup as character references), so the output is
 * valid in any encoding the texts came from; the texts are escaped, and a
 * byte that is not valid UTF-8, a control character other than tab and
 * line breaks, or a noncharacter is written as U+FFFD.  Line breaks become
 * <br/>.  Written twice: once to measure (out = NULL), once to fill.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "tfp_core.h"
#include "tfp_align.h"

#define NCOLOURS	8

typedef struct hw
{
	char	   *out;			/* NULL: measure only */
	size_t		len;
	size_t		max;
	int			over;			/* max exceeded */
	void		(*tick) (void);
	size_t		next_tick;
} hw;

static void
put(hw *w, const char *s, size_t n)
{
	if (w->over)
		return;
	if (n > w->max - w->len)
	{
		w->over = 1;
		return;
	}
	if (w->out)
		memcpy(w->out + w->len, s, n);
	w->len += n;
	if (w->len >= w->next_tick)
	{
		w->next_tick = w->len + 65536;
		if (w->tick)
			w->tick();
	}
}

static void
puts_(hw *w, const char *s)
{
	put(w, s, strlen(s));
}

static void
putu(hw *w, uint64_t v)
{
	char		b[24];

	put(w, b, (size_t) snprintf(b, sizeof(b), "%llu", (unsigned long long) v));
}

/* a share as a percentage with one decimal, rounded */
static void
put_percent(hw *w, uint64_t part, uint64_t whole)
{
	uint64_t	pm = whole ? (part * 1000 + whole / 2) / whole : 0;
	char		b[32];

	put(w, b, (size_t) snprintf(b, sizeof(b), "%llu.%llu%%",
								(unsigned long long) (pm / 10),
								(unsigned long long) (pm % 10)));
}

static int
bad_cp(uint32_t cp)
{
	if (cp < 0x20)
		return cp != '\t' && cp != '\n' && cp != '\r';
	if (cp >= 0x7F && cp <= 0x9F)
		return 1;
	if (cp >= 0xFDD0 && cp <= 0xFDEF)
		return 1;
	return (cp & 0xFFFE) == 0xFFFE;
}

/* bytes [from, to) of s, escaped; a line break (LF, CR LF or CR) as <br/>
 * (br) or a space */
static void
put_text_br(hw *w, const char *s, size_t from, size_t to, int br)
{
	const char *nl = br ? "<br/>\n" : " ";
	const unsigned char *u = (const unsigned char *) s;
	size_t		i = from,
				plain = from;

	while (i < to)
	{
		unsigned char c = u[i];
		const char *rep = NULL;
		size_t		n = 1;

		if (c >= 0x20 && c < 0x7F)
		{
			if (c == '&')
				rep = "&amp;";
			else if (c == '<')
				rep = "&lt;";
			else if (c == '>')
				rep = "&gt;";
			else if (c == '"')
				rep = "&quot;";
			else if (c == '\'')
				rep = "&#39;";
		}
		else if (c == '\n')
			rep = nl;
		else if (c == '\r')
		{
			rep = nl;
			if (i + 1 < to && u[i + 1] == '\n')
				n = 2;
		}
		else if (c == '\t')
			rep = NULL;
		else
		{
			uint32_t	cp;

			/* a control, a noncharacter, or an invalid byte (decoded as
			 * U+FFFD from one byte) */
			n = c < 0x80 ? 1 : tfp_utf8_decode(u + i, to - i, &cp);
			if (c < 0x80 || bad_cp(cp) || (cp == 0xFFFD && n == 1))
				rep = "&#xFFFD;";
		}
		if (rep)
		{
			put(w, s + plain, i - plain);
			puts_(w, rep);
			plain = i + n;
		}
		i += n;
	}
	put(w, s + plain, i - plain);
}

static void
put_text(hw *w, const char *s, size_t from, size_t to)
{
	put_text_br(w, s, from, to, 1);
}

/* a title: escaped, line breaks as spaces */
static void
put_title(hw *w, const char *s, size_t len)
{
	put_text_br(w, s, 0, len, 0);
}

/* byte offset after `count` code points from `from` (not beyond to) */
static size_t
skip_chars(const char *s, size_t from, size_t to, uint64_t count)
{
	const unsigned char *u = (const unsigned char *) s;
	uint32_t	cp;

	while (from < to && count > 0)
	{
		from += u[from] < 0x80 ? 1 : tfp_utf8_decode(u + from, to - from, &cp);
		count--;
	}
	return from;
}

static uint64_t
count_chars(const char *s, size_t from, size_t to)
{
	const unsigned char *u = (const unsigned char *) s;
	uint64_t	n = 0;
	uint32_t	cp;

	while (from < to)
	{
		from += u[from] < 0x80 ? 1 : tfp_utf8_decode(u + from, to - from, &cp);
		n++;
	}
	return n;
}

/*
 * Text outside the passages, [from, to): all of it (context < 0), or
 * context characters after the passage before it (if any) and before the
 * passage after it (if any; with no passage at all, the first context
 * characters), the rest elided.
 */
static void
put_gap(hw *w, const char *s, size_t from, size_t to, int context,
		int after_passage, int before_passage)
{
	uint64_t	n,
				head,
				tail;
	size_t		h,
				t;

	if (context < 0 || from >= to)
	{
		put_text(w, s, from, to);
		return;
	}
	n = count_chars(s, from, to);
	head = after_passage || !before_passage ? (uint64_t) context : 0;
	tail = before_passage ? (uint64_t) context : 0;
	if (head + tail >= n)
	{
		put_text(w, s, from, to);
		return;
	}
	h = skip_chars(s, from, to, head);
	t = skip_chars(s, h, to, n - head - tail);
	put_text(w, s, from, h);
	puts_(w, "<span class=\"textfp-elided\">[&#8230; ");
	putu(w, n - head - tail);
	puts_(w, n - head - tail == 1 ? " character &#8230;]</span>" : " characters &#8230;]</span>");
	put_text(w, s, t, to);
}

/* the id of passage num on a side: <prefix>-a<num> or <prefix>-b<num> */
static void
put_name(hw *w, const char *id, const char *side, uint64_t num)
{
	puts_(w, id);
	puts_(w, "-");
	puts_(w, side);
	putu(w, num);
}

/* One side's text with its passages marked (side 0: a, 1: b). */
static void
put_side(hw *w, const char *s, size_t len, const tfp_align_result *r,
		 int side, const char *id, int context, tfp_align_order *order)
{
	size_t		pos = 0;
	const char *self = side ? "b" : "a",
			   *other = side ? "a" : "b";

	tfp_align_sort_side(r, side, order);
	for (size_t q = 0; q < r->n; q++)
	{
		const tfp_align_passage *p = &r->p[order[q].idx];
		size_t		start = side ? p->b_start : p->a_start,
					end = side ? p->b_end : p->a_end;
		uint32_t	num = order[q].idx + 1;

		/* a passage list from elsewhere may be out of bounds or overlap */
		if (start > len)
			start = len;
		if (start < pos)
			start = pos;
		if (end > len)
			end = len;
		if (end < start)
			end = start;
		put_gap(w, s, pos, start, context, q > 0, 1);
		puts_(w, "<mark class=\"textfp-p textfp-c");
		putu(w, order[q].idx % NCOLOURS);
		puts_(w, "\" id=\"");
		put_name(w, id, self, num);
		puts_(w, "\"><a class=\"textfp-n\" href=\"#");
		put_name(w, id, other, num);
		puts_(w, "\">");
		putu(w, num);
		puts_(w, "</a>");
		put_text(w, s, start, end);
		puts_(w, "</mark>");
		pos = end;
	}
	put_gap(w, s, pos, len, context, r->n > 0, 0);
}

/* a link to passage num on a side, showing its title and characters */
static void
put_link(hw *w, const char *id, const char *side, uint64_t num, const char *title,
		 size_t tlen, uint32_t cstart, uint32_t clen)
{
	puts_(w, "<a href=\"#");
	put_name(w, id, side, num);
	puts_(w, "\">");
	put_title(w, title, tlen);
	puts_(w, " ");
	putu(w, (uint64_t) cstart + 1);
	puts_(w, "&#8211;");
	putu(w, (uint64_t) cstart + clen);
	puts_(w, "</a>");
}

/* "12.5% of <title> is found in <other title>" */
static void
put_share(hw *w, uint64_t covered, uint64_t total, const char *of, size_t of_len,
		  const char *in, size_t in_len)
{
	put_percent(w, covered, total);
	puts_(w, " of ");
	put_title(w, of, of_len);
	puts_(w, " is found in ");
	put_title(w, in, in_len);
}

static void
put_fragment(hw *w, const char *a, size_t alen, const char *b, size_t blen,
			 const tfp_align_result *r, const tfp_html_opts *o, const char *id,
			 tfp_align_order *order)
{
	puts_(w, "<div class=\"textfp-compare\" id=\"");
	puts_(w, id);
	puts_(w, "\">\n<p class=\"textfp-summary\">");
	putu(w, r->n);
	puts_(w, r->n == 1 ? " passage" : " passages");
	puts_(w, " in common: ");
	put_share(w, r->b_covered, r->b_total, o->b_title, o->b_title_len,
			  o->a_title, o->a_title_len);
	puts_(w, ", ");
	put_share(w, r->a_covered, r->a_total, o->a_title, o->a_title_len,
			  o->b_title, o->b_title_len);
	puts_(w, ".</p>\n");
	if (r->n > 0)
	{
		puts_(w, "<ol class=\"textfp-list\">\n");
		for (size_t k = 0; k < r->n; k++)
		{
			const tfp_align_passage *p = &r->p[k];

			puts_(w, "<li class=\"textfp-c");
			putu(w, k % NCOLOURS);
			puts_(w, "\">");
			put_link(w, id, "a", k + 1, o->a_title, o->a_title_len, p->a_cstart, p->a_clen);
			puts_(w, " &#8596; ");
			put_link(w, id, "b", k + 1, o->b_title, o->b_title_len, p->b_cstart, p->b_clen);
			puts_(w, ": ");
			put_percent(w, 2 * (uint64_t) p->matched, (uint64_t) p->a_len + p->b_len);
			puts_(w, " the same</li>\n");
		}
		puts_(w, "</ol>\n");
	}
	puts_(w, "<table class=\"textfp-columns\">\n<thead><tr><th>");
	put_title(w, o->a_title, o->a_title_len);
	puts_(w, "</th><th>");
	put_title(w, o->b_title, o->b_title_len);
	puts_(w, "</th></tr></thead>\n<tbody><tr><td class=\"textfp-text textfp-a\">");
	put_side(w, a, alen, r, 0, id, o->context, order);
	puts_(w, "</td>\n<td class=\"textfp-text textfp-b\">");
	put_side(w, b, blen, r, 1, id, o->context, order);
	puts_(w, "</td></tr></tbody>\n</table>\n</div>\n");
}

static const char css[] =
".textfp-compare{font-family:sans-serif;line-height:1.6;color:#222;background:#fff}\n"
".textfp-compare .textfp-summary{font-weight:bold;margin:.5em 0}\n"
".textfp-compare .textfp-list{margin:.5em 0 1em;padding-left:2.5em;font-size:90%}\n"
".textfp-compare .textfp-list li{margin:.15em 0;padding:0 .3em}\n"
".textfp-compare .textfp-list a{color:inherit}\n"
".textfp-compare table.textfp-columns{width:100%;border-collapse:collapse;table-layout:fixed}\n"
".textfp-compare .textfp-columns th{text-align:left;background:#f0f0f0;padding:.3em .5em;border:1px solid #ccc}\n"
".textfp-compare .textfp-text{vertical-align:top;padding:.5em;border:1px solid #ccc;overflow-wrap:anywhere}\n"
".textfp-compare mark.textfp-p{color:inherit;padding:0 .1em;border-radius:2px}\n"
".textfp-compare mark.textfp-p:target{outline:2px solid #c00}\n"
".textfp-compare .textfp-n{font-size:70%;vertical-align:super;font-weight:bold;color:#000;text-decoration:none;margin-right:.2em}\n"
".textfp-compare .textfp-elided{color:#888;font-style:italic}\n"
".textfp-compare .textfp-c0{background:#ffe08a}\n"
".textfp-compare .textfp-c1{background:#a8e6cf}\n"
".textfp-compare .textfp-c2{background:#ffc3a0}\n"
".textfp-compare .textfp-c3{background:#b5d8ff}\n"
".textfp-compare .textfp-c4{background:#e0c3fc}\n"
".textfp-compare .textfp-c5{background:#d4f08a}\n"
".textfp-compare .textfp-c6{background:#ffb3c6}\n"
".textfp-compare .textfp-c7{background:#9ee8e8}\n";

const char *
tfp_align_css(void)
{
	return css;
}

size_t
tfp_align_html(char *out, size_t max_len, const char *a, size_t alen,
			   const char *b, size_t blen, const tfp_align_result *r,
			   const tfp_html_opts *o, const tfp_align_env *env)
{
	hw			w;
	char		id[80];
	tfp_align_order small[16];
	tfp_align_order *order = small;
	size_t		n = 0;

	memset(&w, 0, sizeof(w));
	w.out = out;
	w.max = max_len;
	w.tick = env->tick;
	w.next_tick = 65536;

	/* the id prefix: the caller's (letters, digits, '-', '_' kept), or a
	 * hash of the texts and the passages */
	if (o->id != NULL)
	{
		for (const char *c = o->id; *c && n < sizeof(id) - 1; c++)
			id[n++] = ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
					   (*c >= '0' && *c <= '9') || *c == '_') ? *c : '-';
	}
	if (n == 0)
	{
		uint64_t	h = XXH3_64bits_withSeed(b, blen, XXH3_64bits(a, alen));

		for (size_t k = 0; k < r->n; k++)
			h = XXH3_64bits_withSeed(&r->p[k], sizeof(tfp_align_passage), h);
		n = (size_t) snprintf(id, sizeof(id), "textfp-%016llx", (unsigned long long) h);
	}
	id[n] = '\0';

	if (r->n > sizeof(small) / sizeof(small[0]))
	{
		order = env->alloc(env->arg, r->n * sizeof(tfp_align_order));
		if (order == NULL)
			return SIZE_MAX;
	}
	if (o->page)
	{
		puts_(&w, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\"/>\n<title>textfp: ");
		put_title(&w, o->a_title, o->a_title_len);
		puts_(&w, " and ");
		put_title(&w, o->b_title, o->b_title_len);
		puts_(&w, "</title>\n<style>\n");
		puts_(&w, css);
		puts_(&w, "</style>\n</head>\n<body>\n");
	}
	put_fragment(&w, a, alen, b, blen, r, o, id, order);
	if (o->page)
		puts_(&w, "</body>\n</html>\n");
	if (order != small && env->free)
		env->free(env->arg, order);
	return w.over ? SIZE_MAX : w.len;
}
