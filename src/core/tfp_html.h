/*
 * tfp_html.h -- text of an HTML document (html_text(), version 1)
 *
 * Pure C (no PostgreSQL): UTF-8 in, UTF-8 out.  The definition, frozen as
 * version 1 (a change of any output is a new version, never a silent one):
 *
 *  TOKENIZING, in the spirit of the HTML Standard's tokenizer: tags with
 *  attributes in any quoting (a tag cut off by the end of the input is
 *  dropped), comments (<!-- ... -->, also <!--> and --!>), doctype and other
 *  <!...> / <?...> / </ ...> bogus comments, CDATA sections inside svg/math
 *  (elsewhere a bogus comment); raw-text elements script (with the script
 *  data escape states: <!-- <script> ... </script> --> does not end it),
 *  style, xmp, iframe, noembed, noframes, noscript (scripting enabled), RCDATA
 *  elements title and textarea, plaintext (the rest of the input); CR LF and
 *  CR become LF; tag names are ASCII case-insensitive.  Character references:
 *  every named reference of the HTML Standard (the longest match; the 106
 *  legacy names also without ';', except in attribute values before an
 *  alphanumeric or '='), decimal and hexadecimal ones (0, surrogates and
 *  values past U+10FFFF give U+FFFD, 0x80-0x9F the Windows-1252 character).
 *  Invalid UTF-8 gives U+FFFD; NUL is dropped.
 *
 *  ELEMENTS: void elements are not opened; an end tag closes the nearest
 *  open element of its name and everything opened after it (one with none
 *  open is ignored; </p> and </br> make a line break); implied ends: <p> is
 *  closed by the start of a block (in button scope), <li> by <li>, <dd>/<dt>
 *  by either, <td>/<th> by a cell or row, <tr> by a row, <option> by an
 *  option, <a> by <a>, a heading by a heading, <head> by any body content;
 *  HTML elements inside svg/math end the foreign content.  Nesting deeper
 *  than TFP_HTML_MAX_DEPTH elements is flattened (deeper elements are not
 *  opened).
 *
 *  TEXT: never text: comments, doctype, the content of head (except title,
 *  see below), script, style, template, noscript, iframe, noembed, noframes,
 *  datalist, video, audio, canvas.  Block elements (p, div, headings, li,
 *  tr, table, section, ...) separate paragraphs: one LF between them, a TAB
 *  between the cells of one table row; <br> is a LF inside a paragraph (runs
 *  of them are one).  Outside pre/listing/xmp/textarea/plaintext, white space
 *  (space, TAB, LF, FF, CR, NBSP) collapses to one space, none at the start
 *  and end of a paragraph or line, and none where the run holds a line
 *  break between two CJK characters (CSS Text: Han, kana, bopomofo, CJK
 *  punctuation, full-width forms); inside them it is kept (the LF right
 *  after the start tag dropped, trailing white space of the block removed).
 *  NBSP is written as a space.  With alt_text, an <img>'s alt text is text.
 *
 *  BOILERPLATE (when opts.boilerplate): no text from the title; nav, aside,
 *  footer, header outside article/aside/main/nav/section (a page banner),
 *  button, select, textarea, input, dialog and svg; elements with the
 *  hidden attribute, aria-hidden="true", a style with display:none or
 *  visibility:hidden, a role of navigation, banner, contentinfo,
 *  complementary, menu, menubar, search, toolbar, dialog or alertdialog, or
 *  a class/id token (split at non-alphanumerics, case-folded) from the
 *  boilerplate list in tfp_html.c unless one is also from its content list
 *  (html, body, main and article are exempt); a <form> unless it holds at
 *  least half of the page's text (a form around the whole page).  Then,
 *  with opts.main_content: if the text inside <main> (or role=main) is at
 *  least a quarter of what is left, only that; else if the largest
 *  outermost <article> (or role=article) holds a quarter, only that.  Then
 *  link density: a paragraph more than half of whose characters (code
 *  points other than white space) are inside <a href> is dropped; if a
 *  paragraph is kept by that rule and is not short, a short paragraph
 *  (fewer than TFP_HTML_SHORT characters, CJK ones counted twice) is
 *  dropped when the nearest paragraphs that are not short on both sides
 *  are dropped ones or the edge of the page, at least one a dropped one.
 *  Without opts.boilerplate all text is kept, the title as a paragraph of
 *  its own, and opts.main_content has no effect.
 *
 * Time is linear in the input (every stack search is bounded by
 * TFP_HTML_MAX_DEPTH and most are O(1)); memory is about the size of the
 * output plus 48 bytes per paragraph, taken through the caller's allocator.
 */
#ifndef TFP_HTML_H
#define TFP_HTML_H

#include <stddef.h>
#include <stdint.h>

#define TFP_HTML_VERSION		1
#define TFP_HTML_MAX_DEPTH		512
#define TFP_HTML_SHORT			16		/* characters of a "short" paragraph */

/* the generated table (tfp_html_entities.c, tools/gen_html_entities.py) */
#define TFP_HTML_ENTITY_COUNT	2231
#define TFP_HTML_ENTITY_MAXLEN	32		/* longest name, ';' included */
#define TFP_HTML_ENTITY_MAXLEGACY 6		/* longest name without ';' */

typedef struct tfp_html_entity_def
{
	const char *name;			/* without '&', with the ';' if it has one */
	uint8_t		len;
	uint32_t	cp1;
	uint32_t	cp2;			/* 0: one code point */
} tfp_html_entity_def;

extern const tfp_html_entity_def tfp_html_entities[TFP_HTML_ENTITY_COUNT];
extern const uint16_t tfp_html_cp1252[32];

typedef struct tfp_html_opts
{
	int			boilerplate;	/* drop navigation, ads, hidden parts, ... */
	int			main_content;	/* prefer <main>/<article> (with boilerplate) */
	int			alt_text;		/* <img alt> is text */
} tfp_html_opts;

/*
 * Memory: grow(ctx, p, n) returns a block of n bytes holding the first
 * bytes of p (p NULL: a new block), like realloc, or NULL (then
 * tfp_html_text fails); release(ctx, p) frees one (may be NULL: nothing is
 * freed, as with PostgreSQL memory contexts).
 */
typedef struct tfp_html_alloc
{
	void	   *(*grow) (void *ctx, void *p, size_t n);
	void		(*release) (void *ctx, void *p);
	void	   *ctx;
} tfp_html_alloc;

/*
 * The text of the UTF-8 HTML document in[0..len) (definition above), into
 * *out (allocated with a->grow; *outlen bytes, not NUL-terminated, valid
 * UTF-8).  tick, if not NULL, is called at least every 64 KiB of input (it
 * may longjmp out).  Returns 0, or -1 if an allocation failed.
 */
extern int	tfp_html_text(const char *in, size_t len, const tfp_html_opts *opts,
						  const tfp_html_alloc *a, void (*tick) (void),
						  char **out, size_t *outlen);

/*
 * A character reference at s (just after the '&'), len bytes available:
 * returns the bytes it takes (0: not a reference, the '&' is text) and
 * stores its one or two code points in cp[] and their number in *ncp.
 * in_attr: the attribute-value rule for legacy names without ';'.
 */
extern size_t tfp_html_charref(const char *s, size_t len, int in_attr,
							   uint32_t cp[2], int *ncp);

/*
 * Does the text look like HTML?  After white space and a BOM it starts with
 * "<!doctype", "<!--", "<?xml" or "<" and the name of an HTML element
 * (ASCII case-insensitive) followed by white space, '/' or '>'.
 */
extern int	tfp_html_looks_like(const char *s, size_t len);

#endif							/* TFP_HTML_H */
