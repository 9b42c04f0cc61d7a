/*
 * tfp_html_tree.c -- html_text(), version 1: the elements and the stack of
 * open elements, and the paragraphs the text goes into (definition in
 * tfp_html.h; the tokenizer that calls these is tfp_html.c)
 *
 * Every element on the stack carries the state inside it (hidden,
 * boilerplate, preformatted, link, form, article, main, table cell) and the
 * stack positions of the nearest open p, li, dd/dt, a, cell and row that an
 * implied end would close, so a start tag finds what it closes in O(1); an
 * end tag closes the nearest open element of its name (known to exist from
 * per-name counts) and pops everything above it, so each element is popped
 * once.  Only end tags of unknown names whose hash bucket is in use may
 * search the stack without finding: at most TFP_HTML_MAX_DEPTH steps.
 */
#include <string.h>

#include "tfp_core.h"
#include "tfp_html_int.h"

#define BLK (F_BLOCK | F_PCLOSE)
#define BO F_BREAKOUT
/* sorted by name */
const html_tag tfp_html_tags[HTML_NTAGS] = {
	{"a", T_A, 0},
	{"address", T_ADDRESS, BLK},
	{"applet", T_GENERIC, F_SCOPE},
	{"area", T_GENERIC, F_VOID},
	{"article", T_ARTICLE, BLK | F_SECTION},
	{"aside", T_GENERIC, BLK | F_SECTION | F_BOILER},
	{"audio", T_GENERIC, F_HIDE},
	{"b", T_GENERIC, BO},
	{"base", T_GENERIC, F_VOID | F_HEADC},
	{"basefont", T_GENERIC, F_VOID | F_HEADC},
	{"bgsound", T_GENERIC, F_VOID | F_HEADC},
	{"big", T_GENERIC, BO},
	{"blockquote", T_GENERIC, BLK | BO},
	{"body", T_BODY, BO},
	{"br", T_BR, F_VOID | BO},
	{"button", T_GENERIC, F_BOILER | F_SCOPE},
	{"canvas", T_GENERIC, F_HIDE},
	{"caption", T_GENERIC, F_BLOCK | F_SCOPE},
	{"center", T_GENERIC, BLK | BO},
	{"code", T_GENERIC, BO},
	{"col", T_GENERIC, F_VOID},
	{"colgroup", T_GENERIC, 0},
	{"datalist", T_GENERIC, F_HIDE},
	{"dd", T_DD, F_BLOCK | BO},
	{"details", T_GENERIC, BLK},
	{"dialog", T_GENERIC, BLK | F_BOILER},
	{"dir", T_GENERIC, BLK},
	{"div", T_DIV, BLK | BO},
	{"dl", T_GENERIC, BLK | BO},
	{"dt", T_DT, F_BLOCK | BO},
	{"em", T_GENERIC, BO},
	{"embed", T_GENERIC, F_VOID | BO},
	{"fieldset", T_GENERIC, BLK},
	{"figcaption", T_GENERIC, BLK},
	{"figure", T_GENERIC, BLK},
	{"footer", T_GENERIC, BLK | F_BOILER},
	{"form", T_FORM, BLK},
	{"frame", T_GENERIC, F_VOID},
	{"frameset", T_GENERIC, F_BLOCK},
	{"h1", T_H1, BLK | BO},
	{"h2", T_H2, BLK | BO},
	{"h3", T_H3, BLK | BO},
	{"h4", T_H4, BLK | BO},
	{"h5", T_H5, BLK | BO},
	{"h6", T_H6, BLK | BO},
	{"head", T_HEAD, F_HIDE | BO},
	{"header", T_HEADER, BLK},
	{"hgroup", T_GENERIC, BLK},
	{"hr", T_GENERIC, F_VOID | BLK | BO},
	{"html", T_HTML, F_SCOPE},
	{"i", T_GENERIC, BO},
	{"iframe", T_GENERIC, F_RAW | F_HIDE},
	{"image", T_IMG, F_VOID},
	{"img", T_IMG, F_VOID | BO},
	{"input", T_GENERIC, F_VOID | F_BOILER},
	{"keygen", T_GENERIC, F_VOID},
	{"legend", T_GENERIC, F_BLOCK},
	{"li", T_LI, BLK | BO},
	{"link", T_GENERIC, F_VOID | F_HEADC},
	{"listing", T_LISTING, BLK | F_PRE | BO},
	{"main", T_MAIN, BLK | F_SECTION},
	{"marquee", T_GENERIC, F_SCOPE},
	{"math", T_MATH, 0},
	{"menu", T_GENERIC, BLK | BO},
	{"meta", T_GENERIC, F_VOID | F_HEADC | BO},
	{"nav", T_GENERIC, BLK | F_SECTION | F_BOILER},
	{"nobr", T_GENERIC, BO},
	{"noembed", T_GENERIC, F_RAW | F_HIDE},
	{"noframes", T_GENERIC, F_RAW | F_HIDE | F_HEADC},
	{"noscript", T_GENERIC, F_RAW | F_HIDE | F_HEADC},
	{"object", T_GENERIC, F_SCOPE},
	{"ol", T_GENERIC, BLK | BO},
	{"optgroup", T_OPTGROUP, F_BLOCK},
	{"option", T_OPTION, F_BLOCK},
	{"p", T_P, BLK | BO},
	{"param", T_GENERIC, F_VOID},
	{"plaintext", T_PLAINTEXT, BLK | F_PRE},
	{"pre", T_PRE, BLK | F_PRE | BO},
	{"ruby", T_GENERIC, BO},
	{"s", T_GENERIC, BO},
	{"script", T_SCRIPT, F_RAW | F_HIDE | F_HEADC},
	{"search", T_GENERIC, BLK | F_BOILER},
	{"section", T_GENERIC, BLK | F_SECTION},
	{"select", T_GENERIC, F_BOILER},
	{"small", T_GENERIC, BO},
	{"source", T_GENERIC, F_VOID},
	{"span", T_GENERIC, BO},
	{"strike", T_GENERIC, BO},
	{"strong", T_GENERIC, BO},
	{"style", T_GENERIC, F_RAW | F_HIDE | F_HEADC},
	{"sub", T_GENERIC, BO},
	{"summary", T_GENERIC, BLK},
	{"sup", T_GENERIC, BO},
	{"svg", T_SVG, F_BOILER},
	{"table", T_TABLE, BLK | F_SCOPE | BO},
	{"tbody", T_GENERIC, F_BLOCK},
	{"td", T_TD, F_BLOCK | F_SCOPE},
	{"template", T_GENERIC, F_HIDE | F_SCOPE | F_HEADC},
	{"textarea", T_TEXTAREA, F_RCDATA | F_BLOCK | F_PRE | F_BOILER},
	{"tfoot", T_GENERIC, F_BLOCK},
	{"th", T_TH, F_BLOCK | F_SCOPE},
	{"thead", T_GENERIC, F_BLOCK},
	{"title", T_TITLE, F_RCDATA | F_BLOCK | F_HEADC},
	{"tr", T_TR, F_BLOCK},
	{"track", T_GENERIC, F_VOID},
	{"tt", T_GENERIC, BO},
	{"u", T_GENERIC, BO},
	{"ul", T_GENERIC, BLK | BO},
	{"var", T_GENERIC, BO},
	{"video", T_GENERIC, F_HIDE},
	{"wbr", T_GENERIC, F_VOID},
	{"xmp", T_XMP, F_RAW | BLK | F_PRE}
};
#undef BLK
#undef BO

/* the index in tfp_html_tags[] of a lower-case name, or -1 */
int
tfp_html_tag_lookup(const char *name, size_t n)
{
	int			lo = 0,
				hi = HTML_NTAGS;

	if (n == 0 || n > 10)
		return -1;
	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;
		const char *t = tfp_html_tags[mid].name;
		size_t		tl = strlen(t);
		int			c = memcmp(t, name, tl < n ? tl : n);

		if (c == 0)
			c = (tl > n) - (tl < n);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* memory                                                              */

int
tfp_html_reserve(html_ctx *c, void **p, size_t *cap, size_t need, size_t unit)
{
	size_t		ncap;
	void	   *np;

	if (c->failed)
		return 0;
	if (need <= *cap)
		return 1;
	ncap = *cap ? *cap : 256;
	while (ncap < need)
	{
		if (ncap > SIZE_MAX / 2 / unit)
		{
			c->failed = 1;
			return 0;
		}
		ncap *= 2;
	}
	np = c->a->grow(c->a->ctx, *p, ncap * unit);
	if (np == NULL)
	{
		c->failed = 1;
		return 0;
	}
	*p = np;
	*cap = ncap;
	return 1;
}

static inline void
put_bytes(html_ctx *c, const void *s, size_t n)
{
	if (c->blen + n > c->bcap &&
		!tfp_html_reserve(c, (void **) &c->buf, &c->bcap, c->blen + n, 1))
		return;
	memcpy(c->buf + c->blen, s, n);
	c->blen += n;
}

static inline void
put_cp(html_ctx *c, uint32_t cp)
{
	unsigned char u[4];

	put_bytes(c, u, (size_t) tfp_utf8_encode(cp, u));
}

/* ------------------------------------------------------------------ */
/* paragraphs                                                          */

/* CJK characters: a line break between two of them is no space (CSS Text) */
static int
is_cjk(uint32_t c)
{
	return (c >= 0x2E80 && c <= 0x303E) || (c >= 0x3041 && c <= 0x33FF) ||
		(c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) ||
		(c >= 0xA000 && c <= 0xA4CF) || (c >= 0xF900 && c <= 0xFAFF) ||
		(c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
		(c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x20000 && c <= 0x3FFFD);
}

static void
open_block(html_ctx *c)
{
	html_elem  *e = cur(c);

	c->open = 1;
	c->bstart = c->blen;
	put_bytes(c, "\n", 1);		/* room for the separator */
	c->chars = c->links = c->weight = 0;
	c->pending = 0;
	c->last = 0;
	if (c->nblocks == c->cblocks &&
		!tfp_html_reserve(c, (void **) &c->blocks, &c->cblocks, c->nblocks + 1, sizeof(html_block)))
		return;
	c->blocks[c->nblocks].form = e->form;
	c->blocks[c->nblocks].article = e->article;
	c->blocks[c->nblocks].row = e->row;
	c->blocks[c->nblocks].cell = e->cell;
	c->blocks[c->nblocks].main = e->main;
}

void
tfp_html_break_block(html_ctx *c)
{
	if (!c->open || c->failed)
		return;
	/* trailing white space of preformatted text */
	while (c->blen > c->bstart + 1 &&
		   (c->buf[c->blen - 1] == ' ' || c->buf[c->blen - 1] == '\t' ||
			c->buf[c->blen - 1] == '\n' || c->buf[c->blen - 1] == '\f'))
		c->blen--;
	if (c->chars > 0)
	{
		html_block *b = &c->blocks[c->nblocks++];

		b->start = c->bstart;
		b->end = c->blen;
		b->chars = c->chars;
		b->links = c->links;
		b->weight = c->weight;
		b->cls = 0;
	}
	else
		c->blen = c->bstart;
	c->open = 0;
	c->pending = 0;
}

static inline int
suppressed(html_ctx *c, const html_elem *e)
{
	return e->hide || (c->o->boilerplate && e->boiler);
}

static void close_head(html_ctx *c);

/* one character of text */
void
tfp_html_text_cp(html_ctx *c, uint32_t cp)
{
	html_elem  *e = cur(c);

	if (cp == 0)
		return;
	if (e->tag == c->ix_head && !html_is_space(cp))
	{
		/* text directly in <head> ends it */
		close_head(c);
		e = cur(c);
	}
	if (suppressed(c, e))
		return;
	if (e->pre)
	{
		if (!c->open)
			open_block(c);
		if (html_is_space(cp))
		{
			char		ws = (cp == '\n' || cp == '\t') ? (char) cp : ' ';

			put_bytes(c, &ws, 1);
			return;
		}
	}
	else if (html_is_space(cp))
	{
		if (c->pending < 3)
			c->pending = (cp == '\n' || c->pending == 2) ? 2 : 1;
		return;
	}
	if (!c->open)
		open_block(c);
	else if (c->chars > 0 && !e->pre)
	{
		if (c->pending == 3)
			put_bytes(c, "\n", 1);
		else if (c->pending == 1 || (c->pending == 2 && !(is_cjk(c->last) && is_cjk(cp))))
			put_bytes(c, " ", 1);
	}
	c->pending = 0;
	put_cp(c, cp);
	c->chars++;
	c->weight += is_cjk(cp) ? 2 : 1;
	if (e->link)
		c->links++;
	c->last = cp;
}

/* ------------------------------------------------------------------ */
/* the stack of open elements                                          */

/* pop the elements at stack positions >= at */
static void
pop_to(html_ctx *c, int at)
{
	int			blk = 0;

	if (at < 0)
		return;
	while (c->depth > at)
	{
		html_elem  *e = &c->stack[--c->depth];

		if (e->tag >= 0)
			c->count[e->tag]--;
		else
			c->other[e->hash % OTHER_BUCKETS]--;
		if (tflags(e->tag) & F_BLOCK)
			blk = 1;
	}
	if (blk)
		tfp_html_break_block(c);
}

static void
close_head(html_ctx *c)
{
	for (int k = c->depth - 1; k >= 0; k--)
		if (c->stack[k].tag == c->ix_head)
		{
			pop_to(c, k);
			return;
		}
}

/* is the ASCII word s[0..n) (lower case) in the sorted list? */
static int
word_in(const char *s, size_t n, const char *const *list, int count)
{
	int			lo = 0,
				hi = count;

	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;
		size_t		l = strlen(list[mid]);
		int			r = memcmp(list[mid], s, l < n ? l : n);

		if (r == 0)
			r = (l > n) - (l < n);
		if (r == 0)
			return 1;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

#define COUNTOF(a) ((int) (sizeof(a) / sizeof((a)[0])))

/* class and id tokens of boilerplate containers, and of content (sorted) */
static const char *const boiler_words[] = {
	"ad", "ads", "adsbygoogle", "advert", "advertisement", "advertising", "banner",
	"breadcrumb", "breadcrumbs", "comment", "comments", "cookie", "cookies", "disqus",
	"footer", "header", "masthead", "menu", "nav", "navbar", "navigation", "newsletter",
	"outbrain", "pager", "pagination", "popup", "promo", "related", "share", "sharing",
	"social", "sponsor", "sponsored", "subscribe", "taboola", "toolbar",
	"topbar", "widget"
};
static const char *const content_words[] = {
	"article", "body", "content", "entry", "main", "post", "story"
};
static const char *const boiler_roles[] = {
	"alertdialog", "banner", "complementary", "contentinfo", "dialog", "menu",
	"menubar", "navigation", "search", "toolbar"
};

/* 1 if a class/id value has a boilerplate token, 2 if a content token */
static int
class_words(const char *s, size_t n)
{
	int			r = 0;
	size_t		i = 0;

	while (i < n)
	{
		char		w[16];
		size_t		l = 0;

		while (i < n && !is_alnum_c(s[i]))
			i++;
		while (i < n && is_alnum_c(s[i]))
		{
			if (l < sizeof(w))
				w[l] = lower(s[i]);
			l++;
			i++;
		}
		if (l == 0 || l > sizeof(w))
			continue;
		if (word_in(w, l, content_words, COUNTOF(content_words)))
			r |= 2;
		else if (word_in(w, l, boiler_words, COUNTOF(boiler_words)))
			r |= 1;
	}
	return r;
}

/* the first token of a role value, lower case, into w (at most 16) */
size_t
tfp_html_first_token(const char *s, size_t n, char *w)
{
	size_t		i = 0,
				l = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r'))
		i++;
	while (i < n && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r'))
	{
		if (l < 16)
			w[l] = lower(s[i]);
		l++;
		i++;
	}
	return l;
}

/* does s contain pat (lower case, no spaces), ignoring case and white space? */
static int
style_has(const char *s, size_t n, const char *pat)
{
	size_t		m = strlen(pat);

	for (size_t i = 0; i < n; i++)
	{
		size_t		j = i,
					k = 0;

		while (j < n && k < m)
		{
			if (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\f' || s[j] == '\r')
			{
				j++;
				continue;
			}
			if (lower(s[j]) != pat[k])
				break;
			j++;
			k++;
		}
		if (k == m)
			return 1;
	}
	return 0;
}

/* open an element; returns 0 if the stack is full (the element is flattened) */
static int
push(html_ctx *c, int tag, uint16_t hash, const html_attrs *at)
{
	html_elem  *p = cur(c),
			   *e;
	uint16_t	f = tflags(tag);
	int			id = tid(tag),
				d = c->depth,
				special;

	if (d >= TFP_HTML_MAX_DEPTH)
		return 0;
	e = &c->stack[d];
	*e = *p;
	e->tag = (int16_t) tag;
	e->hash = hash;
	if (f & F_HIDE)
		e->hide = 1;
	if (id == T_TITLE)
		e->hide = c->o->boilerplate ? 1 : 0;
	if ((f & F_BOILER) || (id == T_HEADER && !p->section))
		e->boiler = 1;
	if (f & F_SECTION)
		e->section = 1;
	if (f & F_PRE)
		e->pre = 1;
	if (id == T_SVG || id == T_MATH)
		e->foreign = 1;
	if (id == T_A)
		e->link = at->href ? 1 : 0;
	if (id == T_MAIN)
		e->main = 1;
	if (at->set[A_ROLE])
	{
		char		w[16];
		size_t		l = tfp_html_first_token(c->scratch + at->off[A_ROLE], at->len[A_ROLE], w);

		if (l <= 16 && word_in(w, l, boiler_roles, COUNTOF(boiler_roles)))
			e->boiler = 1;
		else if (l == 4 && memcmp(w, "main", 4) == 0)
			e->main = 1;
		else if (l == 7 && memcmp(w, "article", 7) == 0 && p->article < 0)
			e->article = c->narticles++;
	}
	if (at->hidden || at->aria_hidden)
		e->boiler = 1;
	if (at->set[A_STYLE] &&
		(style_has(c->scratch + at->off[A_STYLE], at->len[A_STYLE], "display:none") ||
		 style_has(c->scratch + at->off[A_STYLE], at->len[A_STYLE], "visibility:hidden")))
		e->boiler = 1;
	if ((at->set[A_CLASS] || at->set[A_ID]) && id != T_HTML && id != T_BODY &&
		id != T_MAIN && id != T_ARTICLE)
	{
		int			w = 0;

		if (at->set[A_CLASS])
			w |= class_words(c->scratch + at->off[A_CLASS], at->len[A_CLASS]);
		if (at->set[A_ID])
			w |= class_words(c->scratch + at->off[A_ID], at->len[A_ID]);
		if (w == 1)
			e->boiler = 1;
	}
	if (id == T_ARTICLE && p->article < 0)
		e->article = c->narticles++;
	if (id == T_FORM && p->form < 0)
		e->form = c->nforms++;
	if (id == T_TABLE)
		e->row = e->cell = -1;
	if (id == T_TR)
	{
		e->row = c->nrows++;
		e->cell = -1;
	}
	if (id == T_TD || id == T_TH)
	{
		if (p->row < 0)
			e->row = c->nrows++;
		e->cell = c->ncells++;
	}
	special = (f & (F_BLOCK | F_SCOPE)) && id != T_ADDRESS && id != T_DIV && id != T_P;
	e->p_at = (int16_t) (id == T_P ? d : (f & F_SCOPE) ? -1 : p->p_at);
	e->li_at = (int16_t) (id == T_LI ? d : special ? -1 : p->li_at);
	e->dd_at = (int16_t) ((id == T_DD || id == T_DT) ? d : special ? -1 : p->dd_at);
	e->a_at = (int16_t) (id == T_A ? d : (f & F_SCOPE) ? -1 : p->a_at);
	e->cell_at = (int16_t) ((id == T_TD || id == T_TH) ? d : id == T_TABLE ? -1 : p->cell_at);
	e->tr_at = (int16_t) (id == T_TR ? d : id == T_TABLE ? -1 : p->tr_at);
	if (tag >= 0)
		c->count[tag]++;
	else
		c->other[hash % OTHER_BUCKETS]++;
	c->depth++;
	return 1;
}

static void
do_br(html_ctx *c)
{
	html_elem  *e = cur(c);

	if (suppressed(c, e))
		return;
	if (e->pre)
	{
		if (!c->open)
			open_block(c);
		put_bytes(c, "\n", 1);
	}
	else if (c->open && c->chars > 0)
		c->pending = 3;
}

static int
is_heading(int id)
{
	return id >= T_H1 && id <= T_H6;
}

size_t
tfp_html_start_tag(html_ctx *c, int t, uint16_t hash, html_attrs *at, int selfclose, size_t pos)
{
	html_elem  *e = cur(c);
	uint16_t	f = tflags(t);
	int			id = tid(t);

	if (e->foreign)
	{
		if (!(f & F_BREAKOUT))
		{
			/* an element of svg/math: generic, self-closing honoured */
			if (!selfclose)
				push(c, -1, hash, at);
			return pos;
		}
		while (c->depth > 0 && cur(c)->foreign)
			pop_to(c, c->depth - 1);
	}
	if (id == T_HTML || id == T_BODY || (id == T_HEAD && c->count[c->ix_head]))
	{
		if (id == T_BODY)
			close_head(c);
		return pos;
	}
	if (c->count[c->ix_head] && !(f & F_HEADC))
		close_head(c);
	e = cur(c);
	/* implied ends */
	if ((f & F_PCLOSE) && e->p_at >= 0)
		pop_to(c, e->p_at);
	e = cur(c);
	if (id == T_LI)
		pop_to(c, e->li_at);
	else if (id == T_DD || id == T_DT)
		pop_to(c, e->dd_at);
	else if (id == T_TD || id == T_TH)
		pop_to(c, e->cell_at);
	else if (id == T_TR)
	{
		pop_to(c, e->cell_at);
		pop_to(c, cur(c)->tr_at);
	}
	else if (id == T_A)
		pop_to(c, e->a_at);
	else if (id == T_OPTION || id == T_OPTGROUP)
	{
		if (tid(cur(c)->tag) == T_OPTION && c->depth > 0)
			pop_to(c, c->depth - 1);
		if (id == T_OPTGROUP && tid(cur(c)->tag) == T_OPTGROUP && c->depth > 0)
			pop_to(c, c->depth - 1);
	}
	else if (is_heading(id) && c->depth > 0 && is_heading(tid(cur(c)->tag)))
		pop_to(c, c->depth - 1);
	if (f & F_BLOCK)
		tfp_html_break_block(c);
	if (id == T_BR)
	{
		do_br(c);
		return pos;
	}
	if (id == T_IMG && c->o->alt_text && at->set[A_ALT] && !suppressed(c, cur(c)))
	{
		const char *s = c->scratch + at->off[A_ALT];
		size_t		n = at->len[A_ALT],
					i = 0;

		while (i < n)
		{
			uint32_t	cp;

			i += tfp_utf8_decode((const unsigned char *) s + i, n - i, &cp);
			tfp_html_text_cp(c, cp == '\r' ? '\n' : cp);
		}
		return pos;
	}
	if (f & F_VOID)
		return pos;
	if (!push(c, t, hash, at))
		return pos;
	if ((id == T_SVG || id == T_MATH) && selfclose)
		pop_to(c, c->depth - 1);
	else if (f & (F_RAW | F_RCDATA))
		return tfp_html_raw_content(c, t, pos);
	else if (id == T_PLAINTEXT)
	{
		tfp_html_emit_text(c, pos, c->len, 0);
		return c->len;
	}
	else if (id == T_PRE || id == T_LISTING)
		return tfp_html_skip_lf(c, pos, c->len);
	return pos;
}

void
tfp_html_end_tag(html_ctx *c, int t, uint16_t hash)
{
	html_elem  *e = cur(c);
	int			id = tid(t),
				k;

	if (e->foreign && id != T_SVG && id != T_MATH)
	{
		for (k = c->depth - 1; k >= 0 && c->stack[k].foreign; k--)
			if (c->stack[k].tag < 0 && c->stack[k].hash == hash)
			{
				pop_to(c, k);
				return;
			}
	}
	if (t < 0)
	{
		if (c->other[hash % OTHER_BUCKETS] == 0)
			return;
		for (k = c->depth - 1; k >= 0; k--)
			if (c->stack[k].tag < 0 && c->stack[k].hash == hash)
			{
				pop_to(c, k);
				return;
			}
		return;
	}
	if (id == T_BR)
	{
		do_br(c);
		return;
	}
	if (id == T_HTML || id == T_BODY)
		return;
	if (id == T_P && e->p_at < 0)
	{
		tfp_html_break_block(c);			/* </p> without <p>: an empty paragraph */
		return;
	}
	if (c->count[t] == 0)
		return;
	for (k = c->depth - 1; k >= 0; k--)
		if (c->stack[k].tag == t)
		{
			pop_to(c, k);
			return;
		}
}
