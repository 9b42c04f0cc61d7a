/*
 * imatch.c -- I-Match: the imatch_lexicon type (a set of kept term hashes
 * with the feature options it was made with), imatch() and
 * imatch_randomized() (the core is tfp_imatch.c)
 *
 * Text form of a lexicon (output exactly so; input accepts upper-case hex
 * digits and terms in any order, with duplicates):
 *
 *   v1 ngram=<n> shingle=<s> fold=<f> <terms>
 *
 * where <terms> is each term hash as 16 hexadecimal digits (its 64 bits),
 * concatenated in ascending order of the terms as int8, or the word "empty".
 *
 * A lexicon can be large (a term hash per kept word of a collection), and
 * the same one is passed to every call of a statement: the calls keep the
 * lexicon's hash table in fn_extra (get_lexicon), and later calls recognize
 * the same lexicon without reading it.
 */
#include "postgres.h"

#include "access/detoast.h"
#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "minhash.h"
#include "sets.h"
#include "termset_cache.h"
#include "tfp_hashes.h"
#include "tfp_imatch.h"
#include "tfp_sort.h"

typedef struct IMatchLexicon
{
	int32		vl_len_;
	uint8		version;
	uint8		ngram;
	uint8		shingle;
	uint8		fold;			/* TFP_FOLD_* */
	int32		nterms;
	int32		reserved;		/* 0 */
	uint64		id;				/* hash of the contents (cache key) */
	int64		terms[FLEXIBLE_ARRAY_MEMBER];	/* sorted, distinct */
} IMatchLexicon;

#define LEX_HDRSZ		offsetof(IMatchLexicon, terms)
#define LEX_ID_SEED		UINT64_C(0x74667031696c6964)	/* "tfp1ilid" */
#define LEX_FOLDS		(TFP_FOLD_WIDTH | TFP_FOLD_CASE | TFP_FOLD_HAN)
#define LEX_MAX_TERMS	((int) ((MaxAllocSize - LEX_HDRSZ) / sizeof(int64)))

/* A lexicon of the n sorted distinct terms v (copied). */
static IMatchLexicon *
lexicon_make(const int64 *v, int n, int ngram, int shingle, unsigned fold)
{
	Size		sz = LEX_HDRSZ + (Size) n * sizeof(int64);
	IMatchLexicon *l = (IMatchLexicon *) palloc0(sz);

	SET_VARSIZE(l, sz);
	l->version = TFP_IMATCH_VERSION;
	l->ngram = (uint8) ngram;
	l->shingle = (uint8) shingle;
	l->fold = (uint8) fold;
	l->nterms = n;
	if (n > 0)
		memcpy(l->terms, v, (Size) n * sizeof(int64));
	l->id = tfp_xxh3_u64((const uint64_t *) l->terms, (size_t) n,
						 LEX_ID_SEED + ((uint64) ngram << 16 | (uint64) shingle << 8 | fold));
	return l;
}

/* sort and deduplicate v[0..n) in place; the new count */
static int
sort_terms(int64 *v, int n)
{
	uint64	   *scratch = n >= 64 ? palloc((Size) n * sizeof(uint64)) : NULL;
	int			m = (int) tfp_sort_unique_u64((uint64 *) v, (size_t) n, scratch);

	if (scratch)
		pfree(scratch);
	return m;
}

static void
too_many_terms(Size n)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("lexicon has too many terms (%zu)", (size_t) n),
			 errdetail("An imatch_lexicon holds at most %d terms.", LEX_MAX_TERMS)));
}

#define BAD_SYNTAX(detail) \
	INPUT_ERROR(fcinfo->context, \
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), \
				 errmsg("invalid input syntax for type %s: \"%.60s\"", "imatch_lexicon", str), \
				 errdetail detail))

#define BAD_VALUE(detail) \
	INPUT_ERROR(fcinfo->context, \
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE), \
				 errmsg("invalid imatch_lexicon value"), \
				 errdetail detail))

PG_FUNCTION_INFO_V1(imatch_lexicon_in);
Datum
imatch_lexicon_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	const char *p = str;
	int			ngram,
				shingle,
				fold;
	size_t		digits;
	int			n;
	int64	   *v;

	if (strncmp(p, "v1 ", 3) != 0)
	{
		if (p[0] == 'v' && p[1] >= '0' && p[1] <= '9')
			BAD_VALUE(("Only version %d is supported.", TFP_IMATCH_VERSION));
		BAD_SYNTAX(("An imatch_lexicon value starts with \"v1 ngram=\"."));
	}
	p += 3;
	if ((ngram = textfp_parse_field(&p, "ngram=")) < 0)
		BAD_SYNTAX(("Expected \"ngram=<number> \" after the version."));
	if ((shingle = textfp_parse_field(&p, "shingle=")) < 0)
		BAD_SYNTAX(("Expected \"shingle=<number> \" after ngram."));
	if ((fold = textfp_parse_field(&p, "fold=")) < 0)
		BAD_SYNTAX(("Expected \"fold=<number> \" after shingle."));
	if (ngram < 1 || ngram > TFP_MAX_NGRAM)
		BAD_VALUE(("ngram must be between 1 and %d, not %d.", TFP_MAX_NGRAM, ngram));
	if (shingle < 1 || shingle > TFP_MAX_SHINGLE)
		BAD_VALUE(("shingle must be between 1 and %d, not %d.", TFP_MAX_SHINGLE, shingle));
	if (fold > LEX_FOLDS)
		BAD_VALUE(("fold must be between 0 and %d, not %d.", LEX_FOLDS, fold));
	if (strcmp(p, "empty") == 0)
		PG_RETURN_POINTER(lexicon_make(NULL, 0, ngram, shingle, fold));
	digits = strlen(p);
	if (digits == 0 || digits % 16 != 0)
		BAD_SYNTAX(("Expected terms of 16 hexadecimal digits each, or \"empty\"."));
	if (digits / 16 > (size_t) LEX_MAX_TERMS)
		too_many_terms(digits / 16);
	n = (int) (digits / 16);
	v = palloc((Size) n * sizeof(int64));
	{
		int			bad = textfp_parse_hex64(p, v, n);

		if (bad >= 0)
			BAD_SYNTAX(("Term %d is not 16 hexadecimal digits.", bad + 1));
	}
	n = sort_terms(v, n);
	PG_RETURN_POINTER(lexicon_make(v, n, ngram, shingle, fold));
}

#define PG_GETARG_LEXICON_P(n)	((IMatchLexicon *) PG_DETOAST_DATUM(PG_GETARG_DATUM(n)))

PG_FUNCTION_INFO_V1(imatch_lexicon_out);
Datum
imatch_lexicon_out(PG_FUNCTION_ARGS)
{
	IMatchLexicon *l = PG_GETARG_LEXICON_P(0);
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "v%d ngram=%d shingle=%d fold=%d ",
					 l->version, l->ngram, l->shingle, l->fold);
	if (l->nterms == 0)
		appendStringInfoString(&buf, "empty");
	else
		textfp_append_hex64(&buf, l->terms, l->nterms);
	PG_RETURN_CSTRING(buf.data);
}

/* binary form: version, ngram, shingle, fold (1 byte each), n (4 bytes),
 * then n terms of 8 bytes */
PG_FUNCTION_INFO_V1(imatch_lexicon_send);
Datum
imatch_lexicon_send(PG_FUNCTION_ARGS)
{
	IMatchLexicon *l = PG_GETARG_LEXICON_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, l->version);
	pq_sendbyte(&buf, l->ngram);
	pq_sendbyte(&buf, l->shingle);
	pq_sendbyte(&buf, l->fold);
	pq_sendint32(&buf, l->nterms);
	for (int i = 0; i < l->nterms; i++)
		pq_sendint64(&buf, l->terms[i]);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(imatch_lexicon_recv);
Datum
imatch_lexicon_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			version = pq_getmsgbyte(buf),
				ngram = pq_getmsgbyte(buf),
				shingle = pq_getmsgbyte(buf),
				fold = pq_getmsgbyte(buf);
	int32		n = pq_getmsgint(buf, 4);
	int64	   *v;

	if (version != TFP_IMATCH_VERSION || ngram < 1 || ngram > TFP_MAX_NGRAM ||
		shingle < 1 || shingle > TFP_MAX_SHINGLE || fold > LEX_FOLDS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid imatch_lexicon value in binary input"),
				 errdetail("Version %d, ngram %d, shingle %d, fold %d.", version, ngram, shingle, fold)));
	if (n < 0 || (Size) n * 8 != (Size) (buf->len - buf->cursor))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid imatch_lexicon value in binary input"),
				 errdetail("It announces %d terms and has %d bytes of them.", n, buf->len - buf->cursor)));
	v = palloc(((Size) n + 1) * sizeof(int64));
	for (int i = 0; i < n; i++)
		v[i] = pq_getmsgint64(buf);
	n = sort_terms(v, n);
	PG_RETURN_POINTER(lexicon_make(v, n, ngram, shingle, fold));
}

/*
 * imatch_build_lexicon(terms int8[], ngram int4, shingle int4, fold_case
 *						bool, fold_width bool, fold_han bool) returns imatch_lexicon
 */
PG_FUNCTION_INFO_V1(imatch_build_lexicon);
Datum
imatch_build_lexicon(PG_FUNCTION_ARGS)
{
	ArrayType  *a = PG_GETARG_ARRAYTYPE_P(0);
	tfp_feature_opts o;
	int			n;
	int64	   *v;

	textfp_feature_opts(&o, PG_GETARG_INT32(1), PG_GETARG_INT32(2),
						PG_GETARG_BOOL(3), PG_GETARG_BOOL(4), PG_GETARG_BOOL(5));
	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("terms must be a one-dimensional array"),
				 errdetail("The array has %d dimensions.", ARR_NDIM(a))));
	if (ARR_HASNULL(a) && array_contains_nulls(a))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("terms must not contain nulls"),
				 errdetail("A lexicon is a set of term hashes from imatch_terms().")));
	n = ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a));
	v = palloc(((Size) n + 1) * sizeof(int64));
	if (n > 0)
		memcpy(v, ARR_DATA_PTR(a), (Size) n * sizeof(int64));
	n = sort_terms(v, n);
	PG_RETURN_POINTER(lexicon_make(v, n, o.ngram, o.shingle, o.fold));
}

/* imatch_lexicon_size(imatch_lexicon) returns int4 */
PG_FUNCTION_INFO_V1(imatch_lexicon_size);
Datum
imatch_lexicon_size(PG_FUNCTION_ARGS)
{
	IMatchLexicon *l = (IMatchLexicon *)
		PG_DETOAST_DATUM_SLICE(PG_GETARG_DATUM(0), 0, LEX_HDRSZ);

	PG_RETURN_INT32(l->nterms);
}

/* ---------------------------------------------------------------- I-Match */

/* a call site's lexicon: its hash set, and the feature options of its terms */
typedef struct lexicon_cache
{
	textfp_termset_cache base;
	tfp_feature_opts opts;
} lexicon_cache;

static uint64
lexicon_ident(const void *hdr, int32 *nterms)
{
	const IMatchLexicon *l = (const IMatchLexicon *) hdr;

	*nterms = l->nterms;
	return l->id;
}

static const int64 *
lexicon_terms(const void *value, int32 *nterms)
{
	const IMatchLexicon *l = (const IMatchLexicon *) value;

	if (VARSIZE(l) != LEX_HDRSZ + (Size) l->nterms * sizeof(int64))
		elog(ERROR, "corrupt imatch_lexicon value");
	*nterms = l->nterms;
	return l->terms;
}

static const textfp_lexicon_kind imatch_kind = {LEX_HDRSZ, lexicon_ident, lexicon_terms};

/* The hash set of lexicon argument argno (textfp_lexicon_set), with its options. */
static const lexicon_cache *
get_lexicon(FunctionCallInfo fcinfo, int argno)
{
	bool		loaded;
	lexicon_cache *c = (lexicon_cache *)
		textfp_lexicon_set(fcinfo, argno, &imatch_kind, sizeof(lexicon_cache), &loaded);

	if (loaded)
	{
		/* the value was just read: its header is in the detoasted copy */
		IMatchLexicon *h = (IMatchLexicon *)
			PG_DETOAST_DATUM_SLICE(PG_GETARG_DATUM(argno), 0, LEX_HDRSZ);

		c->opts.ngram = h->ngram;
		c->opts.shingle = h->shingle;
		c->opts.fold = h->fold;
	}
	return c;
}

/* a feature sink keeping the terms in the lexicon (most are not: the
 * sort afterwards is of the kept ones only) */
typedef struct kept_sink
{
	hash_buf	b;
	const tfp_termset *set;
	uint64		tmp[TFP_BATCH];
} kept_sink;

static void
keep_terms(void *arg, const uint64_t *hashes, size_t n)
{
	kept_sink  *k = (kept_sink *) arg;

	if (n == 0)
	{
		textfp_interrupt_tick();
		return;
	}
	memcpy(k->tmp, hashes, n * sizeof(uint64));
	textfp_collect_distinct(&k->b, k->tmp, tfp_imatch_filter(k->set, k->tmp, n));
}

/* the sorted distinct terms of the body that the lexicon keeps, in *b */
static void
kept_terms(FunctionCallInfo fcinfo, hash_buf *b)
{
	const lexicon_cache *c = get_lexicon(fcinfo, 1);
	kept_sink  *k = palloc(sizeof(kept_sink));
	const char *s;
	size_t		len;

	k->set = &c->base.set;
	k->b.cap = 256;
	k->b.n = 0;
	k->b.h = palloc(k->b.cap * sizeof(uint64));
	s = textfp_text_utf8(PG_GETARG_TEXT_PP(0), &len);
	tfp_extract_features(s, len, &c->opts, keep_terms, k);
	textfp_sort_unique(&k->b);
	*b = k->b;
}

/* imatch(body text, lexicon imatch_lexicon) returns int8: NULL if no term kept */
PG_FUNCTION_INFO_V1(imatch);
Datum
imatch(PG_FUNCTION_ARGS)
{
	hash_buf	b;

	kept_terms(fcinfo, &b);
	if (b.n == 0)
		PG_RETURN_NULL();
	PG_RETURN_INT64((int64) tfp_imatch_hash(b.h, b.n, 0));
}

/*
 * imatch_randomized(body text, lexicon imatch_lexicon, lexicons int4,
 *					 drop_fraction float8) returns int8[]
 */
PG_FUNCTION_INFO_V1(imatch_randomized);
Datum
imatch_randomized(PG_FUNCTION_ARGS)
{
	int32		nlex = PG_GETARG_INT32(2);
	float8		f = PG_GETARG_FLOAT8(3);
	hash_buf	b;
	uint64	   *scratch,
				out[TFP_IMATCH_MAX_LEXICONS + 1];
	size_t		n;

	if (nlex < 1 || nlex > TFP_IMATCH_MAX_LEXICONS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("lexicons must be between 1 and %d, not %d", TFP_IMATCH_MAX_LEXICONS, nlex),
				 errdetail("lexicons is the number of randomized lexicons besides the whole one.")));
	if (!(f >= 0 && f < 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("drop_fraction must be at least 0 and less than 1, not %g", f),
				 errdetail("drop_fraction is the share of the lexicon's terms each randomized lexicon leaves out.")));
	kept_terms(fcinfo, &b);
	scratch = palloc(((Size) b.n + 1) * sizeof(uint64));
	n = tfp_imatch_randomized(b.h, b.n, nlex, tfp_imatch_drop_threshold(f),
							  scratch, out);
	PG_RETURN_ARRAYTYPE_P(textfp_int8_array((const int64 *) out, (int) n));
}
