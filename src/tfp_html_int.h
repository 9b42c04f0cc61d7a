/*
 * tfp_html_int.h -- internals of html_text() shared by tfp_html.c (the
 * tokenizer and the open-element stack, which turn a document into
 * paragraphs) and tfp_html_select.c (character references, and the choice
 * of the paragraphs that make the text)
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

#endif							/* TFP_HTML_INT_H */
