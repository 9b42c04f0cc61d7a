/*
 * html_text.c -- html_text(): the text of an HTML document (the core is
 * tfp_html.c / tfp_html_select.c; textfp_match() calls the core's
 * extraction itself, from tfp_match_side.c)
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "textfp.h"
#include "tfp_html.h"

static void *
html_grow(void *ctx, void *p, size_t n)
{
	if (p == NULL)
		return palloc_extended(n, MCXT_ALLOC_HUGE);
	return repalloc_huge(p, n);
}

static void
html_release(void *ctx, void *p)
{
	pfree(p);
}

static void
html_tick(void)
{
	CHECK_FOR_INTERRUPTS();
}

/* options from SQL arguments, checked (22023 on a bad version) */
static void
html_opts(tfp_html_opts *o, bool boilerplate, bool main_content, bool alt_text,
		  int32 version)
{
	if (version != TFP_HTML_VERSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("html_text version must be %d, not %d", TFP_HTML_VERSION, version),
				 errdetail("Version %d is the only version of the text extraction.",
						   TFP_HTML_VERSION)));
	o->boilerplate = boilerplate ? 1 : 0;
	o->main_content = main_content ? 1 : 0;
	o->alt_text = alt_text ? 1 : 0;
}

/* the text (UTF-8, palloc'd, *outlen bytes) of a UTF-8 HTML document;
 * interruptible */
static char *
html_extract(const char *utf8, size_t len, const tfp_html_opts *o, size_t *outlen)
{
	tfp_html_alloc a = {html_grow, html_release, NULL};
	char	   *out;

	if (tfp_html_text(utf8, len, o, &a, html_tick, &out, outlen) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("The text of an HTML document of %zu bytes did not fit.", len)));
	return out;
}

/* s[0..n) in the server encoding, or NULL if a character has no
 * equivalent there (other errors are raised) */
static char *
try_to_server(const char *s, size_t n)
{
	MemoryContext mcx = CurrentMemoryContext;
	char	   *volatile conv = NULL;

	PG_TRY();
	{
		conv = pg_any_to_server(s, (int) n, PG_UTF8);
	}
	PG_CATCH();
	{
		ErrorData  *err;

		MemoryContextSwitchTo(mcx);
		err = CopyErrorData();
		if (err->sqlerrcode != ERRCODE_UNTRANSLATABLE_CHARACTER)
			PG_RE_THROW();
		FlushErrorState();
		FreeErrorData(err);
		conv = NULL;
	}
	PG_END_TRY();
	return conv;
}

/*
 * UTF-8 text as a text value in the server encoding.  A character the
 * server encoding cannot represent (it can only come from a character
 * reference: the rest of the input was in that encoding) becomes '?'.
 */
static text *
utf8_to_server_text(const char *s, size_t n)
{
	int			enc = GetDatabaseEncoding();
	char	   *conv;
	StringInfoData buf;
	size_t		i = 0;

	if (n > MaxAllocSize - VARHDRSZ - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("text of the HTML document would be too long (%zu bytes)", n),
				 errdetail("Values are limited to %zu bytes.",
						   (size_t) (MaxAllocSize - VARHDRSZ - 1))));
	if (enc == PG_UTF8 || enc == PG_SQL_ASCII)
		return cstring_to_text_with_len(s, (int) n);
	if ((conv = try_to_server(s, n)) != NULL)
		return cstring_to_text(conv);
	/* character by character: each one converts or is '?' */
	initStringInfo(&buf);
	while (i < n)
	{
		uint32_t	cp;
		size_t		l = tfp_utf8_decode((const unsigned char *) s + i, n - i, &cp);
		char	   *c = try_to_server(s + i, l);

		CHECK_FOR_INTERRUPTS();
		if (c != NULL)
			appendBinaryStringInfo(&buf, c, (int) strlen(c));
		else
			appendStringInfoChar(&buf, '?');
		i += l;
	}
	return cstring_to_text_with_len(buf.data, buf.len);
}

/*
 * html_text(html text, boilerplate bool, main_content bool, alt_text bool,
 *			 version int4) returns text
 */
PG_FUNCTION_INFO_V1(html_text);
Datum
html_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	tfp_html_opts o;
	const char *s;
	size_t		len,
				outlen;
	char	   *out;

	html_opts(&o, PG_GETARG_BOOL(1), PG_GETARG_BOOL(2), PG_GETARG_BOOL(3),
			  PG_GETARG_INT32(4));
	s = textfp_text_utf8(t, &len);
	out = html_extract(s, len, &o, &outlen);
	PG_RETURN_TEXT_P(utf8_to_server_text(out, outlen));
}
