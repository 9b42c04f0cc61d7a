/*
 * tfp_extract.h -- internals of the feature extractor, shared by
 * tfp_features.c (UTF-8, the general code, the main loop) and
 * tfp_features_fast.h (the fast-path kernels), which tfp_features.c includes: one
 * translation unit, so the main loop and the fast paths inline into each
 * other (split into two objects, simhash(body) took 6% longer in the
 * PostgreSQL module).  Not part of the core's API (tfp_core.h).  Pure C.
 */
#ifndef TFP_EXTRACT_H
#define TFP_EXTRACT_H

#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "tfp_core.h"
#include "tfp_unicode_inline.h"

/*
 * XXH3 of a short input, with the library's code inlined so the compiler can
 * specialise it (most features are 8-byte han bigrams or short words); the
 * result is XXH3_64bits_withSeed's, whatever the length.
 */
#if defined(__GNUC__)
__attribute__((flatten))
#endif
static inline uint64_t
xxh3(const void *p, size_t len, uint64_t seed)
{
	return XXH3_64bits_withSeed(p, len, seed);
}

/* The same for the 8-byte key of a han bigram: (c, d) as two 32-bit
 * little-endian integers; with the length known, XXH3 reduces to a few
 * multiplications. */
#if defined(__GNUC__)
__attribute__((flatten))
#endif
static inline uint64_t
xxh3_pair(uint32_t c, uint32_t d)
{
	unsigned char buf[8];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t	key = (uint64_t) c | ((uint64_t) d << 32);

	memcpy(buf, &key, 8);
#else
	buf[0] = (unsigned char) c;
	buf[1] = (unsigned char) (c >> 8);
	buf[2] = (unsigned char) (c >> 16);
	buf[3] = (unsigned char) (c >> 24);
	buf[4] = (unsigned char) d;
	buf[5] = (unsigned char) (d >> 8);
	buf[6] = (unsigned char) (d >> 16);
	buf[7] = (unsigned char) (d >> 24);
#endif
	return XXH3_64bits_withSeed(buf, 8, TFP_SEED_HAN);
}

/*
 * XXH3_64bits_withSeed of 0..16 bytes: with xxHash 0.8 (whose XXH3 output is
 * frozen) the library's own short-input routine, inlined with the default
 * secret; otherwise the public function.  test/unit/test_fastpath.c checks
 * it against XXH3_64bits_withSeed at every length.
 */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline uint64_t
xxh3_upto16(const unsigned char *p, size_t len, uint64_t seed)
{
#if XXH_VERSION_MAJOR == 0 && XXH_VERSION_MINOR == 8
	return XXH3_len_0to16_64b(p, len, XXH3_kSecret, seed);
#else
	return XXH3_64bits_withSeed(p, len, seed);
#endif
}

static inline void
put_le32(unsigned char *b, uint32_t c)
{
	b[0] = (unsigned char) c;
	b[1] = (unsigned char) (c >> 8);
	b[2] = (unsigned char) (c >> 16);
	b[3] = (unsigned char) (c >> 24);
}

/* h as 8 little-endian bytes at b */
static inline void
put_le64(unsigned char *b, uint64_t h)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(b, &h, 8);
#else
	for (int j = 0; j < 8; j++)
		b[j] = (unsigned char) (h >> (8 * j));
#endif
}

/*
 * XXH3 of a key whose length is a multiple of 4 up to 32 bytes (a han
 * n-gram of up to 8 code points as 32-bit little-endian integers, a word
 * shingle of up to 4 hashes) with the length a constant in each branch, so
 * the inlined XXH3 is specialised; other lengths go to xxh3().
 */
#if defined(__GNUC__)
__attribute__((flatten))
#endif
static inline uint64_t
xxh3_fixed(const void *key, size_t len, uint64_t seed)
{
	switch (len)
	{
		case 4:
			return XXH3_64bits_withSeed(key, 4, seed);
		case 8:
			return XXH3_64bits_withSeed(key, 8, seed);
		case 12:
			return XXH3_64bits_withSeed(key, 12, seed);
		case 16:
			return XXH3_64bits_withSeed(key, 16, seed);
		case 20:
			return XXH3_64bits_withSeed(key, 20, seed);
		case 24:
			return XXH3_64bits_withSeed(key, 24, seed);
		case 32:
			return XXH3_64bits_withSeed(key, 32, seed);
		default:
			return xxh3(key, len, seed);
	}
}

/* ------------------------------------------------------------------------
 * Extraction state
 * ------------------------------------------------------------------------ */

#define WORD_BUF	240			/* word bytes hashed in one shot; longer
								 * words are streamed */

/* a han unit: a character and up to TFP_UNIT_CPS - 1 following marks */
typedef struct unit
{
	uint32_t	n;
	uint32_t	cp[TFP_UNIT_CPS];
} unit;

#define RING		16			/* power of two >= TFP_MAX_NGRAM */

typedef struct extractor
{
	const tfp_feature_opts *o;
	tfp_feature_sink sink;
	void	   *arg;
	uint64_t	nfeatures;
	uint64_t	nhan;			/* han features emitted */

	size_t		nbatch;			/* features in batch[] */

	/* the second stream of tfp_extract_features_dual() (sink1 NULL: none):
	 * the features of n-grams of 1, shingles of 1, from the first Han unit
	 * on (on1), before which they are the first stream's lead1 words */
	tfp_feature_sink sink1;
	void	   *arg1;
	size_t		nbatch1;		/* features in batch1[] */
	int			on1;
	uint64_t	lead1;

	/* current han run: units in ring[], plus the open unit */
	uint64_t	run_len;		/* closed units in the current run */
	int			han_open;		/* ring[run_len % RING] is being built */

	/* words seen; shingle window: hashes of the last `shingle` words */
	uint64_t	nwords;
	uint64_t	words[RING];

	/* current word */
	int			in_word;
	size_t		wlen;			/* bytes in wbuf, or total when streaming */
	int			streaming;
	unsigned char wbuf[WORD_BUF + 8];	/* + 8: the SWAR word copy may write
										 * up to 7 bytes past the word */
	XXH3_state_t wstate;

	/* not cleared at start: */
	uint64_t	batch[TFP_BATCH];	/* output batch */
	uint64_t	batch1[TFP_BATCH];	/* ... of the second stream */
	unit		ring[RING];		/* the last units of the run */

} extractor;

static inline void
emit(extractor *x, uint64_t h)
{
	x->batch[x->nbatch++] = h;
	if (x->nbatch == TFP_BATCH)
	{
		x->sink(x->arg, x->batch, x->nbatch);
		x->nfeatures += x->nbatch;
		x->nbatch = 0;
	}
}

/* a feature of the second stream (x->sink1 is not NULL, x->on1 set) */
static inline void
emit1(extractor *x, uint64_t h)
{
	x->batch1[x->nbatch1++] = h;
	if (x->nbatch1 == TFP_BATCH)
	{
		x->sink1(x->arg1, x->batch1, x->nbatch1);
		x->nbatch1 = 0;
	}
}

/* Class of bytes, the fast path: 1 for ASCII letters and digits; 0 for
 * everything else, bytes >= 0x80 included. */
static const unsigned char ascii_word[256] = {
	['0'] = 1,['1'] = 1,['2'] = 1,['3'] = 1,['4'] = 1,
	['5'] = 1,['6'] = 1,['7'] = 1,['8'] = 1,['9'] = 1,
	['A'] = 1,['B'] = 1,['C'] = 1,['D'] = 1,['E'] = 1,['F'] = 1,['G'] = 1,
	['H'] = 1,['I'] = 1,['J'] = 1,['K'] = 1,['L'] = 1,['M'] = 1,['N'] = 1,
	['O'] = 1,['P'] = 1,['Q'] = 1,['R'] = 1,['S'] = 1,['T'] = 1,['U'] = 1,
	['V'] = 1,['W'] = 1,['X'] = 1,['Y'] = 1,['Z'] = 1,
	['a'] = 1,['b'] = 1,['c'] = 1,['d'] = 1,['e'] = 1,['f'] = 1,['g'] = 1,
	['h'] = 1,['i'] = 1,['j'] = 1,['k'] = 1,['l'] = 1,['m'] = 1,['n'] = 1,
	['o'] = 1,['p'] = 1,['q'] = 1,['r'] = 1,['s'] = 1,['t'] = 1,['u'] = 1,
	['v'] = 1,['w'] = 1,['x'] = 1,['y'] = 1,['z'] = 1,
};

/* the general code's steps, used by the fast paths too (tfp_features.c) */
static void tfpx_han_close_unit(extractor *x);
static void tfpx_han_begin_unit(extractor *x, uint32_t cp);
static void tfpx_word_close(extractor *x);
static uint64_t tfpx_shingle_hash(extractor *x, uint64_t last, int k);

/* A word with hash h is complete: it is a feature, or ends a shingle. */
static inline void
word_done(extractor *x, uint64_t h)
{
	int			n = x->o->shingle;

	if (n == 1)
	{
		x->nwords++;
		emit(x, h);
		if (x->on1)
			emit1(x, h);		/* a word is the same feature in both */
		return;
	}
	x->words[x->nwords & (RING - 1)] = h;
	x->nwords++;
	if (x->nwords >= (uint64_t) n)
		emit(x, tfpx_shingle_hash(x, x->nwords - 1, n));
}

static inline void
word_end(extractor *x)
{
	if (x->in_word)
		tfpx_word_close(x);
}

/* ------------------------------------------------------------------------
 * Fast paths (tfp_features_fast.h)
 * ------------------------------------------------------------------------ */

/*
 * Entries of the per-fold table of the 3-byte UTF-8 range
 * (tfpx_han_fast_table): the folded code point | HAN_SIMPLE for a character
 * that folds to one han code point; SEP_SIMPLE for one that folds to
 * separators only; 0 otherwise.
 */
#define HAN_SIMPLE	TFP_HAN_SIMPLE
#define SEP_SIMPLE	UINT32_C(0x40000000)
#define CP_MASK		TFP_CP_MASK

/* the table entry of the 3-byte sequence at s, or 0 if it is not one */
static inline uint32_t
han_fast_entry(const uint32_t *t, const unsigned char *s)
{
	if ((s[0] & 0xF0) != 0xE0 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
		return 0;
	return t[((uint32_t) (s[0] & 0x0F) << 12) | ((uint32_t) (s[1] & 0x3F) << 6) | (s[2] & 0x3F)];
}

/*
 * SWAR over 8 ASCII bytes v (little-endian load): 0x80 in each byte that is
 * an ASCII letter or digit.  Each test works on the low 7 bits, so no add
 * carries into the next byte, and bytes >= 0x80 are masked out at the end.
 */
#define BYTES(c)	(UINT64_C(0x0101010101010101) * (c))
static inline uint64_t
in_range7(uint64_t v7, unsigned lo, unsigned hi)
{
	/* byte >= lo: v7 + (0x80 - lo) sets bit 7; byte > hi: v7 + (0x7f - hi) does */
	return (v7 + BYTES(0x80 - lo)) & ~(v7 + BYTES(0x7f - hi)) & BYTES(0x80);
}

static inline uint64_t
swar_alpha(uint64_t v)
{
	uint64_t	v7 = v & BYTES(0x7f);

	return in_range7(v7 | BYTES(0x20), 'a', 'z') & ~v;
}

static inline uint64_t
swar_digit(uint64_t v)
{
	return in_range7(v & BYTES(0x7f), '0', '9') & ~v;
}

static const uint32_t *tfpx_han_fast_table(unsigned fold);
static size_t tfpx_han_run_fast(extractor *x, const unsigned char *s, size_t pos,
								size_t limit, const uint32_t *t, uint32_t e);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
static size_t tfpx_ascii_words(extractor *x, const unsigned char *s, size_t pos,
							   size_t limit, int fold_case);
#endif

#endif							/* TFP_EXTRACT_H */
