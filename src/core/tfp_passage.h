/*
 * tfp_passage.h -- the passage fingerprint: winnowing (Schleimer, Wilkerson
 * and Aiken, SIGMOD 2003) over the units textfp_align() reads, with the
 * position of every hash kept, so that any run of text two documents share
 * is found through the hashes they share.  Pure C (no PostgreSQL headers).
 *
 * DEFINITION (version 1; frozen: stored fingerprints and indexes depend on
 * it, so a change is a new version, never a silent one)
 *
 *  1. Units, as tfp_align.h reads them with every fold on (case, width,
 *     traditional -> simplified): the text is decoded as UTF-8 (an invalid
 *     byte is U+FFFD, a separator), every code point folded by tfp_cp_fold()
 *     (TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN) and every resulting
 *     code point classified by tfp_cp_class().  A unit is a "han" character
 *     with its marks (at most TFP_UNIT_CPS code points kept) or a word (a
 *     maximal run of word characters and marks); separators end units and
 *     ignorable code points are dropped.
 *  2. The key of a unit, K(u) = fmix64(H), H folded over a list of 32-bit
 *     values x: H = init; for each x: H = (H + x) * M mod 2^64, with
 *     M = 0x9E3779B97F4A7C15:
 *       - a han unit whose first code point has a Mandarin reading r
 *         (tfp_pinyin(): toneless, the most common one), when the reading
 *         fold is on: init TFP_PK_READING, the bytes of r;
 *       - any other han unit: init TFP_PK_HAN, its code points;
 *       - a word: init TFP_PK_WORD, its code points.
 *     So under the reading fold homophones (同音字) are one unit: 在/再,
 *     的/地 and 他/她/它 have one key.
 *  3. k-grams: for every run of k consecutive units starting at unit i,
 *     R_i = sum_{j<k} K(u_{i+j}) * B^(k-1-j) mod 2^64 (B = M), and its hash
 *     g_i = R_i ^ (TFP_PK_GRAM + k) (the keys are mixed already, and so is
 *     a sum of their products with B's powers).
 *  4. Winnowing: in every window of w consecutive k-grams the minimum hash
 *     is selected, the rightmost one on ties (a text of fewer than w but at
 *     least one k-gram is one window); every position selected by some
 *     window is a seed, recorded once.  A text of fewer than k units has no
 *     seeds.
 *  5. A seed is (g_p, p, left, right): its hash, the unit p where its k-gram
 *     starts, and two context bytes: left = the top byte of
 *     C ^ (TFP_PK_CTX + m), C the same polynomial as R over the m =
 *     min(c, p) units before p, and right the same over the units
 *     [p + k, min(p + k + c, n)) (n units in all), where c = min(4, w / 2).
 *     Seeds come in order of p.
 *
 * THE GUARANTEE.  Let t = w + k - 1.  If texts A and B share a run of at
 * least t units (units [a, a + t) of A have the keys of units [b, b + t) of
 * B), then A has a seed (h, a + o, lA, rA) and B a seed (h, b + o, lB, rB)
 * with the same hash and the same offset o in the run, and lA = lB or
 * rA = rB.
 *   Proof.  The k-grams starting at a .. a + w - 1 form one window of A, and
 *   those at b .. b + w - 1 one window of B; their hash sequences are equal,
 *   since each k-gram hash depends only on its k units, all inside the run.
 *   The rightmost minimum of equal sequences is at the same offset o, and
 *   every window's selection is a seed: (h, a + o) in A and (h, b + o) in B.
 *   Left of the k-gram the run holds o units and right of it w - 1 - o; the
 *   two sum to w - 1 >= 2c - 1, so one of them is at least c.  If o >= c
 *   the c units before both seeds lie in the run, so their keys and their
 *   left bytes are equal; else w - 1 - o >= c and the c units after both
 *   k-grams lie in the run, so the right bytes are equal.  []
 * A run of t - 1 units carries no such promise (it holds w - 1 k-grams,
 * which need not include either text's selection): test_passage.c shows
 * both.  The converse does not hold either: equal hashes and one equal
 * context byte are evidence (a shared run of at least k + c units, or a
 * 1-in-256 coincidence of the byte), which a caller confirms with
 * tfp_align().
 *
 * Density: on text without repeats about 2 / (w + 1) seeds per unit.  The
 * defaults k = 5, w = 9 give t = 13: a 40-unit passage with two edits
 * (5%) keeps, between and around them, 38 units in at most three runs, one
 * of at least ceil(38 / 3) = 13 units, so it always yields a shared seed.
 */
#ifndef TFP_PASSAGE_H
#define TFP_PASSAGE_H

#include <stddef.h>
#include <stdint.h>

#define TFP_PASSAGE_DEFAULT_K	5
#define TFP_PASSAGE_DEFAULT_W	9
#define TFP_PASSAGE_MAX_K		16
#define TFP_PASSAGE_MAX_W		64
#define TFP_PASSAGE_MAX_CTX		4
/* units per text: beyond this a caller reports an error (about 50 MB of
 * Chinese text or 100 MB of English) */
#define TFP_PASSAGE_MAX_UNITS	(UINT32_C(1) << 24)

/* initial values and seeds of the definition (ASCII "tfpP...") */
#define TFP_PK_WORD		UINT64_C(0x7466705077726431)	/* "tfpPwrd1" */
#define TFP_PK_HAN		UINT64_C(0x7466705068616e31)	/* "tfpPhan1" */
#define TFP_PK_READING	UINT64_C(0x7466705072656164)	/* "tfpPread" */
#define TFP_PK_GRAM		UINT64_C(0x746670506772616d)	/* "tfpPgram" */
#define TFP_PK_CTX		UINT64_C(0x7466705063747831)	/* "tfpPctx1" */
#define TFP_PK_MUL		UINT64_C(0x9E3779B97F4A7C15)

typedef struct tfp_passage_opts
{
	int			k;				/* units per k-gram, 1..TFP_PASSAGE_MAX_K */
	int			w;				/* k-grams per window, 1..TFP_PASSAGE_MAX_W */
	int			reading;		/* 1: han units keyed by their reading */
} tfp_passage_opts;

/* NULL if the options are valid, else a message naming the bad one */
extern const char *tfp_passage_check(const tfp_passage_opts *o);

/* the guaranteed run length t = w + k - 1, and the context units c */
static inline int
tfp_passage_t(const tfp_passage_opts *o)
{
	return o->w + o->k - 1;
}

static inline int
tfp_passage_ctx(const tfp_passage_opts *o)
{
	return o->w / 2 < TFP_PASSAGE_MAX_CTX ? o->w / 2 : TFP_PASSAGE_MAX_CTX;
}

/* ---------------------------------------------------------------- units */

typedef struct tfp_punit
{
	uint64_t	key;			/* K(u) */
	uint32_t	start,			/* bytes [start, end) of the text */
				end;
	uint8_t		han;			/* 1: a han unit (length 1), 0: a word
								 * (length 2), as textfp_align counts */
} tfp_punit;

/* Units are handed to a sink in batches of at most TFP_PASSAGE_BATCH. */
#define TFP_PASSAGE_BATCH	256

typedef void (*tfp_punit_sink) (void *arg, const tfp_punit *u, size_t n);

/*
 * The units of a UTF-8 text (steps 1-2) to sink; returns how many.  tick,
 * if not NULL, is called every 64 KiB of input and may longjmp out.
 */
extern uint64_t tfp_passage_units(const char *s, size_t len, int reading,
								  tfp_punit_sink sink, void *arg,
								  void (*tick) (void));

/* ---------------------------------------------------------------- seeds */

typedef struct tfp_pseed
{
	uint64_t	hash;			/* g_p */
	uint32_t	unit;			/* p */
	uint8_t		left,			/* context bytes */
				right;
	uint16_t	pad;			/* 0 */
} tfp_pseed;

typedef void (*tfp_pseed_sink) (void *arg, const tfp_pseed *s, size_t n);

/*
 * The seeds of a UTF-8 text (the definition above) to sink, in batches of
 * at most TFP_PASSAGE_BATCH, in order of unit; returns how many, and the
 * number of units in *nunits (if not NULL).  The options must have passed
 * tfp_passage_check.  Memory: none beyond the stack.
 */
extern uint64_t tfp_passage_seeds(const char *s, size_t len,
								  const tfp_passage_opts *o,
								  tfp_pseed_sink sink, void *arg,
								  void (*tick) (void), uint64_t *nunits);

/*
 * The same over unit keys already read (keys[0..n)), into out, which has
 * room for n entries (a text has at most one seed per k-gram); returns how
 * many.  tfp_passage_seeds(s) equals this over the keys of
 * tfp_passage_units(s).
 */
extern size_t tfp_passage_winnow(const uint64_t *keys, size_t n,
								 const tfp_passage_opts *o, tfp_pseed *out);

/*
 * A context byte of the definition (step 5) over keys[0..m), m <= 4; and
 * the k-gram hash of keys[0..k) (step 3).
 */
extern uint8_t tfp_passage_ctx_byte(const uint64_t *keys, int m);
extern uint64_t tfp_passage_gram(const uint64_t *keys, int k);

/*
 * Two seeds are evidence of a shared run (the guarantee above) when their
 * hashes are equal and one of their context bytes is.
 */
static inline int
tfp_pseed_match(const tfp_pseed *x, const tfp_pseed *y)
{
	return x->hash == y->hash && (x->left == y->left || x->right == y->right);
}

/* Sort seeds by hash, then unit (in place). */
extern void tfp_pseed_sort_hash(tfp_pseed *s, size_t n);

/*
 * The number of seeds of q with a matching seed (tfp_pseed_match) in a,
 * whose seeds are sorted by hash (tfp_pseed_sort_hash); q in any order.
 */
extern size_t tfp_passage_shared(const tfp_pseed *a_sorted, size_t na,
								 const tfp_pseed *q, size_t nq);

#endif							/* TFP_PASSAGE_H */
