/*
 * pinyin.c -- SQL functions pinyin(), pinyin_initials(), pinyin_dna(),
 * pinyin_dna_similarity(), pinyin_dna_shared() and the %& operator
 * (the core is tfp_pinyin.c / tfp_pinyin_dna.c)
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "textfp.h"
#include "tfp_sort.h"
#include "tfp_pinyin.h"
#include "pinyin.h"

/* Texts up to this size get their pinyin in one pass into a guessed buffer. */
#define PINYIN_GUESS_MAX (64 * 1024 * 1024)

static void
tick(void)
{
	CHECK_FOR_INTERRUPTS();
}

/* letters of a UTF-8 text (palloc'd), chunk by chunk with interrupt checks */
static char *
text_letters(const char *s, size_t len, size_t *n)
{
	char	   *l = palloc_extended(len + 1, MCXT_ALLOC_HUGE);

	*n = tfp_pinyin_letters_ticked(s, len, l, tick);
	return l;
}

/* the pinyin of a UTF-8 text (palloc'd, NUL-terminated, *n bytes) */
static char *
pinyin_utf8(const char *s, size_t len, unsigned flags, size_t *np)
{
	size_t		n;
	char	   *out;

	tfp_pinyin_tick = tick;
	CHECK_FOR_INTERRUPTS();
	/* one pass into a buffer of twice the text, usually enough (a 3-byte
	 * character becomes a syllable of 1-6 letters and a space) */
	if (len <= PINYIN_GUESS_MAX)
	{
		size_t		cap = 2 * len + 16;

		out = palloc(cap + 1);
		n = tfp_pinyin_text_bounded(s, len, flags, out, cap);
		if (n <= cap)
		{
			out[n] = '\0';
			CHECK_FOR_INTERRUPTS();
			*np = n;
			return out;
		}
		pfree(out);
	}
	n = tfp_pinyin_text(s, len, flags, NULL);
	if (n > MaxAllocSize - VARHDRSZ - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("pinyin of the text would be too long (%zu bytes)", n),
				 errdetail("Values are limited to %zu bytes.",
						   (size_t) (MaxAllocSize - VARHDRSZ - 1))));
	out = palloc(n + 1);
	tfp_pinyin_text(s, len, flags, out);
	out[n] = '\0';
	CHECK_FOR_INTERRUPTS();
	*np = n;
	return out;
}

char *
textfp_pinyin_utf8(const char *s, size_t len, size_t *n)
{
	return pinyin_utf8(s, len, 0, n);
}

static text *
pinyin_common(text *t, unsigned flags)
{
	size_t		len,
				n;
	const char *s = textfp_text_utf8(t, &len);
	char	   *out = pinyin_utf8(s, len, flags, &n);
	char	   *conv;
	text	   *res;

	/* back to the server encoding (a no-op for UTF8 and for pure ASCII) */
	conv = pg_any_to_server(out, (int) n, PG_UTF8);
	res = cstring_to_text_with_len(conv, strlen(conv));
	return res;
}

/* pinyin(body text) returns text */
PG_FUNCTION_INFO_V1(pinyin);
Datum
pinyin(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(pinyin_common(PG_GETARG_TEXT_PP(0), 0));
}

/* pinyin_initials(body text) returns text */
PG_FUNCTION_INFO_V1(pinyin_initials);
Datum
pinyin_initials(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(pinyin_common(PG_GETARG_TEXT_PP(0), TFP_PY_INITIALS));
}

static void
dna_opts(tfp_dna_opts *o, int32 window, int32 overlap, int32 levels,
		 bool content_defined)
{
	const char *bad;

	o->window = window;
	o->overlap = overlap;
	o->levels = levels;
	o->content_defined = content_defined ? 1 : 0;
	bad = tfp_dna_check(o);
	if (bad == NULL)
		return;
	if (strcmp(bad, "window") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("window_length must be between %d and %d, not %d",
						TFP_DNA_MIN_WINDOW, TFP_DNA_MAX_WINDOW, window),
				 errdetail("window_length is the number of Han characters in one DNA window.")));
	if (strcmp(bad, "overlap") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("overlap must be between 0 and %d, not %d",
						TFP_DNA_MAX_OVERLAP, overlap),
				 errdetail("overlap is the percentage of a window shared with the next one.")));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("levels must be between %d and %d, not %d",
					TFP_DNA_MIN_LEVELS, TFP_DNA_MAX_LEVELS, levels),
			 errdetail("levels is the number of quantization levels of each letter's frequency.")));
}

/* the window DNAs of a UTF-8 text (sorted, distinct; palloc'd) */
static int64 *
dna_utf8(const char *s, size_t len, const tfp_dna_opts *o, size_t *nw)
{
	size_t		n,
				maxw;
	char	   *l;
	int64	   *w;

	tfp_pinyin_tick = tick;
	l = text_letters(s, len, &n);
	maxw = tfp_dna_max_windows(n, o);
	w = palloc_extended(maxw * sizeof(int64), MCXT_ALLOC_HUGE);
	*nw = tfp_dna_windows(l, n, o, (int64_t *) w);
	pfree(l);
	return w;
}

int64 *
textfp_pinyin_dna_utf8(const char *s, size_t len, size_t *n)
{
	tfp_dna_opts o;

	dna_opts(&o, 32, 50, 4, true);
	return dna_utf8(s, len, &o, n);
}

/*
 * pinyin_dna(body text, window int4, overlap int4, levels int4,
 *			  content_defined bool) returns int8[]
 */
PG_FUNCTION_INFO_V1(pinyin_dna);
Datum
pinyin_dna(PG_FUNCTION_ARGS)
{
	text	   *body = PG_GETARG_TEXT_PP(0);
	tfp_dna_opts o;
	size_t		len,
				nw;
	const char *s;
	int64	   *w;

	dna_opts(&o, PG_GETARG_INT32(1), PG_GETARG_INT32(2), PG_GETARG_INT32(3),
			 PG_GETARG_BOOL(4));
	s = textfp_text_utf8(body, &len);
	w = dna_utf8(s, len, &o, &nw);
	if (nw > (MaxAllocSize - 64) / sizeof(int64))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many DNA windows (%zu)", nw),
				 errdetail("Use a larger window or a smaller overlap.")));
	PG_RETURN_ARRAYTYPE_P(textfp_int8_array(w, (int) nw));
}

int64 *
pinyin_sorted_set(ArrayType *a, int *n)
{
	Datum	   *d;
	bool	   *nulls;
	int			nd,
				k = 0;
	int64	   *v;

	if (ARR_ELEMTYPE(a) != INT8OID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("array of int8 expected")));
	deconstruct_array(a, INT8OID, sizeof(int64), FLOAT8PASSBYVAL,
					  TYPALIGN_DOUBLE, &d, &nulls, &nd);
	v = palloc(sizeof(int64) * (nd > 0 ? nd : 1));
	for (int i = 0; i < nd; i++)
		if (!nulls[i])
			v[k++] = DatumGetInt64(d[i]);
	*n = (int) tfp_sort_unique_u64((uint64_t *) v, (size_t) k, NULL);
	return v;
}

/* number of distinct non-null values two int8 arrays share */
static int
shared_count(ArrayType *a, ArrayType *b, int *na, int *nb)
{
	int64	   *x = pinyin_sorted_set(a, na);
	int64	   *y = pinyin_sorted_set(b, nb);

	return (int) tfp_intersect_count_u64((const uint64_t *) x, *na,
										 (const uint64_t *) y, *nb);
}

/* pinyin_dna_similarity(a int8[], b int8[]) returns float8: Jaccard */
PG_FUNCTION_INFO_V1(pinyin_dna_similarity);
Datum
pinyin_dna_similarity(PG_FUNCTION_ARGS)
{
	int			na,
				nb,
				k = shared_count(PG_GETARG_ARRAYTYPE_P(0),
								 PG_GETARG_ARRAYTYPE_P(1), &na, &nb);

	if (na + nb - k == 0)
		PG_RETURN_FLOAT8(0.0);
	PG_RETURN_FLOAT8((double) k / (double) (na + nb - k));
}

/* pinyin_dna_shared(a int8[], b int8[]) returns int4 */
PG_FUNCTION_INFO_V1(pinyin_dna_shared);
Datum
pinyin_dna_shared(PG_FUNCTION_ARGS)
{
	int			na,
				nb;

	PG_RETURN_INT32(shared_count(PG_GETARG_ARRAYTYPE_P(0),
								 PG_GETARG_ARRAYTYPE_P(1), &na, &nb));
}

void
pinyin_query_fields(HeapTupleHeader q, ArrayType **dna, int32 *m)
{
	bool		isnull;
	Datum		d;

	d = GetAttributeByNum(q, 2, &isnull);
	if (isnull || DatumGetInt32(d) < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_shared must be at least 1"),
				 errdetail("A pinyin_dna_query asks for rows sharing at least min_shared window DNAs.")));
	*m = DatumGetInt32(d);
	d = GetAttributeByNum(q, 1, &isnull);
	*dna = isnull ? NULL : DatumGetArrayTypeP(d);
}

/* pinyin_dna_query(dna int8[], min_shared int4) returns pinyin_dna_query */
PG_FUNCTION_INFO_V1(pinyin_dna_query_make);
Datum
pinyin_dna_query_make(PG_FUNCTION_ARGS)
{
	int32		m = PG_GETARG_INT32(1);

	if (m < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_shared must be at least 1, not %d", m),
				 errdetail("A pinyin_dna_query asks for rows sharing at least min_shared window DNAs.")));
	PG_RETURN_DATUM(textfp_make_query(fcinfo, Int32GetDatum(m)));
}

/*
 * int8[] %& pinyin_dna_query: the array shares at least min_shared distinct
 * non-null values with the query's dna
 */
PG_FUNCTION_INFO_V1(pinyin_dna_match);
Datum
pinyin_dna_match(PG_FUNCTION_ARGS)
{
	ArrayType  *a = PG_GETARG_ARRAYTYPE_P(0);
	ArrayType  *q;
	int32		m;
	int			na,
				nq;

	pinyin_query_fields(PG_GETARG_HEAPTUPLEHEADER(1), &q, &m);
	if (q == NULL)
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(shared_count(a, q, &na, &nq) >= m);
}
