/*
 * tfp_features.c -- Unicode-aware, locale-independent feature extraction
 *
 * Implements the definition in tfp_core.h.  One pass over the UTF-8 bytes,
 * with an ASCII fast path; features are hashed with XXH3 and handed to the
 * caller's sink in batches.
 */
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
static uint64_t
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

uint64_t
tfp_xxh3_upto16(const void *p, size_t len, uint64_t seed)
{
	return xxh3_upto16(p, len, seed);
}

static inline void
put_le32(unsigned char *b, uint32_t c)
{
	b[0] = (unsigned char) c;
	b[1] = (unsigned char) (c >> 8);
	b[2] = (unsigned char) (c >> 16);
	b[3] = (unsigned char) (c >> 24);
}

/* the one-character han feature: its code point as a 4-byte key */
#if defined(__GNUC__)
__attribute__((flatten))
#endif
static inline uint64_t
xxh3_one(uint32_t c)
{
	unsigned char buf[4];

	put_le32(buf, c);
	return XXH3_64bits_withSeed(buf, 4, TFP_SEED_HAN);
}

/* ------------------------------------------------------------------------
 * UTF-8
 * ------------------------------------------------------------------------ */

static inline size_t
utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned char c = s[0];
	uint32_t	v;
	size_t		need,
				i;

	if (c < 0x80)
	{
		*cp = c;
		return 1;
	}
	/* fast path: a well-formed 3-byte sequence (all of CJK's BMP) */
	if ((c & 0xF0) == 0xE0 && len >= 3 &&
		(s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80)
	{
		v = ((uint32_t) (c & 0x0F) << 12) | ((uint32_t) (s[1] & 0x3F) << 6) | (s[2] & 0x3F);
		if (v >= 0x800 && (v < 0xD800 || v > 0xDFFF))
		{
			*cp = v;
			return 3;
		}
	}
	if (c >= 0xC2 && c <= 0xDF)
	{
		need = 1;
		v = c & 0x1F;
	}
	else if (c >= 0xE0 && c <= 0xEF)
	{
		need = 2;
		v = c & 0x0F;
	}
	else if (c >= 0xF0 && c <= 0xF4)
	{
		need = 3;
		v = c & 0x07;
	}
	else
	{
		*cp = 0xFFFD;
		return 1;
	}
	if (len <= need)
	{
		*cp = 0xFFFD;
		return 1;
	}
	for (i = 1; i <= need; i++)
	{
		if ((s[i] & 0xC0) != 0x80)
		{
			*cp = 0xFFFD;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3F);
	}
	/* reject overlong forms, surrogates and values beyond U+10FFFF */
	if ((need == 2 && v < 0x800) || (need == 3 && (v < 0x10000 || v > 0x10FFFF)) ||
		(v >= 0xD800 && v <= 0xDFFF))
	{
		*cp = 0xFFFD;
		return 1;
	}
	*cp = v;
	return need + 1;
}

size_t
tfp_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	return utf8_decode(s, len, cp);
}

int
tfp_utf8_encode(uint32_t cp, unsigned char *out)
{
	if (cp < 0x80)
	{
		out[0] = (unsigned char) cp;
		return 1;
	}
	if (cp < 0x800)
	{
		out[0] = (unsigned char) (0xC0 | (cp >> 6));
		out[1] = (unsigned char) (0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000)
	{
		out[0] = (unsigned char) (0xE0 | (cp >> 12));
		out[1] = (unsigned char) (0x80 | ((cp >> 6) & 0x3F));
		out[2] = (unsigned char) (0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (unsigned char) (0xF0 | (cp >> 18));
	out[1] = (unsigned char) (0x80 | ((cp >> 12) & 0x3F));
	out[2] = (unsigned char) (0x80 | ((cp >> 6) & 0x3F));
	out[3] = (unsigned char) (0x80 | (cp & 0x3F));
	return 4;
}

uint64_t
tfp_token_hash(const char *utf8, size_t len)
{
	return XXH3_64bits_withSeed(utf8, len, TFP_SEED_TOKEN);
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

/*
 * Hash of the han n-gram made of the k units ending at ring position `last`:
 * XXH3 of the units' code points as 32-bit little-endian integers.
 */
#if defined(__GNUC__)
__attribute__((flatten))
#endif
static uint64_t
han_gram_hash(extractor *x, uint64_t last, int k)
{
	unsigned char buf[4 * TFP_UNIT_CPS * TFP_MAX_NGRAM];
	size_t		len = 0;
	int			i;
	uint32_t	j;

	if (k == 2)
	{
		const unit *a = &x->ring[(last - 1) & (RING - 1)];
		const unit *b = &x->ring[last & (RING - 1)];

		/* the common case: two characters, an 8-byte key */
		if (a->n == 1 && b->n == 1)
			return xxh3_pair(a->cp[0], b->cp[0]);
	}
	/* all k units plain characters: a key of constant length per k, so the
	 * inlined XXH3 is specialised (minhash's default 5-gram: 20 bytes) */
	for (i = k - 1; i >= 0; i--)
		if (x->ring[(last - i) & (RING - 1)].n != 1)
			break;
	if (i < 0 && k <= 6)
	{
		for (i = k - 1; i >= 0; i--)
			put_le32(buf + 4 * (k - 1 - i), x->ring[(last - i) & (RING - 1)].cp[0]);
		switch (k)
		{
			case 1:
				return XXH3_64bits_withSeed(buf, 4, TFP_SEED_HAN);
			case 2:
				return XXH3_64bits_withSeed(buf, 8, TFP_SEED_HAN);
			case 3:
				return XXH3_64bits_withSeed(buf, 12, TFP_SEED_HAN);
			case 4:
				return XXH3_64bits_withSeed(buf, 16, TFP_SEED_HAN);
			case 5:
				return XXH3_64bits_withSeed(buf, 20, TFP_SEED_HAN);
			default:
				return XXH3_64bits_withSeed(buf, 24, TFP_SEED_HAN);
		}
	}
	for (i = k - 1; i >= 0; i--)
	{
		const unit *u = &x->ring[(last - i) & (RING - 1)];

		for (j = 0; j < u->n; j++)
		{
			uint32_t	c = u->cp[j];

			buf[len] = (unsigned char) c;
			buf[len + 1] = (unsigned char) (c >> 8);
			buf[len + 2] = (unsigned char) (c >> 16);
			buf[len + 3] = (unsigned char) (c >> 24);
			len += 4;
		}
	}
	return xxh3(buf, len, TFP_SEED_HAN);
}

/* Close the open han unit: it completes one n-gram if the run is long enough. */
static inline void
han_close_unit(extractor *x)
{
	uint64_t	last = x->run_len;

	x->han_open = 0;
	x->run_len++;
	if (x->run_len >= (uint64_t) x->o->ngram)
	{
		const unit *a = &x->ring[(last - 1) & (RING - 1)];
		const unit *b = &x->ring[last & (RING - 1)];

		x->nhan++;
		/* the default bigram of two plain characters, inline */
		if (x->o->ngram == 2 && a->n == 1 && b->n == 1)
			emit(x, xxh3_pair(a->cp[0], b->cp[0]));
		else
			emit(x, han_gram_hash(x, last, x->o->ngram));
	}
}

/* End the han run: a run shorter than ngram is one feature. */
static void
han_end_run(extractor *x)
{
	if (x->han_open)
		han_close_unit(x);
	if (x->run_len > 0 && x->run_len < (uint64_t) x->o->ngram)
	{
		x->nhan++;
		emit(x, han_gram_hash(x, x->run_len - 1, (int) x->run_len));
	}
	x->run_len = 0;
}

static inline void
han_begin_unit(extractor *x, uint32_t cp)
{
	unit	   *u;

	if (x->han_open)
		han_close_unit(x);
	u = &x->ring[x->run_len & (RING - 1)];
	u->cp[0] = cp;
	u->n = 1;
	x->han_open = 1;
}

static void
han_add_mark(extractor *x, uint32_t cp)
{
	unit	   *u = &x->ring[x->run_len & (RING - 1)];

	if (u->n < TFP_UNIT_CPS)
		u->cp[u->n++] = cp;
}

static void
word_add(extractor *x, const unsigned char *b, size_t len)
{
	x->in_word = 1;
	if (!x->streaming)
	{
		if (x->wlen + len <= WORD_BUF)
		{
			memcpy(x->wbuf + x->wlen, b, len);
			x->wlen += len;
			return;
		}
		/* a state on the stack must be initialised before a seeded reset,
		 * which otherwise may keep a stale secret (xxhash.h, XXH3_INITSTATE) */
		memset(&x->wstate, 0, sizeof(x->wstate));
		XXH3_64bits_reset_withSeed(&x->wstate, TFP_SEED_WORD);
		XXH3_64bits_update(&x->wstate, x->wbuf, x->wlen);
		x->streaming = 1;
	}
	XXH3_64bits_update(&x->wstate, b, len);
	x->wlen += len;
}

#if defined(__GNUC__)
__attribute__((flatten))
#endif
static uint64_t
shingle_hash(extractor *x, uint64_t last, int k)
{
	unsigned char buf[8 * TFP_MAX_SHINGLE];
	int			i,
				j;

	for (i = 0; i < k; i++)
	{
		uint64_t	h = x->words[(last - (k - 1) + i) & (RING - 1)];

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		memcpy(buf + i * 8, &h, 8);
		(void) j;
#else
		for (j = 0; j < 8; j++)
			buf[i * 8 + j] = (unsigned char) (h >> (8 * j));
#endif
	}
	/* constant lengths for the common sizes, so the inlined XXH3 is
	 * specialised */
	switch (k)
	{
		case 2:
			return XXH3_64bits_withSeed(buf, 16, TFP_SEED_SHINGLE);
		case 3:
			return XXH3_64bits_withSeed(buf, 24, TFP_SEED_SHINGLE);
		case 4:
			return XXH3_64bits_withSeed(buf, 32, TFP_SEED_SHINGLE);
		default:
			return xxh3(buf, 8 * (size_t) k, TFP_SEED_SHINGLE);
	}
}

/* A word with hash h is complete: it is a feature, or ends a shingle. */
static inline void
word_done(extractor *x, uint64_t h)
{
	int			n = x->o->shingle;

	if (n == 1)
	{
		x->nwords++;
		emit(x, h);
		return;
	}
	x->words[x->nwords & (RING - 1)] = h;
	x->nwords++;
	if (x->nwords >= (uint64_t) n)
		emit(x, shingle_hash(x, x->nwords - 1, n));
}

static void
word_close(extractor *x)
{
	uint64_t	h;

	h = x->streaming ? XXH3_64bits_digest(&x->wstate)
		: xxh3(x->wbuf, x->wlen, TFP_SEED_WORD);
	x->in_word = 0;
	x->streaming = 0;
	x->wlen = 0;
	word_done(x, h);
}

static inline void
word_end(extractor *x)
{
	if (x->in_word)
		word_close(x);
}

/* Handle one folded code point with its class. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
feed(extractor *x, uint32_t cp, int cls)
{
	unsigned char b[4];

	switch (cls)
	{
		case TFP_CC_WORD:
			if (x->run_len || x->han_open)
				han_end_run(x);
			if (cp < 0x80)
			{
				b[0] = (unsigned char) cp;
				word_add(x, b, 1);
			}
			else
				word_add(x, b, tfp_utf8_encode(cp, b));
			break;
		case TFP_CC_HAN:
			word_end(x);
			han_begin_unit(x, cp);
			break;
		case TFP_CC_MARK:
			if (x->han_open)
				han_add_mark(x, cp);
			else
				word_add(x, b, tfp_utf8_encode(cp, b));
			break;
		case TFP_CC_IGNORE:
			break;
		default:				/* separator */
			word_end(x);
			if (x->run_len || x->han_open)
				han_end_run(x);
			break;
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

/* ASCII lower-casing table (bytes >= 0x80 are never looked up) */
static const unsigned char ascii_lower[128] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
	32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
	48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
	64, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o',
	'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 91, 92, 93, 94, 95,
	96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
	112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127,
};

/* ------------------------------------------------------------------------
 * Fast paths
 *
 * They change no result: each handles only input whose features the general
 * code above would give in the same way, and hands everything else back to
 * it (test/unit/test_fastpath.c compares both over random texts, with
 * tfp_extract_fastpath = 0 selecting the general code alone).
 * ------------------------------------------------------------------------ */

int			tfp_extract_fastpath = 1;

/*
 * For each 3-byte UTF-8 code point (U+0800..U+FFFF) and fold flags: the
 * folded code point | HAN_SIMPLE if the code point folds to one code point
 * of class han (such a character starts or extends a han run as a plain
 * unit); SEP_SIMPLE if it folds to separators only (it ends a word and a
 * han run, and nothing else); else 0 (also surrogates, and U+0000..U+07FF,
 * which would be overlong here).  Built on first use per flag combination (about a
 * millisecond); 256 KB each, of which a text touches only its scripts' pages.
 */
#define HAN_SIMPLE	UINT32_C(0x80000000)
#define SEP_SIMPLE	UINT32_C(0x40000000)
#define CP_MASK		UINT32_C(0x001FFFFF)
#define FAST_FLAGS	8
static uint32_t han_fast[FAST_FLAGS][0x10000];
static unsigned char han_fast_ready[FAST_FLAGS];

static const uint32_t *
han_fast_table(unsigned fold)
{
	uint32_t   *t = han_fast[fold & 7];

	if (!han_fast_ready[fold & 7])
	{
		uint32_t	cp;

		for (cp = 0x800; cp < 0x10000; cp++)
		{
			uint32_t	out[TFP_FOLD_MAX];
			int			n,
						i;

			if (cp >= 0xD800 && cp <= 0xDFFF)
				continue;
			n = tfp_cp_fold_inline(cp, fold & 7, out);
			if (n == 1 && tfp_cp_class_inline(out[0]) == TFP_CC_HAN)
				t[cp] = out[0] | HAN_SIMPLE;
			else
			{
				for (i = 0; i < n; i++)
					if (tfp_cp_class_inline(out[i]) != TFP_CC_SEP)
						break;
				if (n > 0 && i == n)
					t[cp] = SEP_SIMPLE;
			}
		}
		han_fast_ready[fold & 7] = 1;
	}
	return t;
}

/* the table entry of the 3-byte sequence at s, or 0 if it is not one */
static inline uint32_t
han_fast_entry(const uint32_t *t, const unsigned char *s)
{
	if ((s[0] & 0xF0) != 0xE0 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
		return 0;
	return t[((uint32_t) (s[0] & 0x0F) << 12) | ((uint32_t) (s[1] & 0x3F) << 6) | (s[2] & 0x3F)];
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * han_entry() reading the character as a 4-byte little-endian word w (4
 * bytes must be readable): lead byte 1110xxxx and two continuation bytes
 * 10xxxxxx are (w & 0xC0C0F0) == 0x8080E0.
 */
static inline uint32_t
han_entry_le(const uint32_t *t, const unsigned char *p)
{
	uint32_t	w;

	memcpy(&w, p, 4);
	if ((w & 0xC0C0F0) != 0x8080E0)
		return 0;
	return t[((w & 0x0F) << 12) | ((w >> 2) & 0x0FC0) | ((w >> 16) & 0x3F)];
}

/* emit a han feature from the fast loops, whose state is in the locals
 * nhan and nb */
#define FAST_EMIT(h) \
	do { \
		nhan++; \
		x->batch[nb++] = (h); \
		if (nb == TFP_BATCH) \
		{ \
			x->sink(x->arg, x->batch, nb); \
			x->nfeatures += nb; \
			nb = 0; \
		} \
	} while (0)

/*
 * Han text for bigrams, from inside a run: the open unit (ring[run_len]) and,
 * if run_len > 0, the unit before it are plain characters.  Plain han
 * characters extend the run (closing the open unit gives the bigram of the
 * last two); a separator (SEP_SIMPLE) ends the run as han_end_run() does,
 * and the next han character begins a new one; an ASCII byte next ends the
 * run too (ASCII is never a mark, so the open unit is complete).  Anything
 * else stops the loop.  The state lives in locals and is written back at
 * the end; the ring gets the open unit and the one before it, all the
 * general code reads for bigrams.
 */
static size_t
han_bigrams_fast(extractor *x, const unsigned char *s, size_t pos, size_t limit,
				 const uint32_t *t)
{
	uint64_t	run = x->run_len;
	int			open = x->han_open;
	uint32_t	cur = x->ring[run & (RING - 1)].cp[0];
	uint32_t	prev = run > 0 ? x->ring[(run - 1) & (RING - 1)].cp[0] : 0;
	uint64_t	nhan = x->nhan;
	size_t		nb = x->nbatch;

	/* han_end_run(): close the open unit; a one-unit run is one feature */
#define FAST_END_RUN() \
	do { \
		if (open) \
		{ \
			run++; \
			if (run >= 2) \
				FAST_EMIT(xxh3_pair(prev, cur)); \
			else \
				FAST_EMIT(xxh3_one(cur)); \
		} \
		run = 0; \
		open = 0; \
	} while (0)

	while (pos + 4 <= limit)
	{
		uint32_t	e = han_entry_le(t, s + pos);

		if (e & HAN_SIMPLE)
		{
			pos += 3;
			if (open)
			{
				run++;
				if (run >= 2)
					FAST_EMIT(xxh3_pair(prev, cur));
				prev = cur;
			}
			cur = e & CP_MASK;
			open = 1;
		}
		else if (e & SEP_SIMPLE)
		{
			pos += 3;
			FAST_END_RUN();
		}
		else
			break;
	}
	if (pos < limit && s[pos] < 0x80)
		FAST_END_RUN();
#undef FAST_END_RUN

	x->run_len = run;
	x->han_open = open;
	x->nhan = nhan;
	x->nbatch = nb;
	if (open)
	{
		x->ring[run & (RING - 1)].cp[0] = cur;
		x->ring[run & (RING - 1)].n = 1;
		if (run > 0)
		{
			x->ring[(run - 1) & (RING - 1)].cp[0] = prev;
			x->ring[(run - 1) & (RING - 1)].n = 1;
		}
	}
	return pos;
}
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * XXH3 of m (1..6) code points as 32-bit little-endian integers (on a
 * little-endian machine, their array), with constant lengths so each call is
 * specialised.
 */
#if defined(__GNUC__)
__attribute__((flatten))
#endif
static uint64_t
hash_cps(const uint32_t *p, int m)
{
	switch (m)
	{
		case 1:
			return XXH3_64bits_withSeed(p, 4, TFP_SEED_HAN);
		case 2:
			return XXH3_64bits_withSeed(p, 8, TFP_SEED_HAN);
		case 3:
			return XXH3_64bits_withSeed(p, 12, TFP_SEED_HAN);
		case 4:
			return XXH3_64bits_withSeed(p, 16, TFP_SEED_HAN);
		case 5:
			return XXH3_64bits_withSeed(p, 20, TFP_SEED_HAN);
		default:
			return XXH3_64bits_withSeed(p, 24, TFP_SEED_HAN);
	}
}

#define NGRAM_FAST_MAX	6
#define LIN				64

/*
 * han_bigrams_fast() for n-grams of 3..NGRAM_FAST_MAX: the same loop, with
 * the last code points of the run in a linear buffer lin[] (an n-gram is n
 * consecutive entries, hashed in place).  On entry the open unit and the
 * n - 1 closed units before it (or all of the run, if shorter) are plain.
 */
static size_t
han_ngrams_fast(extractor *x, const unsigned char *s, size_t pos, size_t limit,
				const uint32_t *t, int n)
{
	uint32_t	lin[LIN];
	uint64_t	run = x->run_len;
	int			open = x->han_open;
	uint64_t	nhan = x->nhan;
	size_t		nb = x->nbatch;
	size_t		cnt,
				m,
				i;

	m = run < (uint64_t) (n - 1) ? (size_t) run : (size_t) (n - 1);
	for (i = 0; i <= m; i++)
		lin[i] = x->ring[(run - m + i) & (RING - 1)].cp[0];
	cnt = m + 1;

#define FAST_CLOSE() \
	do { \
		run++; \
		if (run >= (uint64_t) n) \
			FAST_EMIT(hash_cps(lin + cnt - n, n)); \
	} while (0)
#define FAST_END_RUN() \
	do { \
		if (open) \
			FAST_CLOSE(); \
		if (run > 0 && run < (uint64_t) n) \
			FAST_EMIT(hash_cps(lin + cnt - run, (int) run)); \
		run = 0; \
		open = 0; \
		cnt = 0; \
	} while (0)

	while (pos + 4 <= limit)
	{
		uint32_t	e = han_entry_le(t, s + pos);

		if (e & HAN_SIMPLE)
		{
			pos += 3;
			if (open)
				FAST_CLOSE();
			if (cnt == LIN)
			{
				memmove(lin, lin + LIN - (n - 1), (size_t) (n - 1) * sizeof(uint32_t));
				cnt = (size_t) (n - 1);
			}
			lin[cnt++] = e & CP_MASK;
			open = 1;
		}
		else if (e & SEP_SIMPLE)
		{
			pos += 3;
			FAST_END_RUN();
		}
		else
			break;
	}
	if (pos < limit && s[pos] < 0x80)
		FAST_END_RUN();
#undef FAST_END_RUN
#undef FAST_CLOSE

	x->run_len = run;
	x->han_open = open;
	x->nhan = nhan;
	x->nbatch = nb;
	if (open)
		for (i = 0; i < cnt && i < (size_t) n; i++)
		{
			x->ring[(run - i) & (RING - 1)].cp[0] = lin[cnt - 1 - i];
			x->ring[(run - i) & (RING - 1)].n = 1;
		}
	return pos;
}

#undef FAST_EMIT

/* the open unit and the n - 1 closed units before it (or the whole run) are
 * plain: han_ngrams_fast() can take over */
static inline int
run_tail_plain(const extractor *x, int n)
{
	uint64_t	m = x->run_len < (uint64_t) (n - 1) ? x->run_len : (uint64_t) (n - 1);
	uint64_t	i;

	for (i = 0; i <= m; i++)
		if (x->ring[(x->run_len - i) & (RING - 1)].n != 1)
			return 0;
	return 1;
}
#endif

/*
 * A han run of plain characters: s[pos - 3 .. pos) was a character whose
 * entry is e (HAN_SIMPLE); take it and what follows as far as the fast code
 * can, before `limit`.  The first character goes through han_begin_unit()
 * like any han unit (it may close a unit with marks).  The rest is
 * han_bigrams_fast() or han_ngrams_fast() once the units an n-gram would
 * read are plain; until then, and for n-grams over NGRAM_FAST_MAX, each
 * unit is closed by han_close_unit().  Returns the
 * position after the last character taken.
 */
static size_t
han_run_fast(extractor *x, const unsigned char *s, size_t pos, size_t limit,
			 const uint32_t *t, uint32_t e)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	int			ngram = x->o->ngram;
#endif

	word_end(x);
	han_begin_unit(x, e & CP_MASK);
	for (;;)
	{
		unit	   *u;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (ngram == 2 &&
			(x->run_len == 0 || x->ring[(x->run_len - 1) & (RING - 1)].n == 1))
			return han_bigrams_fast(x, s, pos, limit, t);
		if (ngram >= 3 && ngram <= NGRAM_FAST_MAX && run_tail_plain(x, ngram))
			return han_ngrams_fast(x, s, pos, limit, t, ngram);
#endif
		if (pos + 3 > limit || !((e = han_fast_entry(t, s + pos)) & HAN_SIMPLE))
			break;
		pos += 3;
		han_close_unit(x);
		u = &x->ring[x->run_len & (RING - 1)];
		u->cp[0] = e & CP_MASK;
		u->n = 1;
		x->han_open = 1;
	}
	return pos;
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

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
/*
 * Text of ASCII words and ASCII separators, the shape of most English text:
 * at pos an ASCII word begins, and no word or han run is open.  Each word of
 * at most 15 bytes that ends at an ASCII separator is classified and
 * lower-cased eight bytes at a time into the word buffer, hashed and handed
 * to word_done(); the ASCII separators after it are skipped (they only end
 * words and han runs, and none is open).  Anything else -- a longer word, a
 * word running into a non-ASCII character, fewer than 16 bytes before
 * `limit` -- stops the loop with the state as the general code expects it.
 * Returns the position reached.
 */
static size_t
ascii_words_fast(extractor *x, const unsigned char *s, size_t pos, size_t limit,
				 int fold_case)
{
	unsigned char *w = x->wbuf;

	while (pos + 16 <= limit)
	{
		uint64_t	v,
					alpha,
					word;
		size_t		n;

		memcpy(&v, s + pos, 8);
		alpha = swar_alpha(v);
		word = alpha | swar_digit(v);
		if (fold_case)
			v |= alpha >> 2;
		memcpy(w, &v, 8);
		if (word != BYTES(0x80))
			n = (size_t) __builtin_ctzll(~word & BYTES(0x80)) >> 3;
		else
		{
			uint64_t	v2,
						alpha2,
						word2;

			memcpy(&v2, s + pos + 8, 8);
			alpha2 = swar_alpha(v2);
			word2 = alpha2 | swar_digit(v2);
			if (word2 == BYTES(0x80))
				break;			/* 16 bytes or more */
			if (fold_case)
				v2 |= alpha2 >> 2;
			memcpy(w + 8, &v2, 8);
			n = 8 + ((size_t) __builtin_ctzll(~word2 & BYTES(0x80)) >> 3);
		}
		if (n == 0 || s[pos + n] >= 0x80)
			break;				/* the word goes on in non-ASCII text */
		word_done(x, xxh3_upto16(w, n, TFP_SEED_WORD));
		pos += n + 1;
		while (pos < limit && s[pos] < 0x80 && !ascii_word[s[pos]])
			pos++;
		if (pos >= limit || !ascii_word[s[pos]])
			break;
	}
	return pos;
}
#endif

#if defined(__SSE2__) && defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * ascii_words_fast() with SSE2 (every x86-64 processor): 32 bytes are
 * classified and lower-cased at once, into masks of word bytes (m) and of
 * non-ASCII bytes (hi), and every word that starts in the first half and
 * ends, inside the 32 bytes, at an ASCII byte is hashed from the lower-cased
 * copy; the ASCII separators between words are skipped with the masks.  The
 * same conditions as ascii_words_fast() stop it, with the state as the
 * general code expects it; near `limit` ascii_words_fast() takes over.
 */
static inline void
sse2_classify16(const unsigned char *p, int fold_case, unsigned char *lc,
				uint32_t *m, uint32_t *hi)
{
	__m128i		v = _mm_loadu_si128((const __m128i *) p);
	__m128i		l = _mm_or_si128(v, _mm_set1_epi8(0x20));
	/* signed compares: bytes >= 0x80 are negative and match neither range */
	__m128i		alpha = _mm_and_si128(_mm_cmpgt_epi8(l, _mm_set1_epi8('a' - 1)),
									  _mm_cmpgt_epi8(_mm_set1_epi8('z' + 1), l));
	__m128i		digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
									  _mm_cmpgt_epi8(_mm_set1_epi8('9' + 1), v));

	if (fold_case)
		v = _mm_or_si128(v, _mm_and_si128(alpha, _mm_set1_epi8(0x20)));
	_mm_storeu_si128((__m128i *) lc, v);
	*m = (uint32_t) _mm_movemask_epi8(_mm_or_si128(alpha, digit));
	*hi = (uint32_t) _mm_movemask_epi8(v);
}

static size_t
ascii_words_sse2(extractor *x, const unsigned char *s, size_t pos, size_t limit,
				 int fold_case)
{
	unsigned char lc[32];

	while (pos + 32 <= limit)
	{
		uint32_t	m,
					hi,
					m2,
					hi2;
		unsigned	o = 0;

		sse2_classify16(s + pos, fold_case, lc, &m, &hi);
		sse2_classify16(s + pos + 16, fold_case, lc + 16, &m2, &hi2);
		m |= m2 << 16;
		hi |= hi2 << 16;
		for (;;)
		{
			unsigned	ws,
						e,
						len;
			uint32_t	rest = o < 32 ? m >> o : 0;

			if (rest == 0)
			{
				/* no word starts in [o, 32): separators, or non-ASCII */
				if (o < 32 && (hi >> o) != 0)
					return pos + o + (unsigned) __builtin_ctz(hi >> o);
				pos += 32;
				break;
			}
			ws = o + (unsigned) __builtin_ctz(rest);
			if (ws > o && ((hi >> o) & ((UINT32_C(1) << (ws - o)) - 1)) != 0)
				return pos + o + (unsigned) __builtin_ctz(hi >> o);	/* non-ASCII first */
			if (ws >= 16)
			{
				pos += ws;		/* a new window from this word */
				break;
			}
			len = (unsigned) __builtin_ctz(~(m >> ws));
			e = ws + len;
			if (e >= 32 || ((hi >> e) & 1))
			{
				/* the word may go on past the window, or into non-ASCII */
				pos += ws;
				goto tail;
			}
			word_done(x, len <= 16 ? xxh3_upto16(lc + ws, len, TFP_SEED_WORD)
					  : XXH3_64bits_withSeed(lc + ws, len, TFP_SEED_WORD));
			o = e;
		}
	}
tail:
	if (pos < limit && ascii_word[s[pos]])
		return ascii_words_fast(x, s, pos, limit, fold_case);
	return pos;
}
#endif

#if defined(__SSE2__) && defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ASCII_WORDS_FAST ascii_words_sse2
#else
#define ASCII_WORDS_FAST ascii_words_fast
#endif

uint64_t
tfp_extract_features(const char *utf8, size_t len, const tfp_feature_opts *opts,
					 tfp_feature_sink sink, void *arg)
{
	uint64_t	nhan;

	return tfp_extract_features_counted(utf8, len, opts, sink, arg, &nhan);
}

uint64_t
tfp_extract_features_counted(const char *utf8, size_t len,
							 const tfp_feature_opts *opts,
							 tfp_feature_sink sink, void *arg, uint64_t *nhan)
{
	extractor  *x;
	extractor	xs;
	const unsigned char *s = (const unsigned char *) utf8;
	size_t		pos = 0;
	size_t		next_tick = TFP_TICK;
	int			fold_case = (opts->fold & TFP_FOLD_CASE) != 0;
	const uint32_t *han_tab = tfp_extract_fastpath ? han_fast_table(opts->fold) : NULL;

	x = &xs;
	memset(x, 0, offsetof(extractor, wbuf));
	x->o = opts;
	x->sink = sink;
	x->arg = arg;

	while (pos < len)
	{
		unsigned char c = s[pos];

		if (pos >= next_tick)
		{
			sink(arg, NULL, 0);
			next_tick = pos + TFP_TICK;
		}

		if (c < 0x80)
		{
			if (ascii_word[c])
			{
				/* ASCII fast path: a run of letters and digits extends a word */
				size_t		end = pos + 1;
				size_t		n;

				if (x->run_len || x->han_open)
					han_end_run(x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
				if (han_tab != NULL && !x->in_word)
				{
					size_t		p2 = ASCII_WORDS_FAST(x, s, pos,
													  len < next_tick ? len : next_tick,
													  fold_case);

					if (p2 != pos)
					{
						pos = p2;
						continue;
					}
				}
				if (tfp_extract_fastpath && !x->streaming)
				{
					/*
					 * Eight bytes at a time: copy them (lower-cased) to the
					 * word buffer, whose 8 bytes of slack take what follows
					 * the word; stop at the first byte that is not an ASCII
					 * letter or digit.
					 */
					unsigned char *w = x->wbuf + x->wlen;
					size_t		room = WORD_BUF - x->wlen;

					end = pos;
					while (end + 8 <= len && end - pos + 8 <= room)
					{
						uint64_t	v,
									alpha,
									word;

						memcpy(&v, s + end, 8);
						alpha = swar_alpha(v);
						word = alpha | swar_digit(v);
						if (fold_case)
							v |= alpha >> 2;
						memcpy(w + (end - pos), &v, 8);
						if (word != BYTES(0x80))
						{
							end += (size_t) __builtin_ctzll(~word & BYTES(0x80)) >> 3;
							goto word_scanned;
						}
						end += 8;
					}
					{
						/* the tail, byte by byte: [pos, end) is copied */
						size_t		i = end - pos;

						while (end < len && ascii_word[s[end]])
							end++;
						n = end - pos;
						if (n > room)
							goto word_general;	/* a long word: streamed below */
						for (; i < n; i++)
							w[i] = fold_case ? ascii_lower[s[pos + i]] : s[pos + i];
						x->wlen += n;
						x->in_word = 1;
						pos = end;
						continue;
					}
			word_scanned:
					if (end == pos)
					{
						/* cannot happen (s[pos] is a word byte); never loop */
						end = pos + 1;
						while (end < len && ascii_word[s[end]])
							end++;
						goto word_general;
					}
					if (x->wlen == 0 && end < len && s[end] < 0x80)
					{
						/*
						 * A whole word of ASCII followed by an ASCII
						 * separator (the common case): hash it here, and
						 * take the separator too (it only ends the word).
						 */
						word_done(x, XXH3_64bits_withSeed(w, end - pos, TFP_SEED_WORD));
						pos = end + 1;
						continue;
					}
					x->wlen += end - pos;
					x->in_word = 1;
					pos = end;
					continue;
				}
#endif
				while (end < len && ascii_word[s[end]])
					end++;		/* ascii_word[] is 0 for bytes >= 0x80 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
		word_general:
#endif
				n = end - pos;
				if (!x->streaming && x->wlen + n <= WORD_BUF)
				{
					unsigned char *w = x->wbuf + x->wlen;
					size_t		i;

					if (fold_case)
						for (i = 0; i < n; i++)
							w[i] = ascii_lower[s[pos + i]];
					else
						memcpy(w, s + pos, n);
					x->wlen += n;
					x->in_word = 1;
				}
				else
				{
					size_t		i;

					for (i = 0; i < n; i++)
					{
						unsigned char b = fold_case ? ascii_lower[s[pos + i]] : s[pos + i];

						word_add(x, &b, 1);
					}
				}
				pos = end;
			}
			else
			{
				pos++;
				word_end(x);
				if (x->run_len || x->han_open)
					han_end_run(x);
			}
		}
		else
		{
			uint32_t	cp;
			uint32_t	out[TFP_FOLD_MAX];
			int			n,
						i;

			if (han_tab != NULL && pos + 3 <= len)
			{
				uint32_t	e = han_fast_entry(han_tab, s + pos);

				if (e & HAN_SIMPLE)
				{
					/* stop at the next tick, so that is still checked */
					pos = han_run_fast(x, s, pos + 3,
									   len < next_tick ? len : next_tick,
									   han_tab, e);
					continue;
				}
			}
			pos += utf8_decode(s + pos, len - pos, &cp);
			n = tfp_cp_fold_inline(cp, opts->fold, out);
			if (n == 1)
				feed(x, out[0], tfp_cp_class_inline(out[0]));
			else
				for (i = 0; i < n; i++)
					feed(x, out[i], tfp_cp_class_inline(out[i]));
		}
	}
	word_end(x);
	han_end_run(x);
	/* fewer words than the shingle size: one feature of all of them */
	if (opts->shingle > 1 && x->nwords > 0 && x->nwords < (uint64_t) opts->shingle)
		emit(x, shingle_hash(x, x->nwords - 1, (int) x->nwords));
	if (x->nbatch > 0)
	{
		sink(arg, x->batch, x->nbatch);
		x->nfeatures += x->nbatch;
	}
	*nhan = x->nhan;
	return x->nfeatures;
}
