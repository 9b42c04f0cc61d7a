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
 *  3. Lengths, as textfp_align counts them: a han unit has length 1, a
 *     word length 2 (a Chinese word is about two characters); P(i) is the
 *     length of units [0, i).  The k-gram at unit i is the shortest run of
 *     units [i, e) of length P(e) - P(i) >= k (k han characters, or
 *     ceil(k / 2) words; the text's last units start no k-gram if they are
 *     shorter), with m = e - i units; R_i = sum_{j<m} K(u_{i+j}) *
 *     B^(m-1-j) mod 2^64 (B = M), and its hash g_i = R_i ^ (TFP_PK_GRAM + k
 *     + m * 256) (the keys are mixed already, and so is a sum of their
 *     products with B's powers).
 *  4. Winnowing: the window at unit i holds the k-grams starting at units j
 *     >= i with P(j) - P(i) < w; in every window whose k-grams are all
 *     complete (the first unit that starts no k-gram, near the text's end,
 *     is at least w after i) the minimum hash is selected, the rightmost
 *     one on ties; every position selected by some window is a seed,
 *     recorded once.  A text with k-grams but no such window has one
 *     window: all its k-grams.  A text shorter than k has no seeds.
 *  5. A seed is (g_p, p, left, right): its hash, the unit p where its k-gram
 *     starts, and two context bytes: left = the top byte of
 *     C ^ (TFP_PK_CTX + m), C the same polynomial as R over the m units
 *     just before p whose length sums to at most c, and right the same over
 *     the units just after the k-gram's end (as many as fit in c, and the
 *     text has), where c = min(4, (w - 1) / 2).
 *     Seeds come in order of p.
 *
 * THE GUARANTEE.  Let t = w + k (w + k - 1 for a run of han units only).
 * If texts A and B share a run of units of length at least t (units
 * [a, a + r) of A have the keys of units [b, b + r) of B, and so their
 * lengths), then A has a seed (h, a + o, lA, rA) and B a seed (h, b + o,
 * lB, rB) with the same hash and the same offset o in the run, and lA = lB
 * or rA = rB.
 *   Proof.  Take the window at a in A and the one at b in B.  A k-gram of
 *   the window starts at most w - 1 after a and has length at most k + 1
 *   (its last unit overshoots k by at most 1; by none when all are han
 *   units), so it ends at most w + k (w + k - 1) after a: inside the run.
 *   The window's members, the starts j with P(j) - P(a) < w, are decided
 *   by lengths inside the run too, and each k-gram's hash by its units:
 *   the two windows are the same sequence of hashes, and both are
 *   evaluated (every member's k-gram is complete, so the first unit
 *   starting none is past the members: at least w after a and b).  Their rightmost
 *   minimum is at the same offset o, and every evaluated window's
 *   selection is a seed: (h, a + o) in A, (h, b + o) in B.  Let the seed's
 *   k-gram be units [p, e) of A.  The run holds P(p) - P(a) <= w - 1
 *   before p and at least (P(a) + t) - P(e) >= w - 1 - (P(p) - P(a))
 *   after e: together at least w - 1 >= 2c, so one side holds at least c.
 *   The context units taken there (as many as fit in c) then lie in the
 *   run, in both texts, so their keys and that context byte are equal.  []
 * A run shorter than t carries no such promise (its windows need not
 * include either text's selection): test_passage.c shows both.  The
 * converse does not hold either: equal hashes and one equal context byte
 * are evidence (a shared run of at least k + c in length, or a 1-in-256
 * coincidence of the byte), which a caller confirms with tfp_align().
 *
 * Density: on text without repeats about 2 / (w + 1) seeds per han unit
 * and 2 / (w / 2 + 1) per word: 0.20 and 0.17 per length unit with the
 * defaults k = 5, w = 9, t = 13 for Chinese, 14 (seven words) for
 * English.  A 40-unit Chinese passage with two edits (5%) keeps, between
 * and around them, 38 units in at most three runs, one of at least
 * ceil(38 / 3) = 13 units; a passage of 40 in length of English (20 words)
 * with one word changed keeps a run of ten words (length 20 >= 14): both
 * always yield a shared seed.
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
	int			k;				/* length of a k-gram, 1..TFP_PASSAGE_MAX_K */
	int			w;				/* length of a window, 1..TFP_PASSAGE_MAX_W */
	int			reading;		/* 1: han units keyed by their reading */
} tfp_passage_opts;

/* NULL if the options are valid, else a message naming the bad one */
extern const char *tfp_passage_check(const tfp_passage_opts *o);

/* the guaranteed run length t = w + k (any units), and the context length c */
static inline int
tfp_passage_t(const tfp_passage_opts *o)
{
	return o->w + o->k;
}

static inline int
tfp_passage_ctx(const tfp_passage_opts *o)
{
	return (o->w - 1) / 2 < TFP_PASSAGE_MAX_CTX ? (o->w - 1) / 2 : TFP_PASSAGE_MAX_CTX;
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
 * The same over units already read (keys[0..n) and their lengths, 1 or 2
 * (the k-gram search relies on it: nothing else is a unit's length);
 * lens NULL: all 1), into out, which has room for n entries (a text has at
 * most one seed per k-gram); returns how many.  tfp_passage_seeds(s)
 * equals this over the units of tfp_passage_units(s) (length 1 for han
 * units, 2 for words).  tfp_passage_winnow: every unit of length 1 (then
 * t = w + k - 1 units).
 */
extern size_t tfp_passage_winnow_len(const uint64_t *keys, const uint8_t *lens, size_t n,
									 const tfp_passage_opts *o, tfp_pseed *out);
extern size_t tfp_passage_winnow(const uint64_t *keys, size_t n,
								 const tfp_passage_opts *o, tfp_pseed *out);

/*
 * A context byte of the definition (step 5) over keys[0..m); and the hash
 * of a k-gram of k in length made of the m units keys[0..m) (step 3).
 */
extern uint8_t tfp_passage_ctx_byte(const uint64_t *keys, int m);
extern uint64_t tfp_passage_gram(const uint64_t *keys, int m, int k);

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
