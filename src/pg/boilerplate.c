/*
 * boilerplate.c -- boilerplate lines learned from a corpus: the type
 * textfp_boilerplate (a set of normalized line hashes), textfp_line_hashes()
 * to count lines over a table, and textfp_strip_boilerplate() (the core is
 * tfp_boiler.c; the builder over a table is SQL: src/sql/63b_boilerplate.sql)
 *
 * Text form of a value (output exactly so; input accepts upper-case hex
 * digits and hashes in any order, with duplicates):
 *
 *   v1 lines <hashes>
 *
 * where <hashes> is each line hash as 16 hexadecimal digits (its 64 bits),
 * concatenated in ascending order of the hashes as int8, or the word "empty".
 * "lines" names the unit the hashes are of (the only one of version 1).
 *
 * The same lexicon is passed to every call of a statement: the calls keep
 * its hash set in fn_extra and recognize the same value again without
 * reading it (by its TOAST pointer, or by the content hash in its header).
 */
#include "postgres.h"

#include "access/detoast.h"
#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "minhash.h"
#include "sets.h"
#include "tfp_boiler.h"
#include "tfp_hashes.h"
#include "tfp_html.h"
#include "tfp_sort.h"
#include "termset_cache.h"

typedef struct Boilerplate
{
	int32		vl_len_;
	uint8		version;		/* TFP_BOILER_VERSION */
	uint8		unit;			/* BP_UNIT_LINES */
	uint16		reserved;		/* 0 */
	int32		nhashes;
	uint64		id;				/* hash of the contents (cache key) */
	int64		hashes[FLEXIBLE_ARRAY_MEMBER];	/* sorted as int8, distinct */
} Boilerplate;

#define BP_UNIT_LINES	1
#define BP_HDRSZ		offsetof(Boilerplate, hashes)
#define BP_ID_SEED		UINT64_C(0x7466703162706964)	/* "tfp1bpid" */
#define BP_MAX_HASHES	((int) ((MaxAllocSize - BP_HDRSZ) / sizeof(int64)))
#define TYPNAME			"textfp_boilerplate"

static Boilerplate *
bp_make(const int64 *v, int n)
{
	Size		sz = BP_HDRSZ + (Size) n * sizeof(int64);
	Boilerplate *b = (Boilerplate *) palloc0(sz);

	SET_VARSIZE(b, sz);
	b->version = TFP_BOILER_VERSION;
	b->unit = BP_UNIT_LINES;
	b->nhashes = n;
	if (n > 0)
		memcpy(b->hashes, v, (Size) n * sizeof(int64));
	b->id = tfp_xxh3_u64((const uint64_t *) b->hashes, (size_t) n, BP_ID_SEED);
	return b;
}

/* sort and deduplicate v[0..n) in place; the new count */
static int
sort_hashes(int64 *v, int n)
{
	hash_buf	b = {(uint64 *) v, (size_t) n, (size_t) n};

	textfp_sort_unique(&b);
	return (int) b.n;
}

static void
too_many(Size n)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("boilerplate lexicon has too many lines (%zu)", (size_t) n),
			 errdetail("A %s holds at most %d line hashes.", TYPNAME, BP_MAX_HASHES)));
}

#define BAD_SYNTAX(detail) \
	INPUT_ERROR(fcinfo->context, \
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), \
				 errmsg("invalid input syntax for type %s: \"%.60s\"", TYPNAME, str), \
				 errdetail detail))

PG_FUNCTION_INFO_V1(textfp_boilerplate_in);
Datum
textfp_boilerplate_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	const char *p = str;
	size_t		digits;
	int			n;
	int64	   *v;

	if (strncmp(p, "v1 ", 3) != 0)
	{
		if (p[0] == 'v' && p[1] >= '0' && p[1] <= '9')
			INPUT_ERROR(fcinfo->context,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("unsupported %s version: \"%.20s\"", TYPNAME, str),
						 errdetail("This textfp reads version %d lexicons only; rebuild the lexicon with textfp_build_boilerplate().",
								   TFP_BOILER_VERSION)));
		BAD_SYNTAX(("A %s value starts with \"v1 lines \".", TYPNAME));
	}
	p += 3;
	if (strncmp(p, "lines ", 6) != 0)
		BAD_SYNTAX(("Expected the unit \"lines \" after the version."));
	p += 6;
	if (strcmp(p, "empty") == 0)
		PG_RETURN_POINTER(bp_make(NULL, 0));
	digits = strlen(p);
	if (digits == 0 || digits % 16 != 0)
		BAD_SYNTAX(("Expected line hashes of 16 hexadecimal digits each, or \"empty\"."));
	if (digits / 16 > (size_t) BP_MAX_HASHES)
		too_many(digits / 16);
	n = (int) (digits / 16);
	v = palloc_extended((Size) n * sizeof(int64), MCXT_ALLOC_HUGE);
	{
		int			bad = textfp_parse_hex64(p, v, n);

		if (bad >= 0)
			BAD_SYNTAX(("Line hash %d is not 16 hexadecimal digits.", bad + 1));
	}
	n = sort_hashes(v, n);
	PG_RETURN_POINTER(bp_make(v, n));
}

/* the header of a value is of this version */
static void
bp_check_version(const Boilerplate *b)
{
	if (b->version != TFP_BOILER_VERSION || b->unit != BP_UNIT_LINES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unsupported %s version %d (unit %d)", TYPNAME, b->version, b->unit),
				 errdetail("This textfp reads version %d lexicons of lines only; rebuild the lexicon with textfp_build_boilerplate().",
						   TFP_BOILER_VERSION)));
}

/* a whole value is of this version and of its announced size */
static void
bp_check(const Boilerplate *b)
{
	bp_check_version(b);
	if (b->version != TFP_BOILER_VERSION || b->unit != BP_UNIT_LINES ||
		VARSIZE(b) != BP_HDRSZ + (Size) b->nhashes * sizeof(int64))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("corrupt %s value", TYPNAME),
				 errdetail("Version %d, unit %d, %d hashes in %zu bytes.", b->version, b->unit,
						   b->nhashes, (size_t) VARSIZE(b))));
}

/* the value of argument n, detoasted and checked */
static Boilerplate *
bp_arg(FunctionCallInfo fcinfo, int n)
{
	Boilerplate *b = (Boilerplate *) PG_DETOAST_DATUM(PG_GETARG_DATUM(n));

	bp_check(b);
	return b;
}

PG_FUNCTION_INFO_V1(textfp_boilerplate_out);
Datum
textfp_boilerplate_out(PG_FUNCTION_ARGS)
{
	Boilerplate *b = bp_arg(fcinfo, 0);
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "v%d lines ", b->version);
	if (b->nhashes == 0)
		appendStringInfoString(&buf, "empty");
	else
		textfp_append_hex64(&buf, b->hashes, b->nhashes);
	PG_RETURN_CSTRING(buf.data);
}

/* binary form: version, unit (1 byte each), n (4 bytes), n hashes of 8 */
PG_FUNCTION_INFO_V1(textfp_boilerplate_send);
Datum
textfp_boilerplate_send(PG_FUNCTION_ARGS)
{
	Boilerplate *b = bp_arg(fcinfo, 0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, b->version);
	pq_sendbyte(&buf, b->unit);
	pq_sendint32(&buf, b->nhashes);
	for (int i = 0; i < b->nhashes; i++)
		pq_sendint64(&buf, b->hashes[i]);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(textfp_boilerplate_recv);
Datum
textfp_boilerplate_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			version = pq_getmsgbyte(buf),
				unit = pq_getmsgbyte(buf);
	int32		n = pq_getmsgint(buf, 4);
	int64	   *v;

	if (version != TFP_BOILER_VERSION || unit != BP_UNIT_LINES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("unsupported %s version %d (unit %d) in binary input", TYPNAME, version, unit),
				 errdetail("This textfp reads version %d lexicons of lines only.", TFP_BOILER_VERSION)));
	if (n < 0 || n > BP_MAX_HASHES || (Size) n * 8 != (Size) (buf->len - buf->cursor))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid %s value in binary input", TYPNAME),
				 errdetail("It announces %d hashes and has %d bytes of them.", n, buf->len - buf->cursor)));
	v = palloc_extended(((Size) n + 1) * sizeof(int64), MCXT_ALLOC_HUGE);
	for (int i = 0; i < n; i++)
		v[i] = pq_getmsgint64(buf);
	n = sort_hashes(v, n);
	PG_RETURN_POINTER(bp_make(v, n));
}

/* textfp_boilerplate_of(hashes int8[]) returns textfp_boilerplate */
PG_FUNCTION_INFO_V1(textfp_boilerplate_of);
Datum
textfp_boilerplate_of(PG_FUNCTION_ARGS)
{
	ArrayType  *a = PG_GETARG_ARRAYTYPE_P(0);
	int			n;
	int64	   *v;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("line hashes must be a one-dimensional array"),
				 errdetail("The array has %d dimensions.", ARR_NDIM(a))));
	if (ARR_HASNULL(a) && array_contains_nulls(a))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("line hashes must not contain nulls"),
				 errdetail("A boilerplate lexicon is a set of line hashes from textfp_line_hashes().")));
	n = ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a));
	if (n > BP_MAX_HASHES)
		too_many((Size) n);
	v = palloc_extended(((Size) n + 1) * sizeof(int64), MCXT_ALLOC_HUGE);
	if (n > 0)
		memcpy(v, ARR_DATA_PTR(a), (Size) n * sizeof(int64));
	n = sort_hashes(v, n);
	PG_RETURN_POINTER(bp_make(v, n));
}

/* textfp_boilerplate_size(textfp_boilerplate) returns int4 */
PG_FUNCTION_INFO_V1(textfp_boilerplate_size);
Datum
textfp_boilerplate_size(PG_FUNCTION_ARGS)
{
	Boilerplate *b = (Boilerplate *)
		PG_DETOAST_DATUM_SLICE(PG_GETARG_DATUM(0), 0, BP_HDRSZ);

	bp_check_version(b);
	PG_RETURN_INT32(b->nhashes);
}

/* textfp_boilerplate_hashes(textfp_boilerplate) returns int8[] */
PG_FUNCTION_INFO_V1(textfp_boilerplate_hashes);
Datum
textfp_boilerplate_hashes(PG_FUNCTION_ARGS)
{
	Boilerplate *b = bp_arg(fcinfo, 0);

	PG_RETURN_ARRAYTYPE_P(textfp_int8_array(b->hashes, b->nhashes));
}

/* ------------------------------------------------------------ line hashes */

static void
collect_line(void *arg, size_t start, size_t end, size_t next, int has_hash,
			 uint64_t hash)
{
	uint64		h = hash;

	(void) start;
	(void) end;
	(void) next;
	if (has_hash)
		textfp_collect_distinct(arg, &h, 1);
}

/* textfp_line_hashes(body text) returns int8[]: distinct, sorted */
PG_FUNCTION_INFO_V1(textfp_line_hashes);
Datum
textfp_line_hashes(PG_FUNCTION_ARGS)
{
	size_t		len;
	const char *s = textfp_text_utf8(PG_GETARG_TEXT_PP(0), &len);
	hash_buf	b;

	b.cap = 64;
	b.n = 0;
	b.h = palloc(b.cap * sizeof(uint64));
	tfp_boiler_lines(s, len, collect_line, &b, textfp_interrupt_tick);
	textfp_sort_unique(&b);
	if (b.n > (size_t) BP_MAX_HASHES)
		too_many(b.n);
	PG_RETURN_ARRAYTYPE_P(textfp_int8_array((const int64 *) b.h, (int) b.n));
}

/* ---------------------------------------------------------------- strip */

static uint64
bp_ident(const void *hdr, int32 *nhashes)
{
	const Boilerplate *b = (const Boilerplate *) hdr;

	bp_check_version(b);
	*nhashes = b->nhashes;
	return b->id;
}

static const int64 *
bp_terms(const void *value, int32 *nhashes)
{
	const Boilerplate *b = (const Boilerplate *) value;

	bp_check(b);
	*nhashes = b->nhashes;
	return b->hashes;
}

static const textfp_lexicon_kind bp_kind = {BP_HDRSZ, bp_ident, bp_terms};

/* the hash set of a textfp_boilerplate argument (cached at the call site) */
const textfp_termset_cache *
textfp_boilerplate_arg(FunctionCallInfo fcinfo, int argno)
{
	bool		loaded;

	return textfp_lexicon_set(fcinfo, argno, &bp_kind, sizeof(textfp_termset_cache), &loaded);
}

/* textfp_strip_boilerplate(body text, boilerplate textfp_boilerplate) returns text */
PG_FUNCTION_INFO_V1(textfp_strip_boilerplate);
Datum
textfp_strip_boilerplate(PG_FUNCTION_ARGS)
{
	bool		loaded;
	const textfp_termset_cache *c = textfp_lexicon_set(fcinfo, 1, &bp_kind,
													   sizeof(textfp_termset_cache), &loaded);
	text	   *t;
	size_t		len,
				outlen,
				removed;
	const char *s;
	char	   *out;

	if (c->nterms == 0)
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	t = PG_GETARG_TEXT_PP(0);
	s = textfp_text_utf8(t, &len);
	out = palloc_extended(len + 1, MCXT_ALLOC_HUGE);
	outlen = tfp_boiler_strip(s, len, &c->set, out, &removed, textfp_interrupt_tick);
	if (removed == 0)
		PG_RETURN_TEXT_P(t);
	if (s != VARDATA_ANY(t))
	{
		/* back to the server encoding (the lines kept are whole characters) */
		char	   *conv;

		out[outlen] = '\0';
		conv = pg_any_to_server(out, (int) outlen, PG_UTF8);
		PG_RETURN_TEXT_P(cstring_to_text(conv));
	}
	PG_RETURN_TEXT_P(cstring_to_text_with_len(out, (int) outlen));
}

/*
 * textfp_is_html(body text) returns boolean: whether html => 'auto' of
 * textfp_match reads the text as an HTML page (tfp_html_looks_like)
 */
PG_FUNCTION_INFO_V1(textfp_is_html);
Datum
textfp_is_html(PG_FUNCTION_ARGS)
{
	size_t		len;
	const char *s = textfp_text_utf8(PG_GETARG_TEXT_PP(0), &len);

	PG_RETURN_BOOL(tfp_html_looks_like(s, len) != 0);
}
