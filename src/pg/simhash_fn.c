/*
 * simhash_fn.c -- simhash(): SimHash fingerprints of texts and of
 * caller-supplied weighted features
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include <math.h>

#include "textfp.h"

/*
 * simhash(body text, ngram int4, shingle int4, fold_case bool,
 *		   fold_width bool, fold_han bool, center bool) returns simhash
 */
PG_FUNCTION_INFO_V1(simhash_text);
Datum
simhash_text(PG_FUNCTION_ARGS)
{
	text	   *body = PG_GETARG_TEXT_PP(0);
	tfp_feature_opts o;
	const char *s;
	size_t		len;

	textfp_feature_opts(&o, PG_GETARG_INT32(1), PG_GETARG_INT32(2),
						PG_GETARG_BOOL(3), PG_GETARG_BOOL(4), PG_GETARG_BOOL(5));
	s = textfp_text_utf8(body, &len);
	PG_RETURN_SIMHASH(tfp_simhash_text(s, len, &o, PG_GETARG_BOOL(6),
									   textfp_interrupt_tick, NULL));
}

/* Deconstruct a one-dimensional array without NULLs. */
static void
array_elements(ArrayType *a, Oid elemtype, const char *what,
			   Datum **elems, int *n)
{
	int16		typlen;
	bool		typbyval;
	char		typalign;
	bool	   *nulls;
	int			i;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be a one-dimensional array", what),
				 errdetail("The array has %d dimensions.", ARR_NDIM(a))));
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	deconstruct_array(a, elemtype, typlen, typbyval, typalign, elems, &nulls, n);
	for (i = 0; i < *n; i++)
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s must not contain nulls", what),
					 errdetail("Element %d is null.", i + 1)));
}

static uint64
feature_hash(Datum d)
{
	text	   *t = DatumGetTextPP(d);
	size_t		len;
	const char *s = textfp_text_utf8(t, &len);

	return tfp_token_hash(s, len);
}

/* simhash(features text[]) returns simhash: every element has weight 1 */
PG_FUNCTION_INFO_V1(simhash_features);
Datum
simhash_features(PG_FUNCTION_ARGS)
{
	ArrayType  *fa = PG_GETARG_ARRAYTYPE_P(0);
	Datum	   *fe;
	int			nf,
				i;
	tfp_simhash_acc acc;

	array_elements(fa, TEXTOID, "features", &fe, &nf);
	tfp_simhash_init(&acc);
	for (i = 0; i < nf; i++)
	{
		uint64		h = feature_hash(fe[i]);

		if ((i & 255) == 255)
			textfp_interrupt_tick();
		tfp_simhash_add(&acc, &h, 1);
	}
	PG_RETURN_SIMHASH(tfp_simhash_finish(&acc));
}

/* simhash(features text[], weights float4[]) returns simhash */
PG_FUNCTION_INFO_V1(simhash_weighted);
Datum
simhash_weighted(PG_FUNCTION_ARGS)
{
	ArrayType  *fa = PG_GETARG_ARRAYTYPE_P(0);
	ArrayType  *wa = PG_GETARG_ARRAYTYPE_P(1);
	Datum	   *fe,
			   *we;
	int			nf,
				nw,
				i;
	tfp_simhash_wacc acc;

	array_elements(fa, TEXTOID, "features", &fe, &nf);
	array_elements(wa, FLOAT4OID, "weights", &we, &nw);
	if (nf != nw)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("features and weights must have the same length"),
				 errdetail("There are %d features and %d weights.", nf, nw)));
	tfp_simhash_winit(&acc);
	for (i = 0; i < nf; i++)
	{
		float4		w = DatumGetFloat4(we[i]);

		if (isnan(w) || isinf(w))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("weights must be finite"),
					 errdetail("Weight %d is %s.", i + 1, isnan(w) ? "NaN" : "infinite")));
		if ((i & 255) == 255)
			textfp_interrupt_tick();
		tfp_simhash_wadd(&acc, feature_hash(fe[i]), (double) w);
	}
	PG_RETURN_SIMHASH(tfp_simhash_wfinish(&acc));
}
