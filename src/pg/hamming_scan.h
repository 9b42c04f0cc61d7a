/*
 * hamming_scan.h -- the state of a scan of the "hamming" index, shared by
 * hamming_scan.c (passes, distance lists, restarts, the entry points) and
 * hamming_rounds.c (the rounds and full scans of the runs)
 */
#ifndef TEXTFP_HAMMING_SCAN_H
#define TEXTFP_HAMMING_SCAN_H

#include "postgres.h"

#include "access/relscan.h"

#include "hamming.h"
#include "tfp_core.h"

#define HAM_MAXDIST		64

/* ---- scan state ---- */

typedef struct HamItem
{
	uint64		p;
	ItemPointerData tid;
} HamItem;

typedef struct HamList
{
	HamItem    *items;
	uint32		n;
	uint32		cap;
} HamList;

typedef struct HamQual
{
	uint64		center;			/* permuted */
	int			radius;
} HamQual;

typedef struct HamScanOpaque
{
	MemoryContext cxt;			/* reset at every rescan */
	bool		started;
	bool		empty;			/* the quals match nothing */
	int			nquals;
	HamQual    *quals;
	int			R;				/* no row farther than this is returned */
	int			lo_cap;			/* this pass keeps the rows at distances */
	int			cap;			/* lo_cap < d <= cap (see start_scan) */
	int			norder;
	uint64	   *oq;				/* ORDER BY centers, permuted */
	bool	   *onull;
	int			first;			/* first non-NULL ORDER BY key, or -1 */
	uint64		q;				/* the center the rounds are run around */
	bool		want_nulls;		/* no quals: NULL keys come last */
	HamMetaData meta;			/* the copy the scan reads by */
	HamDir	   *dirs[HAM_MAX_RUNS];	/* its runs' (NULL: a run without rows) */
	bool		rfull[HAM_MAX_RUNS];	/* every row of the run has been met */
	bool		stale;			/* a page was not its run's or chain's */
	uint32	   *vals;			/* bucket values of a round */
	uint64	   *bucketmap;		/* a bit per bucket (run_probes_in_order) */
	int			K;				/* last round done, -1 before the first */
	bool		full;			/* every row has been met */
	ItemPointerData *seen;		/* rows at distance seen_e returned before */
	uint32		nseen;			/* a restart (sorted) */
	uint32		seencap;
	int			seen_e;
	bool		nulls_read;
	IndexTuple	itup;			/* the row returned, for an index-only scan */
	HamList		lists[HAM_MAXDIST + 1];
	int			e;				/* emission: current distance ... */
	uint32		pos;			/* ... and position in its list */
	bool		e_sorted;
	ItemPointerData *nulls;
	uint32		nnulls;
	uint32		nullcap;
	uint32		nullpos;
} HamScanOpaque;

/* a row at distance d from q is kept in this pass: inside the window, and the quals hold */
static inline bool
row_kept(const HamScanOpaque *so, int d, uint64 p)
{
	int			i;

	if (d > so->cap || d <= so->lo_cap)
		return false;
	for (i = 0; i < so->nquals; i++)
		if (tfp_hamming64(p, so->quals[i].center) > so->quals[i].radius)
			return false;
	return true;
}

/* hamming_scan.c */
extern void ham_list_add(HamScanOpaque *so, int d, uint64 p, const ItemPointerData *tid);

/* hamming_rounds.c */
extern void ham_advance(IndexScanDesc scan);
extern int	ham_random_radius(double n, double count);

#endif							/* TEXTFP_HAMMING_SCAN_H */
