/*
 * citus_pairs.h -- shared by the two halves of the distributed all-pairs
 * search of a Citus table: citus_pairs.c (the coordinator: plan,
 * intermediate table, statements) and citus_pairs_worker.c (what runs on
 * the workers: the packing of a shard's rows into bundles, one partition's
 * search).  The proof of the method is at the top of citus_pairs.c.
 */
#ifndef TEXTFP_CITUS_PAIRS_H
#define TEXTFP_CITUS_PAIRS_H

#include "port/pg_bswap.h"

#include "pairs.h"
#include "tfp_pairs.h"

/*
 * A bundle is a bytea of rows of 16 bytes, (id int64, fp uint64), each
 * little-endian: one value moves many rows, so that the shuffle costs per
 * byte, not per row.
 */
#define CITUS_PAIRS_ROW_BYTES 16

static inline void
textfp_put64le(uint8 *p, uint64 v)
{
#ifdef WORDS_BIGENDIAN
	v = pg_bswap64(v);
#endif
	memcpy(p, &v, 8);
}

static inline uint64
textfp_get64le(const uint8 *p)
{
	uint64		v;

	memcpy(&v, p, 8);
#ifdef WORDS_BIGENDIAN
	v = pg_bswap64(v);
#endif
	return v;
}

/* the plan of radius and nblocks, or an error naming the valid range */
extern void textfp_citus_pairs_check_plan(tfp_pairs_plan *plan, int32 radius, int32 nblocks);

/* the partition (index into the destinations) of group g of fp */
extern int	textfp_citus_pairs_route_of(const tfp_pairs_plan *plan, uint64 fp, int g, int ndest);

/* the pairs found, three int8 each (id_a, id_b, distance) */
typedef struct PairBuf
{
	MemoryContext cxt;
	int64	   *v;
	size_t		n,
				cap;
	bool		limited;		/* a worker's: one array of at most 1 GB */
} PairBuf;

extern void textfp_citus_pairs_buf_add(void *arg, int64 a, int64 b, int dist);

#endif							/* TEXTFP_CITUS_PAIRS_H */
