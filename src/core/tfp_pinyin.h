/*
 * tfp_pinyin.h -- Chinese text to pinyin, and Daguan's pinyin "DNA"
 *
 * Pure C (no PostgreSQL headers): also linked into test/unit/test_pinyin.c.
 * Input is UTF-8 (invalid bytes are separators).  Nothing here allocates:
 * callers pass buffers whose sizes the functions tell them.
 *
 * Conversion.  The text is split into code points; each Han code point with
 * a reading (tfp_pinyin(), or the reading of its traditional->simplified
 * fold when it has none) is one syllable.  Phrases of the polyphone table
 * (tfp_pinyin_phrases.c) are matched greedily, longest first, on the
 * traditional->simplified folded text, so 會計 and 会计 both read "kuai ji".
 */
#ifndef TFP_PINYIN_H
#define TFP_PINYIN_H

#include <stddef.h>
#include <stdint.h>

/*
 * If set, called every TFP_PY_TICK characters / letters by the long loops
 * (the PostgreSQL layer sets it to a function checking for interrupts; it
 * may longjmp out).
 */
#define TFP_PY_TICK 65536
extern void (*tfp_pinyin_tick) (void);

/* Flags of tfp_pinyin_text(). */
#define TFP_PY_INITIALS	0x01	/* one letter per syllable, syllables of a Han
								 * run not separated */

/*
 * Write the pinyin of s[0..len) to out (if out is not NULL) and return its
 * length in bytes (no NUL is written).  Tokens are separated by one space:
 * every Han syllable (TFP_PY_INITIALS: every run of Han syllables) and every
 * run of other letters/digits, folded (width, case; Han ideographs without a
 * reading and other scripts written without spaces are kept as they are).
 * White space, punctuation and symbols only separate tokens.  Call it with
 * out = NULL to learn the size, then with a buffer of that size.
 */
extern size_t tfp_pinyin_text(const char *s, size_t len, unsigned flags,
							  char *out);

/*
 * The same into out of cap bytes: returns the length of the whole pinyin;
 * when that is more than cap, what out holds is not that pinyin (call
 * again with a buffer of the length returned).  One pass instead of two
 * when a buffer large enough is guessed.
 */
extern size_t tfp_pinyin_text_bounded(const char *s, size_t len, unsigned flags,
									  char *out, size_t cap);

/*
 * The words of tfp_pinyin_text(s, len, 0) as tfp_extract_features() reads
 * that text with the folds TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN:
 * each token's word hash (tfp_word_hash()), in order, written to out (room
 * for len), without writing the text; returns their count, or SIZE_MAX
 * when a token of the text is not a word of ASCII letters and digits of
 * at most 64 bytes (a Latin letter with an accent, kana, a Han character
 * without a reading: the extractor then reads that token otherwise, and
 * the caller takes the text).  tfp_word_shingles() of the words are the
 * text's features.
 */
extern size_t tfp_pinyin_words(const char *s, size_t len, uint64_t *out);

/*
 * The initials of s[0..len): one letter 'a'..'z' per Han syllable (other text
 * skipped) written to out, which must hold len bytes (a syllable takes at
 * least 2 bytes of UTF-8).  Returns the number of letters.
 */
extern size_t tfp_pinyin_letters(const char *s, size_t len, char *out);

/*
 * The same in chunks of TFP_PINYIN_LETTERS_CHUNK bytes, each ending just
 * after an ASCII byte (no phrase spans an ASCII character, so the letters
 * are those of one call), tick (if not NULL) called after each: the letters
 * of a long text with interrupt checks.
 */
#define TFP_PINYIN_LETTERS_CHUNK (1024 * 1024)
extern size_t tfp_pinyin_letters_ticked(const char *s, size_t len, char *out,
										void (*tick) (void));

/* 1 (default): tfp_pinyin_letters() takes its fast path over runs of 3-byte
 * characters; 0: only the general code, which gives the same letters (for
 * tests). */
extern int	tfp_pinyin_fastpath;

/* ---------------------------------------------------------------- DNA */

/*
 * Letters of the DNA: the 23 first letters of pinyin syllables (a-z except
 * i, u, v) with the three vowel initials a, e, o (zero-initial syllables,
 * under 1% of real text together) merged into one bucket: 21 buckets, so a DNA
 * of 8 levels per bucket takes 21 * 3 = 63 bits, a non-negative int8.
 */
#define TFP_DNA_BUCKETS		21
#define TFP_DNA_MIN_WINDOW	8
#define TFP_DNA_MAX_WINDOW	1024
#define TFP_DNA_MIN_LEVELS	2
#define TFP_DNA_MAX_LEVELS	8
#define TFP_DNA_MAX_OVERLAP	90	/* percent */

/* bucket of a letter 'a'..'z' (-1: i, u, v, which start no syllable) */
extern int	tfp_dna_bucket(char letter);

typedef struct tfp_dna_opts
{
	int			window;			/* letters per window */
	int			overlap;		/* percent of a window shared with the next */
	int			levels;			/* digits per bucket: 0 .. levels-1 */
	int			content_defined;	/* 1: windows start at content-defined
									 * anchors; 0: at fixed offsets */
} tfp_dna_opts;

/* NULL if the options are valid, else a message naming the bad one */
extern const char *tfp_dna_check(const tfp_dna_opts *o);

/* step between window starts: window * (100 - overlap) / 100, at least 1 */
extern int	tfp_dna_step(const tfp_dna_opts *o);

/*
 * Upper bound of the number of windows of a letter string of n letters
 * (size the output array of tfp_dna_windows with it).
 */
extern size_t tfp_dna_max_windows(size_t n, const tfp_dna_opts *o);

/*
 * The DNAs of the windows of the letter string l[0..n) (from
 * tfp_pinyin_letters) written to out, sorted ascending and without
 * duplicates; returns how many.  A text with at least one letter but fewer
 * than a window's worth has one DNA (its letters counted as one window,
 * scaled); no letters, no DNA.  Options must have passed tfp_dna_check.
 */
extern size_t tfp_dna_windows(const char *l, size_t n, const tfp_dna_opts *o,
							  int64_t *out);

/* DNA of one window given its bucket counts (exposed for the unit test) */
extern int64_t tfp_dna_pack(const uint32_t *counts, int window, int levels);

/* reference distribution: share of each bucket in real Chinese text */
extern const double tfp_dna_reference[TFP_DNA_BUCKETS];
extern const char *const tfp_dna_reference_source;

#endif							/* TFP_PINYIN_H */
