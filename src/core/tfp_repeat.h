/*
 * tfp_repeat.h -- corpus-wide repeated spans: every run of text a row of a
 * corpus shares with another row, exactly, in time near-linear in the
 * corpus (the ExactSubstr deduplication of Lee et al., "Deduplicating
 * Training Data Makes Language Models Better", ACL 2022, over the units of
 * the passage fingerprint instead of bytes).  Pure C (no PostgreSQL
 * headers); textfp_repeated_spans() and textfp_remove_repeated()
 * (src/pg/repeated.c) read the rows and call it.
 *
 * DEFINITION (the contract of both functions)
 *
 *  Units are those of the passage fingerprint (tfp_passage.h, steps 1-2:
 *  Han characters and words, case / width / traditional script folded,
 *  homophones one unit under the reading fold), compared by their 64-bit
 *  keys.  The rows r_0, r_1, ... are in the order of their ids (which must
 *  be unique); row r has n(r) units u(r, 0..n(r)).  L >= 1 is min_units.
 *
 *  - For p + L <= n(r), the L-gram g(r, p) is the key sequence of units
 *    [p, p + L) of r.  It is REPEATED if some other row r' != r has an
 *    L-gram g(r', p') equal to it; its WITNESS W(r, p) is the first such
 *    (r', p') in the order (row, then position).
 *  - A SPAN is a maximal run of positions p, p + 1, ..., q of one row r
 *    whose L-grams are all repeated and whose witnesses are consecutive:
 *    W(r, p + i) = (r', p' + i) for one r'.  It covers units [p, q + L) of
 *    r, which occur as they are in r' from unit p' (equal consecutive
 *    L-grams at consecutive positions).  Every repeated position is in
 *    exactly one span; the units of the spans of a row may overlap (where
 *    the witness changes), and every unit covered by a repeated L-gram is
 *    in some span.  A span is reported as (p, units = q + L - p, r', p').
 *  - REMOVAL ("first occurrence kept"): position p of r is EARLIER-REPEATED
 *    if some row before r (a smaller id) has an L-gram equal to g(r, p);
 *    equivalently, W(r, p) exists and is in a row before r.  The units of r
 *    removed are those covered by an earlier-repeated L-gram; they are
 *    reported as maximal runs of consecutive removed units.  The first row
 *    of a text keeps it; every later copy loses it.
 *
 * METHOD (exact, near-linear)
 *
 *  Pass 1.  The unit keys of each row of at least L units are winnowed by
 *  tfp_passage_winnow (tfp_passage.h, every unit of length 1: the k-gram at
 *  unit i is units [i, i + K), its hash a function of their keys alone; the
 *  window at i holds the K-grams starting at i .. i + W - 1, and each window
 *  whose K-grams all fit in the row selects its rightmost minimum), with
 *  K = min(16, L) and W = min(64, L - K + 1) (tfp_repeat_params), so t =
 *  W + K - 1 = min(L, 79) <= L.  The distinct seed hashes of each
 *  row are kept; after the last row they are sorted, and those found in at
 *  least two rows (a hash counts once per row) are the SHARED hashes.
 *
 *  Pass 2.  Each row is winnowed again; for a seed (h, s) with h shared, the
 *  positions [s - W + 1, s] (those with p + L <= n) are CANDIDATES.  The
 *  L-gram of every candidate position is hashed to 122 bits (two
 *  polynomials modulo the prime 2^61 - 1 over the keys, with different
 *  bases and key reductions), and (hash, row, position) is kept.  The
 *  entries are sorted by hash (in-place radix sort); within a group of
 *  equal hashes, m0 is the first member in (row, position) order and m1 the
 *  first member of another row than m0's: every member of a row other than
 *  m0's has the witness m0, every member of m0's row the witness m1 (none:
 *  the group lies in one row, not repeated).  The spans of a row are then
 *  read off its candidates in position order.
 *
 *  Lemma (no repeated L-gram is missed).  Let g(r, p) = g(r', p') with
 *  r != r'.  Then p is a candidate of r and p' one of r'.
 *    Proof.  Units [p, p + t) of r and [p', p' + t) of r' are equal (t <=
 *    L, and p + t <= p + L <= n(r), likewise for r'): a shared run of t =
 *    W + K - 1 units.  The k-grams starting at p .. p + W - 1 are one full
 *    window of r's winnowing (the last of them ends at p + t <= n(r)), and
 *    those at p' .. p' + W - 1 one of r''s; every k-gram hash is a function
 *    of its K keys only, all inside the run, so the two windows' hash
 *    sequences are equal and their rightmost minima are at the same offset
 *    o, 0 <= o <= W - 1.  Each window's selection is a seed (both rows
 *    have at least L units, so neither was skipped; this is THE GUARANTEE
 *    of tfp_passage.h for units of length 1): (h, p + o) in r and
 *    (h, p' + o) in r'.  h is then among the
 *    distinct hashes of two different rows, so it is shared, and p lies in
 *    [(p + o) - W + 1, p + o] with p + L <= n(r): a candidate; likewise
 *    p'.  []
 *  Corollary (every group is complete).  If g(r, p) is repeated, every
 *  occurrence of it in any row is a candidate (each has an equal L-gram in
 *  another row: if the L-gram occurs in rows a != b, an occurrence in a
 *  pairs with b's, any other with a's), so all of them are in its group and
 *  m0, m1 are the true first occurrences: W(r, p) and the removal are
 *  exact.  Candidates that are not repeated (a shared k-gram inside a
 *  shorter shared run, or one equal 64-bit seed hash) form groups within
 *  one row and are dropped.  The only approximation is the 122-bit L-gram
 *  hash: two different L-grams among c candidates collide with probability
 *  about c^2 (L / 2^61)^2 / 2 (below 10^-15 for 10^9 candidates of L = 50;
 *  the bases are fixed, so this holds for text not built against them).
 *
 * MEMORY (bytes, per call)
 *  Pass 1: 8 per distinct seed hash of a row, about 16 / (W + 1) per unit
 *  (0.44 at L = 50, 2.7 at L = 20, 8 for L <= 16), growing by half when
 *  full; then only the shared hashes (8 each) and their directory.  Pass
 *  2: 44 per candidate position (its L-gram hash 16, row and position 8,
 *  the caller's two 32-bit values 8, the position again 4, the witness 8;
 *  the 24 of the sort entry are freed after grouping), 12 per row, and 16
 *  per unit of the longest row (its seeds).  The candidates are the
 *  repeated positions and up to W - 1 more around each shared seed: a
 *  corpus with little repetition needs little beyond pass 1.  The caller
 *  holds the rows' ids and one row's units besides.
 */
#ifndef TFP_REPEAT_H
#define TFP_REPEAT_H

#include <stddef.h>
#include <stdint.h>

#define TFP_REPEAT_MAX_L	1000000
#define TFP_REPEAT_NONE		UINT32_MAX	/* no witness */

/*
 * Memory and interrupts: realloc(arg, NULL, size) allocates, realloc(arg,
 * p, size) resizes (both may longjmp out, or return NULL: the call that
 * needed the memory then returns -1); free(arg, p) releases; tick, if not
 * NULL, is called now and then in every long loop and may longjmp out.
 */
typedef struct tfp_repeat_env
{
	void	   *(*realloc) (void *arg, void *p, size_t size);
	void		(*free) (void *arg, void *p);
	void	   *arg;
	void		(*tick) (void);
} tfp_repeat_env;

typedef struct tfp_repeat tfp_repeat;

/* The winnowing's K and W for min_units L (1 <= L <= TFP_REPEAT_MAX_L). */
extern void tfp_repeat_params(uint32_t L, int *k, int *w);

/* A new search for L-grams (1 <= L <= TFP_REPEAT_MAX_L); NULL: no memory. */
extern tfp_repeat *tfp_repeat_create(uint32_t L, const tfp_repeat_env *env);
extern void tfp_repeat_destroy(tfp_repeat *st);

/* ---- pass 1: every row once, in any order ---- */

/*
 * A row by its unit keys (rows of fewer than L units are ignored).  The
 * keys, not the text: tfp_passage_seeds() weighs a word as two units, the
 * winnowing here counts every unit as one, in both passes.
 */
extern int	tfp_repeat_pass1_keys(tfp_repeat *st, const uint64_t *keys, size_t n);

/* End of pass 1: the shared hashes; pass 2 then takes rows 0..nrows-1. */
extern int	tfp_repeat_pass1_done(tfp_repeat *st, uint32_t nrows);

/* ---- pass 2: every row once, in any order, by its index in id order ---- */

/*
 * Row `row` (0 <= row < nrows) by its unit keys, the same as in pass 1.
 * Returns its number m of candidate positions (or -1: no memory); *pos
 * points to them (ascending) and *aux to 2 m values the caller fills before
 * the next call: aux[2 i] for the first unit of position pos[i], aux[2 i +
 * 1] for its last unit pos[i] + L - 1 (textfp: their character offsets).
 * They come back in spans and ranges.
 */
extern int64_t tfp_repeat_add_row(tfp_repeat *st, uint32_t row, const uint64_t *keys,
								  size_t n, const uint32_t **pos, uint32_t **aux);

/* End of pass 2: sorting and grouping (-1: no memory). */
extern int	tfp_repeat_group(tfp_repeat *st);

/* ---- results, per row ---- */

typedef struct tfp_rspan
{
	uint32_t	pos;			/* p: its first unit */
	uint32_t	units;			/* q + L - p */
	uint32_t	other_row;		/* r' */
	uint32_t	other_pos;		/* p' */
	uint32_t	start_aux;		/* aux of unit p of r (first of position p) */
	uint32_t	end_aux;		/* aux of unit q + L - 1 (last of position q) */
	uint32_t	other_aux;		/* aux of unit p' of r' */
} tfp_rspan;

typedef struct tfp_rrange
{
	uint32_t	first;			/* first unit removed */
	uint32_t	units;			/* consecutive units removed */
	uint32_t	start_aux;		/* aux of its first unit */
	uint32_t	end_aux;		/* aux of its last unit */
} tfp_rrange;

/* The candidate positions of a row: room enough for its spans and ranges. */
extern size_t tfp_repeat_row_candidates(const tfp_repeat *st, uint32_t row);

/* The spans of a row in order of p, into out; returns how many. */
extern size_t tfp_repeat_row_spans(const tfp_repeat *st, uint32_t row, tfp_rspan *out);

/* The runs of removed units of a row in order, into out; returns how many. */
extern size_t tfp_repeat_row_removed(const tfp_repeat *st, uint32_t row, tfp_rrange *out);

/* Counts, for progress messages and the benchmark. */
typedef struct tfp_repeat_stats
{
	uint64_t	pass1_hashes;	/* distinct seed hashes of the rows */
	uint64_t	shared;			/* of them in two rows or more */
	uint64_t	candidates;		/* candidate positions */
	uint64_t	repeated;		/* of them repeated */
	uint64_t	peak_bytes;		/* the largest total of the arrays held */
} tfp_repeat_stats;

extern void tfp_repeat_get_stats(const tfp_repeat *st, tfp_repeat_stats *s);

/* ---- the reference, from the definition (unit tests) ---- */

/*
 * The witness of every position by comparing every L-gram of every row with
 * every L-gram of every other row: wrow[r][p], wpos[r][p] (TFP_REPEAT_NONE:
 * not repeated; arrays of n[r] entries, allocated by the caller) and
 * early[r][p] (1: an equal L-gram in a row before r).  O((sum n)^2).
 */
extern void tfp_repeat_reference(const uint64_t *const *keys, const size_t *n,
								 uint32_t nrows, uint32_t L, uint32_t **wrow,
								 uint32_t **wpos, uint8_t **early);

#endif							/* TFP_REPEAT_H */
