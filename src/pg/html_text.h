/*
 * html_text.h -- html_text()'s helpers, shared with textfp_match()
 */
#ifndef TEXTFP_HTML_TEXT_H
#define TEXTFP_HTML_TEXT_H

#include "tfp_html.h"

/* Options from SQL arguments, checked (22023 on a bad version). */
extern void textfp_html_opts(tfp_html_opts *o, bool boilerplate, bool main_content,
							 bool alt_text, int32 version);

/* The text (UTF-8, palloc'd, *outlen bytes) of a UTF-8 HTML document;
 * interruptible. */
extern char *textfp_html_extract(const char *utf8, size_t len,
								 const tfp_html_opts *o, size_t *outlen);

#endif							/* TEXTFP_HTML_TEXT_H */
