/*
 * compat_1_0.c
 *		C symbols named by the textfp 1.0 install script.
 *
 * Version 1.1 renamed the fingerprint type simhash to simhash64 (so that
 * simhash('literal') is a function call, not a cast) and its support
 * functions with it.  A database created at 1.0 and updated with ALTER
 * EXTENSION keeps the renamed functions bound to the 1.0 symbol names, and
 * "CREATE EXTENSION textfp VERSION '1.0'" binds them too, so the library
 * exports every 1.0 name as an alias of the 1.1 function.  Never remove one.
 */
#include "postgres.h"
#include "fmgr.h"

#define TFP_ALIAS_1_0(oldname, newname) \
	extern Datum newname(PG_FUNCTION_ARGS); \
	PG_FUNCTION_INFO_V1(oldname); \
	Datum oldname(PG_FUNCTION_ARGS) { return newname(fcinfo); }

TFP_ALIAS_1_0(simhash_in, simhash64_in)
TFP_ALIAS_1_0(simhash_out, simhash64_out)
TFP_ALIAS_1_0(simhash_recv, simhash64_recv)
TFP_ALIAS_1_0(simhash_send, simhash64_send)
TFP_ALIAS_1_0(simhash_from_bigint, simhash64_from_bigint)
TFP_ALIAS_1_0(simhash_to_bigint, simhash64_to_bigint)
TFP_ALIAS_1_0(simhash_from_bit, simhash64_from_bit)
TFP_ALIAS_1_0(simhash_to_bit, simhash64_to_bit)
TFP_ALIAS_1_0(simhash_eq, simhash64_eq)
TFP_ALIAS_1_0(simhash_ne, simhash64_ne)
TFP_ALIAS_1_0(simhash_lt, simhash64_lt)
TFP_ALIAS_1_0(simhash_le, simhash64_le)
TFP_ALIAS_1_0(simhash_gt, simhash64_gt)
TFP_ALIAS_1_0(simhash_ge, simhash64_ge)
TFP_ALIAS_1_0(simhash_cmp, simhash64_cmp)
TFP_ALIAS_1_0(simhash_sortsupport, simhash64_sortsupport)
TFP_ALIAS_1_0(simhash_hash, simhash64_hash)
TFP_ALIAS_1_0(simhash_hash_extended, simhash64_hash_extended)
TFP_ALIAS_1_0(simhash_gin_consistent, simhash64_gin_consistent)
TFP_ALIAS_1_0(simhash_gin_extract_query, simhash64_gin_extract_query)
TFP_ALIAS_1_0(simhash_gin_extract_value, simhash64_gin_extract_value)
TFP_ALIAS_1_0(simhash_gin_options, simhash64_gin_options)
TFP_ALIAS_1_0(simhash_gin_triconsistent, simhash64_gin_triconsistent)
TFP_ALIAS_1_0(simhash_gist_compress, simhash64_gist_compress)
TFP_ALIAS_1_0(simhash_gist_consistent, simhash64_gist_consistent)
TFP_ALIAS_1_0(simhash_gist_decompress, simhash64_gist_decompress)
TFP_ALIAS_1_0(simhash_gist_distance, simhash64_gist_distance)
TFP_ALIAS_1_0(simhash_gist_fetch, simhash64_gist_fetch)
TFP_ALIAS_1_0(simhash_gist_penalty, simhash64_gist_penalty)
TFP_ALIAS_1_0(simhash_gist_picksplit, simhash64_gist_picksplit)
TFP_ALIAS_1_0(simhash_gist_same, simhash64_gist_same)
TFP_ALIAS_1_0(simhash_gist_sortsupport, simhash64_gist_sortsupport)
TFP_ALIAS_1_0(simhash_gist_union, simhash64_gist_union)
TFP_ALIAS_1_0(simhash_gkey_in, simhash64_gkey_in)
TFP_ALIAS_1_0(simhash_gkey_out, simhash64_gkey_out)
TFP_ALIAS_1_0(simhash_ball_in, simhash64_ball_in)
TFP_ALIAS_1_0(simhash_ball_out, simhash64_ball_out)
TFP_ALIAS_1_0(simhash_ball_recv, simhash64_ball_recv)
TFP_ALIAS_1_0(simhash_ball_send, simhash64_ball_send)
