/*
 * tfp_html.c -- html_text(), version 1: the tokenizer and the stack of open
 * elements, which turn an HTML document into paragraphs of text with what
 * the boilerplate rules need (definition in tfp_html.h; the choice of
 * paragraphs is tfp_html_select.c)
 *
 * One pass over the input.  Every element on the stack carries the state
 * inside it (hidden, boilerplate, preformatted, link, form, article, main,
 * table cell) and the stack positions of the nearest open p, li, dd/dt, a,
 * cell and row that an implied end would close, so a start tag finds what
 * it closes in O(1); an end tag closes the nearest open element of its name
 * (known to exist from per-name counts) and pops everything above it, so
 * each element is popped once.  Only end tags of unknown names whose hash
 * bucket is in use may search the stack without finding: at most
 * TFP_HTML_MAX_DEPTH steps.  Time is linear in the input.
 */
#include <string.h>

#include "tfp_core.h"
#include "tfp_html_int.h"

/* ------------------------------------------------------------------ */
/* elements                                                            */

enum
{
	F_VOID = 1 << 0,			/* no content, never opened */
	F_BLOCK = 1 << 1,			/* starts and ends a paragraph */
	F_RAW = 1 << 2,				/* raw text content */
	F_RCDATA = 1 << 3,			/* text content with references */
	F_HIDE = 1 << 4,			/* content never shown */
	F_BOILER = 1 << 5,			/* boilerplate container */
	F_PRE = 1 << 6,				/* white space kept */
	F_PCLOSE = 1 << 7,			/* its start tag closes an open p */
	F_SCOPE = 1 << 8,			/* boundary of the p and a scopes */
	F_SECTION = 1 << 9,			/* a header inside is not the page's */
	F_HEADC = 1 << 10,			/* may stand in <head> */
	F_BREAKOUT = 1 << 11		/* ends svg/math content */
};

enum
{
	T_OTHER = 0, T_A, T_ADDRESS, T_ARTICLE, T_BODY, T_BR, T_DD, T_DIV, T_DT,
	T_FORM, T_H1, T_H2, T_H3, T_H4, T_H5, T_H6, T_HEAD, T_HEADER, T_HTML,
	T_IMG, T_LI, T_LISTING, T_MAIN, T_MATH, T_OPTGROUP, T_OPTION, T_P,
	T_PLAINTEXT, T_PRE, T_SCRIPT, T_SVG, T_TABLE, T_TD, T_TEXTAREA, T_TH,
	T_TITLE, T_TR, T_XMP, T_GENERIC		/* T_GENERIC: known, no own id */
};

typedef struct html_tag
{
	const char *name;
	uint8_t		id;
	uint16_t	flags;
} html_tag;

#define BLK (F_BLOCK | F_PCLOSE)
#define BO F_BREAKOUT
/* sorted by name */
static const html_tag tags[] = {
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
#define NTAGS ((int) (sizeof(tags) / sizeof(tags[0])))
#define OTHER_BUCKETS 4096

/* the index in tags[] of a lower-case name, or -1 */
static int
tag_lookup(const char *name, size_t n)
{
	int			lo = 0,
				hi = NTAGS;

	if (n == 0 || n > 10)
		return -1;
	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;
		const char *t = tags[mid].name;
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

/* An open element and the state inside it. */
typedef struct html_elem
{
	int16_t		tag;			/* index in tags[], or -1: unknown name */
	uint16_t	hash;			/* of an unknown name */
	uint8_t		hide;
	uint8_t		boiler;
	uint8_t		pre;
	uint8_t		link;
	uint8_t		foreign;
	uint8_t		main;
	uint8_t		section;
	int32_t		form;
	int32_t		article;
	int32_t		row;
	int32_t		cell;
	int16_t		p_at,			/* stack position of what an implied end */
				li_at,			/* would close, or -1 */
				dd_at,
				a_at,
				cell_at,
				tr_at;
} html_elem;

/* Interesting attributes of a start tag; values decoded in ctx->scratch. */
typedef struct html_attrs
{
	int			href,
				hidden,
				aria_hidden;
	size_t		off[5],
				len[5];			/* role, class, id, style, alt */
	uint8_t		set[5];
} html_attrs;

enum
{
	A_ROLE, A_CLASS, A_ID, A_STYLE, A_ALT
};

typedef struct html_ctx
{
	const char *in;
	size_t		len;
	const tfp_html_opts *o;
	const tfp_html_alloc *a;
	void		(*tick) (void);
	size_t		next_tick;
	int			failed;
	/* text and paragraphs */
	char	   *buf;
	size_t		blen,
				bcap;
	html_block *blocks;
	size_t		nblocks,
				cblocks;
	int			open;			/* a paragraph is open at buf[bstart] */
	size_t		bstart;
	uint64_t	chars,
				links,
				weight;
	int			pending;		/* 0, 1 space, 2 space with LF, 3 <br> */
	uint32_t	last;			/* last code point written */
	int32_t		nforms,
				narticles,
				nrows,
				ncells;
	/* open elements */
	html_elem	root;
	html_elem	stack[TFP_HTML_MAX_DEPTH];
	int			depth;
	int			ix_head;		/* index of "head" in tags[] */
	uint32_t	count[sizeof(tags) / sizeof(tags[0])];
	uint32_t	other[OTHER_BUCKETS];
	/* attribute values */
	char	   *scratch;
	size_t		slen,
				scap;
} html_ctx;

static inline html_elem *
cur(html_ctx *c)
{
	return c->depth ? &c->stack[c->depth - 1] : &c->root;
}

static inline uint16_t
tflags(int tag)
{
	return tag >= 0 ? tags[tag].flags : 0;
}

static inline int
tid(int tag)
{
	return tag >= 0 ? tags[tag].id : T_OTHER;
}

static void
maybe_tick(html_ctx *c, size_t i)
{
	if (i >= c->next_tick)
	{
		if (c->tick)
			c->tick();
		c->next_tick = i + 65536;
	}
}

/* ------------------------------------------------------------------ */
/* memory                                                              */

static int
reserve(html_ctx *c, void **p, size_t *cap, size_t need, size_t unit)
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
		!reserve(c, (void **) &c->buf, &c->bcap, c->blen + n, 1))
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
		!reserve(c, (void **) &c->blocks, &c->cblocks, c->nblocks + 1, sizeof(html_block)))
		return;
	c->blocks[c->nblocks].form = e->form;
	c->blocks[c->nblocks].article = e->article;
	c->blocks[c->nblocks].row = e->row;
	c->blocks[c->nblocks].cell = e->cell;
	c->blocks[c->nblocks].main = e->main;
}

static void
break_block(html_ctx *c)
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
static void
text_cp(html_ctx *c, uint32_t cp)
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
		break_block(c);
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

static inline char
lower(char ch)
{
	return (ch >= 'A' && ch <= 'Z') ? (char) (ch + 32) : ch;
}

static inline int
is_alnum_c(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

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
static size_t
first_token(const char *s, size_t n, char *w)
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
		size_t		l = first_token(c->scratch + at->off[A_ROLE], at->len[A_ROLE], w);

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

/* ------------------------------------------------------------------ */
/* the tokenizer                                                       */

static inline int
is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\f' || ch == '\r';
}

static inline int
is_alpha(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static inline void
tick_at(html_ctx *c, size_t i)
{
	if (i >= c->next_tick)
		maybe_tick(c, i);
}

/* text in[from..to): characters (CR LF and CR become LF), with character
 * references if refs */
static void
emit_text(html_ctx *c, size_t from, size_t to, int refs)
{
	size_t		i = from;

	while (i < to && !c->failed)
	{
		unsigned char ch = (unsigned char) c->in[i];
		uint32_t	cp[2];
		int			ncp;
		size_t		n;

		tick_at(c, i);
		if (ch == '&' && refs &&
			(n = tfp_html_charref(c->in + i + 1, to - i - 1, 0, cp, &ncp)) > 0)
		{
			text_cp(c, cp[0]);
			if (ncp == 2)
				text_cp(c, cp[1]);
			i += 1 + n;
		}
		else if (ch == '\r')
		{
			text_cp(c, '\n');
			i += (i + 1 < to && c->in[i + 1] == '\n') ? 2 : 1;
		}
		else if (ch < 0x80)
		{
			text_cp(c, ch);
			i++;
		}
		else
		{
			i += tfp_utf8_decode((const unsigned char *) c->in + i, to - i, &cp[0]);
			text_cp(c, cp[0]);
		}
	}
}

/* the position after a bogus comment whose content starts at k */
static size_t
bogus_comment(html_ctx *c, size_t k)
{
	const char *g = k < c->len ? memchr(c->in + k, '>', c->len - k) : NULL;

	return g ? (size_t) (g - c->in) + 1 : c->len;
}

/* the position after a comment whose content starts at k (after "<!--") */
static size_t
comment(html_ctx *c, size_t k)
{
	const char *in = c->in;

	if (k < c->len && in[k] == '>')
		return k + 1;			/* <!--> */
	if (k + 1 < c->len && in[k] == '-' && in[k + 1] == '>')
		return k + 2;			/* <!---> */
	for (size_t j = k; j + 2 < c->len; j++)
	{
		tick_at(c, j);
		if (in[j] != '-' || in[j + 1] != '-')
			continue;
		if (in[j + 2] == '>')
			return j + 3;
		if (in[j + 2] == '!' && j + 3 < c->len && in[j + 3] == '>')
			return j + 4;
	}
	return c->len;
}

/* is in[k..) the name (lower case, ASCII case-insensitive) followed by
 * white space, '/' or '>'? */
static int
name_at(html_ctx *c, size_t k, const char *name, size_t nl)
{
	if (k + nl >= c->len)
		return 0;
	for (size_t j = 0; j < nl; j++)
		if (lower(c->in[k + j]) != name[j])
			return 0;
	return is_ws(c->in[k + nl]) || c->in[k + nl] == '/' || c->in[k + nl] == '>';
}

/*
 * The end of raw text or RCDATA from i: the position of the "</name" that
 * ends it, or len.  In a script, "<!--" starts an escaped part where
 * "<script" starts a double-escaped one, in which "</script" only returns
 * to the escaped part; "-->" ends either (the HTML Standard's script data
 * states).
 */
static size_t
raw_end(html_ctx *c, size_t i, const char *name, size_t nl, int script)
{
	const char *in = c->in;
	int			state = 0,
				dashes = 0;

	for (; i < c->len; i++)
	{
		char		ch = in[i];

		tick_at(c, i);
		if (ch == '-')
		{
			dashes++;
			continue;
		}
		if (ch == '>' && state && dashes >= 2)
			state = 0;
		dashes = 0;
		if (ch != '<')
			continue;
		if (i + 1 < c->len && in[i + 1] == '/' && name_at(c, i + 2, name, nl))
		{
			if (state == 2)
			{
				state = 1;
				continue;
			}
			return i;
		}
		if (!script)
			continue;
		if (state == 0 && i + 3 < c->len && in[i + 1] == '!' && in[i + 2] == '-' && in[i + 3] == '-')
		{
			state = 1;
			dashes = 2;
			i += 3;
		}
		else if (state == 1 && name_at(c, i + 1, "script", 6))
			state = 2;
	}
	return c->len;
}

/* a LF (or CR LF, CR) at pos is skipped (after <pre>, <listing>, <textarea>) */
static size_t
skip_lf(html_ctx *c, size_t pos, size_t end)
{
	if (pos < end && c->in[pos] == '\n')
		return pos + 1;
	if (pos < end && c->in[pos] == '\r')
		return (pos + 1 < end && c->in[pos + 1] == '\n') ? pos + 2 : pos + 1;
	return pos;
}

/* an attribute value in[v..v+n) decoded into the scratch buffer */
static void
keep_value(html_ctx *c, html_attrs *at, int which, size_t v, size_t n)
{
	size_t		i = v,
				start;

	if (at->set[which])
		return;					/* the first of duplicates counts */
	if (!reserve(c, (void **) &c->scratch, &c->scap, c->slen + n + 8, 1))
		return;
	start = c->slen;
	while (i < v + n)
	{
		uint32_t	cp[2];
		int			ncp;
		size_t		r;

		tick_at(c, i);
		if (c->in[i] == '&' &&
			(r = tfp_html_charref(c->in + i + 1, v + n - i - 1, 1, cp, &ncp)) > 0)
		{
			/* a reference is never shorter than its UTF-8 (1.2x at most for
			 * a name: room for 8 more bytes covers the worst single one) */
			if (!reserve(c, (void **) &c->scratch, &c->scap, c->slen + (v + n - i) + 16, 1))
				return;
			for (int k = 0; k < ncp; k++)
				c->slen += (size_t) tfp_utf8_encode(cp[k], (unsigned char *) c->scratch + c->slen);
			i += 1 + r;
		}
		else
			c->scratch[c->slen++] = c->in[i++];
	}
	at->set[which] = 1;
	at->off[which] = start;
	at->len[which] = c->slen - start;
}

static size_t start_tag(html_ctx *c, int tag, uint16_t hash, html_attrs *at,
						int selfclose, size_t pos);
static void end_tag(html_ctx *c, int tag, uint16_t hash);

/*
 * A tag whose name starts at k (a letter); end: an end tag.  Returns the
 * position after it (and after the content of a raw-text element), or len
 * if the input ends inside it (the tag is then dropped).
 */
static size_t
tag(html_ctx *c, size_t k, int end)
{
	const char *in = c->in;
	char		name[11];
	size_t		nl = 0,
				i = k;
	uint32_t	h = 2166136261u;
	html_attrs	at;
	int			selfclose = 0,
				t;

	memset(&at, 0, sizeof(at));
	c->slen = 0;
	while (i < c->len && !is_ws(in[i]) && in[i] != '/' && in[i] != '>')
	{
		char		ch = lower(in[i]);

		tick_at(c, i);
		if (nl < sizeof(name))
			name[nl] = ch;
		nl++;
		h = (h ^ (unsigned char) ch) * 16777619u;
		i++;
	}
	/* attributes */
	for (;;)
	{
		size_t		an,
					al,
					vn = 0,
					vl = 0;
		int			has_value = 0;

		while (i < c->len && (is_ws(in[i]) || in[i] == '/'))
		{
			selfclose = in[i] == '/';
			i++;
		}
		if (i >= c->len)
			return c->len;
		if (in[i] == '>')
		{
			i++;
			break;
		}
		selfclose = 0;
		an = i++;				/* a name may start with '=' */
		while (i < c->len && !is_ws(in[i]) && in[i] != '/' && in[i] != '>' && in[i] != '=')
		{
			tick_at(c, i);
			i++;
		}
		al = i - an;
		while (i < c->len && is_ws(in[i]))
			i++;
		if (i < c->len && in[i] == '=')
		{
			i++;
			while (i < c->len && is_ws(in[i]))
				i++;
			if (i >= c->len)
				return c->len;
			has_value = 1;
			if (in[i] == '"' || in[i] == '\'')
			{
				const char *q = memchr(in + i + 1, in[i], c->len - i - 1);

				if (q == NULL)
					return c->len;
				vn = i + 1;
				vl = (size_t) (q - in) - vn;
				i = (size_t) (q - in) + 1;
			}
			else
			{
				vn = i;
				while (i < c->len && !is_ws(in[i]) && in[i] != '>')
				{
					tick_at(c, i);
					i++;
				}
				vl = i - vn;
			}
		}
		if (end || al > 11)
			continue;
		{
			char		an_l[12];

			for (size_t j = 0; j < al; j++)
				an_l[j] = lower(in[an + j]);
#define IS(s) (al == sizeof(s) - 1 && memcmp(an_l, s, al) == 0)
			if (IS("href"))
				at.href = 1;
			else if (IS("hidden"))
				at.hidden = 1;
			else if (IS("aria-hidden") && has_value)
			{
				char		w[16];
				size_t		l;

				l = first_token(in + vn, vl, w);
				at.aria_hidden |= (l == 4 && memcmp(w, "true", 4) == 0);
			}
			else if (IS("role"))
				keep_value(c, &at, A_ROLE, vn, vl);
			else if (IS("class"))
				keep_value(c, &at, A_CLASS, vn, vl);
			else if (IS("id"))
				keep_value(c, &at, A_ID, vn, vl);
			else if (IS("style"))
				keep_value(c, &at, A_STYLE, vn, vl);
			else if (IS("alt"))
				keep_value(c, &at, A_ALT, vn, vl);
#undef IS
		}
	}
	t = nl <= 10 ? tag_lookup(name, nl) : -1;
	if (end)
	{
		end_tag(c, t, (uint16_t) (h ^ (h >> 16)));
		return i;
	}
	return start_tag(c, t, (uint16_t) (h ^ (h >> 16)), &at, selfclose, i);
}

/* the content of a raw-text or RCDATA element from pos; returns the
 * position of its end tag (parsed as any other), or len */
static size_t
raw_content(html_ctx *c, int t, size_t pos)
{
	int			id = tid(t);
	size_t		end = raw_end(c, pos, tags[t].name, strlen(tags[t].name), id == T_SCRIPT);

	if (id == T_TEXTAREA)
		pos = skip_lf(c, pos, end);
	if (!(tags[t].flags & F_HIDE) || id == T_TITLE)
		emit_text(c, pos, end, (tags[t].flags & F_RCDATA) != 0);
	return end;
}

static int
is_heading(int id)
{
	return id >= T_H1 && id <= T_H6;
}

static size_t
start_tag(html_ctx *c, int t, uint16_t hash, html_attrs *at, int selfclose, size_t pos)
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
		break_block(c);
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
			text_cp(c, cp == '\r' ? '\n' : cp);
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
		return raw_content(c, t, pos);
	else if (id == T_PLAINTEXT)
	{
		emit_text(c, pos, c->len, 0);
		return c->len;
	}
	else if (id == T_PRE || id == T_LISTING)
		return skip_lf(c, pos, c->len);
	return pos;
}

static void
end_tag(html_ctx *c, int t, uint16_t hash)
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
		break_block(c);			/* </p> without <p>: an empty paragraph */
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

/* markup at a '<' (position i): the position after it, or 0 if the '<' is
 * text */
static size_t
markup(html_ctx *c, size_t i)
{
	const char *in = c->in;
	size_t		len = c->len;

	if (i + 1 >= len)
		return 0;
	if (is_alpha(in[i + 1]))
		return tag(c, i + 1, 0);
	if (in[i + 1] == '/')
	{
		if (i + 2 >= len)
			return 0;
		if (is_alpha(in[i + 2]))
			return tag(c, i + 2, 1);
		if (in[i + 2] == '>')
			return i + 3;
		return bogus_comment(c, i + 2);
	}
	if (in[i + 1] == '?')
		return bogus_comment(c, i + 1);
	if (in[i + 1] != '!')
		return 0;
	if (i + 3 < len && in[i + 2] == '-' && in[i + 3] == '-')
		return comment(c, i + 4);
	if (cur(c)->foreign && len - i >= 9 && memcmp(in + i + 2, "[CDATA[", 7) == 0)
	{
		size_t		j;

		for (j = i + 9; j + 2 < len; j++)
		{
			tick_at(c, j);
			if (in[j] == ']' && in[j + 1] == ']' && in[j + 2] == '>')
				break;
		}
		if (j + 2 >= len)
			j = len;
		emit_text(c, i + 9, j, 0);
		return j < len ? j + 3 : len;
	}
	return bogus_comment(c, i + 2);
}

static void *
alloc_zero(const tfp_html_alloc *a, size_t n)
{
	void	   *p = a->grow(a->ctx, NULL, n);

	if (p)
		memset(p, 0, n);
	return p;
}

int
tfp_html_text(const char *in, size_t len, const tfp_html_opts *opts,
			  const tfp_html_alloc *a, void (*tick) (void),
			  char **out, size_t *outlen)
{
	html_ctx   *c = alloc_zero(a, sizeof(html_ctx));
	size_t		i = 0;
	int			failed;

	if (c == NULL)
		return -1;
	c->in = in;
	c->len = len;
	c->o = opts;
	c->a = a;
	c->tick = tick;
	c->ix_head = tag_lookup("head", 4);
	c->root.tag = -1;
	c->root.form = c->root.article = c->root.row = c->root.cell = -1;
	c->root.p_at = c->root.li_at = c->root.dd_at = c->root.a_at = -1;
	c->root.cell_at = c->root.tr_at = -1;
	reserve(c, (void **) &c->buf, &c->bcap, (len < 131072 ? len / 2 : 65536) + 16, 1);
	while (i < len && !c->failed)
	{
		unsigned char ch = (unsigned char) in[i];
		size_t		j;

		tick_at(c, i);
		if (ch == '<')
		{
			if ((j = markup(c, i)) > 0)
			{
				i = j;
				continue;
			}
			text_cp(c, '<');
			i++;
			continue;
		}
		/* a run of text up to the next '<' */
		j = i + 1;
		while (j < len && in[j] != '<')
			j++;
		emit_text(c, i, j, 1);
		i = j;
	}
	break_block(c);
	failed = c->failed;
	if (!failed)
	{
		*outlen = tfp_html_select(c->buf, c->blocks, c->nblocks, opts);
		*out = c->buf;
	}
	else if (a->release && c->buf)
		a->release(a->ctx, c->buf);
	if (a->release)
	{
		if (c->blocks)
			a->release(a->ctx, c->blocks);
		if (c->scratch)
			a->release(a->ctx, c->scratch);
		a->release(a->ctx, c);
	}
	return failed ? -1 : 0;
}

int
tfp_html_looks_like(const char *s, size_t len)
{
	size_t		i = 0,
				n = 0;
	char		name[11];

	for (;;)
	{
		if (i < len && is_ws(s[i]))
			i++;
		else if (i + 2 < len && (unsigned char) s[i] == 0xEF &&
				 (unsigned char) s[i + 1] == 0xBB && (unsigned char) s[i + 2] == 0xBF)
			i += 3;
		else
			break;
	}
	if (i + 1 >= len || s[i] != '<')
		return 0;
	i++;
	if (len - i >= 3 && memcmp(s + i, "!--", 3) == 0)
		return 1;
	if (len - i >= 8)
	{
		char		w[8];

		for (int k = 0; k < 8; k++)
			w[k] = lower(s[i + k]);
		if (memcmp(w, "!doctype", 8) == 0)
			return 1;
	}
	if (len - i >= 4 && s[i] == '?' && lower(s[i + 1]) == 'x' && lower(s[i + 2]) == 'm' &&
		lower(s[i + 3]) == 'l')
		return 1;
	while (i < len && is_alnum_c(s[i]) && n < sizeof(name))
		name[n++] = lower(s[i++]);
	if (n == 0 || i >= len || !(is_ws(s[i]) || s[i] == '/' || s[i] == '>'))
		return 0;
	return tag_lookup(name, n) >= 0;
}
