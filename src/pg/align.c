/*
 * align.c -- which passages were copied: textfp_align(), the matching
 * passages of two texts as rows; textfp_copied_share(), the share of b
 * found in a; textfp_compare_html() and textfp_compare_css(), the
 * side-by-side HTML comparison.  The core is tfp_align.c / tfp_align_html.c.
 *
 * Positions are characters of the texts as given (1-based, as substr()
 * counts them) in every server encoding: the core works on a UTF-8 copy,
 * and its byte offsets are mapped back to characters of the original.
 */
#include "postgres.h"

#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "align.h"
#include "pairs.h"
#include "textfp.h"

PG_FUNCTION_INFO_V1(textfp_align);
PG_FUNCTION_INFO_V1(textfp_copied_share);
PG_FUNCTION_INFO_V1(textfp_compare_html);
PG_FUNCTION_INFO_V1(textfp_compare_css);

static void *
align_alloc(void *arg, size_t size)
{
	return palloc_extended(size, MCXT_ALLOC_HUGE);
}

static void
align_free(void *arg, void *p)
{
	pfree(p);
}

const tfp_align_env textfp_align_env = {align_alloc, align_free, NULL, textfp_interrupt_tick};

/*
 * The UTF-8 copy of a text.  Conversions from the server encodings map one
 * character to one code point, with the exceptions of EUC_JIS_2004 and
 * SHIFT_JIS_2004 (some characters are two code points): when the counts
 * differ, the copy is made character by character, keeping where each one
 * starts.
 */
void
textfp_align_text(text *t, AlignText *at)
{
	int			enc = GetDatabaseEncoding();
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	int			nchars;
	size_t		cps = 0;

	memset(at, 0, sizeof(*at));
	at->utf8 = textfp_text_utf8(t, &at->len);
	if (enc == PG_UTF8)
		return;
	if (enc == PG_SQL_ASCII)
	{
		at->bytes = true;
		return;
	}
	nchars = pg_mbstrlen_with_len(s, len);
	for (size_t i = 0; i < at->len; i++)
		cps += ((unsigned char) at->utf8[i] & 0xC0) != 0x80;
	if (cps == (size_t) nchars)
		return;
	{
		StringInfoData buf;
		int			c = 0;

		initStringInfo(&buf);
		at->starts = palloc_extended(((Size) nchars + 1) * sizeof(uint32), MCXT_ALLOC_HUGE);
		for (int i = 0; i < len; c++)
		{
			int			l = pg_mblen(s + i);
			char	   *u = (char *) pg_do_encoding_conversion((unsigned char *) s + i, l, enc, PG_UTF8);

			at->starts[c] = buf.len;
			appendBinaryStringInfo(&buf, u, u == s + i ? l : (int) strlen(u));
			i += l;
			if ((c & 1023) == 0)
				CHECK_FOR_INTERRUPTS();
		}
		at->starts[c] = buf.len;
		at->nchars = c;
		at->utf8 = buf.data;
		at->len = buf.len;
	}
}

/* the character containing byte off (off < len), or nchars at the end */
static uint32
char_at(const AlignText *at, uint32 off)
{
	uint32		lo = 0,
				hi = at->nchars;

	while (lo < hi)
	{
		uint32		mid = lo + (hi - lo + 1) / 2;

		if (at->starts[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* the passages' character offsets on one side, for the server's text */
void
textfp_align_map_chars(const AlignText *at, tfp_align_result *r, int side)
{
	for (size_t k = 0; k < r->n; k++)
	{
		tfp_align_passage *p = &r->p[k];
		uint32		start = side ? p->b_start : p->a_start,
					end = side ? p->b_end : p->a_end,
					cs,
					ce;

		if (at->bytes)
		{
			cs = start;
			ce = end;
		}
		else if (at->starts)
		{
			cs = char_at(at, start);
			ce = end > start ? char_at(at, end - 1) + 1 : cs;
		}
		else
			continue;			/* code points: the core's count */
		if (side)
		{
			p->b_cstart = cs;
			p->b_clen = ce - cs;
		}
		else
		{
			p->a_cstart = cs;
			p->a_clen = ce - cs;
		}
	}
}

static void
align_opts(FunctionCallInfo fcinfo, tfp_align_opts *o)
{
	int32		min_length = PG_GETARG_INT32(2),
				seed = PG_GETARG_INT32(3),
				max_gap = PG_GETARG_INT32(4);

	if (min_length < 1 || min_length > TFP_ALIGN_MAX_MIN_LENGTH)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_length must be between 1 and %d, not %d",
						TFP_ALIGN_MAX_MIN_LENGTH, min_length),
				 errdetail("min_length is the shortest passage reported, in Han characters (a word counts as two).")));
	if (seed < 1 || seed > TFP_ALIGN_MAX_SEED)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("seed must be between 1 and %d, not %d", TFP_ALIGN_MAX_SEED, seed),
				 errdetail("seed is the length of the runs of text that must match exactly to start a passage.")));
	if (max_gap < 0 || max_gap > TFP_ALIGN_MAX_GAP)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_gap must be between 0 and %d, not %d", TFP_ALIGN_MAX_GAP, max_gap),
				 errdetail("max_gap is the largest edit bridged inside one passage.")));
	memset(o, 0, sizeof(*o));
	o->min_length = min_length;
	o->seed = seed;
	o->max_gap = max_gap;
	o->fold = (PG_GETARG_BOOL(5) ? TFP_FOLD_CASE : 0) |
		(PG_GETARG_BOOL(6) ? TFP_FOLD_WIDTH : 0) |
		(PG_GETARG_BOOL(7) ? TFP_FOLD_HAN : 0);
}

/* The passages of a and b (arguments 0 and 1), options from arguments 2..7. */
static void
align_args(FunctionCallInfo fcinfo, AlignText *a, AlignText *b, tfp_align_result *r)
{
	tfp_align_opts o;
	int			rc;

	align_opts(fcinfo, &o);
	textfp_align_text(PG_GETARG_TEXT_PP(0), a);
	textfp_align_text(PG_GETARG_TEXT_PP(1), b);
	rc = tfp_align(a->utf8, a->len, b->utf8, b->len, &o, &textfp_align_env, r);
	if (rc == TFP_ALIGN_ETOOBIG)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("text too long to align"),
				 errdetail("Each text may have at most %u units (Han characters and words).",
						   (unsigned) TFP_ALIGN_MAX_UNITS)));
	if (rc != TFP_ALIGN_OK)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("Aligning the texts needed more memory than could be allocated.")));
	textfp_align_map_chars(a, r, 0);
	textfp_align_map_chars(b, r, 1);
}

/*
 * textfp_align(a text, b text, min_length int4, seed int4, max_gap int4,
 *				fold_case bool, fold_width bool, fold_han bool)
 * RETURNS TABLE(passage int4, a_start int4, a_length int4, b_start int4,
 *				 b_length int4, matched int4, similarity float8)
 */
Datum
textfp_align(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Tuplestorestate *ts = textfp_srf_materialize(fcinfo, &desc);
	AlignText	a,
				b;
	tfp_align_result r;

	align_args(fcinfo, &a, &b, &r);
	for (size_t k = 0; k < r.n; k++)
	{
		tfp_align_passage *p = &r.p[k];
		Datum		v[7];
		bool		nulls[7] = {false, false, false, false, false, false, false};

		v[0] = Int32GetDatum((int32) k + 1);
		v[1] = Int32GetDatum((int32) p->a_cstart + 1);
		v[2] = Int32GetDatum((int32) p->a_clen);
		v[3] = Int32GetDatum((int32) p->b_cstart + 1);
		v[4] = Int32GetDatum((int32) p->b_clen);
		v[5] = Int32GetDatum((int32) p->matched);
		v[6] = Float8GetDatum(2.0 * p->matched / ((double) p->a_len + p->b_len));
		tuplestore_putvalues(ts, desc, v, nulls);
	}
	return (Datum) 0;
}

/* textfp_copied_share(a text, b text, options as textfp_align) float8 */
Datum
textfp_copied_share(PG_FUNCTION_ARGS)
{
	AlignText	a,
				b;
	tfp_align_result r;

	align_args(fcinfo, &a, &b, &r);
	PG_RETURN_FLOAT8(r.b_total ? (double) r.b_covered / (double) r.b_total : 0.0);
}

/*
 * textfp_compare_html(a text, b text, options as textfp_align,
 *					   context int4, page bool, a_title text, b_title text)
 */
Datum
textfp_compare_html(PG_FUNCTION_ARGS)
{
	int32		context = PG_GETARG_INT32(8);
	AlignText	a,
				b;
	tfp_align_result r;
	tfp_html_opts h;
	size_t		len,
				max = MaxAllocSize - VARHDRSZ - 1;
	char	   *out,
			   *conv;

	if (context < -1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("context must be -1 or more, not %d", context),
				 errdetail("context is the number of characters shown around each passage; -1 shows the whole texts.")));
	align_args(fcinfo, &a, &b, &r);
	memset(&h, 0, sizeof(h));
	h.context = context;
	h.page = PG_GETARG_BOOL(9);
	h.a_title = textfp_text_utf8(PG_GETARG_TEXT_PP(10), &h.a_title_len);
	h.b_title = textfp_text_utf8(PG_GETARG_TEXT_PP(11), &h.b_title_len);
	len = tfp_align_html(NULL, max, a.utf8, a.len, b.utf8, b.len, &r, &h, &textfp_align_env);
	if (len == SIZE_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("comparison too large for a text value"),
				 errdetail("The HTML would be longer than %zu bytes.", max),
				 errhint("Use context to show only the passages, or compare shorter texts.")));
	out = palloc_extended(len + 1, MCXT_ALLOC_HUGE);
	tfp_align_html(out, max, a.utf8, a.len, b.utf8, b.len, &r, &h, &textfp_align_env);
	out[len] = '\0';
	conv = pg_any_to_server(out, (int) len, PG_UTF8);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(conv, conv == out ? (int) len : (int) strlen(conv)));
}

/* textfp_compare_css() text: the style sheet of the HTML comparison */
Datum
textfp_compare_css(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(tfp_align_css()));
}
