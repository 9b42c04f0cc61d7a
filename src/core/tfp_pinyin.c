/*
 * tfp_pinyin.c -- Chinese text to pinyin (see tfp_pinyin.h)
 *
 * Pure C99, no PostgreSQL headers.
 *
 * Readings come from tfp_pinyin() (Unihan kMandarin and fallbacks, generated
 * by tools/gen_unicode.py); the polyphone phrase table of
 * tfp_pinyin_phrases.c overrides them.  Phrases are keyed by the
 * traditional->simplified fold (TFP_FOLD_HAN) of their characters and
 * matched on the folded text, so one entry serves both scripts.  Only BMP
 * characters start phrases.  Speed: a 64 KB table over the BMP (tfp_py_info)
 * gives each code point's first letter and whether its fold starts /
 * continues a phrase or has a one-character entry, and a Bloom filter of the
 * phrases' first two characters (under every spelling) rejects most
 * candidate phrase starts without folding anything; the full match (fold,
 * binary search, longest entry) runs only when both pass.  The tables and
 * the sorted phrase index are built on first use (about a millisecond).
 * tfp_pinyin_letters() and tfp_pinyin_text(TFP_PY_INITIALS) give the same
 * letters for Han text (checked on the whole Chinese pool).  Where the CPU
 * has AVX-512, tfp_pinyin_letters() hands over to tfp_pinyin_x86.c, which
 * decides phrases after the letters (tfp_py_try_phrase(), by an exact table
 * of the phrases' first two characters) and gives the same letters.
 * tfp_pinyin_words() gives the extractor's words of the pinyin text without
 * writing it (each syllable's word hash from a table filled by the
 * extractor itself): textfp_match's pinyin shingles.
 */
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_pinyin.h"
#include "tfp_pinyin_int.h"
#include "tfp_unicode.h"
#include "tfp_unicode_inline.h"

void		(*tfp_pinyin_tick) (void) = NULL;
int			tfp_pinyin_fastpath = 1;

#if defined(__GNUC__) || defined(__clang__)
#define TFP_UNLIKELY(x) __builtin_expect((x) != 0, 0)
#else
#define TFP_UNLIKELY(x) (x)
#endif

/* ---------------------------------------------------------------- phrases */

#define PHRASE_MAXLEN 4

typedef struct py_phrase_src
{
	const char *text;			/* UTF-8 */
	const char *readings;		/* toneless syllables, space-separated */
} py_phrase_src;

/* tfp_pinyin_phrases.c */
extern const py_phrase_src tfp_pinyin_phrase_src[];
extern const int tfp_pinyin_nphrases;

typedef struct py_phrase
{
	uint32_t	key[PHRASE_MAXLEN];	/* folded code points, 0-padded */
	int			len;
	const char *readings;
} py_phrase;

#define MAX_PHRASES 1024
static py_phrase phrases[MAX_PHRASES];
static int	nphrases = 0;

/*
 * First phrase (in sorted order) of each first character: open addressing
 * on the folded first character, linear probing, key 0 = empty slot.
 */
#define FIRST_BITS 11			/* 2048 slots > 2 * MAX_PHRASES */
static struct
{
	uint32_t	key;
	uint16_t	lo;
}			first_index[1 << FIRST_BITS];

static inline uint32_t
first_slot(uint32_t key)
{
	return (key * 0x9E3779B1u) >> (32 - FIRST_BITS);
}
/* BMP fast path, built with the phrase index: see tfp_pinyin_int.h */
uint8_t		tfp_py_info[0x10000];
int			tfp_py_ready = 0;

/*
 * The reading of each BMP code point that has one (tfp_py_info[cp] != 0),
 * as its syllable's index in tfp_pinyin_off (py_sid, 0: none) with the
 * code point's INFO_START and INFO_SINGLE, and each syllable's length:
 * tfp_pinyin_text() writes it without the two-stage look-up, the fold and
 * strlen() again, and tfp_pinyin_words() reads one table for a character.
 */
#define SID_ID		0x3FFF		/* the syllable: its index in tfp_pinyin_off */
#define SID_START	0x4000		/* INFO_START */
#define SID_SINGLE	0x8000		/* INFO_SINGLE */
#define NSYL		(sizeof(tfp_pinyin_off) / sizeof(tfp_pinyin_off[0]))
static uint16_t py_sid[0x10000];
static uint8_t py_syl_len[NSYL];
static uint16_t py_off_syl[sizeof(tfp_pinyin_pool)];	/* offset -> index */

/*
 * Bloom filter of the pairs (first, second character) of the phrases, on
 * the code points as written (every traditional/simplified spelling of the
 * pair is inserted): most candidate phrase starts are rejected here without
 * folding anything.
 */
#define PAIR_BITS 17
static uint8_t pair_bloom[(1 << PAIR_BITS) / 8];

static inline uint32_t
pair_hash(uint32_t a, uint32_t b)
{
	return ((a * 0x9E3779B1u) ^ (b * 0x85EBCA77u)) >> (32 - PAIR_BITS);
}

static inline int
pair_maybe(uint32_t a, uint32_t b)
{
	uint32_t	h = pair_hash(a, b);

	return (pair_bloom[h >> 3] >> (h & 7)) & 1;
}

/* traditional -> simplified fold of one code point (itself if none) */
static inline uint32_t
fold_han(uint32_t cp)
{
	uint32_t	out[TFP_FOLD_MAX];

	if (tfp_cp_fold(cp, TFP_FOLD_HAN, out) == 1)
		return out[0];
	return cp;
}

/* reading of a code point, NULL if it has none */
const char *
tfp_py_reading_slow(uint32_t cp)
{
	const char *r;

	if (cp < 0x2E80)
		return NULL;
	r = tfp_pinyin(cp);
	if (r == NULL)
	{
		uint32_t	f = fold_han(cp);

		if (f != cp)
			r = tfp_pinyin(f);
	}
	return r;
}

static int
phrase_cmp(const void *a, const void *b)
{
	const py_phrase *x = a,
			   *y = b;

	for (int i = 0; i < PHRASE_MAXLEN; i++)
		if (x->key[i] != y->key[i])
			return x->key[i] < y->key[i] ? -1 : 1;
	return 0;
}

static void
build_phrases(void)
{
	int			n = 0;

	for (int i = 0; i < tfp_pinyin_nphrases && n < MAX_PHRASES; i++)
	{
		const uint8_t *p = (const uint8_t *) tfp_pinyin_phrase_src[i].text;
		const uint8_t *end = p + strlen((const char *) p);
		py_phrase  *ph = &phrases[n];

		memset(ph, 0, sizeof(*ph));
		while (p < end && ph->len < PHRASE_MAXLEN)
			ph->key[ph->len++] = fold_han(tfp_py_utf8_next(&p, end));
		ph->readings = tfp_pinyin_phrase_src[i].readings;
		if (ph->len >= 1 && ph->key[0] < 0x10000)
			n++;
	}
	qsort(phrases, n, sizeof(py_phrase), phrase_cmp);
	memset(first_index, 0, sizeof(first_index));
	for (int i = 0; i < n; i++)
		if (i == 0 || phrases[i].key[0] != phrases[i - 1].key[0])
		{
			uint32_t	h = first_slot(phrases[i].key[0]);

			while (first_index[h].key != 0)
				h = (h + 1) & ((1 << FIRST_BITS) - 1);
			first_index[h].key = phrases[i].key[0];
			first_index[h].lo = (uint16_t) i;
		}
	memset(tfp_py_info, 0, sizeof(tfp_py_info));
	{
		/* folded characters at the start of / inside phrases */
		static uint32_t alt_cp[4096],
					alt_f[4096];
		int			nalt;
		static uint8_t first[0x10000 / 8],
					later[0x10000 / 8],
					single[0x10000 / 8];

		memset(first, 0, sizeof(first));
		memset(later, 0, sizeof(later));
		for (int i = 0; i < n; i++)
			for (int k = 0; k < phrases[i].len; k++)
			{
				uint32_t	c = phrases[i].key[k];

				if (c < 0x10000)
					(k == 0 ? first : later)[c >> 3] |= (uint8_t) (1u << (c & 7));
			}

		memset(single, 0, sizeof(single));
		for (int i = 0; i < n; i++)
			if (phrases[i].len == 1 && phrases[i].key[0] < 0x10000)
				single[phrases[i].key[0] >> 3] |= (uint8_t) (1u << (phrases[i].key[0] & 7));
		memset(py_sid, 0, sizeof(py_sid));
		for (size_t id = 1; id < NSYL; id++)
		{
			py_off_syl[tfp_pinyin_off[id]] = (uint16_t) id;
			py_syl_len[id] = (uint8_t) strlen(tfp_pinyin_pool + tfp_pinyin_off[id]);
		}
		for (uint32_t cp = 0x2E80; cp < 0x10000; cp++)
		{
			const char *r = tfp_py_reading_slow(cp);
			uint32_t	f;

			if (r == NULL)
				continue;
			tfp_py_info[cp] = (uint8_t) (r[0] - 'a' + 1);
			py_sid[cp] = py_off_syl[r - tfp_pinyin_pool];
			f = fold_han(cp);
			if (f < 0x10000 && (first[f >> 3] >> (f & 7)) & 1)
				tfp_py_info[cp] |= INFO_START;
			if (f < 0x10000 && (later[f >> 3] >> (f & 7)) & 1)
				tfp_py_info[cp] |= INFO_CONT;
			if (f < 0x10000 && (single[f >> 3] >> (f & 7)) & 1)
			{
				/*
				 * its letter is that of the one-character entry, which
				 * applies whenever no longer phrase does (the letters loop
				 * emits it without asking phrase_match)
				 */
				tfp_py_info[cp] |= INFO_SINGLE;
				for (int i = 0; i < n; i++)
					if (phrases[i].len == 1 && phrases[i].key[0] == f)
						tfp_py_info[cp] = (uint8_t) ((tfp_py_info[cp] & ~INFO_LETTER) |
												  (phrases[i].readings[0] - 'a' + 1));
			}
			py_sid[cp] |= (uint16_t) (((tfp_py_info[cp] & INFO_START) ? SID_START : 0) |
									  ((tfp_py_info[cp] & INFO_SINGLE) ? SID_SINGLE : 0));
		}

		/*
		 * Pairs: each phrase's first two characters under all spellings
		 * (the characters themselves and every BMP code point folding to
		 * them).
		 */
		/* other spellings of the characters of the phrases */
		nalt = 0;
		memset(pair_bloom, 0, sizeof(pair_bloom));

		for (uint32_t cp = 0x2E80; cp < 0x10000 && nalt < 4096; cp++)
		{
			uint32_t	f;

			if (!(tfp_py_info[cp] & (INFO_START | INFO_CONT)))
				continue;
			f = fold_han(cp);
			if (f != cp)
			{
				alt_cp[nalt] = cp;
				alt_f[nalt++] = f;
			}
		}
		for (int i = 0; i < n; i++)
		{
			uint32_t	a[8],
						b[8];
			int			na = 0,
						nb = 0;

			if (phrases[i].len < 2)
				continue;
			a[na++] = phrases[i].key[0];
			b[nb++] = phrases[i].key[1];
			for (int j = 0; j < nalt; j++)
			{
				if (alt_f[j] == phrases[i].key[0] && na < 8)
					a[na++] = alt_cp[j];
				if (alt_f[j] == phrases[i].key[1] && nb < 8)
					b[nb++] = alt_cp[j];
			}
			for (int x = 0; x < na; x++)
				for (int y = 0; y < nb; y++)
				{
					uint32_t	h = pair_hash(a[x], b[y]);

					pair_bloom[h >> 3] |= (uint8_t) (1u << (h & 7));
				}
		}
	}
	nphrases = n;
}

/*
 * Exact phrase lookup for tfp_py_try_phrase(): the phrases of two or more
 * characters grouped by their first two (folded) characters, longest first
 * and, within a length, in the sorted order phrase_match() scans (so the
 * same entry wins), in an open-addressing table keyed by the pair; and the
 * fold of every BMP character that occurs in a phrase (0 for the others).
 */
#define PAIR_TAB_BITS 11		/* 2048 slots > 2 * MAX_PHRASES */
static struct
{
	uint32_t	key;			/* first << 16 | second; 0 = empty slot */
	uint16_t	lo;				/* first entry in pair_order */
	uint16_t	count;
}			pair_tab[1 << PAIR_TAB_BITS];
static uint16_t pair_order[MAX_PHRASES];
static uint16_t phrase_fold[0x10000];

/* 1 if every character of every phrase is in the BMP (so the pair table
 * holds every phrase; the generated table has no other) */
static int	phrases_bmp = 1;

static inline uint32_t
pair_slot(uint32_t key)
{
	return (key * 0x9E3779B1u) >> (32 - PAIR_TAB_BITS);
}

static void
build_pair_table(void)
{
	for (uint32_t cp = 0x2E80; cp < 0x10000; cp++)
		if (tfp_py_info[cp] & (INFO_START | INFO_CONT))
			phrase_fold[cp] = (uint16_t) fold_han(cp);
	for (int i = 0; i < nphrases; i++)
		for (int c = 0; c < phrases[i].len; c++)
			if (phrases[i].key[c] >= 0x10000)
				phrases_bmp = 0;
	memset(pair_tab, 0, sizeof(pair_tab));
	/* pass 0 counts the entries of each pair, pass 1 places them */
	for (int pass = 0; pass < 2; pass++)
	{
		for (int len = PHRASE_MAXLEN; len >= 2; len--)
			for (int i = 0; i < nphrases; i++)
			{
				uint32_t	key,
							h;

				if (phrases[i].len != len)
					continue;
				key = phrases[i].key[0] << 16 | phrases[i].key[1];
				for (h = pair_slot(key); pair_tab[h].key != 0 && pair_tab[h].key != key;
					 h = (h + 1) & ((1 << PAIR_TAB_BITS) - 1))
					;
				pair_tab[h].key = key;
				if (pass == 1)
					pair_order[pair_tab[h].lo + pair_tab[h].count] = (uint16_t) i;
				pair_tab[h].count++;
			}
		if (pass == 0)
		{
			int			lo = 0;

			for (int h = 0; h < (1 << PAIR_TAB_BITS); h++)
				if (pair_tab[h].key != 0)
				{
					pair_tab[h].lo = (uint16_t) lo;
					lo += pair_tab[h].count;
					pair_tab[h].count = 0;
				}
		}
	}
}

void
tfp_py_init(void)
{
	if (tfp_py_ready)
		return;
	build_phrases();
	build_pair_table();
	tfp_py_ready = 1;
}

/* code point of a 3-byte sequence (not checked) */
static inline uint32_t
cp3(const uint8_t *p)
{
	return ((uint32_t) (p[0] & 0x0F) << 12) | ((uint32_t) (p[1] & 0x3F) << 6) | (p[2] & 0x3F);
}

/* whether p starts a well-formed 3-byte sequence (tfp_py_utf8_next()
 * gives its code point, cp3(p)) */
static inline int
next_3byte(const uint8_t *p, const uint8_t *end)
{
	return end - p >= 3 && (p[0] & 0xF0) == 0xE0 &&
		(p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80 &&
		(p[0] != 0xE0 || p[1] >= 0xA0) && (p[0] != 0xED || p[1] < 0xA0);
}

/* the code point at *pp, as tfp_py_utf8_next() gives it, a well-formed
 * 3-byte sequence (all BMP Han) decoded in line; *pp moves past it */
static inline uint32_t
next_cp(const uint8_t **pp, const uint8_t *end)
{
	uint32_t	cp;

	if (next_3byte(*pp, end))
	{
		cp = cp3(*pp);
		*pp += 3;
		return cp;
	}
	return tfp_py_utf8_next(pp, end);
}

/* the length of the first syllable of the space-separated readings at *q;
 * *q moves to the next one, or to NULL after the last */
static inline size_t
next_syllable(const char **q)
{
	const char *sp = strchr(*q, ' ');
	size_t		l = sp ? (size_t) (sp - *q) : strlen(*q);

	*q = sp ? sp + 1 : NULL;
	return l;
}

/* fold of the phrase character at p, 0 if there is none there */
static inline uint32_t
phrase_char_at(const uint8_t *p, const uint8_t *end)
{
	if (end - p < 3 || (p[0] & 0xF0) != 0xE0 || (p[1] & 0xC0) != 0x80 ||
		(p[2] & 0xC0) != 0x80)
		return 0;
	return phrase_fold[cp3(p)];
}

/*
 * See tfp_pinyin_int.h.  p is a candidate: a character with INFO_START
 * followed by a well-formed 3-byte character with INFO_CONT.  Why this finds
 * what phrase_match(cp, p + 3, ...) finds, when that is a phrase of two or
 * more characters (a one-character entry changes no letter: its letter is
 * baked into tfp_py_info):
 *  - phrase_match() gathers the second character only if the pair passes
 *    pair_maybe(), and so does this;
 *  - a phrase of length L matches there iff the folds of the text's first L
 *    characters equal its key; phrase_match() gathers the third and fourth
 *    characters only while they have INFO_CONT, but a character whose fold
 *    is the key[c >= 1] of a phrase has INFO_CONT by definition, and other
 *    characters (no INFO flag: phrase_fold 0; ASCII, malformed, 2- or 4-byte
 *    sequences: phrase_char_at 0; folds of a supplementary character,
 *    which no phrase has) match no key, since keys are BMP Han code points;
 *  - among the matches phrase_match() keeps the longest, the first in sorted
 *    order on a tie, and pair_order lists them in that order.
 */
const uint8_t *
tfp_py_try_phrase(const uint8_t *p, const uint8_t *end, char *out, size_t k,
				  const uint8_t *covered)
{
	uint32_t	a,
				b,
				key,
				h;

	if (p < covered)
		return covered;
	a = cp3(p);
	b = cp3(p + 3);
	if (!pair_maybe(a, b))
		return covered;
	key = (uint32_t) phrase_fold[a] << 16 | phrase_fold[b];
	for (h = pair_slot(key); pair_tab[h].key != key; h = (h + 1) & ((1 << PAIR_TAB_BITS) - 1))
		if (pair_tab[h].key == 0)
			return covered;
	for (int e = pair_tab[h].lo, stop = e + pair_tab[h].count; e < stop; e++)
	{
		const py_phrase *ph = &phrases[pair_order[e]];
		int			c = 2;

		while (c < ph->len && phrase_char_at(p + 3 * c, end) == ph->key[c])
			c++;
		if (c == ph->len)
		{
			const char *q = ph->readings;

			out[k++] = *q;
			while ((q = strchr(q, ' ')) != NULL)
				out[k++] = *++q;
			return p + 3 * ph->len;
		}
	}
	return covered;
}

static inline int
may_start_phrase(uint32_t cp)
{
	if (!tfp_py_ready)
		tfp_py_init();
	return cp < 0x10000 && (tfp_py_info[cp] & INFO_START);
}

/*
 * The longest phrase starting with code point cp (its next characters begin
 * at p), or NULL; *after receives the end of the phrase's last character.
 */
static const py_phrase *
phrase_match(uint32_t cp, const uint8_t *p, const uint8_t *end,
			 const uint8_t **after)
{
	uint32_t	key[PHRASE_MAXLEN];
	const uint8_t *ends[PHRASE_MAXLEN];
	int			k = 1,
				lo;
	uint32_t	h;
	const py_phrase *best = NULL;

	key[0] = fold_han(cp);
	ends[0] = p;
	while (k < PHRASE_MAXLEN && p < end)
	{
		uint32_t	c = tfp_py_utf8_next(&p, end);

		/* no phrase goes on with this character: stop decoding */
		if (c < 0x10000 && !(tfp_py_info[c] & INFO_CONT))
			break;
		if (k == 1 && !pair_maybe(cp, c))
			break;
		key[k] = fold_han(c);
		ends[k] = p;
		k++;
	}
	/* only the first character: only a one-character entry can match */
	if (k == 1 && cp < 0x10000 && !(tfp_py_info[cp] & INFO_SINGLE))
		return NULL;
	/* first entry with this first character */
	for (h = first_slot(key[0]); first_index[h].key != key[0];
		 h = (h + 1) & ((1 << FIRST_BITS) - 1))
		if (first_index[h].key == 0)
			return NULL;
	lo = first_index[h].lo;
	for (; lo < nphrases && phrases[lo].key[0] == key[0]; lo++)
	{
		const py_phrase *ph = &phrases[lo];
		int			i;

		if (ph->len > k || (best && ph->len <= best->len))
			continue;
		for (i = 1; i < ph->len && ph->key[i] == key[i]; i++)
			;
		if (i == ph->len)
			best = ph;
	}
	if (best)
		*after = ends[best->len - 1];
	return best;
}

/* reading of a code point (its length in *len), NULL if it has none */
static inline const char *
reading(uint32_t cp, size_t *len)
{
	const char *r;
	unsigned	id;

	if (cp < 0x10000)
	{
		if (!tfp_py_ready)
			tfp_py_init();
		id = py_sid[cp] & SID_ID;
		if (id == 0)
			return NULL;
		*len = py_syl_len[id];
		return tfp_pinyin_pool + tfp_pinyin_off[id];
	}
	r = tfp_py_reading_slow(cp);
	if (r != NULL)
		*len = strlen(r);
	return r;
}

/* ---------------------------------------------------------------- letters */

/*
 * Whether the character at p (after cp) may continue a phrase starting with
 * cp: false means no phrase of two or more characters matches here.
 */
static inline int
next_pair_maybe(uint32_t cp, const uint8_t *p, const uint8_t *end)
{
	uint32_t	c;

	if (end - p >= 3 && (p[0] & 0xF0) == 0xE0)
	{
		/* (a malformed sequence gives some BMP value: only a filter) */
		c = ((uint32_t) (p[0] & 0x0F) << 12) |
			((uint32_t) (p[1] & 0x3F) << 6) | (p[2] & 0x3F);
		return (tfp_py_info[c] & INFO_CONT) && pair_maybe(cp, c);
	}
	if (p >= end)
		return 0;
	c = tfp_py_utf8_next(&p, end);
	return c < 0x10000 && (tfp_py_info[c] & INFO_CONT) && pair_maybe(cp, c);
}

size_t
tfp_pinyin_letters_ticked(const char *s, size_t len, char *out, void (*tick) (void))
{
	size_t		pos = 0,
				n = 0;

	while (pos < len)
	{
		size_t		end = len;

		if (len - pos > TFP_PINYIN_LETTERS_CHUNK)
		{
			end = pos + TFP_PINYIN_LETTERS_CHUNK;
			while (end < len && (unsigned char) s[end - 1] >= 0x80)
				end++;
		}
		n += tfp_pinyin_letters(s + pos, end - pos, out + n);
		pos = end;
		if (tick)
			tick();
	}
	return n;
}

size_t
tfp_pinyin_letters(const char *s, size_t len, char *out)
{
	const uint8_t *p = (const uint8_t *) s;
	const uint8_t *end = p + len;
	size_t		n = 0;

	if (!tfp_py_ready)
		tfp_py_init();
#if TFP_HAVE_X86_KERNELS
	/* (the kernel keeps byte offsets in 32 bits) */
	if (tfp_pinyin_fastpath && phrases_bmp && len < UINT32_MAX / 2 && tfp_use_avx512())
		return tfp_pinyin_letters_avx512(s, len, out);
#endif
	while (p < end)
	{
		uint32_t	cp;
		unsigned	info;
		const char *r;

		if (*p < 0x80)
		{
			/* ASCII: no letter; skip the run eight bytes at a time */
			uint64_t	w,
						high;

			for (p++; end - p >= 8; p += 8)
			{
				memcpy(&w, p, 8);
				if ((high = w & UINT64_C(0x8080808080808080)) != 0)
				{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
					p += __builtin_ctzll(high) >> 3;
#else
					while (*p < 0x80)
						p++;
#endif
					break;
				}
			}
			continue;
		}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/*
		 * fastest path: runs of 3-byte sequences, each read word-wide with
		 * the next one.  An overlong form or a surrogate gives a code point
		 * below U+0800 or in U+D800..U+DFFF, which has no reading and is
		 * in no phrase, like the U+FFFD tfp_py_utf8_next() gives for the same
		 * bytes; a sequence that is not 3 bytes gives UINT32_MAX, which
		 * reads as U+FFFF (no reading either).
		 *
		 * A phrase of two or more characters can start at cp only if cp
		 * starts some phrase (INFO_START), the next character continues
		 * one (INFO_CONT) and the pair is in the pair filter; that is
		 * tested once per character from the two infos, without a branch
		 * on either alone (START is common), and only the rare survivors
		 * go to phrase_match.  Otherwise the letter is the character's own
		 * (for one with a one-character entry, that entry's: tfp_py_info has
		 * it).
		 */
		if (tfp_pinyin_fastpath && end - p >= 7 &&
			(cp = tfp_utf8_3byte_le(p)) != UINT32_MAX)
		{
			info = tfp_py_info[cp];
			do
			{
				uint32_t	nx = tfp_utf8_3byte_le(p + 3);
				unsigned	ninfo = tfp_py_info[nx & 0xFFFF];

				if (TFP_UNLIKELY((info >> 1) & ninfo & INFO_CONT &
								 (pair_maybe(cp, nx) << 6)))
				{
					p += 3;
					goto phrase;
				}
				out[n] = (char) ('a' - 1 + (info & INFO_LETTER));
				n += (info != 0);
				p += 3;
				if (nx == UINT32_MAX)
					goto next;
				cp = nx;
				info = ninfo;
			} while (end - p >= 7);
			p += 3;
			goto have_info;
		}
#endif
		cp = next_cp(&p, end);
		if (cp < 0x10000)
		{
			info = tfp_py_info[cp];
	have_info:
			if (TFP_UNLIKELY(info & INFO_START) &&
				((info & INFO_SINGLE) || next_pair_maybe(cp, p, end)))
			{
				const uint8_t *after;
				const py_phrase *ph;

		phrase:
				ph = phrase_match(cp, p, end, &after);
				if (ph)
				{
					const char *q = ph->readings;

					out[n++] = *q;
					while ((q = strchr(q, ' ')) != NULL)
						out[n++] = *++q;
					p = after;
					continue;
				}
			}
			/* branch-free: info 0 (no reading) writes a byte but keeps n */
			out[n] = (char) ('a' - 1 + (info & INFO_LETTER));
			n += (info != 0);
			continue;
		}
		/* supplementary planes: no phrase starts there */
		r = tfp_py_reading_slow(cp);
		if (r != NULL)
			out[n++] = r[0];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
next:	;
#endif
	}
	return n;
}

/* ---------------------------------------------------------------- text */

typedef struct py_writer
{
	char	   *out;			/* NULL: only count */
	size_t		cap;			/* bytes out holds */
	size_t		n;
	int			state;			/* 0: between tokens, 1: in a Han run, 2: in
								 * a word */
	uint32_t	last;			/* last code point written in a word */
} py_writer;

static inline void
put(py_writer *w, const char *s, size_t len)
{
	if (w->out && len <= w->cap - w->n && w->n <= w->cap)
		memcpy(w->out + w->n, s, len);
	w->n += len;
}

static inline void
put_cp(py_writer *w, uint32_t c)
{
	char		b[4];
	size_t		l;

	if (c < 0x80)
		b[0] = (char) c, l = 1;
	else if (c < 0x800)
		b[0] = (char) (0xC0 | (c >> 6)), b[1] = (char) (0x80 | (c & 0x3F)), l = 2;
	else if (c < 0x10000)
		b[0] = (char) (0xE0 | (c >> 12)), b[1] = (char) (0x80 | ((c >> 6) & 0x3F)),
			b[2] = (char) (0x80 | (c & 0x3F)), l = 3;
	else
		b[0] = (char) (0xF0 | (c >> 18)), b[1] = (char) (0x80 | ((c >> 12) & 0x3F)),
			b[2] = (char) (0x80 | ((c >> 6) & 0x3F)), b[3] = (char) (0x80 | (c & 0x3F)),
			l = 4;
	put(w, b, l);
}

/* one syllable (len bytes of r) */
static inline void
put_syllable(py_writer *w, const char *r, size_t len, unsigned flags)
{
	if (flags & TFP_PY_INITIALS)
	{
		if (w->state != 1 && w->n > 0)
			put(w, " ", 1);
		put(w, r, 1);
	}
	else
	{
		if (w->n > 0)
			put(w, " ", 1);
		put(w, r, len);
	}
	w->state = 1;
}

size_t
tfp_pinyin_text(const char *s, size_t len, unsigned flags, char *out)
{
	return tfp_pinyin_text_bounded(s, len, flags, out, SIZE_MAX);
}

size_t
tfp_pinyin_text_bounded(const char *s, size_t len, unsigned flags, char *out,
						size_t cap)
{
	const uint8_t *p = (const uint8_t *) s;
	const uint8_t *end = p + len;
	py_writer	w = {out, cap, 0, 0, 0};
	unsigned	tick = 0;

	while (p < end)
	{
		uint32_t	cp = tfp_py_utf8_next(&p, end);
		size_t		rlen = 0;
		const char *r = reading(cp, &rlen);
		uint32_t	f[TFP_FOLD_MAX];
		int			nf;

		if (++tick == TFP_PY_TICK)
		{
			tick = 0;
			if (tfp_pinyin_tick)
				tfp_pinyin_tick();
		}

		if (r != NULL)
		{
			const uint8_t *after;
			const py_phrase *ph;

			if (may_start_phrase(cp) &&
				(ph = phrase_match(cp, p, end, &after)) != NULL)
			{
				for (const char *q = ph->readings; q != NULL;)
				{
					const char *syl = q;
					size_t		l = next_syllable(&q);

					put_syllable(&w, syl, l, flags);
				}
				p = after;
			}
			else
				put_syllable(&w, r, rlen, flags);
			continue;
		}
		/* anything else: folded (width, case), by character class */
		nf = tfp_cp_fold_inline(cp, TFP_FOLD_WIDTH | TFP_FOLD_CASE, f);
		for (int i = 0; i < nf; i++)
		{
			switch (tfp_cp_class_inline(f[i]))
			{
				case TFP_CC_WORD:
				case TFP_CC_HAN:
					if (w.state != 2 && w.n > 0)
						put(&w, " ", 1);
					put_cp(&w, f[i]);
					w.state = 2;
					w.last = f[i];
					break;
				case TFP_CC_MARK:
					/* accents of Latin letters dropped, like tones; other
					 * marks (kana voicing, Indic vowel signs) kept */
					if (w.state == 2 && w.last >= 0x80)
						put_cp(&w, f[i]);
					break;
				case TFP_CC_IGNORE:
					break;
				default:
					w.state = 0;
					break;
			}
		}
	}
	return w.n;
}

/* ---------------------------------------------------------------- words */

/*
 * The words of the pinyin text without the text (tfp_pinyin_words()): the
 * word hash of every syllable of tfp_pinyin_pool (by its index, py_sid) and of
 * the syllables of every phrase, each the one feature the extractor gives
 * the syllable alone (shingle 1, the folds of TFP_PY_WORD_FOLDS), taken
 * from the extractor itself when first needed.  py_words_ok is 0 if a
 * syllable is not one word of the extractor (none is: then every text
 * takes the general path, which writes the text).
 */
#define TFP_PY_WORD_FOLDS (TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN)

static uint64_t py_word[NSYL];	/* by syllable (py_sid) */
static uint64_t py_phrase_word[MAX_PHRASES][PHRASE_MAXLEN];
static uint8_t py_phrase_nword[MAX_PHRASES];
static int	py_words_ready = 0,
			py_words_ok = 0;

typedef struct one_word
{
	uint64_t	h;
	size_t		n;
} one_word;

static void
one_word_sink(void *arg, const uint64_t *h, size_t n)
{
	one_word   *w = arg;

	if (n > 0 && w->n == 0)
		w->h = h[0];
	w->n += n;
}

/* the extractor's hash of the syllable r[0..len), or 0 with *ok = 0 when
 * it is not exactly one word */
static uint64_t
syllable_word(const char *r, size_t len, int *ok)
{
	tfp_feature_opts o = {5, 1, TFP_PY_WORD_FOLDS};
	one_word	w = {0, 0};
	uint64_t	nhan = 0;

	tfp_extract_features_counted(r, len, &o, one_word_sink, &w, &nhan);
	if (w.n != 1 || nhan != 0)
		*ok = 0;
	return w.h;
}

static void
py_words_init(void)
{
	int			ok = 1;

	if (!tfp_py_ready)
		tfp_py_init();
	for (size_t id = 1; id < NSYL; id++)
		py_word[id] = syllable_word(tfp_pinyin_pool + tfp_pinyin_off[id], py_syl_len[id], &ok);
	for (int i = 0; i < nphrases; i++)
	{
		int			k = 0;

		for (const char *q = phrases[i].readings; q != NULL; k++)
		{
			const char *syl = q;
			size_t		l = next_syllable(&q);

			if (k == PHRASE_MAXLEN)
			{
				ok = 0;
				break;
			}
			py_phrase_word[i][k] = syllable_word(syl, l, &ok);
		}
		py_phrase_nword[i] = (uint8_t) k;
	}
	py_words_ok = ok;
	py_words_ready = 1;
}

/* the longest ASCII word tfp_pinyin_words() hashes itself */
#define PY_WORD_BUF 64

/*
 * tfp_pinyin_text_bounded()'s loop (flags 0), step for step (the same
 * decoding, folds and classes: keep the two alike), giving the words of its
 * tokens where it writes them: a syllable's from the tables above, a run
 * of other letters and digits (all ASCII after the fold: else SIZE_MAX)
 * hashed as the extractor hashes a word.  In that text every token is
 * one word of the extractor, which reads a space as a separator.
 */
size_t
tfp_pinyin_words(const char *s, size_t len, uint64_t *out)
{
	const uint8_t *p = (const uint8_t *) s;
	const uint8_t *end = p + len;
	size_t		n = 0,
				wl = 0;
	int			state = 0;		/* as py_writer's */
	unsigned	tick = 0;
	unsigned char wb[PY_WORD_BUF];

	if (!py_words_ready)
		py_words_init();
	if (!py_words_ok)
		return SIZE_MAX;
	while (p < end)
	{
		uint32_t	cp;
		size_t		rlen = 0;
		const char *r;
		uint32_t	f[TFP_FOLD_MAX];
		int			nf;
		unsigned	sid;

		cp = next_cp(&p, end);
		if (++tick == TFP_PY_TICK)
		{
			tick = 0;
			if (tfp_pinyin_tick)
				tfp_pinyin_tick();
		}
		if (cp < 0x10000 && (sid = py_sid[cp]) != 0)
		{
			const uint8_t *after;
			const py_phrase *ph;

			/*
			 * A BMP character with a reading.  A phrase may start here only
			 * if it starts one (INFO_START); without a one-character entry
			 * (INFO_SINGLE), phrase_match() returns NULL when the next
			 * character, a well-formed 3-byte sequence, continues no phrase
			 * or fails the pair filter: it reads it the same way.
			 */
			if (state == 2)
				out[n++] = tfp_word_hash(wb, wl);
			state = 1;
			if (TFP_UNLIKELY(sid & SID_START) &&
				((sid & SID_SINGLE) || !next_3byte(p, end) ||
				 ((tfp_py_info[cp3(p)] & INFO_CONT) && pair_maybe(cp, cp3(p)))) &&
				(ph = phrase_match(cp, p, end, &after)) != NULL)
			{
				size_t		i = (size_t) (ph - phrases);

				for (int k = 0; k < py_phrase_nword[i]; k++)
					out[n++] = py_phrase_word[i][k];
				p = after;
			}
			else
				out[n++] = py_word[sid & SID_ID];
			continue;
		}
		r = cp < 0x10000 ? NULL : reading(cp, &rlen);
		if (r != NULL)
		{
			/* outside the BMP: no phrase starts there */
			if (state == 2)
				out[n++] = tfp_word_hash(wb, wl);
			state = 1;
			if (r < tfp_pinyin_pool || r >= tfp_pinyin_pool + sizeof(tfp_pinyin_pool))
				return SIZE_MAX;	/* (every reading is in the pool) */
			out[n++] = py_word[py_off_syl[r - tfp_pinyin_pool]];
			continue;
		}
		nf = tfp_cp_fold_inline(cp, TFP_FOLD_WIDTH | TFP_FOLD_CASE, f);
		for (int i = 0; i < nf; i++)
		{
			switch (tfp_cp_class_inline(f[i]))
			{
				case TFP_CC_WORD:
				case TFP_CC_HAN:
					if (f[i] >= 0x80 || wl == PY_WORD_BUF ||
						!((f[i] >= '0' && f[i] <= '9') || (f[i] >= 'a' && f[i] <= 'z')))
						return SIZE_MAX;
					if (state != 2)
						wl = 0;
					wb[wl++] = (unsigned char) f[i];
					state = 2;
					break;
				case TFP_CC_MARK:	/* kept only after a letter >= 0x80 */
				case TFP_CC_IGNORE:
					break;
				default:
					if (state == 2)
						out[n++] = tfp_word_hash(wb, wl);
					state = 0;
					break;
			}
		}
	}
	if (state == 2)
		out[n++] = tfp_word_hash(wb, wl);
	return n;
}
