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
	unsigned char wbuf[WORD_BUF];
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
		XXH3_64bits_reset_withSeed(&x->wstate, TFP_SEED_WORD);
		XXH3_64bits_update(&x->wstate, x->wbuf, x->wlen);
		x->streaming = 1;
	}
	XXH3_64bits_update(&x->wstate, b, len);
	x->wlen += len;
}

static uint64_t
shingle_hash(extractor *x, uint64_t last, int k)
{
	unsigned char buf[8 * TFP_MAX_SHINGLE];
	int			i,
				j;

	for (i = 0; i < k; i++)
	{
		uint64_t	h = x->words[(last - (k - 1) + i) & (RING - 1)];

		for (j = 0; j < 8; j++)
			buf[i * 8 + j] = (unsigned char) (h >> (8 * j));
	}
	return xxh3(buf, 8 * (size_t) k, TFP_SEED_SHINGLE);
}

static void
word_close(extractor *x)
{
	uint64_t	h;
	int			n = x->o->shingle;

	h = x->streaming ? XXH3_64bits_digest(&x->wstate)
		: xxh3(x->wbuf, x->wlen, TFP_SEED_WORD);
	x->in_word = 0;
	x->streaming = 0;
	x->wlen = 0;

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

				while (end < len && ascii_word[s[end]])
					end++;		/* ascii_word[] is 0 for bytes >= 0x80 */
				if (x->run_len || x->han_open)
					han_end_run(x);
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
