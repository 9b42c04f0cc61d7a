/*
 * tfp_sentences.c -- sentences of a text and the top-k longest
 * (definition in tfp_sentences.h)
 */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "tfp_core.h"
#include "tfp_hashes.h"
#include "tfp_sentences.h"
#include "tfp_sort.h"

/* bytes that may start a sentence end: ! . ? \n and the lead bytes of
 * U+2029 (E2), U+3002 (E3) and U+FF01 U+FF0E U+FF1F U+FF61 (EF) */
static const unsigned char maybe_end[256] = {
	['!'] = 1,['.'] = 1,['?'] = 1,['\n'] = 1,
	[0xE2] = 1,[0xE3] = 1,[0xEF] = 1,
};

/*
 * The first position in [p, lim) whose byte may start an end mark (or lim).
 * With SSE2, sixteen bytes are compared with the seven such bytes at once.
 */
static inline size_t
next_candidate(const unsigned char *s, size_t p, size_t lim)
{
#if defined(__SSE2__)
	const __m128i dot = _mm_set1_epi8('.'),
				excl = _mm_set1_epi8('!'),
				quest = _mm_set1_epi8('?'),
				lf = _mm_set1_epi8('\n'),
				e2 = _mm_set1_epi8((char) 0xE2),
				e3 = _mm_set1_epi8((char) 0xE3),
				ef = _mm_set1_epi8((char) 0xEF);

	while (p + 16 <= lim)
	{
		__m128i		v = _mm_loadu_si128((const __m128i *) (s + p));
		__m128i		m = _mm_or_si128(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, dot),
															  _mm_cmpeq_epi8(v, excl)),
												 _mm_or_si128(_mm_cmpeq_epi8(v, quest),
															  _mm_cmpeq_epi8(v, lf))),
									_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, e2),
															  _mm_cmpeq_epi8(v, e3)),
												 _mm_cmpeq_epi8(v, ef)));
		int			bits = _mm_movemask_epi8(m);

		if (bits != 0)
			return p + (size_t) __builtin_ctz((unsigned) bits);
		p += 16;
	}
#endif
	while (p < lim && !maybe_end[s[p]])
		p++;
	return p;
}

/* does a full stop end a sentence: is the code point at s[q..len) not a
 * letter, digit or mark? */
static int
stop_ends(const unsigned char *s, size_t q, size_t len)
{
	uint32_t	cp;
	int			cls;

	if (q >= len)
		return 1;
	if (s[q] < 0x80)
	{
		unsigned char c = s[q];

		return !((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'));
	}
	tfp_utf8_decode(s + q, len - q, &cp);
	cls = tfp_cp_class(cp);
	return !(cls == TFP_CC_WORD || cls == TFP_CC_HAN || cls == TFP_CC_MARK);
}

/* is a line feed at s[p] followed by another, with only blanks between? */
static int
paragraph_break(const unsigned char *s, size_t p, size_t len)
{
	size_t		q = p + 1;

	while (q < len)
	{
		if (s[q] == '\n')
			return 1;
		if (s[q] == ' ' || s[q] == '\t' || s[q] == '\r' || s[q] == '\f' || s[q] == '\v')
			q++;
		else if (q + 3 <= len && s[q] == 0xE3 && s[q + 1] == 0x80 && s[q + 2] == 0x80)
			q += 3;				/* U+3000 ideographic space */
		else
			return 0;
	}
	return 0;
}

/*
 * If a sentence ends at s[p] (maybe_end[s[p]] is set), the length of the
 * end mark (>= 1), else 0.
 */
static size_t
end_mark(const unsigned char *s, size_t p, size_t len)
{
	switch (s[p])
	{
		case '!':
		case '?':
			return 1;
		case '.':
			return stop_ends(s, p + 1, len) ? 1 : 0;
		case '\n':
			return paragraph_break(s, p, len) ? 1 : 0;
		default:
			break;
	}
	if (p + 3 > len || (s[p + 1] & 0xC0) != 0x80 || (s[p + 2] & 0xC0) != 0x80)
		return 0;
	switch (((uint32_t) s[p] << 16) | ((uint32_t) s[p + 1] << 8) | s[p + 2])
	{
		case 0xE280A9:			/* U+2029 paragraph separator */
		case 0xE38082:			/* U+3002 。 */
		case 0xEFBC81:			/* U+FF01 ！ */
		case 0xEFBC9F:			/* U+FF1F ？ */
		case 0xEFBDA1:			/* U+FF61 ｡ */
			return 3;
		case 0xEFBC8E:			/* U+FF0E ． */
			return stop_ends(s, p + 3, len) ? 3 : 0;
		default:
			return 0;
	}
}

/*
 * A sentence's hash: the token hashes gather in buf and are hashed in one
 * call; a sentence of more than SENT_BUF tokens continues in a streaming
 * state (the same XXH3 of the whole sequence, by XXH3's definition).
 */
#define SENT_BUF	256

typedef struct sentence_acc
{
	uint64_t	n;				/* tokens */
	size_t		nbuf;			/* in buf */
	int			streaming;
	void		(*tick) (void);
	uint64_t	buf[SENT_BUF];
	XXH3_state_t st;
} sentence_acc;

static void
sentence_sink(void *arg, const uint64_t *hashes, size_t n)
{
	sentence_acc *a = (sentence_acc *) arg;

	if (n == 0)
	{
		if (a->tick)
			a->tick();
		return;
	}
	a->n += n;
	if (!a->streaming && a->nbuf + n <= SENT_BUF)
	{
		memcpy(a->buf + a->nbuf, hashes, n * sizeof(uint64_t));
		a->nbuf += n;
		return;
	}
	if (!a->streaming)
	{
		XXH3_64bits_reset_withSeed(&a->st, TFP_SENTENCE_SEED);
		tfp_xxh3_update_u64(&a->st, a->buf, a->nbuf);
		a->streaming = 1;
	}
	tfp_xxh3_update_u64(&a->st, hashes, n);
}

static uint64_t
sentence_hash(sentence_acc *a)
{
	if (a->streaming)
		return XXH3_64bits_digest(&a->st);
	return tfp_xxh3_u64(a->buf, a->nbuf, TFP_SENTENCE_SEED);
}

void
tfp_sentences_each(const char *utf8, size_t len, void (*tick) (void),
				   tfp_sentence_fn fn, void *arg)
{
	const unsigned char *s = (const unsigned char *) utf8;
	tfp_feature_opts o = {1, 1, TFP_SENTENCE_FOLDS};
	sentence_acc *a;
	sentence_acc acc;
	size_t		start = 0,
				p = 0,
				next_tick = 65536;

	a = &acc;
	memset(&a->st, 0, sizeof(a->st));	/* before a seeded reset (xxhash.h) */
	a->tick = tick;
	while (start < len)
	{
		size_t		mark = 0;

		for (;;)
		{
			size_t		lim = len < next_tick ? len : next_tick;

			while ((p = next_candidate(s, p, lim)) < lim && (mark = end_mark(s, p, len)) == 0)
				p++;
			if (p < lim || p == len)
				break;
			if (tick)
				tick();
			next_tick = p + 65536;
		}
		/* [start, p) is a sentence; the end mark is mark bytes */
		if (p > start)
		{
			a->n = 0;
			a->nbuf = 0;
			a->streaming = 0;
			tfp_extract_features(utf8 + start, p - start, &o, sentence_sink, a);
			if (a->n > 0)
				fn(arg, start, p, a->n, sentence_hash(a));
		}
		p += mark;
		start = p;
	}
}

typedef struct topk
{
	int			k;
	int			n;
	uint64_t   *len;			/* k entries each, best first */
	uint64_t   *hash;
} topk;

/* is (la, ha) before (lb, hb): longer, or as long with a smaller hash */
static inline int
better(uint64_t la, uint64_t ha, uint64_t lb, uint64_t hb)
{
	return la > lb || (la == lb && (int64_t) ha < (int64_t) hb);
}

static void
topk_add(void *arg, size_t start, size_t end, uint64_t ntokens, uint64_t hash)
{
	topk	   *t = (topk *) arg;
	int			i;

	(void) start;
	(void) end;
	if (t->n == t->k && !better(ntokens, hash, t->len[t->n - 1], t->hash[t->n - 1]))
		return;
	for (i = 0; i < t->n; i++)
		if (t->hash[i] == hash)
			return;				/* the same sentence again */
	i = t->n < t->k ? t->n++ : t->n - 1;	/* the slot freed (or the last) */
	for (; i > 0 && better(ntokens, hash, t->len[i - 1], t->hash[i - 1]); i--)
	{
		t->len[i] = t->len[i - 1];
		t->hash[i] = t->hash[i - 1];
	}
	t->len[i] = ntokens;
	t->hash[i] = hash;
}

size_t
tfp_sentences_topk(const char *utf8, size_t len, int k, void (*tick) (void),
				   uint64_t *out)
{
	uint64_t	lens[TFP_SENTENCE_MAX_K];
	topk		t;

	t.k = k;
	t.n = 0;
	t.len = lens;
	t.hash = out;
	tfp_sentences_each(utf8, len, tick, topk_add, &t);
	tfp_insertion_sort_i64((int64_t *) out, (size_t) t.n);
	return (size_t) t.n;
}
