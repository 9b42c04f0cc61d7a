/*
 * minhash.c -- the minhash signature type: text and binary I/O (validated
 * field by field), compatibility checks, the Jaccard estimate, the %
 * operator and its threshold setting textfp.minhash_threshold, and the
 * equality, order and hashing behind =, btree and hash operator classes
 *
 * Text form (output exactly so; input accepts upper-case hex digits too):
 *
 *   v1 k=<k> ngram=<n> shingle=<s> fold=<f> <values>
 *
 * where <f> is the sum of the folds used (1 width, 2 case, 4 Han), and
 * <values> is k values of exactly 8 hexadecimal digits each, concatenated,
 * or the word "empty" for a text without any feature.
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "minhash.h"

double		textfp_minhash_threshold = 0.5;

void
textfp_minhash_init(void)
{
	DefineCustomRealVariable("textfp.minhash_threshold",
							 "Estimated Jaccard similarity at or above which the minhash % operator is true.",
							 "The % operator is true when minhash_jaccard() >= this value and > 0.",
							 &textfp_minhash_threshold,
							 0.5, 0.0, 1.0,
							 PGC_USERSET, 0,
							 NULL, textfp_minhash_threshold_assign, NULL);
	textfp_minhash_citus_init();
}

static MinHash *
minhash_alloc(int k, bool empty)
{
	Size		sz = MINHASH_HDRSZ + (empty ? 0 : (Size) k * sizeof(uint32));
	MinHash    *m = (MinHash *) palloc0(sz);

	SET_VARSIZE(m, sz);
	return m;
}

/* Exported for minhash_fn.c */
MinHash    *minhash_make(int k, int ngram, int shingle, unsigned fold, bool empty);

MinHash *
minhash_make(int k, int ngram, int shingle, unsigned fold, bool empty)
{
	MinHash    *m = minhash_alloc(k, empty);

	m->version = TFP_MINHASH_VERSION;
	m->ngram = (uint8) ngram;
	m->shingle = (uint8) shingle;
	m->flags = (uint8) ((fold & MINHASH_FOLD_MASK) | (empty ? MINHASH_EMPTY : 0));
	m->k = (uint16) k;
	m->reserved = 0;
	return m;
}

/* ---------------------------------------------------------------- text I/O */

/*
 * Parse "<prefix><decimal>" at *p followed by a space; the number has 1..5
 * digits without sign or leading zero.  Returns -1 if malformed.  (Also
 * used by the imatch_lexicon type.)
 */
int
textfp_parse_field(const char **p, const char *prefix)
{
	const char *s = *p;
	size_t		pl = strlen(prefix);
	int			v = 0,
				nd = 0;

	if (strncmp(s, prefix, pl) != 0)
		return -1;
	s += pl;
	if (*s == '0' && s[1] >= '0' && s[1] <= '9')
		return -1;
	while (*s >= '0' && *s <= '9' && nd < 5)
		v = v * 10 + (*s++ - '0'), nd++;
	if (nd == 0 || *s != ' ')
		return -1;
	*p = s + 1;
	return v;
}

#define BAD_SYNTAX(detail) \
	INPUT_ERROR(fcinfo->context, \
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), \
				 errmsg("invalid input syntax for type %s: \"%s\"", "minhash", str), \
				 errdetail detail))

#define BAD_VALUE(detail) \
	INPUT_ERROR(fcinfo->context, \
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE), \
				 errmsg("invalid minhash value"), \
				 errdetail detail))

PG_FUNCTION_INFO_V1(minhash_in);
Datum
minhash_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	const char *p = str;
	int			k,
				ngram,
				shingle,
				fold,
				i;
	MinHash    *m;

	if (strncmp(p, "v", 1) != 0)
		INPUT_ERROR(fcinfo->context,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"", "minhash", str),
					 errdetail("A minhash value starts with \"v1 k=\"."),
					 errhint("To compute the signature of a text, call minhash(body, k), e.g. minhash('...', 128).")));
	p++;
	{
		int			ver = 0,
					nd = 0;

		while (*p >= '0' && *p <= '9' && nd < 5)
			ver = ver * 10 + (*p++ - '0'), nd++;
		if (nd == 0 || *p != ' ')
			BAD_SYNTAX(("A minhash value starts with \"v1 k=\"."));
		p++;
		if (ver != TFP_MINHASH_VERSION)
			BAD_VALUE(("Version %d is not supported; this textfp knows version %d.",
					   ver, TFP_MINHASH_VERSION));
	}
	if ((k = textfp_parse_field(&p, "k=")) < 0)
		BAD_SYNTAX(("Expected \"k=<number> \" after the version."));
	if ((ngram = textfp_parse_field(&p, "ngram=")) < 0)
		BAD_SYNTAX(("Expected \"ngram=<number> \" after k."));
	if ((shingle = textfp_parse_field(&p, "shingle=")) < 0)
		BAD_SYNTAX(("Expected \"shingle=<number> \" after ngram."));
	if ((fold = textfp_parse_field(&p, "fold=")) < 0)
		BAD_SYNTAX(("Expected \"fold=<number> \" after shingle."));
	if (k < 1 || k > TFP_MINHASH_MAX_K)
		BAD_VALUE(("k must be between 1 and %d, not %d.", TFP_MINHASH_MAX_K, k));
	if (ngram < 1 || ngram > TFP_MAX_NGRAM)
		BAD_VALUE(("ngram must be between 1 and %d, not %d.", TFP_MAX_NGRAM, ngram));
	if (shingle < 1 || shingle > TFP_MAX_SHINGLE)
		BAD_VALUE(("shingle must be between 1 and %d, not %d.", TFP_MAX_SHINGLE, shingle));
	if (fold > MINHASH_FOLD_MASK)
		BAD_VALUE(("fold must be between 0 and %d, not %d.", MINHASH_FOLD_MASK, fold));

	if (strcmp(p, "empty") == 0)
		PG_RETURN_POINTER(minhash_make(k, ngram, shingle, fold, true));

	m = minhash_make(k, ngram, shingle, fold, false);
	for (i = 0; i < k; i++)
	{
		uint32		v = 0;
		int			j;

		for (j = 0; j < 8; j++)
		{
			int			d = textfp_hexval(*p);

			if (d < 0)
				BAD_SYNTAX(("Expected %d values of 8 hexadecimal digits each (or \"empty\"); value %d is %s.",
							k, i + 1, *p ? "malformed" : "missing"));
			v = (v << 4) | (uint32) d;
			p++;
		}
		m->v[i] = v;
	}
	if (*p != '\0')
		BAD_SYNTAX(("Expected %d values of 8 hexadecimal digits each; there is more.", k));
	PG_RETURN_POINTER(m);
}

PG_FUNCTION_INFO_V1(minhash_out);
Datum
minhash_out(PG_FUNCTION_ARGS)
{
	MinHash    *m = PG_GETARG_MINHASH_P(0);
	StringInfoData buf;
	static const char digits[] = "0123456789abcdef";
	int			i;

	initStringInfo(&buf);
	appendStringInfo(&buf, "v%d k=%d ngram=%d shingle=%d fold=%d ",
					 m->version, m->k, m->ngram, m->shingle,
					 m->flags & MINHASH_FOLD_MASK);
	if (MinHashIsEmpty(m))
		appendStringInfoString(&buf, "empty");
	else
	{
		enlargeStringInfo(&buf, m->k * 8);
		for (i = 0; i < m->k; i++)
		{
			uint32		v = m->v[i];
			int			j;

			for (j = 7; j >= 0; j--)
				buf.data[buf.len + j] = digits[(v >> (4 * (7 - j))) & 0xF];
			buf.len += 8;
		}
		buf.data[buf.len] = '\0';
	}
	PG_RETURN_CSTRING(buf.data);
}

/* -------------------------------------------------------------- binary I/O */

/*
 * Binary form: int1 version, int1 ngram, int1 shingle, int1 flags, int2 k,
 * int2 reserved (0), then k int4 values unless flags has MINHASH_EMPTY (128).
 * Every field is checked as in text input.
 */
PG_FUNCTION_INFO_V1(minhash_recv);
Datum
minhash_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			version,
				ngram,
				shingle,
				flags,
				k,
				reserved,
				i;
	bool		empty;
	MinHash    *m;

	if (buf->len - buf->cursor < 8)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary minhash value"),
				 errdetail("The value has %d bytes; the header alone has 8.",
						   buf->len - buf->cursor)));
	version = pq_getmsgbyte(buf);
	ngram = pq_getmsgbyte(buf);
	shingle = pq_getmsgbyte(buf);
	flags = pq_getmsgbyte(buf);
	k = (uint16) pq_getmsgint(buf, 2);
	reserved = (uint16) pq_getmsgint(buf, 2);
	if (version != TFP_MINHASH_VERSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid binary minhash value"),
				 errdetail("Version %d is not supported; this textfp knows version %d.",
						   version, TFP_MINHASH_VERSION)));
	if (k < 1 || k > TFP_MINHASH_MAX_K)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid binary minhash value"),
				 errdetail("k must be between 1 and %d, not %d.", TFP_MINHASH_MAX_K, k)));
	if (ngram < 1 || ngram > TFP_MAX_NGRAM)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid binary minhash value"),
				 errdetail("ngram must be between 1 and %d, not %d.", TFP_MAX_NGRAM, ngram)));
	if (shingle < 1 || shingle > TFP_MAX_SHINGLE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid binary minhash value"),
				 errdetail("shingle must be between 1 and %d, not %d.", TFP_MAX_SHINGLE, shingle)));
	if ((flags & ~(MINHASH_FOLD_MASK | MINHASH_EMPTY)) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid binary minhash value"),
				 errdetail("Flags 0x%02x has unknown bits.", flags)));
	if (reserved != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid binary minhash value"),
				 errdetail("The reserved field must be 0, not %d.", reserved)));
	empty = (flags & MINHASH_EMPTY) != 0;
	if (buf->len - buf->cursor != (empty ? 0 : 4 * k))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary minhash value"),
				 empty ?
				 errdetail("An empty value has no values after the header, but %d bytes follow.",
						   buf->len - buf->cursor) :
				 errdetail("A value with k = %d has %d bytes of values after the header, not %d.",
						   k, 4 * k, buf->len - buf->cursor)));
	m = minhash_make(k, ngram, shingle, flags & MINHASH_FOLD_MASK, empty);
	if (!empty)
		for (i = 0; i < k; i++)
			m->v[i] = (uint32) pq_getmsgint(buf, 4);
	PG_RETURN_POINTER(m);
}

PG_FUNCTION_INFO_V1(minhash_send);
Datum
minhash_send(PG_FUNCTION_ARGS)
{
	MinHash    *m = PG_GETARG_MINHASH_P(0);
	StringInfoData buf;
	int			i;

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, m->version);
	pq_sendbyte(&buf, m->ngram);
	pq_sendbyte(&buf, m->shingle);
	pq_sendbyte(&buf, m->flags);
	pq_sendint16(&buf, m->k);
	pq_sendint16(&buf, 0);
	if (!MinHashIsEmpty(m))
		for (i = 0; i < m->k; i++)
			pq_sendint32(&buf, m->v[i]);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* ------------------------------------------------------- comparison */

void
minhash_check_compatible(const MinHash *a, const MinHash *b)
{
	const char *what = NULL;
	int			x = 0,
				y = 0;

	if (a->version != b->version)
		what = "version", x = a->version, y = b->version;
	else if (a->k != b->k)
		what = "k", x = a->k, y = b->k;
	else if (a->ngram != b->ngram)
		what = "ngram", x = a->ngram, y = b->ngram;
	else if (a->shingle != b->shingle)
		what = "shingle", x = a->shingle, y = b->shingle;
	else if ((a->flags & MINHASH_FOLD_MASK) != (b->flags & MINHASH_FOLD_MASK))
		what = "fold", x = a->flags & MINHASH_FOLD_MASK, y = b->flags & MINHASH_FOLD_MASK;
	if (what)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot compare minhash signatures made with different parameters"),
				 errdetail("One has %s = %d, the other %s = %d.", what, x, what, y),
				 errhint("Compute both signatures with the same k, ngram, shingle and fold options.")));
}

/* minhash_jaccard(a minhash, b minhash) returns float8 */
PG_FUNCTION_INFO_V1(minhash_jaccard);
Datum
minhash_jaccard(PG_FUNCTION_ARGS)
{
	MinHash    *a = PG_GETARG_MINHASH_P(0);
	MinHash    *b = PG_GETARG_MINHASH_P(1);

	minhash_check_compatible(a, b);
	PG_RETURN_FLOAT8((double) minhash_match_count(a, b) / (double) a->k);
}

/* a % b: minhash_jaccard(a, b) >= textfp.minhash_threshold, and > 0 */
PG_FUNCTION_INFO_V1(minhash_similar);
Datum
minhash_similar(PG_FUNCTION_ARGS)
{
	MinHash    *a = PG_GETARG_MINHASH_P(0);
	MinHash    *b = PG_GETARG_MINHASH_P(1);

	minhash_check_compatible(a, b);
	PG_RETURN_BOOL(minhash_match_count(a, b) >=
				   minhash_min_matches(textfp_minhash_threshold, a->k));
}

/* minhash_k(minhash) returns int4; minhash_is_empty(minhash) returns bool */
PG_FUNCTION_INFO_V1(minhash_k);
Datum
minhash_k(PG_FUNCTION_ARGS)
{
	MinHash    *m = (MinHash *) PG_DETOAST_DATUM_SLICE(PG_GETARG_DATUM(0), 0, MINHASH_HDRSZ);

	PG_RETURN_INT32(m->k);
}

PG_FUNCTION_INFO_V1(minhash_is_empty);
Datum
minhash_is_empty(PG_FUNCTION_ARGS)
{
	MinHash    *m = (MinHash *) PG_DETOAST_DATUM_SLICE(PG_GETARG_DATUM(0), 0, MINHASH_HDRSZ);

	PG_RETURN_BOOL(MinHashIsEmpty(m));
}

/* ------------------------------------------------ equality, order, hash */

/*
 * Two signatures are equal when every field is: the parameters (version, k,
 * ngram, shingle, folds), emptiness and the k values.  The representation is
 * canonical (the reserved field is 0, an empty signature has no values, and
 * input and receive check both), so equal signatures are equal bytes.
 *
 * The order is a fixed total order for btree (sorting, UNIQUE, DISTINCT,
 * merge joins), not a similarity: by version, k, ngram, shingle, fold flags,
 * empty before non-empty, then the values compared as unsigned numbers, first
 * position first.  It compares numbers, not bytes, so it is the same on
 * every platform; signatures made with different parameters are simply
 * unequal (no error, unlike minhash_jaccard).
 */
static int
minhash_cmp_internal(const MinHash *a, const MinHash *b)
{
#define CMP_FIELD(x, y) if ((x) != (y)) return (x) < (y) ? -1 : 1
	CMP_FIELD(a->version, b->version);
	CMP_FIELD(a->k, b->k);
	CMP_FIELD(a->ngram, b->ngram);
	CMP_FIELD(a->shingle, b->shingle);
	CMP_FIELD(a->flags & MINHASH_FOLD_MASK, b->flags & MINHASH_FOLD_MASK);
	CMP_FIELD(MinHashIsEmpty(b), MinHashIsEmpty(a));
	if (!MinHashIsEmpty(a))
		for (int i = 0; i < a->k; i++)
			CMP_FIELD(a->v[i], b->v[i]);
#undef CMP_FIELD
	return 0;
}

static int
minhash_cmp_args(FunctionCallInfo fcinfo)
{
	MinHash    *a = PG_GETARG_MINHASH_P(0);
	MinHash    *b = PG_GETARG_MINHASH_P(1);
	int			c = minhash_cmp_internal(a, b);

	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	return c;
}

#define MINHASH_CMP_FN(name, op) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(minhash_cmp_args(fcinfo) op 0); \
}

MINHASH_CMP_FN(minhash_eq, ==)
MINHASH_CMP_FN(minhash_ne, !=)
MINHASH_CMP_FN(minhash_lt, <)
MINHASH_CMP_FN(minhash_le, <=)
MINHASH_CMP_FN(minhash_gt, >)
MINHASH_CMP_FN(minhash_ge, >=)

PG_FUNCTION_INFO_V1(minhash_cmp);
Datum
minhash_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(minhash_cmp_args(fcinfo));
}

/*
 * Hash of the fields the equality compares, combined value by value (not the
 * bytes in memory) so that it is the same on every platform and hash
 * partitions keep their rows.  The combination h = 31 h + x is the one
 * PostgreSQL uses for arrays; it works modulo 2^64 here, and its low 32 bits
 * depend only on the low 32 bits of each x.  hash_bytes_uint32_extended()
 * with seed 0 has hash_bytes_uint32()'s value in its low 32 bits, so the
 * 32-bit hash is the low half of the seed-0 extended one, as hash operator
 * classes require: one loop serves both.
 */
static uint64
minhash_hash64(const MinHash *m, uint64 seed)
{
	uint32		header = (uint32) m->version | ((uint32) m->ngram << 8) |
		((uint32) m->shingle << 16) |
		((uint32) (m->flags & (MINHASH_FOLD_MASK | MINHASH_EMPTY)) << 24);
	uint64		h = 1;

	h = h * 31 + hash_bytes_uint32_extended(header, seed);
	h = h * 31 + hash_bytes_uint32_extended(m->k, seed);
	if (!MinHashIsEmpty(m))
		for (int i = 0; i < m->k; i++)
			h = h * 31 + hash_bytes_uint32_extended(m->v[i], seed);
	return h;
}

PG_FUNCTION_INFO_V1(minhash_hash);
Datum
minhash_hash(PG_FUNCTION_ARGS)
{
	MinHash    *m = PG_GETARG_MINHASH_P(0);
	uint32		h = (uint32) minhash_hash64(m, 0);

	PG_FREE_IF_COPY(m, 0);
	PG_RETURN_UINT32(h);
}

PG_FUNCTION_INFO_V1(minhash_hash_extended);
Datum
minhash_hash_extended(PG_FUNCTION_ARGS)
{
	MinHash    *m = PG_GETARG_MINHASH_P(0);
	uint64		h = minhash_hash64(m, (uint64) PG_GETARG_INT64(1));

	PG_FREE_IF_COPY(m, 0);
	PG_RETURN_UINT64(h);
}
