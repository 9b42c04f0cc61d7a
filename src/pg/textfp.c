/*
 * textfp.c -- module magic and helpers shared by the fmgr wrappers
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/guc.h"

#include "textfp.h"
#include "tfp_cpu.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static bool textfp_simd = true;

/* textfp.simd: the kernels' AVX-512 versions on or off (same results) */
static void
textfp_simd_assign(bool newval, void *extra)
{
	tfp_simd_enabled = newval ? 1 : 0;
}

void
_PG_init(void)
{
	textfp_minhash_init();
	textfp_hamming_init();
	textfp_pairs_init();
	DefineCustomBoolVariable("textfp.simd",
							 "Uses the AVX-512 versions of textfp's kernels where the CPU has them.",
							 "They give the same results as the portable versions, faster; off is for comparisons and troubleshooting.",
							 &textfp_simd,
							 true,
							 PGC_USERSET, 0,
							 NULL, textfp_simd_assign, NULL);

	/* every setting is defined above: reject misspelt textfp.* names */
#if PG_VERSION_NUM >= 150000
	MarkGUCPrefixReserved("textfp");
#else
	EmitWarningsOnPlaceholders("textfp");
#endif
}

const char *
textfp_text_utf8(text *t, size_t *len)
{
	const char *s = VARDATA_ANY(t);
	int			l = VARSIZE_ANY_EXHDR(t);
	int			enc = GetDatabaseEncoding();
	char	   *c;

	/* SQL_ASCII bytes are read as UTF-8; invalid sequences are separators */
	if (enc == PG_UTF8 || enc == PG_SQL_ASCII)
	{
		*len = (size_t) l;
		return s;
	}
	c = (char *) pg_do_encoding_conversion((unsigned char *) s, l, enc, PG_UTF8);
	*len = (c == s) ? (size_t) l : strlen(c);
	return c;
}

void
textfp_append_hex64(StringInfo buf, const int64 *v, int n)
{
	static const char hex[] = "0123456789abcdef";

	enlargeStringInfo(buf, n * 16);
	for (int i = 0; i < n; i++)
	{
		uint64		t = (uint64) v[i];

		for (int j = 60; j >= 0; j -= 4)
			buf->data[buf->len++] = hex[(t >> j) & 15];
	}
	buf->data[buf->len] = '\0';
}

int
textfp_parse_hex64(const char *p, int64 *v, int n)
{
	for (int i = 0; i < n; i++)
	{
		uint64		t = 0;

		for (int j = 0; j < 16; j++)
		{
			int			d = textfp_hexval(*p++);

			if (d < 0)
				return i;
			t = (t << 4) | (uint64) d;
		}
		v[i] = (int64) t;
	}
	return -1;
}

void
textfp_feature_opts(tfp_feature_opts *o, int32 ngram, int32 shingle,
					bool fold_case, bool fold_width, bool fold_han)
{
	if (ngram < 1 || ngram > TFP_MAX_NGRAM)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("ngram must be between 1 and %d, not %d",
						TFP_MAX_NGRAM, ngram),
				 errdetail("ngram is the number of consecutive Han characters in one feature.")));
	if (shingle < 1 || shingle > TFP_MAX_SHINGLE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shingle must be between 1 and %d, not %d",
						TFP_MAX_SHINGLE, shingle),
				 errdetail("shingle is the number of consecutive words in one feature.")));
	o->ngram = ngram;
	o->shingle = shingle;
	o->fold = (fold_case ? TFP_FOLD_CASE : 0) |
		(fold_width ? TFP_FOLD_WIDTH : 0) |
		(fold_han ? TFP_FOLD_HAN : 0);
}

void
textfp_interrupt_tick(void)
{
	CHECK_FOR_INTERRUPTS();
}

/*
 * A one-dimensional int8[] of v[0..n) without NULLs (empty: the empty
 * array), built in one piece: what construct_array() builds, without a
 * Datum per element.
 */
ArrayType *
textfp_int8_array(const int64 *v, int n)
{
	ArrayType  *a;
	Size		nbytes;

	if (n == 0)
		return construct_empty_array(INT8OID);
	nbytes = ARR_OVERHEAD_NONULLS(1) + sizeof(int64) * (Size) n;
	a = (ArrayType *) palloc0(nbytes);
	SET_VARSIZE(a, nbytes);
	a->ndim = 1;
	a->dataoffset = 0;
	a->elemtype = INT8OID;
	ARR_DIMS(a)[0] = n;
	ARR_LBOUND(a)[0] = 1;
	memcpy(ARR_DATA_PTR(a), v, sizeof(int64) * (Size) n);
	return a;
}
