/*
 * pairs.h -- declarations shared by simhash_pairs.c (the all-pairs search
 * over a query or a table) and clusters.c (connected components)
 */
#ifndef TEXTFP_PAIRS_H
#define TEXTFP_PAIRS_H

#include "textfp.h"
#include "funcapi.h"
#include "utils/tuplestore.h"

/* A pair of ids, id_a < id_b, at Hamming distance dist. */
typedef void (*PairSink) (void *arg, int64 id_a, int64 id_b, int dist);

/*
 * The all-pairs search of simhash_pairs(query, radius) (rel_form false:
 * argument 0 is the query) or simhash_pairs(rel, id_column, fp_column,
 * radius) (rel_form true); every pair goes to sink.  Memory in a context of
 * its own, freed before returning.
 */
extern void textfp_pairs_search(FunctionCallInfo fcinfo, bool rel_form, int32 radius,
								PairSink sink, void *arg);

/*
 * Run a query through a cursor, a batch of rows at a time: check(arg, desc)
 * once with its result's descriptor, then row(arg, a, a_null, b, b_null)
 * with the first two columns of every row (b NULL for a one-column query).
 */
typedef void (*QueryCheck) (void *arg, TupleDesc desc);
typedef void (*QueryRow) (void *arg, Datum a, bool a_null, Datum b, bool b_null);
extern void textfp_query_rows(const char *query, QueryCheck check, QueryRow row, void *arg);

/* The tuplestore of a materialize-mode set-returning function, with its descriptor. */
extern Tuplestorestate *textfp_srf_materialize(FunctionCallInfo fcinfo, TupleDesc *desc);

/*
 * The tables of the all-pairs search over n rows (simhash_pairs.c):
 * nblocks 0 lets the cost model choose B; lowblock >= 0 runs only the
 * tables whose lowest block is lowblock, -1 all.
 */
extern void textfp_pairs_run(const char *fn, MemoryContext cxt, const int64 *id,
							 const uint64 *fp, size_t n, int32 radius, int nblocks,
							 int lowblock, PairSink sink, void *arg);

/*
 * The distributed search of a Citus table (citus_pairs.c): whether rel is
 * searched on its workers, and the search.
 */
extern bool textfp_citus_pairs_usable(Oid relid);
extern void textfp_citus_pairs_search(const char *fn, Oid relid, const char *idcol,
									  const char *fpcol, int32 radius, Oid nsp,
									  PairSink sink, void *arg);
extern void textfp_citus_pairs_init(void);

/* the id and fingerprint arrays of cap rows grown (or made) to newcap rows, in cxt */
extern void textfp_rows_resize(MemoryContext cxt, int64 **id, uint64 **fp, size_t *cap,
							   size_t newcap);

/* textfp.progress: NOTICE messages of the phases of long searches */
extern bool textfp_progress;

/* an integer column's value as int64 (int2, int4, int8) */
extern int64 textfp_int_datum(Datum d, Oid type);
extern bool textfp_is_int_type(Oid type);
/* simhash64 (of the extension in schema nsp) or bigint, or a domain over one */
extern bool textfp_is_fp_type(Oid type, Oid nsp);

#endif							/* TEXTFP_PAIRS_H */
