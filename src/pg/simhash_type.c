/*
 * simhash_type.c -- the 64-bit fingerprint type: I/O, casts, comparison,
 * hashing and Hamming distance
 *
 * Text form: exactly 16 hexadecimal digits, most significant first (output in
 * lowercase; input in either case, nothing else allowed).  Bit i of the value
 * is the bit of weight 2^i; as bigint it is the same 64 bits (bit 63 is the
 * sign bit); as bit(64) the first bit of the string is bit 63.
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"
#include "utils/varbit.h"

#include "textfp.h"

PG_FUNCTION_INFO_V1(simhash64_in);
Datum
simhash64_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);
	uint64		v = 0;
	int			i;

	for (i = 0; i < 16; i++)
	{
		int			d = textfp_hexval(s[i]);

		if (d < 0)
			break;
		v = (v << 4) | (uint64) d;
	}
	if (i != 16 || s[16] != '\0')
		INPUT_ERROR(fcinfo->context,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"", "simhash64", s),
					 errdetail("A simhash64 value is written as exactly 16 hexadecimal digits.")));
	PG_RETURN_SIMHASH(v);
}

PG_FUNCTION_INFO_V1(simhash64_out);
Datum
simhash64_out(PG_FUNCTION_ARGS)
{
	simhash		v = PG_GETARG_SIMHASH(0);
	static const char digits[] = "0123456789abcdef";
	char	   *out = palloc(17);
	int			i;

	for (i = 15; i >= 0; i--)
	{
		out[i] = digits[v & 0xF];
		v >>= 4;
	}
	out[16] = '\0';
	PG_RETURN_CSTRING(out);
}

PG_FUNCTION_INFO_V1(simhash64_recv);
Datum
simhash64_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);

	PG_RETURN_SIMHASH((simhash) pq_getmsgint64(buf));
}

PG_FUNCTION_INFO_V1(simhash64_send);
Datum
simhash64_send(PG_FUNCTION_ARGS)
{
	simhash		v = PG_GETARG_SIMHASH(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, (int64) v);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* ---- casts ---- */

PG_FUNCTION_INFO_V1(simhash64_from_bigint);
Datum
simhash64_from_bigint(PG_FUNCTION_ARGS)
{
	PG_RETURN_SIMHASH((simhash) PG_GETARG_INT64(0));
}

PG_FUNCTION_INFO_V1(simhash64_to_bigint);
Datum
simhash64_to_bigint(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) PG_GETARG_SIMHASH(0));
}

PG_FUNCTION_INFO_V1(simhash64_from_bit);
Datum
simhash64_from_bit(PG_FUNCTION_ARGS)
{
	VarBit	   *b = PG_GETARG_VARBIT_P(0);
	const bits8 *p = VARBITS(b);
	uint64		v = 0;
	int			i;

	if (VARBITLEN(b) != 64)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("bit string length %d does not match type simhash64",
						VARBITLEN(b)),
				 errdetail("A simhash64 value is exactly 64 bits.")));
	for (i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	PG_RETURN_SIMHASH(v);
}

PG_FUNCTION_INFO_V1(simhash64_to_bit);
Datum
simhash64_to_bit(PG_FUNCTION_ARGS)
{
	simhash		v = PG_GETARG_SIMHASH(0);
	int			len = VARBITTOTALLEN(64);
	VarBit	   *b = (VarBit *) palloc0(len);
	bits8	   *p;
	int			i;

	SET_VARSIZE(b, len);
	VARBITLEN(b) = 64;
	p = VARBITS(b);
	for (i = 0; i < 8; i++)
		p[i] = (bits8) (v >> (56 - 8 * i));
	PG_RETURN_VARBIT_P(b);
}

/* ---- comparison (unsigned order) ---- */

#define SIMHASH_CMP_FN(name, op) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(PG_GETARG_SIMHASH(0) op PG_GETARG_SIMHASH(1)); \
}

SIMHASH_CMP_FN(simhash64_eq, ==)
SIMHASH_CMP_FN(simhash64_ne, !=)
SIMHASH_CMP_FN(simhash64_lt, <)
SIMHASH_CMP_FN(simhash64_le, <=)
SIMHASH_CMP_FN(simhash64_gt, >)
SIMHASH_CMP_FN(simhash64_ge, >=)

static inline int
simhash_cmp_internal(simhash a, simhash b)
{
	return (a > b) - (a < b);
}

PG_FUNCTION_INFO_V1(simhash64_cmp);
Datum
simhash64_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(simhash_cmp_internal(PG_GETARG_SIMHASH(0), PG_GETARG_SIMHASH(1)));
}

static int
simhash_fastcmp(Datum x, Datum y, SortSupport ssup)
{
	return simhash_cmp_internal(DatumGetSimhash(x), DatumGetSimhash(y));
}

PG_FUNCTION_INFO_V1(simhash64_sortsupport);
Datum
simhash64_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = simhash_fastcmp;
	PG_RETURN_VOID();
}

/* Hashing agrees with int8's, so the values hash as their bigint casts do. */
PG_FUNCTION_INFO_V1(simhash64_hash);
Datum
simhash64_hash(PG_FUNCTION_ARGS)
{
	return DirectFunctionCall1(hashint8, PG_GETARG_DATUM(0));
}

PG_FUNCTION_INFO_V1(simhash64_hash_extended);
Datum
simhash64_hash_extended(PG_FUNCTION_ARGS)
{
	return DirectFunctionCall2(hashint8extended, PG_GETARG_DATUM(0),
							   PG_GETARG_DATUM(1));
}

/* ---- Hamming distance ---- */

PG_FUNCTION_INFO_V1(simhash_dist);
Datum
simhash_dist(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(simhash_hamming(PG_GETARG_SIMHASH(0), PG_GETARG_SIMHASH(1)));
}
