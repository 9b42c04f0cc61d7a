/*
 * tfp_simhash_balance.c -- per-bit thresholds that balance a deployment's
 * own fingerprints (simhash_reference(), simhash(body, reference))
 *
 * Pure C, no PostgreSQL headers.
 *
 * The frozen centering reference subtracts the background of general
 * Chinese and English text; a collection with a vocabulary of its own
 * (manuals, legal text, one site's boilerplate) still has bits that are 1 in
 * far more or far fewer than half of its fingerprints.  A reference made
 * from a sample of the collection itself fixes that: for each bit i, the
 * threshold t (a 16.16 fixed-point share of the feature count) such that
 * bit i is 1 in as close to half of the sample as the data allow.
 *
 * With q = floor(V[i] * 2^16 / total) and "exact" whether that division is
 * exact (tfp_simhash_text_ratios), bit i of a text is 1 if q > t or (q == t
 * and not exact); if q == t and exact, V[i] * 2^16 == total * t is a tie and
 * bit i of the tie-breaker T decides, which is 1 for half of all texts.  So
 * over a sample, the expected share of 1s at threshold t is
 *
 *	   ( #(q > t) + #(q == t, not exact) + #(q == t, exact) / 2 ) / n,
 *
 * non-increasing in t.  Every t in [-2^16, 2^16] is tried (a count per
 * value of q makes that one pass) and the one with the share closest to 1/2
 * is kept, the smallest |t| among equals (then the smaller t), so the
 * choice is deterministic.  A mean (what centering subtracts) balances
 * only symmetric distributions; this is the median of the distribution of
 * q, with the atoms of short texts (many have exactly V[i] = 0) split the
 * way the tie rule splits them.
 */
#include <string.h>

#include "tfp_core.h"

void
tfp_simhash_choose_thresholds(const int32_t *q, const uint64_t *exact,
							  size_t n, int32_t *thr, uint32_t *counts)
{
	const int64_t lo = -TFP_REF_SCALE,
				hi = TFP_REF_SCALE;
	/* counts[2 * (q - lo)] inexact, counts[2 * (q - lo) + 1] exact */
	const size_t nslots = 2 * (size_t) (hi - lo + 1);

	for (int b = 0; b < 64; b++)
	{
		uint64_t	above = 0;	/* #(q > t), as t goes down */
		uint64_t	best_err = UINT64_MAX;
		int64_t		best_t = 0;

		memset(counts, 0, nslots * sizeof(uint32_t));
		for (size_t r = 0; r < n; r++)
		{
			int64_t		v = q[r * 64 + (size_t) b];

			if (v < lo)
				v = lo;
			if (v > hi)
				v = hi;
			counts[2 * (size_t) (v - lo) + ((exact[r] >> b) & 1)]++;
		}
		for (int64_t t = hi; t >= lo; t--)
		{
			uint32_t	inexact = counts[2 * (size_t) (t - lo)],
						ex = counts[2 * (size_t) (t - lo) + 1];
			/* twice the expected number of 1s, against n */
			uint64_t	twice = 2 * (above + inexact) + ex;
			uint64_t	err = twice > n ? twice - n : n - twice;
			int64_t		abs_t = t < 0 ? -t : t,
						abs_best = best_t < 0 ? -best_t : best_t;

			if (err < best_err || (err == best_err && abs_t <= abs_best))
			{
				best_err = err;
				best_t = t;
			}
			above += inexact + ex;
		}
		thr[b] = (int32_t) best_t;
	}
}
