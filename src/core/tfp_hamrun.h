/*
 * tfp_hamrun.h -- the merge policy of the hamming index's runs, free of
 * PostgreSQL (test/unit/test_hamrun.c checks it alone)
 *
 * The sorted part is a main run M and at most one delta run D; inserts go
 * to a pending list P that every scan reads whole.  When P reaches
 * tfp_hamrun_pending_limit(M + D) rows (an insert checks; VACUUM merges
 * any P), a merge writes P and D into a new D, or, when that would exceed
 * M / TFP_HAMRUN_RATIO rows, M, D and P into a new M.  So a scan reads
 * two runs and at most limit rows of P (plus the rows a running merge has
 * sealed), and a row is rewritten about TFP_HAMRUN_RATIO times by full
 * merges (each moves M / RATIO new rows into M) plus about
 * M / RATIO / (2 limit) times by delta merges.
 *
 * The k-way merge of a merge takes rows in (bucket, block, offset) order:
 * tfp_hamrun_cmp.
 */
#ifndef TFP_HAMRUN_H
#define TFP_HAMRUN_H

#include <stdint.h>

#define TFP_HAMRUN_RATIO		16
#define TFP_HAMRUN_LIMIT_MIN	2048
#define TFP_HAMRUN_LIMIT_MAX	32768
#define TFP_HAMRUN_LIMIT_DIV	128

/* the pending rows that make an insert merge, for "sorted" rows in runs */
static inline uint64_t
tfp_hamrun_pending_limit(uint64_t sorted)
{
	uint64_t	l = sorted / TFP_HAMRUN_LIMIT_DIV;

	if (l < TFP_HAMRUN_LIMIT_MIN)
		l = TFP_HAMRUN_LIMIT_MIN;
	if (l > TFP_HAMRUN_LIMIT_MAX)
		l = TFP_HAMRUN_LIMIT_MAX;
	return l;
}

/* 1: merge everything into a new main run; 0: the delta and pending rows into a new delta */
static inline int
tfp_hamrun_full(uint64_t main_rows, uint64_t delta_rows, uint64_t pending_rows)
{
	return delta_rows + pending_rows > main_rows / TFP_HAMRUN_RATIO;
}

/* order of rows in a merge: bucket, then heap block, then offset */
static inline int
tfp_hamrun_cmp(uint32_t va, uint32_t ba, uint32_t oa, uint32_t vb, uint32_t bb, uint32_t ob)
{
	if (va != vb)
		return va < vb ? -1 : 1;
	if (ba != bb)
		return ba < bb ? -1 : 1;
	if (oa != ob)
		return oa < ob ? -1 : 1;
	return 0;
}

#endif							/* TFP_HAMRUN_H */
