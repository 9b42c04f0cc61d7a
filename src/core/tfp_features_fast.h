/*
 * tfp_features_fast.h -- the fast paths of the feature extractor
 *
 * They change no result: each handles only input whose features the general
 * code of tfp_features.c would give in the same way, and hands everything
 * else back to it (test/unit/test_fastpath.c compares both over random
 * texts, with tfp_extract_fastpath = 0 selecting the general code alone).
 *
 * Kernels only: tfp_features.c, the driver, includes this header once, at
 * its end, so that the main loop and the fast paths are one translation unit
 * (see tfp_extract.h).  Not part of the core's API.
 */
#ifndef TFP_FEATURES_FAST_H
#define TFP_FEATURES_FAST_H

#include "tfp_extract.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
#define FAST_FLAGS	8
static uint32_t han_fast[FAST_FLAGS][0x10000];
static unsigned char han_fast_ready[FAST_FLAGS];

static const uint32_t *
tfpx_han_fast_table(unsigned fold)
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

const uint32_t *
tfp_han_simple_table(unsigned fold)
{
	return tfpx_han_fast_table(fold);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* han_fast_entry() for 4 readable bytes, with one word-wide read */
static inline uint32_t
han_entry_le(const uint32_t *t, const unsigned char *p)
{
	uint32_t	cp = tfp_utf8_3byte_le(p);

	return cp == UINT32_MAX ? 0 : t[cp];
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
/* write the fast loops' locals back into the extractor */
#define FAST_STORE_STATE() \
	do { \
		x->run_len = run; \
		x->han_open = open; \
		x->nhan = nhan; \
		x->nbatch = nb; \
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
	const int	dual = x->sink1 != NULL;

	/* tfpx_han_close_unit()'s feature of the second stream: the unit */
#define FAST_EMIT1(cp) \
	do { \
		if (dual) \
		{ \
			if (!x->on1) \
			{ \
				x->on1 = 1; \
				x->lead1 = x->nfeatures + nb; \
			} \
			emit1(x, xxh3_fixed(&(cp), 4, TFP_SEED_HAN)); \
		} \
	} while (0)
	/* han_end_run(): close the open unit; a one-unit run is one feature */
#define FAST_END_RUN() \
	do { \
		if (open) \
		{ \
			FAST_EMIT1(cur); \
			run++; \
			if (run >= 2) \
				FAST_EMIT(xxh3_pair(prev, cur)); \
			else \
				FAST_EMIT(xxh3_fixed(&cur, 4, TFP_SEED_HAN)); \
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
				FAST_EMIT1(cur);
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
#undef FAST_EMIT1

	FAST_STORE_STATE();
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
#define NGRAM_FAST_MAX	6
#define LIN				64

/*
 * han_bigrams_fast() for n-grams of 1 and 3..NGRAM_FAST_MAX: the same loop, with
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
			FAST_EMIT(xxh3_fixed(lin + cnt - n, 4 * (size_t) n, TFP_SEED_HAN)); \
	} while (0)
#define FAST_END_RUN() \
	do { \
		if (open) \
			FAST_CLOSE(); \
		if (run > 0 && run < (uint64_t) n) \
			FAST_EMIT(xxh3_fixed(lin + cnt - run, 4 * (size_t) run, TFP_SEED_HAN)); \
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

	FAST_STORE_STATE();
	if (open)
		for (i = 0; i < cnt && i < (size_t) n; i++)
		{
			x->ring[(run - i) & (RING - 1)].cp[0] = lin[cnt - 1 - i];
			x->ring[(run - i) & (RING - 1)].n = 1;
		}
	return pos;
}

#undef FAST_EMIT
#undef FAST_STORE_STATE

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
 * can, before `limit`.  The first character goes through tfpx_han_begin_unit()
 * like any han unit (it may close a unit with marks).  The rest is
 * han_bigrams_fast() or han_ngrams_fast() once the units an n-gram would
 * read are plain; until then, and for n-grams over NGRAM_FAST_MAX, each
 * unit is closed by tfpx_han_close_unit().  Returns the
 * position after the last character taken.
 */
static size_t
tfpx_han_run_fast(extractor *x, const unsigned char *s, size_t pos, size_t limit,
			 const uint32_t *t, uint32_t e)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	int			ngram = x->o->ngram;
#endif

	word_end(x);
	tfpx_han_begin_unit(x, e & CP_MASK);
	for (;;)
	{
		unit	   *u;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (ngram == 2 &&
			(x->run_len == 0 || x->ring[(x->run_len - 1) & (RING - 1)].n == 1))
			return han_bigrams_fast(x, s, pos, limit, t);
		if (ngram != 2 && ngram <= NGRAM_FAST_MAX && run_tail_plain(x, ngram))
			return han_ngrams_fast(x, s, pos, limit, t, ngram);
#endif
		if (pos + 3 > limit || !((e = han_fast_entry(t, s + pos)) & HAN_SIMPLE))
			break;
		pos += 3;
		tfpx_han_close_unit(x);
		u = &x->ring[x->run_len & (RING - 1)];
		u->cp[0] = e & CP_MASK;
		u->n = 1;
		x->han_open = 1;
	}
	return pos;
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
			/* 64-bit, so the argument is never 0 (a word to the end of
			 * the window gives 32 - ws) */
			len = (unsigned) __builtin_ctzll(~(uint64_t) (m >> ws));
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

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
/* ASCII words from pos (a word starts there; nothing is open) */
static size_t
tfpx_ascii_words(extractor *x, const unsigned char *s, size_t pos, size_t limit,
				 int fold_case)
{
#if defined(__SSE2__)
	return ascii_words_sse2(x, s, pos, limit, fold_case);
#else
	return ascii_words_fast(x, s, pos, limit, fold_case);
#endif
}
#endif

uint64_t
tfp_xxh3_upto16(const void *p, size_t len, uint64_t seed)
{
	return xxh3_upto16(p, len, seed);
}

#endif							/* TFP_FEATURES_FAST_H */
