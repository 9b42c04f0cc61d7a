/*
 * html_run.h -- tfp_html_text() with malloc, for the unit tests and the
 * fuzz target; an allocator that fails after a given number of calls
 */
#ifndef TFP_HTML_RUN_H
#define TFP_HTML_RUN_H

#include <stdlib.h>

#include "tfp_html.h"

static long html_alloc_budget = -1;		/* calls left before failing; -1 never */

static void *
html_test_grow(void *ctx, void *p, size_t n)
{
	(void) ctx;
	if (html_alloc_budget == 0)
		return NULL;
	if (html_alloc_budget > 0)
		html_alloc_budget--;
	return realloc(p, n);
}

static void
html_test_release(void *ctx, void *p)
{
	(void) ctx;
	free(p);
}

/* the text of in[0..len) with options (b, m, alt); malloc'd, NUL-terminated
 * (*outlen bytes before the NUL), or NULL if an allocation failed */
static char *
html_run(const char *in, size_t len, int b, int m, int alt, size_t *outlen)
{
	tfp_html_opts o = {b, m, alt};
	tfp_html_alloc a = {html_test_grow, html_test_release, NULL};
	char	   *out;
	size_t		n;

	if (tfp_html_text(in, len, &o, &a, NULL, &out, &n) != 0)
		return NULL;
	out = realloc(out, n + 1);
	out[n] = '\0';
	if (outlen)
		*outlen = n;
	return out;
}

#endif							/* TFP_HTML_RUN_H */
