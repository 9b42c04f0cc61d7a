/*
 * tfp_sources.h -- the computation of textfp_sources() that needs no
 * database: the evidence an index gives for a candidate source (chains of
 * matching seeds along diagonals), the ranking of candidates and of
 * sources, how common a found passage is, and the masks of boilerplate
 * lines.  Pure C (no PostgreSQL headers); the fetching of rows and the
 * alignment are the caller's (src/pg/passage_sources.c).
 *
 * A HIT is a seed of the query (at query unit q) matching a seed of a
 * stored document (at its unit d): equal 34-bit key and a context byte
 * (tfp_passage.h, THE GUARANTEE: every run of length t = w + k, w + k - 1
 * of Han characters, the two texts share gives one).  A copied passage gives hits on one diagonal
 * d - q, shifted by its edits (an insertion or deletion of e units moves
 * the diagonal by e); unrelated texts give scattered single hits where they
 * share a phrase.
 */
#ifndef TFP_SOURCES_H
#define TFP_SOURCES_H

#include <stddef.h>
#include <stdint.h>

/* a document unit not known (a position past TFP_PASIDX_UNIT_MAX) */
#define TFP_SRC_UNIT_UNKNOWN	((UINT32_C(1) << 20) - 1)

typedef struct tfp_src_hit
{
	uint32_t	qi;				/* the query seed */
	uint32_t	q;				/* its unit */
	uint32_t	d;				/* the document seed's unit */
} tfp_src_hit;

typedef struct tfp_src_evidence
{
	uint32_t	seeds;			/* distinct query seeds hit */
	uint32_t	chains;			/* chains */
	uint32_t	span;			/* the longest chain: query units from its
								 * first seed to its last seed's end */
	uint32_t	q0,				/* that chain: query units [q0, q1) */
				q1;
	uint32_t	d0,				/* and document units [d0, d1) (both 0 if
								 * a position was unknown) */
				d1;
} tfp_src_evidence;

/*
 * The evidence of one candidate's hits h[0..n) (sorted in place by query
 * unit): hits join a chain while the next is at most gap query units
 * further and its diagonal within band of the chain's last; k is the
 * k-gram length.
 */
extern void tfp_src_evidence_of(tfp_src_hit *h, size_t n, int k, uint32_t gap,
								uint32_t band, tfp_src_evidence *ev);

/* candidates in order: longest chain, more seeds, then the caller's tie */
extern int	tfp_src_evidence_cmp(const tfp_src_evidence *a, const tfp_src_evidence *b);

/*
 * How common a passage is: the median over the query seeds whose k-grams
 * lie in query units [u0, u1) of the number of index entries with their
 * key (df; seeds too common to look up count as cap + 1), 0 if none lies
 * there.  units[0..n) in increasing order.
 */
extern uint32_t tfp_src_frequency(const uint32_t *units, const uint32_t *df,
								  const uint8_t *common, size_t n, uint32_t u0,
								  uint32_t u1, int k, uint32_t cap, uint32_t *scratch);

/*
 * A window around a chain: the byte range [*b0, *b1) of units [u0 - r,
 * u1 + r) clipped to the n units (starts, ends: their byte spans); 0, 0 if
 * there are no units.
 */
extern void tfp_src_window(const uint32_t *starts, const uint32_t *ends, size_t n,
						   uint32_t u0, uint32_t u1, uint32_t r, uint32_t *b0, uint32_t *b1);

/* the first unit whose span ends after byte b: ends[0..n) increasing */
extern size_t tfp_src_unit_of_byte(const uint32_t *ends, size_t n, uint32_t b);

/*
 * Masks of lines: mask[i] = 1 for the units i whose byte span starts in a
 * line [start, next) of lines[0..nlines) (pairs, in order of start).
 */
extern void tfp_src_mask_units(const uint32_t *starts, size_t n, const uint32_t *lines,
							   size_t nlines, uint8_t *mask);

#endif							/* TFP_SOURCES_H */
