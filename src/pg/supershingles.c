/*
 * supershingles.c -- supershingles(): Broder's super-shingles of a minhash
 * signature (the core is tfp_supershingle.c)
 */
#include "postgres.h"

#include "minhash.h"
#include "tfp_supershingle.h"

/* supershingles(sig minhash, groups int4) returns int8[] */
PG_FUNCTION_INFO_V1(supershingles);
Datum
supershingles(PG_FUNCTION_ARGS)
{
	MinHash    *m = PG_GETARG_MINHASH_P(0);
	int32		g = PG_GETARG_INT32(1);
	uint64	   *out;
	size_t		n;

	if (g < 1 || g > m->k || m->k % g != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("groups must divide the signature's k = %d, not %d", m->k, g),
				 errdetail("Each super-shingle hashes k / groups consecutive values of the signature."),
				 errhint("Broder's setting: minhash(body, 84) with 6 groups of 14 values.")));
	if (MinHashIsEmpty(m))
		PG_RETURN_ARRAYTYPE_P(textfp_int8_array(NULL, 0));
	out = palloc(sizeof(uint64) * g);
	n = tfp_supershingles(m->v, m->k, m->ngram, m->shingle,
						  m->flags & MINHASH_FOLD_MASK, g, out);
	PG_RETURN_ARRAYTYPE_P(textfp_int8_array((const int64 *) out, (int) n));
}
