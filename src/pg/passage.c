/*
 * passage.c -- the passage fingerprint in SQL: the passage_fingerprint type (text and
 * binary I/O, validated), passage_fp(), its accessors, passage_fp_shared(),
 * passage_query() and the %& operator ("shares at least m seeds").  The
 * fingerprint is src/core/tfp_passage.c; its layout is in passage.h.
 *
 * Text form (output exactly so; input accepts upper-case hex digits too):
 *
 *   v1 k=<k> w=<w> reading=<0|1> units=<units> <seeds>
 *
 * where <seeds> is "empty" or the seeds separated by one space, each
 * <16 hex digits of the hash>@<unit>:<2 hex digits left><2 hex digits right>.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "passage.h"
#include "textfp.h"

/* ---------------------------------------------------------------- helpers */

void
passage_check_opts(tfp_passage_opts *o, int32 k, int32 w, bool reading)
{
	if (k < 1 || k > TFP_PASSAGE_MAX_K)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be between 1 and %d, not %d", TFP_PASSAGE_MAX_K, k),
				 errdetail("k is the length of each hashed k-gram, a Han character counting 1 and a word 2.")));
	if (w < 1 || w > TFP_PASSAGE_MAX_W)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("w must be between 1 and %d, not %d", TFP_PASSAGE_MAX_W, w),
				 errdetail("w is the length a winnowing window spans; any shared run of length w + k is found (a Han character counting 1, a word 2).")));
	o->k = k;
	o->w = w;
	o->reading = reading ? 1 : 0;
}

void
passage_check_same(const tfp_passage_opts *have, const tfp_passage_opts *want,
				   const char *what)
{
	if (have->k != want->k || have->w != want->w || have->reading != want->reading)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s has passage fingerprint options k=%d w=%d reading=%d, not k=%d w=%d reading=%d",
						what, have->k, have->w, have->reading, want->k, want->w, want->reading),
				 errdetail("Passage fingerprints are compared only when they were made with the same options.")));
}

typedef struct SeedBuf
{
	tfp_pseed  *s;
	size_t		n,
				cap;
} SeedBuf;

static void
seed_sink(void *arg, const tfp_pseed *s, size_t n)
{
	SeedBuf    *b = (SeedBuf *) arg;

	if (n > 0 && s[n - 1].unit >= TFP_PASSAGE_MAX_UNITS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("text too long for a passage fingerprint"),
				 errdetail("A passage fingerprint reads at most %u units (Han characters and words) of a text.",
						   (unsigned) TFP_PASSAGE_MAX_UNITS)));
	if (b->n + n > b->cap)
	{
		size_t		cap = Max(b->cap * 2, b->n + n);

		cap = Max(cap, 64);
		b->s = b->s ? repalloc_huge(b->s, cap * sizeof(tfp_pseed)) :
			MemoryContextAllocHuge(CurrentMemoryContext, cap * sizeof(tfp_pseed));
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n * sizeof(tfp_pseed));
	b->n += n;
}

tfp_pseed *
passage_utf8_seeds(const char *s, size_t len, const tfp_passage_opts *o, size_t *n,
				   uint64 *units)
{
	SeedBuf		b = {NULL, 0, 0};
	uint64		nu = 0;

	/* a guess of the room: a seed in about five units, a unit in about
	 * three bytes */
	b.cap = Max(len / 12, 16);
	b.s = MemoryContextAllocHuge(CurrentMemoryContext, b.cap * sizeof(tfp_pseed));
	tfp_passage_seeds(s, len, o, seed_sink, &b, textfp_interrupt_tick, &nu);
	if (nu > TFP_PASSAGE_MAX_UNITS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("text too long for a passage fingerprint"),
				 errdetail("The text has %llu units (Han characters and words); a passage fingerprint reads at most %u.",
						   (unsigned long long) nu, (unsigned) TFP_PASSAGE_MAX_UNITS)));
	*n = b.n;
	if (units)
		*units = nu;
	return b.s;
}

tfp_pseed *
passage_text_seeds(text *t, const tfp_passage_opts *o, size_t *n, uint64 *units)
{
	size_t		len;
	const char *s = textfp_text_utf8(t, &len);

	return passage_utf8_seeds(s, len, o, n, units);
}

PassageFp *
passage_fp_make(const tfp_passage_opts *o, const tfp_pseed *s, size_t n, uint64 units)
{
	PassageFp  *fp;
	Size		sz = PASSAGE_FP_SIZE(n);
	uint64	   *h;
	uint32	   *u;
	uint8	   *l,
			   *r;

	fp = (PassageFp *) palloc_extended(sz, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	SET_VARSIZE(fp, sz);
	fp->version = PASSAGE_FP_VERSION;
	fp->k = (uint8) o->k;
	fp->w = (uint8) o->w;
	fp->flags = o->reading ? PASSAGE_FP_READING : 0;
	fp->units = (uint32) units;
	fp->n = (uint32) n;
	h = passage_fp_hash(fp);
	u = passage_fp_unit(fp);
	l = passage_fp_left(fp);
	r = passage_fp_right(fp);
	for (size_t i = 0; i < n; i++)
	{
		h[i] = s[i].hash;
		u[i] = s[i].unit;
		l[i] = s[i].left;
		r[i] = s[i].right;
	}
	return fp;
}

tfp_pseed *
passage_fp_seeds_of(PassageFp *fp)
{
	tfp_pseed  *s = palloc_extended(Max(fp->n, 1) * sizeof(tfp_pseed), MCXT_ALLOC_HUGE);
	uint64	   *h = passage_fp_hash(fp);
	uint32	   *u = passage_fp_unit(fp);
	uint8	   *l = passage_fp_left(fp),
			   *r = passage_fp_right(fp);

	for (uint32 i = 0; i < fp->n; i++)
	{
		s[i].hash = h[i];
		s[i].unit = u[i];
		s[i].left = l[i];
		s[i].right = r[i];
		s[i].pad = 0;
	}
	return s;
}

/* the checks every value passes (after input, on receive) */
static const char *
passage_fp_invalid(PassageFp *fp, Size size)
{
	uint32	   *u;
	tfp_passage_opts o;

	if (size < PASSAGE_FP_HDRSZ || size != PASSAGE_FP_SIZE(fp->n))
		return "its size does not match its number of seeds";
	if (fp->version != PASSAGE_FP_VERSION)
		return "its version is not 1";
	o = passage_fp_opts(fp);
	if (tfp_passage_check(&o) != NULL)
		return "k or w is out of range";
	if ((fp->flags & ~PASSAGE_FP_READING) != 0)
		return "it has unknown flags";
	if (fp->units > TFP_PASSAGE_MAX_UNITS)
		return "it has more units than a passage fingerprint reads";
	u = passage_fp_unit(fp);
	for (uint32 i = 0; i < fp->n; i++)
	{
		if ((uint64) u[i] + fp->k > fp->units)
			return "a seed's k-gram ends after the last unit";
		if (i > 0 && u[i] <= u[i - 1])
			return "its seeds are not in increasing order of unit";
	}
	return NULL;
}

/* ---------------------------------------------------------------- text I/O */

static bool
parse_uint(const char **p, const char *prefix, uint64 max, uint64 *v)
{
	const char *s = *p;
	size_t		pl = strlen(prefix);
	uint64		x = 0;
	int			nd = 0;

	if (strncmp(s, prefix, pl) != 0)
		return false;
	s += pl;
	if (*s == '0' && s[1] >= '0' && s[1] <= '9')
		return false;
	while (*s >= '0' && *s <= '9')
	{
		x = x * 10 + (uint64) (*s++ - '0');
		if (++nd > 10 || x > max)
			return false;
	}
	if (nd == 0)
		return false;
	*v = x;
	*p = s;
	return true;
}

static bool
parse_hex(const char **p, int digits, uint64 *v)
{
	uint64		x = 0;

	for (int i = 0; i < digits; i++)
	{
		int			d = textfp_hexval((*p)[i]);

		if (d < 0)
			return false;
		x = (x << 4) | (uint64) d;
	}
	*p += digits;
	*v = x;
	return true;
}

#define BAD_SYNTAX(detail) \
	INPUT_ERROR(fcinfo->context, \
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), \
				 errmsg("invalid input syntax for type %s: \"%s\"", "passage_fingerprint", str), \
				 errdetail detail))

PG_FUNCTION_INFO_V1(passage_fingerprint_in);
Datum
passage_fingerprint_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	const char *p = str;
	uint64		ver,
				k,
				w,
				reading,
				units;
	tfp_pseed  *s;
	size_t		n = 0,
				cap = 16;
	PassageFp  *fp;
	const char *bad;

	if (!parse_uint(&p, "v", 255, &ver) || *p++ != ' ')
		INPUT_ERROR(fcinfo->context,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"", "passage_fingerprint", str),
					 errdetail("A passage_fingerprint value starts with \"v1 k=\"."),
					 errhint("To compute the fingerprint of a text, call passage_fp(body).")));
	if (!parse_uint(&p, "k=", 255, &k) || *p++ != ' ' ||
		!parse_uint(&p, "w=", 255, &w) || *p++ != ' ' ||
		!parse_uint(&p, "reading=", 1, &reading) || *p++ != ' ' ||
		!parse_uint(&p, "units=", TFP_PASSAGE_MAX_UNITS, &units) || *p++ != ' ')
		BAD_SYNTAX(("Expected \"v1 k=<k> w=<w> reading=<0 or 1> units=<n> \" before the seeds."));
	if (strcmp(p, "empty") == 0)
		p += 5;
	else if (*p == '\0')
		BAD_SYNTAX(("Expected the seeds, or \"empty\", after \"units=<n> \"."));
	s = palloc(cap * sizeof(tfp_pseed));
	while (*p != '\0')
	{
		uint64		h,
					u,
					l,
					r;

		if (n > 0 && *p++ != ' ')
			BAD_SYNTAX(("Seeds are separated by one space."));
		if (!parse_hex(&p, 16, &h) || *p++ != '@' ||
			!parse_uint(&p, "", PG_UINT32_MAX, &u) || *p++ != ':' ||
			!parse_hex(&p, 2, &l) || !parse_hex(&p, 2, &r))
			BAD_SYNTAX(("A seed is 16 hexadecimal digits of its hash, \"@\", its unit, \":\" and 4 hexadecimal digits of its context bytes."));
		if (n == cap)
		{
			if (cap >= PASSAGE_FP_MAX_SEEDS)
				BAD_SYNTAX(("A value has at most %u seeds.", (unsigned) PASSAGE_FP_MAX_SEEDS));
			cap *= 2;
			s = repalloc_huge(s, cap * sizeof(tfp_pseed));
		}
		s[n].hash = h;
		s[n].unit = (uint32) u;
		s[n].left = (uint8) l;
		s[n].right = (uint8) r;
		s[n].pad = 0;
		n++;
	}
	if (ver != PASSAGE_FP_VERSION || k < 1 || k > TFP_PASSAGE_MAX_K || w < 1 || w > TFP_PASSAGE_MAX_W)
		INPUT_ERROR(fcinfo->context,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid passage_fingerprint value"),
					 errdetail("Version 1 has k from 1 to %d and w from 1 to %d.",
							   TFP_PASSAGE_MAX_K, TFP_PASSAGE_MAX_W)));
	{
		tfp_passage_opts o = {(int) k, (int) w, (int) reading};

		fp = passage_fp_make(&o, s, n, units);
	}
	if ((bad = passage_fp_invalid(fp, VARSIZE(fp))) != NULL)
		INPUT_ERROR(fcinfo->context,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid passage_fingerprint value"),
					 errdetail("The value is not a passage fingerprint: %s.", bad)));
	PG_RETURN_POINTER(fp);
}

PG_FUNCTION_INFO_V1(passage_fingerprint_out);
Datum
passage_fingerprint_out(PG_FUNCTION_ARGS)
{
	PassageFp  *fp = PG_GETARG_PASSAGE_FP(0);
	StringInfoData buf;
	uint64	   *h = passage_fp_hash(fp);
	uint32	   *u = passage_fp_unit(fp);
	uint8	   *l = passage_fp_left(fp),
			   *r = passage_fp_right(fp);

	initStringInfo(&buf);
	appendStringInfo(&buf, "v%d k=%d w=%d reading=%d units=%u ", fp->version, fp->k, fp->w,
					 (fp->flags & PASSAGE_FP_READING) ? 1 : 0, fp->units);
	if (fp->n == 0)
		appendStringInfoString(&buf, "empty");
	for (uint32 i = 0; i < fp->n; i++)
	{
		if (i > 0)
			appendStringInfoChar(&buf, ' ');
		appendStringInfo(&buf, "%016llx@%u:%02x%02x", (unsigned long long) h[i], u[i], l[i], r[i]);
		if ((i & 4095) == 4095)
			CHECK_FOR_INTERRUPTS();
	}
	PG_RETURN_CSTRING(buf.data);
}

/* binary: the value as stored, after the length word, in network order */
PG_FUNCTION_INFO_V1(passage_fingerprint_send);
Datum
passage_fingerprint_send(PG_FUNCTION_ARGS)
{
	PassageFp  *fp = PG_GETARG_PASSAGE_FP(0);
	StringInfoData buf;
	uint64	   *h = passage_fp_hash(fp);
	uint32	   *u = passage_fp_unit(fp);
	uint8	   *l = passage_fp_left(fp),
			   *r = passage_fp_right(fp);

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, fp->version);
	pq_sendbyte(&buf, fp->k);
	pq_sendbyte(&buf, fp->w);
	pq_sendbyte(&buf, fp->flags);
	pq_sendint32(&buf, fp->units);
	pq_sendint32(&buf, fp->n);
	for (uint32 i = 0; i < fp->n; i++)
	{
		pq_sendint64(&buf, (int64) h[i]);
		pq_sendint32(&buf, u[i]);
		pq_sendbyte(&buf, l[i]);
		pq_sendbyte(&buf, r[i]);
	}
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(passage_fingerprint_recv);
Datum
passage_fingerprint_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	tfp_passage_opts o;
	uint8		ver,
				flags;
	uint32		units,
				n;
	tfp_pseed  *s;
	PassageFp  *fp;
	const char *bad;

	ver = (uint8) pq_getmsgbyte(buf);
	o.k = pq_getmsgbyte(buf);
	o.w = pq_getmsgbyte(buf);
	flags = (uint8) pq_getmsgbyte(buf);
	units = pq_getmsgint(buf, 4);
	n = pq_getmsgint(buf, 4);
	if ((Size) n > (Size) (buf->len - buf->cursor) / 14)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid passage_fingerprint value"),
				 errdetail("The message has fewer bytes than its %u seeds need.", n)));
	o.reading = (flags & PASSAGE_FP_READING) != 0;
	s = palloc_extended(Max(n, 1) * sizeof(tfp_pseed), MCXT_ALLOC_HUGE);
	for (uint32 i = 0; i < n; i++)
	{
		s[i].hash = (uint64) pq_getmsgint64(buf);
		s[i].unit = pq_getmsgint(buf, 4);
		s[i].left = (uint8) pq_getmsgbyte(buf);
		s[i].right = (uint8) pq_getmsgbyte(buf);
		s[i].pad = 0;
	}
	if (ver != PASSAGE_FP_VERSION || tfp_passage_check(&o) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid passage_fingerprint value"),
				 errdetail("Version 1 has k from 1 to %d and w from 1 to %d.",
						   TFP_PASSAGE_MAX_K, TFP_PASSAGE_MAX_W)));
	fp = passage_fp_make(&o, s, n, units);
	fp->flags = flags;
	if ((bad = passage_fp_invalid(fp, VARSIZE(fp))) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid passage_fingerprint value"),
				 errdetail("The value is not a passage fingerprint: %s.", bad)));
	PG_RETURN_POINTER(fp);
}

/* ---------------------------------------------------------------- functions */

/* passage_fp(body text, k int4, w int4, reading boolean) returns passage_fp */
PG_FUNCTION_INFO_V1(passage_fp_text);
Datum
passage_fp_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	tfp_passage_opts o;
	tfp_pseed  *s;
	size_t		n;
	uint64		units;

	passage_check_opts(&o, PG_GETARG_INT32(1), PG_GETARG_INT32(2), PG_GETARG_BOOL(3));
	s = passage_text_seeds(t, &o, &n, &units);
	PG_RETURN_POINTER(passage_fp_make(&o, s, n, units));
}

/* passage_fp_hashes(passage_fp) returns int8[]: the distinct hashes, sorted */
PG_FUNCTION_INFO_V1(passage_fp_hashes);
Datum
passage_fp_hashes(PG_FUNCTION_ARGS)
{
	PassageFp  *fp = PG_GETARG_PASSAGE_FP(0);
	size_t		n;
	uint64	   *set = textfp_sorted_set(passage_fp_hash(fp), fp->n, &n);

	PG_RETURN_ARRAYTYPE_P(textfp_int8_array((const int64 *) set, (int) n));
}

/* passage_fp_seeds(passage_fp) returns table(hash, unit, left_context, right_context) */
PG_FUNCTION_INFO_V1(passage_fp_seeds);
Datum
passage_fp_seeds(PG_FUNCTION_ARGS)
{
	FuncCallContext *fctx;
	PassageFp  *fp;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;
		TupleDesc	td;

		fctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(fctx->multi_call_memory_ctx);
		if (get_call_result_type(fcinfo, NULL, &td) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "return type must be a row type");
		fctx->tuple_desc = BlessTupleDesc(td);
		fctx->user_fctx = PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(0));
		fctx->max_calls = ((PassageFp *) fctx->user_fctx)->n;
		MemoryContextSwitchTo(old);
	}
	fctx = SRF_PERCALL_SETUP();
	fp = (PassageFp *) fctx->user_fctx;
	if (fctx->call_cntr < fctx->max_calls)
	{
		uint32		i = (uint32) fctx->call_cntr;
		Datum		values[4];
		bool		nulls[4] = {false, false, false, false};

		values[0] = Int64GetDatum((int64) passage_fp_hash(fp)[i]);
		values[1] = Int32GetDatum((int32) passage_fp_unit(fp)[i]);
		values[2] = Int32GetDatum(passage_fp_left(fp)[i]);
		values[3] = Int32GetDatum(passage_fp_right(fp)[i]);
		SRF_RETURN_NEXT(fctx, HeapTupleGetDatum(heap_form_tuple(fctx->tuple_desc, values, nulls)));
	}
	SRF_RETURN_DONE(fctx);
}

PG_FUNCTION_INFO_V1(passage_fp_count);
Datum
passage_fp_count(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) PG_GETARG_PASSAGE_FP(0)->n);
}

PG_FUNCTION_INFO_V1(passage_fp_units);
Datum
passage_fp_units(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) PG_GETARG_PASSAGE_FP(0)->units);
}

/* the number of seeds of q with a matching seed in a */
static int32
shared_seeds(PassageFp *a, PassageFp *q)
{
	tfp_passage_opts oa = passage_fp_opts(a),
				oq = passage_fp_opts(q);
	tfp_pseed  *sa,
			   *sq;

	passage_check_same(&oa, &oq, "the second fingerprint");
	if (a->n == 0 || q->n == 0)
		return 0;
	sa = passage_fp_seeds_of(a);
	sq = passage_fp_seeds_of(q);
	tfp_pseed_sort_hash(sa, a->n);
	return (int32) tfp_passage_shared(sa, a->n, sq, q->n);
}

/* passage_fp_shared(a passage_fp, b passage_fp) returns int4 */
PG_FUNCTION_INFO_V1(passage_fp_shared);
Datum
passage_fp_shared(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(shared_seeds(PG_GETARG_PASSAGE_FP(0), PG_GETARG_PASSAGE_FP(1)));
}

/* ---------------------------------------------------------------- queries */

PassageFp *
passage_query_fp(HeapTupleHeader q, int32 *min_shared)
{
	bool		isnull;
	Datum		d = GetAttributeByNum(q, 2, &isnull);

	if (isnull || DatumGetInt32(d) < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_shared must be at least 1"),
				 errdetail("A passage_query asks for texts sharing at least min_shared seeds of the query's passage fingerprint.")));
	*min_shared = DatumGetInt32(d);
	d = GetAttributeByNum(q, 1, &isnull);
	return isnull ? NULL : DatumGetPassageFp(d);
}

static void
check_min_shared(int32 m)
{
	if (m < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_shared must be at least 1, not %d", m),
				 errdetail("A passage_query asks for texts sharing at least min_shared seeds of the query's passage fingerprint.")));
}

/* passage_query(fp passage_fp, min_shared int4) returns passage_query */
PG_FUNCTION_INFO_V1(passage_query_make);
Datum
passage_query_make(PG_FUNCTION_ARGS)
{
	check_min_shared(PG_GETARG_INT32(1));
	PG_RETURN_DATUM(textfp_make_query(fcinfo, PG_GETARG_DATUM(1)));
}

/* passage_query(q text, min_shared, k, w, reading) returns passage_query */
PG_FUNCTION_INFO_V1(passage_query_text);
Datum
passage_query_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	int32		m = PG_GETARG_INT32(1);
	tfp_passage_opts o;
	tfp_pseed  *s;
	size_t		n;
	uint64		units;
	TupleDesc	td;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	check_min_shared(m);
	passage_check_opts(&o, PG_GETARG_INT32(2), PG_GETARG_INT32(3), PG_GETARG_BOOL(4));
	s = passage_text_seeds(t, &o, &n, &units);
	if (get_call_result_type(fcinfo, NULL, &td) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	td = BlessTupleDesc(td);
	values[0] = PointerGetDatum(passage_fp_make(&o, s, n, units));
	values[1] = Int32GetDatum(m);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(td, values, nulls)));
}

/* passage_fp %& passage_query */
PG_FUNCTION_INFO_V1(passage_fp_match);
Datum
passage_fp_match(PG_FUNCTION_ARGS)
{
	PassageFp  *a = PG_GETARG_PASSAGE_FP(0);
	int32		m;
	PassageFp  *q = passage_query_fp(PG_GETARG_HEAPTUPLEHEADER(1), &m);

	if (q == NULL || q->n < (uint32) m || a->n < (uint32) m)
	{
		if (q != NULL)
		{
			tfp_passage_opts oa = passage_fp_opts(a),
						oq = passage_fp_opts(q);

			passage_check_same(&oa, &oq, "the query");
		}
		PG_RETURN_BOOL(false);
	}
	PG_RETURN_BOOL(shared_seeds(a, q) >= m);
}

/* text %& passage_query: the text's fingerprint, with the query's options */
PG_FUNCTION_INFO_V1(passage_text_match);
Datum
passage_text_match(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	int32		m;
	PassageFp  *q = passage_query_fp(PG_GETARG_HEAPTUPLEHEADER(1), &m);
	tfp_passage_opts o;
	tfp_pseed  *s,
			   *sq;
	size_t		n;
	bool		r;

	if (q == NULL || q->n < (uint32) m)
		PG_RETURN_BOOL(false);
	o = passage_fp_opts(q);
	s = passage_text_seeds(t, &o, &n, NULL);
	if (n < (size_t) m)
		PG_RETURN_BOOL(false);
	sq = passage_fp_seeds_of(q);
	tfp_pseed_sort_hash(s, n);
	r = tfp_passage_shared(s, n, sq, q->n) >= (size_t) m;
	pfree(s);
	pfree(sq);
	PG_RETURN_BOOL(r);
}
