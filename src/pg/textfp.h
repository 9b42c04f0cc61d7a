/*
 * textfp.h -- shared declarations of textfp's PostgreSQL layer
 *
 * The pure core (tfp_core.h) knows nothing of PostgreSQL; the files that
 * include this header are the thin fmgr wrappers around it.
 */
#ifndef TEXTFP_H
#define TEXTFP_H

#include "postgres.h"
#include "fmgr.h"
#include "port/pg_bitutils.h"
#include "lib/stringinfo.h"
#include "utils/array.h"

#include "tfp_core.h"

/*
 * The 64-bit fingerprint type.  Stored like int8 (LIKE = int8 in SQL): pass by
 * value where Datum is 64 bits wide.  Ordering is that of the unsigned value.
 */
typedef uint64 simhash;

#define DatumGetSimhash(X)		((simhash) DatumGetInt64(X))
#define SimhashGetDatum(X)		Int64GetDatum((int64) (X))
#define PG_GETARG_SIMHASH(n)	DatumGetSimhash(PG_GETARG_DATUM(n))
#define PG_RETURN_SIMHASH(x)	return SimhashGetDatum(x)

/*
 * Hamming distance, with the hardware popcount where the CPU has one:
 * PostgreSQL's pg_popcount64 picks the POPCNT instruction at run time (CPUID)
 * on x86-64 and uses the compiler's builtin elsewhere.  A build with
 * -mpopcnt (or -march=x86-64-v2) inlines the instruction instead.
 */
static inline int
simhash_hamming(simhash a, simhash b)
{
#if defined(__POPCNT__)
	return __builtin_popcountll(a ^ b);
#else
	return pg_popcount64(a ^ b);
#endif
}

/*
 * An input function's syntax error: a soft error (pg_input_is_valid(),
 * COPY ... ON_ERROR) where the server has them, from PostgreSQL 16; an
 * ERROR before.  The input function returns (Datum) 0 after a soft error.
 */
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#define INPUT_ERROR(ctx, ...)	ereturn((ctx), (Datum) 0, __VA_ARGS__)
#else
#define INPUT_ERROR(ctx, ...)	ereport(ERROR, __VA_ARGS__)
#endif

/* Value of a hexadecimal digit (either case), or -1. */
static inline int
textfp_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * A text argument as UTF-8: the bytes themselves when the server encoding is
 * UTF8 (or SQL_ASCII), otherwise converted.  *len receives the byte length.
 * The result may point into the (detoasted) argument; never modify it.
 */
extern const char *textfp_text_utf8(text *t, size_t *len);

/*
 * Lexicon text forms (imatch_lexicon, textfp_boilerplate): n 64-bit values
 * as 16 lower-case hexadecimal digits each, appended to buf; and read back
 * from p (16 * n digits, either case) into v, returning -1, or the index of
 * the first value that is not 16 hexadecimal digits.
 */
extern void textfp_append_hex64(StringInfo buf, const int64 *v, int n);
extern int	textfp_parse_hex64(const char *p, int64 *v, int n);

/* Feature options from SQL arguments, checked (22023 on bad values). */
extern void textfp_feature_opts(tfp_feature_opts *o, int32 ngram, int32 shingle,
								bool fold_case, bool fold_width, bool fold_han);

/* A one-dimensional int8[] of v[0..n) (n = 0: the empty array). */
extern ArrayType *textfp_int8_array(const int64 *v, int n);

/* The distinct feature hashes of a UTF-8 text, sorted as int8 (palloc'd,
 * *n of them), and if not NULL, how many Han features and features in all
 * the text has (minhash_fn.c). */
extern uint64 *textfp_shingle_set_utf8(const char *s, size_t len,
									   const tfp_feature_opts *o, size_t *n,
									   uint64 *nhan, uint64 *total);

/* The feature hashes of a UTF-8 text in text order (palloc'd, *n). */
extern uint64 *textfp_feature_seq_utf8(const char *s, size_t len,
									   const tfp_feature_opts *o, size_t *n);
/* The same, and how many are Han features (*nhan, if not NULL). */
extern uint64 *textfp_feature_seq_counted_utf8(const char *s, size_t len,
											   const tfp_feature_opts *o, size_t *n,
											   uint64 *nhan);
/* The distinct values of v[0..n), sorted as int8 (palloc'd copy, *nout). */
extern uint64 *textfp_sorted_set(const uint64 *v, size_t n, size_t *nout);

/* pinyin() of a UTF-8 text (palloc'd UTF-8, *n bytes), and its pinyin_dna()
 * with the default options (palloc'd, sorted, *n values; pinyin.c). */
extern char *textfp_pinyin_utf8(const char *s, size_t len, size_t *n);
extern int64 *textfp_pinyin_dna_utf8(const char *s, size_t len, size_t *n);

/* A feature sink that checks for interrupts, for long texts. */
extern void textfp_interrupt_tick(void);

/* Module initialisation of the MinHash code (GUCs), from _PG_init. */
extern void textfp_minhash_init(void);

/* module initialisation of the Hamming-radius search (simhash_planner.c) */
extern void textfp_hamming_init(void);

/* module initialisation of the all-pairs search (simhash_pairs.c: GUCs) */
extern void textfp_pairs_init(void);

/*
 * The kind of Citus table relid is ("distributed", "reference", "citus
 * local"), or NULL (citus.c): its heap on this node may be an empty shell.
 */
extern const char *textfp_citus_table_kind(Oid relid);

/*
 * A two-field query composite of the calling function's result type:
 * (its argument 0, second) (sets.c; set_*_query, pinyin_dna_query,
 * minhash_query).
 */
extern Datum textfp_make_query(FunctionCallInfo fcinfo, Datum second);

#endif							/* TEXTFP_H */
