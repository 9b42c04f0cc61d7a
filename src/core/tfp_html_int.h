/*
 * tfp_html_int.h -- internals of html_text() shared by tfp_html.c (the
 * tokenizer), tfp_html_tree.c (the open-element stack and the paragraphs)
 * and tfp_html_select.c (character references, and the choice of the
 * paragraphs that make the text)
 */
#ifndef TFP_HTML_INT_H
#define TFP_HTML_INT_H

#include "tfp_html.h"

/* A paragraph of the document: text buf[start + 1 .. end) (buf[start] is
 * room for the separator written before it in the output). */
typedef struct html_block
{
	size_t		start;
	size_t		end;
	uint64_t	chars;			/* code points other than white space */
	uint64_t	links;			/* of them inside <a href> */
	uint64_t	weight;			/* chars, CJK characters counted twice */
	int32_t		form;			/* outermost <form> around it, or -1 */
	int32_t		article;		/* outermost <article> around it, or -1 */
	int32_t		row;			/* table row of its cell, or -1 */
	int32_t		cell;			/* table cell around it, or -1 */
	uint8_t		main;			/* inside <main> */
	uint8_t		cls;			/* tfp_html_select's classification */
} html_block;

/*
 * Keep the paragraphs that make the text (boilerplate rules of tfp_html.h)
 * and join them in buf, in place: returns the length of the text, which
 * starts at buf[0].
 */
extern size_t tfp_html_select(char *buf, html_block *b, size_t n,
							  const tfp_html_opts *o);

/* white space of HTML text (CSS collapsible white space), NBSP included */
static inline int
html_is_space(uint32_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == 0xA0;
}


/* ------------------------------------------------------------------ */
/* elements and the parser's state (tfp_html_tree.c, tfp_html.c)       */

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

#define HTML_NTAGS 112			/* entries of tfp_html_tags[] */
#define OTHER_BUCKETS 4096

/* the known elements, sorted by name (tfp_html_tree.c) */
extern const html_tag tfp_html_tags[HTML_NTAGS];

/* An open element and the state inside it. */
typedef struct html_elem
{
	int16_t		tag;			/* index in tfp_html_tags[], or -1: unknown name */
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
	int			ix_head;		/* index of "head" in tfp_html_tags[] */
	uint32_t	count[HTML_NTAGS];
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
	return tag >= 0 ? tfp_html_tags[tag].flags : 0;
}

static inline int
tid(int tag)
{
	return tag >= 0 ? tfp_html_tags[tag].id : T_OTHER;
}

static inline void
maybe_tick(html_ctx *c, size_t i)
{
	if (c->tick)
		c->tick();
	c->next_tick = i + 65536;
}

static inline void
tick_at(html_ctx *c, size_t i)
{
	if (i >= c->next_tick)
		maybe_tick(c, i);
}

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

/* the tree side (tfp_html_tree.c) */
extern int	tfp_html_tag_lookup(const char *name, size_t n);
extern int	tfp_html_reserve(html_ctx *c, void **p, size_t *cap, size_t need, size_t unit);
extern void tfp_html_text_cp(html_ctx *c, uint32_t cp);
extern void tfp_html_break_block(html_ctx *c);
extern size_t tfp_html_first_token(const char *s, size_t n, char *w);
extern size_t tfp_html_start_tag(html_ctx *c, int t, uint16_t hash, html_attrs *at,
								 int selfclose, size_t pos);
extern void tfp_html_end_tag(html_ctx *c, int t, uint16_t hash);

/* the tokenizer side (tfp_html.c) */
extern void tfp_html_emit_text(html_ctx *c, size_t from, size_t to, int refs);
extern size_t tfp_html_skip_lf(html_ctx *c, size_t pos, size_t end);
extern size_t tfp_html_raw_content(html_ctx *c, int t, size_t pos);

#endif							/* TFP_HTML_INT_H */
