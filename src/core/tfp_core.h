/*
 * tfp_core.h -- textfp's pure C core: feature extraction and sketches
 *
 * Nothing here knows about PostgreSQL: the core works on UTF-8 bytes and
 * 64-bit hashes, so it can be unit-tested, fuzzed and reused alone.  The fmgr
 * wrappers (src/simhash_*.c, ...) convert server-encoded text to UTF-8, check
 * parameters, and turn the core's results into SQL values.
 *
 * FEATURE EXTRACTION (version 1; frozen -- see README "Stability contract")
 *
 *  1. The text is decoded as UTF-8.  A byte that does not start a valid,
 *     shortest-form UTF-8 sequence counts as U+FFFD (a separator).
 *  2. Every code point is folded by tfp_cp_fold() under the caller's
 *     TFP_FOLD_* flags (canonical decomposition always; compatibility
 *     decomposition, case folding, traditional->simplified Chinese each
 *     switchable), and every resulting code point is classified by
 *     tfp_cp_class() as separator, word, han, mark or ignorable.
 *  3. Ignorable code points are dropped.  A mark belongs to the preceding
 *     character (a mark with no preceding letter starts a word).  A "han"
 *     character with its marks is a unit (the character and at most
 *     TFP_UNIT_CPS - 1 marks are kept; further marks are dropped).  A
 *     maximal run of word characters with their marks is a word.  Separators, and the change between a han
 *     unit and a word, end runs.
 *  4. Han features: within each maximal run of consecutive han units, every
 *     window of `ngram` consecutive units; a run shorter than `ngram` gives one
 *     feature, the whole run.  The feature's hash is XXH3_64bits_withSeed of
 *     the units' code points written as 32-bit little-endian integers,
 *     concatenated, with seed TFP_SEED_HAN (a bigram of two characters is an
 *     8-byte input).
 *  5. Word features: over the sequence of all words of the text (han units and
 *     separators between them are skipped), every window of `shingle`
 *     consecutive words; fewer than `shingle` words give one feature of all of
 *     them.  A word's hash is XXH3_64bits_withSeed(UTF-8 of the word,
 *     TFP_SEED_WORD); with shingle = 1 that is the feature's hash, otherwise
 *     the feature's hash is XXH3_64bits_withSeed(the words' hashes as 8-byte
 *     little-endian integers, concatenated, TFP_SEED_SHINGLE).
 *  6. Features are emitted in text order, each occurrence separately, so an
 *     occurrence count is a weight.
 */
#ifndef TFP_CORE_H
#define TFP_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "tfp_unicode.h"

#define TFP_MAX_NGRAM		16
#define TFP_MAX_SHINGLE		16
#define TFP_UNIT_CPS		8		/* code points kept per han unit */

#define TFP_SEED_HAN		UINT64_C(0x7466703168616e31)	/* "tfp1han1" */
#define TFP_SEED_WORD		UINT64_C(0x74667031776f7264)	/* "tfp1word" */
#define TFP_SEED_SHINGLE	UINT64_C(0x7466703173686e67)	/* "tfp1shng" */
#define TFP_SEED_TOKEN		UINT64_C(0x746670317573723a)	/* "tfp1usr:" */

/* Features are handed to the caller in batches of at most TFP_BATCH. */
#define TFP_BATCH			256
/* The sink is also called (with n = 0) at least every TFP_TICK code points,
 * so a caller can check for interrupts during long texts without features. */
#define TFP_TICK			65536

typedef struct tfp_feature_opts
{
	int			ngram;			/* han n-gram length, 1..TFP_MAX_NGRAM */
	int			shingle;		/* word shingle length, 1..TFP_MAX_SHINGLE */
	unsigned	fold;			/* TFP_FOLD_* flags */
} tfp_feature_opts;

typedef void (*tfp_feature_sink) (void *arg, const uint64_t *hashes, size_t n);

/*
 * Extract the features of a UTF-8 text (definition above), passing their
 * hashes to sink in batches.  Returns the number of features.  The options
 * must be valid (the caller checks them).
 */
extern uint64_t tfp_extract_features(const char *utf8, size_t len,
									 const tfp_feature_opts *opts,
									 tfp_feature_sink sink, void *arg);

/* The same, also storing how many of the features were han features (the
 * rest are word features). */
extern uint64_t tfp_extract_features_counted(const char *utf8, size_t len,
											 const tfp_feature_opts *opts,
											 tfp_feature_sink sink, void *arg,
											 uint64_t *nhan);

/*
 * The hash the extractor gives a word whose folded bytes are w[0..n) (its
 * feature with shingle = 1), and the features of a text whose features are
 * the words with hashes w[0..n), in order, and nothing else (no Han run):
 * its k-shingles (n - k + 1 of them, or one of all the words when 0 < n <
 * k), written to out (room for max(n - k + 1, 1); out may be w: each
 * shingle is written where its first word was); returns their count.
 */
extern uint64_t tfp_word_hash(const void *w, size_t n);
extern size_t tfp_word_shingles(const uint64_t *w, size_t n, int k, uint64_t *out);

/*
 * The features of opts (Han bigrams and single words: ngram 2, shingle 1;
 * other options take two passes) to sink, and in the same pass those of
 * ngram 1 and shingle 1 with the same folds, but for their first *lead1,
 * to sink1: those are the first *lead1 features of the first stream (the
 * words before the first Han character).  What two calls of
 * tfp_extract_features_counted() give, in one reading of the text.  nhan
 * counts the Han features of the first.
 */
extern uint64_t tfp_extract_features_dual(const char *utf8, size_t len,
										  const tfp_feature_opts *opts,
										  tfp_feature_sink sink, void *arg,
										  tfp_feature_sink sink1, void *arg1,
										  uint64_t *nhan, uint64_t *lead1);

/* 1 (default): use the fast paths of the extractor; 0: only the general
 * code, which gives the same features (for tests). */
extern int	tfp_extract_fastpath;

/*
 * For each code point of U+0800..U+FFFF, under the fold flags fold: its
 * folded code point | TFP_HAN_SIMPLE when it folds to one code point of
 * class TFP_CC_HAN, a value without that bit otherwise (surrogates too).
 * The extractor's table of its runs of Han letters, built on first use.
 */
#define TFP_HAN_SIMPLE	UINT32_C(0x80000000)
#define TFP_CP_MASK		UINT32_C(0x001FFFFF)
extern const uint32_t *tfp_han_simple_table(unsigned fold);

/* XXH3_64bits_withSeed of len <= 16 bytes, as the extractor computes it */
extern uint64_t tfp_xxh3_upto16(const void *p, size_t len, uint64_t seed);

/* Hash of a caller-supplied token (its UTF-8 bytes, unfolded). */
extern uint64_t tfp_token_hash(const char *utf8, size_t len);

/* Decode one UTF-8 sequence at s (len > 0 bytes available); stores the code
 * point (U+FFFD for an invalid sequence) and returns the bytes consumed (>= 1). */
extern size_t tfp_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);
/* Encode cp as UTF-8 into out (4 bytes room); returns the length. */
extern int	tfp_utf8_encode(uint32_t cp, unsigned char *out);

/*
 * SimHash accumulator (Charikar): for every feature with hash h and weight w,
 * V[i] += w if bit i of h is 1, else V[i] -= w.  Bit i of the fingerprint is
 * 1 iff V[i] > 0, 0 iff V[i] < 0.
 *
 * Tie rule: where V[i] = 0 the bit is bit i of T, the wrapping 64-bit sum of
 * tfp_fmix64(h) over all feature occurrences.  T is independent of the
 * order of the features and of bit i of any one hash, so ties do not bias
 * bits towards 0 (with "tie gives 0", two features would give h1 & h2, and
 * every short text would have fewer 1 bits than 0 bits).  No features give
 * V = 0 and T = 0: the fingerprint 0.
 *
 * Unit weights use SWAR byte counters: eight 64-bit words hold the 64
 * per-bit counts as bytes, and adding a hash is eight table look-ups and
 * adds, with no branches; every 255 additions the bytes are flushed.
 */
typedef struct tfp_simhash_acc
{
	uint64_t	lanes[8];		/* byte counters: lanes[j] byte i = bit 8j+i */
	uint64_t	planes[4];		/* carry-save words of weight 1, 2, 4, 8 */
	uint32_t	pending;		/* bound on the largest byte counter (<= 255) */
	uint64_t	total;			/* features added */
	uint64_t	tie;			/* T: sum of tfp_fmix64(h) */
	int			lazy_tie;		/* T is not summed by tfp_simhash_add
								 * (tfp_simhash_text) */
	int			needs_tie;		/* set by a finish that met a tie while T
								 * was not summed */
	uint64_t	ones[64];		/* flushed counts of 1 bits per position */
} tfp_simhash_acc;

/* MurmurHash3's 64-bit finalizer: a bijective mix of all 64 bits. */
static inline uint64_t
tfp_fmix64(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	x *= UINT64_C(0xc4ceb9fe1a85ec53);
	x ^= x >> 33;
	return x;
}

extern void tfp_simhash_init(tfp_simhash_acc *acc);

extern void tfp_simhash_add(tfp_simhash_acc *acc, const uint64_t *hashes, size_t n);
extern uint64_t tfp_simhash_finish(tfp_simhash_acc *acc);

/*
 * Centering (simhash(text) with center => true, the default).  Real texts
 * share frequent features (function words, common character pairs), and
 * their contributions add up to a background vector that pushes every
 * fingerprint's bits the same way, so that some bits are 1 in most texts and
 * carry little information.  Centering subtracts the expected background:
 *
 *	   V'[i] = V[i] - nhan * refhan[i] / 2^16 - nword * refword[i] / 2^16
 *
 * where refhan[i] (refword[i]) is the mean of +1/-1 (bit i of the feature
 * hash) over all han (word) features of a reference text (see
 * tfp_simhash_ref.c, generated by tools/gen_simhash_ref.c from real Chinese
 * and English text), in 16.16 fixed point.  The arithmetic is on 64-bit
 * integers, so the result is the same on every platform.  The tie rule is as
 * above (V'[i] = 0 takes bit i of T).  References exist for ngram 1..3 and
 * shingle 1..3; for other sizes that class is not centered.
 */
#define TFP_REF_SCALE		65536
#define TFP_REF_MAX_NGRAM	3
#define TFP_REF_MAX_SHINGLE	3
extern const int32_t tfp_simhash_ref_han[TFP_REF_MAX_NGRAM][64];
extern const int32_t tfp_simhash_ref_word[TFP_REF_MAX_SHINGLE][64];

extern uint64_t tfp_simhash_finish_centered(tfp_simhash_acc *acc,
											uint64_t nhan, int ngram,
											int shingle);

/*
 * simhash(text): the SimHash of a UTF-8 text's features (unit weights),
 * centered or not.  The tie-breaker T is summed lazily: ties are rare in
 * long texts and with centering, so T is computed only when a finish meets
 * one, by reading the text a second time (*reread, if not NULL, is set to
 * whether that happened).  tick, if not NULL, is called with every batch
 * of features (the PostgreSQL layer checks for interrupts there; it may
 * longjmp out).
 */
extern uint64_t tfp_simhash_text(const char *utf8, size_t len,
								 const tfp_feature_opts *opts, int center,
								 void (*tick) (void), int *reread);

/*
 * A deployment's own balance reference (simhash(body, reference)): per-bit
 * thresholds thr[0..63], 16.16 fixed-point shares of the feature count, in
 * place of the centering reference: bit i is 1 where V[i] * 2^16 > total *
 * thr[i], and where they are equal, bit i of T (the same arithmetic as
 * centering with thr as both the han and the word reference).
 * tfp_simhash_balance.c chooses thresholds from a sample of texts so that
 * every bit is 1 in half of them.
 */
extern uint64_t tfp_simhash_text_thresholds(const char *utf8, size_t len,
											const tfp_feature_opts *opts,
											const int32_t *thr,
											void (*tick) (void), int *reread);

/*
 * The statistics a threshold is chosen from: for each bit, q[i] =
 * floor(V[i] * 2^16 / total), and bit i of *exact set where that division
 * is exact.  With threshold t, bit i is 1 if q[i] > t or (q[i] == t and not
 * exact), and a tie (bit i of T) if q[i] == t and exact.  Returns total, the
 * number of features (0: q and *exact are not set).
 */
extern uint64_t tfp_simhash_text_ratios(const char *utf8, size_t len,
										const tfp_feature_opts *opts,
										void (*tick) (void), int32_t *q,
										uint64_t *exact);

/*
 * Thresholds thr[0..63] that make each bit 1 in as close to half of n texts
 * as possible, from their q (n x 64, row-major) and exact masks
 * (tfp_simhash_balance.c).  counts: scratch of TFP_BALANCE_SCRATCH entries.
 */
#define TFP_BALANCE_SCRATCH (2 * (2 * TFP_REF_SCALE + 1))
extern void tfp_simhash_choose_thresholds(const int32_t *q,
										  const uint64_t *exact, size_t n,
										  int32_t *thr, uint32_t *counts);

/* Weighted form: V as doubles, features added in order. */
typedef struct tfp_simhash_wacc
{
	double		v[64];
	uint64_t	tie;			/* T, as above */
} tfp_simhash_wacc;

extern void tfp_simhash_winit(tfp_simhash_wacc *acc);
extern void tfp_simhash_wadd(tfp_simhash_wacc *acc, uint64_t hash, double weight);
extern uint64_t tfp_simhash_wfinish(const tfp_simhash_wacc *acc);

/*
 * Population count and Hamming distance of 64-bit values.  With a compiler
 * target that has the instruction (__POPCNT__, e.g. -mpopcnt or
 * -march=x86-64-v2) it is one instruction; otherwise a branch-free SWAR count
 * of about a dozen operations, which beats a call through a function pointer.
 */
static inline int
tfp_popcount64(uint64_t x)
{
#if defined(__POPCNT__) || defined(__ARM_NEON) || defined(__aarch64__)
	return __builtin_popcountll(x);
#else
	x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (int) ((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

static inline int
tfp_hamming64(uint64_t a, uint64_t b)
{
	return tfp_popcount64(a ^ b);
}

#endif							/* TFP_CORE_H */
