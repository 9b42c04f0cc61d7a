/*
 * tfp_passage.c -- the passage fingerprint (definition, guarantee and its
 * proof in tfp_passage.h): units and their keys, k-gram hashes, winnowing
 * with context bytes, streamed in batches with O(1) memory.  Pure C.  Where
 * the CPU has AVX-512, four stages run in tfp_passage_x86.c's kernels
 * (tfp_passage_int.h): the k-gram hashes, the windows' minima, the seeds'
 * context bytes and long runs of ASCII; this file's loops are the
 * definition, and do the rest (the ends of batches, other CPUs).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_passage.h"
#include "tfp_passage_int.h"
#include "tfp_unicode_inline.h"

const char *
tfp_passage_check(const tfp_passage_opts *o)
{
	if (o->k < 1 || o->k > TFP_PASSAGE_MAX_K)
		return "k";
	if (o->w < 1 || o->w > TFP_PASSAGE_MAX_W)
		return "w";
	return NULL;
}

static inline uint64_t
hstep(uint64_t h, uint32_t x)
{
	return (h + x) * TFP_PK_MUL;
}

/* ------------------------------------------------------------------------
 * Units (steps 1-2)
 *
 * Fast paths, each giving what the general code gives: ASCII through a
 * table of its classes (A-Z folded), without spans in two streams at once
 * (ascii_keys); and the code points of the CJK blocks
 * that fold to one han character, through a table of the key of the unit
 * made of that character alone (built on first use), so that a Chinese
 * character costs a decode and a load.  A mark after such a character
 * turns its unit back into a general one.
 * ------------------------------------------------------------------------ */

enum
{
	K_NONE, K_WORD, K_HAN, K_HANFAST
};

#define FAST_LO		0x2000		/* punctuation, CJK symbols, kana, CJK
								 * ideographs, full-width forms: the rest
								 * of the BMP */
#define FAST_HI		0x10000
#define FAST_N		FAST_HI		/* the table is indexed by the code point
								 * (0 below FAST_LO): any three-byte
								 * sequence's bits are an index */
#define FAST_SEP	UINT64_C(1) /* the entry of a code point that folds to
								 * separators only */

static const unsigned FOLD_ALL = TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN;

/* [reading][cp]: for cp in [FAST_LO, FAST_HI), the key of
 * the unit of cp alone if cp folds to one han code point, FAST_SEP if it
 * folds to separators only, 0 if it takes the general path;
 * ascii_cls[c]: the class of ASCII c */
static uint64_t fast_key[2][FAST_N];
static uint8_t ascii_cls[128];
static uint8_t word_byte[256];	/* an ASCII word character folded, else 0 */
static uint8_t word_map[16];	/* bit hi of [lo]: 16 hi + lo is one */

/* a step of the keys-only ASCII loop for byte b < 128 (ascii_keys):
 * {all ones, c M} for a word byte that folds to c, {0, TFP_PK_WORD} for a
 * separator */
typedef struct wstep
{
	uint64_t	mask,
				mul,
				add;
} wstep;
static wstep wsteps[128];
static int	fast_ready = 0;

static inline int
fast_index(uint32_t cp)
{
	return cp - FAST_LO < (uint32_t) (FAST_HI - FAST_LO) ? (int) cp : -1;
}

/* K of a reading: TFP_PK_READING folded over its bytes */
static uint64_t
reading_key(const char *r)
{
	uint64_t	h = TFP_PK_READING;

	while (*r)
		h = hstep(h, (unsigned char) *r++);
	return tfp_fmix64(h);
}

static uint64_t
han_key(uint32_t first, uint64_t h, int reading)
{
	const char *r = reading ? tfp_pinyin(first) : NULL;

	return r ? reading_key(r) : tfp_fmix64(h);
}

static void
fast_init(void)
{
	for (uint32_t c = 0; c < 128; c++)
	{
		ascii_cls[c] = (uint8_t) tfp_cp_class_inline(c);
		if (ascii_cls[c] == TFP_CC_WORD)
			word_byte[c] = (uint8_t) (c - 'A' < 26u ? c + ('a' - 'A') : c);
		if (word_byte[c])
			word_map[c & 15] |= (uint8_t) (1u << (c >> 4));
		wsteps[c].mask = word_byte[c] ? ~UINT64_C(0) : 0;
		wsteps[c].mul = word_byte[c] ? TFP_PK_MUL : 0;
		wsteps[c].add = word_byte[c] ? (uint64_t) word_byte[c] * TFP_PK_MUL : TFP_PK_WORD;
	}
	for (uint32_t cp = FAST_LO; cp < FAST_HI; cp++)
	{
		int			i = fast_index(cp);
		uint32_t	out[TFP_FOLD_MAX];
		int			m;
		int			sep = 1;

		if (cp >= 0xD800 && cp < 0xE000)
			continue;			/* surrogates: the general path's U+FFFD */
		m = tfp_cp_fold_inline(cp, FOLD_ALL, out);

		if (m == 1 && tfp_cp_class_inline(out[0]) == TFP_CC_HAN)
		{
			uint64_t	h = hstep(TFP_PK_HAN, out[0]);

			for (int r = 0; r < 2; r++)
			{
				uint64_t	key = han_key(out[0], h, r);

				/* a key that is FAST_SEP or 0 takes the general path */
				fast_key[r][i] = key == FAST_SEP ? 0 : key;
			}
			continue;
		}
		for (int j = 0; j < m; j++)
			if (tfp_cp_class_inline(out[j]) != TFP_CC_SEP)
				sep = 0;
		if (sep)
			fast_key[0][i] = fast_key[1][i] = FAST_SEP;
	}
	fast_ready = 1;
}

struct winnow;

typedef struct utok
{
	int			reading;
	int			kind;			/* unit being read */
	uint64_t	h;				/* H of its code points so far */
	uint32_t	first;			/* its first code point (folded; K_HANFAST:
								 * as written) */
	uint32_t	ncp;
	uint32_t	start,
				end;
	uint64_t	key;			/* K_HANFAST: its key */
	/* the batch, as arrays */
	uint64_t	keys[TFP_PASSAGE_BATCH];
	uint32_t	starts[TFP_PASSAGE_BATCH],
				ends[TFP_PASSAGE_BATCH];
	uint8_t		lens[TFP_PASSAGE_BATCH];	/* 1: han unit, 2: word */
	size_t		nbuf;
	uint64_t	total;
	tfp_punit_sink sink;		/* NULL: keys go to wn */
	void	   *arg;
	struct winnow *wn;
} utok;

static void winnow_units(struct winnow *st, const uint64_t *in, const uint8_t *lens, size_t n);

static void
utok_flush(utok *k)
{
	k->total += k->nbuf;
	if (k->sink)
	{
		tfp_punit	b[TFP_PASSAGE_BATCH];

		for (size_t i = 0; i < k->nbuf; i++)
		{
			b[i].key = k->keys[i];
			b[i].start = k->starts[i];
			b[i].end = k->ends[i];
			b[i].han = k->lens[i] == 1;
		}
		k->sink(k->arg, b, k->nbuf);
	}
	else
		winnow_units(k->wn, k->keys, k->lens, k->nbuf);
	k->nbuf = 0;
}

static inline void
utok_put(utok *k, uint64_t key, int han)
{
	size_t		i = k->nbuf++;

	k->keys[i] = key;
	k->lens[i] = han ? 1 : 2;
	k->starts[i] = k->start;
	k->ends[i] = k->end;
	k->kind = K_NONE;
	if (k->nbuf == TFP_PASSAGE_BATCH)
		utok_flush(k);
}

static void
utok_close_han(utok *k)
{
	utok_put(k, han_key(k->first, k->h, k->reading), 1);
}

static inline void
utok_close(utok *k)
{
	switch (k->kind)
	{
		case K_NONE:
			return;
		case K_HANFAST:
			utok_put(k, k->key, 1);
			return;
		case K_HAN:
			utok_close_han(k);
			return;
		default:
			utok_put(k, tfp_fmix64(k->h), 0);
			return;
	}
}

/* a mark after a K_HANFAST unit: make it a general one */
static void
utok_unfast(utok *k)
{
	uint32_t	out[TFP_FOLD_MAX];

	tfp_cp_fold_inline(k->first, FOLD_ALL, out);
	k->kind = K_HAN;
	k->first = out[0];
	k->h = hstep(TFP_PK_HAN, out[0]);
	k->ncp = 1;
}

static inline void
utok_add(utok *k, int kind, uint32_t cp, uint32_t pos, uint32_t end)
{
	if (k->kind == K_HANFAST)
		utok_unfast(k);
	if (k->kind == K_NONE)
	{
		k->kind = kind;
		k->h = kind == K_HAN ? TFP_PK_HAN : TFP_PK_WORD;
		k->first = cp;
		k->start = pos;
		k->ncp = 0;
	}
	if (k->kind == K_WORD || k->ncp < TFP_UNIT_CPS)
	{
		k->h = hstep(k->h, cp);
		k->ncp++;
	}
	k->end = end;
}

/* the general path: one code point as written, n bytes at pos */
static void
utok_general(utok *k, uint32_t cp, size_t pos, size_t n)
{
	uint32_t	out[TFP_FOLD_MAX];
	int			m = tfp_cp_fold_inline(cp, FOLD_ALL, out);

	for (int i = 0; i < m; i++)
	{
		uint32_t	c = out[i];

		switch (tfp_cp_class_inline(c))
		{
			case TFP_CC_WORD:
				if (k->kind == K_HAN || k->kind == K_HANFAST)
					utok_close(k);
				utok_add(k, K_WORD, c, (uint32_t) pos, (uint32_t) (pos + n));
				break;
			case TFP_CC_HAN:
				utok_close(k);
				utok_add(k, K_HAN, c, (uint32_t) pos, (uint32_t) (pos + n));
				break;
			case TFP_CC_MARK:
				/* joins the preceding han unit or word, else starts a word */
				utok_add(k, k->kind == K_HAN || k->kind == K_HANFAST ? K_HAN : K_WORD, c,
						 (uint32_t) pos, (uint32_t) (pos + n));
				break;
			case TFP_CC_IGNORE:
				break;
			default:
				utok_close(k);
				break;
		}
	}
}

/*
 * The fast loops of the tokenizer keep their state in locals and write
 * units straight into the batch arrays: a run of fast han characters
 * (each is a whole unit once the next code point is seen not to be a mark,
 * and a fast han character is none) and a run of ASCII word characters.
 */
static inline void
put_unit(utok *k, uint64_t key, uint32_t start, uint32_t end, int han, int spans)
{
	size_t		i = k->nbuf;

	k->keys[i] = key;
	k->lens[i] = han ? 1 : 2;
	if (spans)
	{
		k->starts[i] = start;
		k->ends[i] = end;
	}
	k->nbuf = i + 1;
	if (i + 1 == TFP_PASSAGE_BATCH)
		utok_flush(k);
}

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#else
#define ALWAYS_INLINE inline
#define NOINLINE
#endif

/* the words put at [from, to) of the batch: their keys from their H */
static inline void
word_keys(utok *k, size_t from, size_t to)
{
	for (size_t j = from; j < to; j++)
	{
		k->keys[j] = tfp_fmix64(k->keys[j]);
		k->lens[j] = 2;
	}
}

/*
 * One byte b < 128 of a stream of the keys-only ASCII loop.  H after a
 * word byte c is (H + c) M = H M + c M and after a separator TFP_PK_WORD,
 * which is what H is while no word is open: so H' = H mul + add, mul = M
 * after a word byte and 0 after a separator (no and in H's chain).  A
 * word's H is stored at keys[nb] at every step, and nb moves past it when
 * a separator ends the word (inw: all ones while a word is open).
 */
static inline void
ascii_step(uint64_t *h, uint64_t *inw, size_t *nb, uint64_t *keys, unsigned b)
{
	const wstep *e = &wsteps[b];

	keys[*nb] = *h;
	*nb += *inw & ~e->mask & 1;
	*h = *h * e->mul + e->add;
	*inw = e->mask;
}

/* the first byte at or after pos (before end) that is not ASCII, or end */
static inline size_t
ascii_end(const unsigned char *s, size_t pos, size_t end)
{
	uint64_t	x;

	while (pos + 8 <= end)
	{
		memcpy(&x, s + pos, 8);
		if (x & UINT64_C(0x8080808080808080))
			break;
		pos += 8;
	}
	while (pos < end && s[pos] < 0x80)
		pos++;
	return pos;
}

/*
 * The keys-only tokenizer's ASCII bytes from pos (an ASCII byte) up to the
 * first that is not ASCII or end, whose position it returns, with the open
 * word's H in *hp (TFP_PK_WORD if none) and *inwp.  The chain from H to H
 * (a multiplication and an addition a byte) bounds the loop, so a chunk of
 * a long run is read as two streams at once: the first up to and with the
 * first separator after the chunk's middle (which ends any word open
 * there), the second after it, from no open word; the second stream's
 * words are put after the first's.  (Four streams were slower: the state
 * no longer fits in registers.)  A chunk of L bytes ends at most
 * (L + 1) / 2 words (each needs a separator after a word byte), so a chunk
 * is at most 2 (room - 1) bytes and the batch never overflows in it.
 */
static NOINLINE size_t
ascii_keys(utok *k, const unsigned char *s, size_t pos, size_t end, uint64_t *hp,
		   uint64_t *inwp)
{
	uint64_t	h = *hp,
				inw = *inwp;
	uint64_t	tmp[TFP_PASSAGE_BATCH];

	/*
	 * a short run first (most of them in Chinese text: a number, a space),
	 * one stream up to the first byte that is not ASCII, 32 bytes at most
	 * (16 words)
	 */
	{
		size_t		nb = k->nbuf,
					nb0,
					lim = end - pos < 32 ? end : pos + 32;

		if (TFP_PASSAGE_BATCH - nb < 24)
		{
			utok_flush(k);
			nb = 0;
		}
		nb0 = nb;
		for (; pos < lim && s[pos] < 0x80; pos++)
			ascii_step(&h, &inw, &nb, k->keys, s[pos]);
		word_keys(k, nb0, nb);
		k->nbuf = nb;
		if (pos < lim || pos == end)
		{
			*hp = h;
			*inwp = inw;
			return pos;
		}
	}
#if TFP_HAVE_X86_KERNELS
	if (tfp_use_avx512())
	{
		/* the rest of the run, in blocks of 64 bytes (tfp_passage_x86.c) */
		while (pos < end && s[pos] < 0x80)
		{
			size_t		nb = k->nbuf,
						nb0 = nb;

			if (TFP_PASSAGE_BATCH - nb < 33)
			{
				utok_flush(k);
				continue;
			}
			pos = tfp_passage_ascii_x86(s, pos, end, &h, &inw, k->keys, &nb, word_map);
			word_keys(k, nb0, nb);
			k->nbuf = nb;
		}
		*hp = h;
		*inwp = inw;
		return pos;
	}
#endif
	end = ascii_end(s, pos, end);
	while (pos < end)
	{
		size_t		nb = k->nbuf,
					nb0 = nb,
					room = TFP_PASSAGE_BATCH - nb,
					cend,
					q;
		uint64_t   *keys = k->keys;

		if (room < 16)
		{
			k->nbuf = nb;
			utok_flush(k);
			continue;
		}
		cend = end - pos < 2 * (room - 1) ? end : pos + 2 * (room - 1);
		/* the split: the first separator at or after the middle */
		for (q = pos + (cend - pos) / 2; q < cend && word_byte[s[q]] != 0; q++)
			;
		if (cend - pos >= 32 && q + 1 < cend)
		{
			const unsigned char *a = s + pos,
					   *b = s + q + 1;
			size_t		la = q + 1 - pos,
						lb = cend - (q + 1),
						n = la < lb ? la : lb,
						nbb = 0;
			uint64_t	hb = TFP_PK_WORD,
						ib = 0;

			for (size_t i = 0; i < n; i++)
			{
				ascii_step(&h, &inw, &nb, keys, a[i]);
				ascii_step(&hb, &ib, &nbb, tmp, b[i]);
			}
			for (size_t i = n; i < la; i++)
				ascii_step(&h, &inw, &nb, keys, a[i]);
			for (size_t i = n; i < lb; i++)
				ascii_step(&hb, &ib, &nbb, tmp, b[i]);
			memcpy(keys + nb, tmp, nbb * sizeof(uint64_t));
			nb += nbb;
			h = hb;
			inw = ib;
		}
		else
			for (size_t i = pos; i < cend; i++)
				ascii_step(&h, &inw, &nb, keys, s[i]);
		word_keys(k, nb0, nb);
		k->nbuf = nb;
		pos = cend;
	}
	*hp = h;
	*inwp = inw;
	return end;
}

/* spans: 0 when only the keys are wanted (a constant: two versions) */
static ALWAYS_INLINE uint64_t
tokenize(const char *s0, size_t len, int reading, utok *k, void (*tick) (void),
		 int spans)
{
	const unsigned char *s = (const unsigned char *) s0;
	const uint64_t *fk;
	size_t		pos = 0,
				next_tick = 65536;

	if (!fast_ready)
		fast_init();
	fk = fast_key[reading ? 1 : 0];
	k->reading = reading;
	k->kind = K_NONE;
	k->nbuf = 0;
	k->total = 0;
	while (pos < len)
	{
		uint32_t	cp;
		size_t		n;

		if (pos >= next_tick)
		{
			next_tick = pos + 65536;
			if (tick)
				tick();
		}
		if (s[pos] < 0x80)
		{
			cp = s[pos];
			if (ascii_cls[cp] == TFP_CC_WORD)
			{
				/*
				 * a run of ASCII, words and separators (ASCII has no other
				 * classes), a byte a step with no branch on where a word
				 * ends: a word is put when a separator follows it, its H
				 * first and its key K = fmix64(H) when the run ends or the
				 * batch is full
				 */
				uint64_t	h;
				size_t		end = len - pos > 65536 ? pos + 65536 : len,
							start,
							nb,
							nb0;
				int			inw = 1;

				if (k->kind == K_WORD)
				{
					h = k->h;
					start = k->start;
				}
				else
				{
					utok_close(k);
					h = TFP_PK_WORD;
					start = pos;
				}
				if (!spans)
				{
					uint64_t	inwm = ~UINT64_C(0);
					size_t		aend = ascii_keys(k, s, pos, end, &h, &inwm);

					k->kind = K_NONE;
					if (inwm)
					{
						/* without spans, start and end are not kept */
						k->kind = K_WORD;
						k->h = h;
						k->start = k->end = (uint32_t) aend;
					}
					pos = aend;
					continue;
				}
				nb = nb0 = k->nbuf;
				for (; pos < end && s[pos] < 0x80; pos++)
				{
					const uint64_t c = word_byte[s[pos]];
					const int	isw = c != 0;
					const uint64_t wm = 0 - (uint64_t) isw;

					k->keys[nb] = h;
					if (spans)
					{
						k->starts[nb] = (uint32_t) start;
						k->ends[nb] = (uint32_t) pos;
						start += (pos - start) & (0 - (size_t) (isw & !inw));
					}
					nb += inw & !isw;
					h = (hstep(h, (uint32_t) c) & wm) | (TFP_PK_WORD & ~wm);
					inw = isw;
					if (nb == TFP_PASSAGE_BATCH)
					{
						word_keys(k, nb0, nb);
						k->nbuf = nb;
						utok_flush(k);
						nb = nb0 = 0;
					}
				}
				word_keys(k, nb0, nb);
				k->nbuf = nb;
				k->kind = K_NONE;
				if (inw)
				{
					k->kind = K_WORD;
					k->h = h;
					k->start = (uint32_t) start;
					k->end = (uint32_t) pos;
				}
				continue;
			}
			if (ascii_cls[cp] != TFP_CC_IGNORE)
				utok_close(k);
			pos++;
			continue;
		}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (pos + 4 <= len && (cp = tfp_utf8_3byte_le(s + pos)) != UINT32_MAX &&
			cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF))
		{
			int			i = fast_index(cp);

			if (i >= 0 && fk[i] != 0)
			{
				/*
				 * a run of fast han characters and separators, the batch
				 * in locals (a store of a key could alias k->nbuf)
				 */
				uint64_t	key = 0;	/* the open unit's, 0: none */
				uint32_t	ocp = 0;
				size_t		start = 0,
							end = len - pos > 65536 ? pos + 65536 : len,
							nb;

				uint64_t	e = fk[i];	/* the entry of the code point at pos */
				uint32_t	c = cp;		/* that code point (cp's address is taken
										 * below: a local stays in a register) */

				utok_close(k);
				nb = k->nbuf;
				for (;;)
				{
					uint32_t	w;

					if (spans)
					{
						if (key != 0)
						{
							k->keys[nb] = key;
							k->lens[nb] = 1;
							k->starts[nb] = (uint32_t) start;
							k->ends[nb] = (uint32_t) (start + 3);
							nb++;
						}
						key = 0;
						if (e != FAST_SEP)
						{
							key = e;
							start = pos;
							ocp = c;
						}
					}
					else
					{
						/* no branch on where separators are: the key is
						 * stored at every step, kept if there is one (the
						 * open unit's place and code point are found after
						 * the run) */
						k->keys[nb] = key;
						k->lens[nb] = 1;
						nb += key != 0;
						key = e != FAST_SEP ? e : 0;
					}
					if (nb == TFP_PASSAGE_BATCH)
					{
						k->nbuf = nb;
						utok_flush(k);
						nb = 0;
					}
					pos += 3;
					/* the next code point, if a fast one: its entry, else stop */
					if (pos + 4 > end)
						break;
					memcpy(&w, s + pos, 4);
					if ((w & 0xC0C0F0) != 0x8080E0)
						break;
					c = ((w & 0x0F) << 12) | ((w >> 2) & 0x0FC0) | ((w >> 16) & 0x3F);
					if ((e = fk[c]) == 0)
						break;
				}
				k->nbuf = nb;
				if (key != 0 && !spans)
				{
					/* the open unit is the last code point read */
					const unsigned char *o = s + pos - 3;

					start = pos - 3;
					ocp = ((uint32_t) (o[0] & 0x0F) << 12) | ((uint32_t) (o[1] & 0x3F) << 6) |
						(o[2] & 0x3F);
				}
				if (key != 0)
				{
					k->kind = K_HANFAST;
					k->key = key;
					k->first = ocp;
					k->start = (uint32_t) start;
					k->end = (uint32_t) (start + 3);
				}
				continue;
			}
			utok_general(k, cp, pos, 3);
			pos += 3;
			continue;
		}
#endif
		n = tfp_utf8_decode(s + pos, len - pos, &cp);
		utok_general(k, cp, pos, n);
		pos += n;
	}
	utok_close(k);
	if (k->nbuf > 0)
		utok_flush(k);
	return k->total;
}

uint64_t
tfp_passage_units(const char *s, size_t len, int reading,
				  tfp_punit_sink sink, void *arg, void (*tick) (void))
{
	utok		k;

	k.sink = sink;
	k.arg = arg;
	k.wn = NULL;
	return tokenize(s, len, reading, &k, tick, 1);
}

/* ------------------------------------------------------------------------
 * Winnowing (steps 3-5), lengths measured as textfp_align measures them
 *
 * Units are kept in linear buffers: a batch of new units after the last
 * OVERLAP of the ones before.  What a batch still needs of earlier units:
 * the k-grams of the window being evaluated (its first unit is at most
 * w + k length units back, so at most w + k units), their units (k more),
 * and for a position not emitted yet its context units (c more on each
 * side): all within w + 2k + 2c + 2 <= 106 units of the newest.
 * ------------------------------------------------------------------------ */

#define OVERLAP		192
#define WBATCH		TFP_PASSAGE_BATCH
#define WBUF		(OVERLAP + 4 * WBATCH)	/* shifted when a batch would not
											 * fit: for texts of up to 1,216
											 * units, never */

struct winnow
{
	int			k,
				w,
				c;
	uint64_t	n;				/* units read */
	uint64_t	base;			/* the unit at [0] of the arrays */

	/*
	 * The prefix sums before unit u: P(u), the length of the units before
	 * u, and S(u), their polynomial (S(u + 1) = S(u) B + K(u)): the k-gram
	 * [i, e) hashes S(e) - S(i) B^(e-i)
	 */
	uint64_t	P[WBUF + 1];
	uint64_t	S[WBUF + 1];
	uint64_t	grams[WBUF];	/* hash of the k-gram starting at unit u */
	uint8_t		glen[WBUF + TFP_PASSAGE_PAD];	/* its length in units (a
												 * kernel reads 4 bytes) */
	uint64_t	bpow[TFP_PASSAGE_MAX_K + 2];	/* B^m */
	uint64_t	kdone;			/* k-grams complete below this start */
	uint64_t	wnext;			/* next window to evaluate */
	uint64_t	minh;			/* rightmost minimum of grams [wnext, kdone) */
	int64_t		minp;			/* its start, -1: none */
	int64_t		last;			/* last position recorded, -1: none */
	int			evaluated;		/* a window was evaluated */
	uint32_t	npend;			/* recorded, not emitted: pend[0..npend) */
	uint64_t	pend[WBUF + WBATCH + TFP_PASSAGE_PAD];	/* (positions wait at most OVERLAP
														 * units) */
	tfp_pseed  *out;			/* a batch, or the caller's array */
	size_t		nout,
				capout;
	uint64_t	total;
	tfp_pseed_sink sink;		/* NULL: out is the caller's array */
	void	   *arg;
};
typedef struct winnow winnow;

static inline uint8_t
ctx_of(uint64_t c, int m)
{
	return (uint8_t) ((c ^ (TFP_PK_CTX + (uint64_t) m)) >> 56);
}

uint8_t
tfp_passage_ctx_byte(const uint64_t *keys, int m)
{
	uint64_t	c = 0;

	for (int j = 0; j < m; j++)
		c = c * TFP_PK_MUL + keys[j];
	return ctx_of(c, m);
}

uint64_t
tfp_passage_gram(const uint64_t *keys, int m, int k)
{
	uint64_t	r = 0;

	for (int j = 0; j < m; j++)
		r = r * TFP_PK_MUL + keys[j];
	return r ^ (TFP_PK_GRAM + (uint64_t) k + ((uint64_t) m << 8));
}

static void
winnow_init(winnow *st, const tfp_passage_opts *o)
{
	/* the buffers are written before they are read: only the state is set */
	st->n = st->base = 0;
	st->P[0] = st->S[0] = 0;
	st->kdone = st->wnext = 0;
	st->evaluated = 0;
	st->npend = 0;
	st->k = o->k;
	st->w = o->w;
	st->c = tfp_passage_ctx(o);
	st->bpow[0] = 1;
	for (int m = 1; m < TFP_PASSAGE_MAX_K + 2; m++)
		st->bpow[m] = st->bpow[m - 1] * TFP_PK_MUL;
	st->minh = UINT64_MAX;
	st->minp = -1;
	st->last = -1;
	st->out = NULL;
	st->nout = st->capout = 0;
	st->total = 0;
	st->sink = NULL;
	st->arg = NULL;
}

/*
 * Emit the recorded positions whose right context is known (all: the text
 * has ended).  The k-gram at p ends at e, the first unit with P(e) - P(p)
 * >= k.  The context units
 * of the seed are, on the left, the units [l, p) with P(p) - P(l) <= c, l
 * as small as that allows (and no earlier than the text's start), and on
 * the right the units [e, r) with P(r) - P(e) <= c, r as large as that and
 * the text allow; as a unit is at least 1 long, l >= p - c and r <= e + c.
 * The right context is known once units of c in length follow e.
 */
static void
emit_ready(winnow *st, int all)
{
	const uint64_t base = st->base,
				n = st->n,
				c = (uint64_t) st->c;
	const uint64_t *P = st->P - base,
			   *S = st->S - base,
			   *grams = st->grams - base,
			   *bpow = st->bpow;
	const uint8_t *glen = st->glen - base;
	const uint64_t *pend = st->pend;
	const uint32_t npend = st->npend;
	const size_t capout = st->sink ? st->capout : SIZE_MAX;
	tfp_pseed  *out = st->out;
	size_t		nout = st->nout;
	uint32_t	i = 0,
				nready = npend;

	/* the ready ones: a prefix, as e does not decrease with p */
	if (!all)
		for (nready = 0; nready < npend; nready++)
		{
			const uint64_t p = pend[nready];

			if (P[n] - P[p + glen[p]] < c)
				break;
		}
	/* (the state in locals: stores to out may not alias it, and the
	 * build does not assume strict aliasing) */
	while (i < nready)
	{
		const uint32_t stop = nready - i < capout - nout ? nready : (uint32_t) (i + capout - nout);

#if TFP_HAVE_X86_KERNELS
		if (stop - i >= 8 && tfp_use_avx512())
		{
			const uint32_t m = (stop - i) & ~UINT32_C(7);

			tfp_passage_emit_x86(P, S, grams, glen, bpow, pend + i, m, base, n, (int) c,
								 out + nout);
			i += m;
			nout += m;
		}
#endif
		for (; i < stop; i++)
		{
			const uint64_t p = pend[i],
						e = p + glen[p],
						l0 = p >= base + c ? p - c : base,
						r0 = e + c <= n ? e + c : n;
			uint64_t	l = l0,
						r = r0;
			tfp_pseed  *o = &out[nout++];

			/*
			 * steps of a fixed count, no branches: at most ceil(c / 2)
			 * needed; as P increases, the tests that hold are a prefix
			 * of them, so each is made on its own (not from the last
			 * step's result), from an index kept within [l0, p] and [e,
			 * r0]
			 */
			for (uint64_t t = 0; t < (c + 1) / 2; t++)
			{
				const uint64_t li = l0 + t < p ? l0 + t : p,
							ri = r0 - t > e ? r0 - t : e;

				l += P[p] - P[li] > c;
				r -= P[ri] - P[e] > c;
			}
			o->hash = grams[p];
			o->unit = (uint32_t) p;
			o->left = ctx_of(S[p] - S[l] * bpow[p - l], (int) (p - l));
			o->right = ctx_of(S[r] - S[e] * bpow[r - e], (int) (r - e));
			o->pad = 0;
		}
		if (nout == capout)
		{
			st->sink(st->arg, out, nout);
			nout = 0;
		}
	}
	st->nout = nout;
	st->total += i;
	if (i > 0)
	{
		memmove(st->pend, st->pend + i, (st->npend - i) * sizeof(uint64_t));
		st->npend -= i;
	}
}

/*
 * Read n <= WBATCH more units of lengths lens.  Unit u brings P(u + 1) and
 * S(u + 1); the batch completes the k-grams j with P(N) - P(j) >= k that
 * were not complete before, each ending at the first e with P(e) - P(j) >=
 * k: its hash is S(e) - S(j) B^(e-j) in one step.  Each k-gram completed
 * (kdone, the first start whose k-gram is not complete, moving past it)
 * makes evaluable the windows i with P(kdone) - P(i) >= w, and for the same
 * reason each such window's k-grams are exactly the starts [i, kdone).  At
 * the text's end kdone is the first unit that starts no k-gram, and the
 * windows short of it are not evaluated.  The rightmost minimum of [wnext,
 * kdone) is kept as (minh, minp): a k-gram joining at or below it becomes
 * it; when it has left the window (minp < wnext), the window is scanned
 * again (about 2 / (w + 1) of the windows).  Three loops over the batch,
 * each with its state in registers; indices relative to base.  With the
 * AVX-512 kernels, the k-grams and then the windows go eight at a time
 * first (each window there on its own: its members, minimum and rightmost
 * position found afresh), and these loops take over where the kernels
 * stop, near the batch's end, the minimum of the window then due scanned
 * again.
 */
static ALWAYS_INLINE void
winnow_units_kw(winnow *st, const uint64_t *in, const uint8_t *lens, size_t n,
				const uint64_t k, const uint64_t w)
{
	uint64_t   *restrict P;
	uint64_t   *restrict S;
	uint64_t   *restrict grams;
	uint8_t    *restrict glen;
	uint64_t	base,
				u0,
				N,
				k0,
				k1;
#if TFP_HAVE_X86_KERNELS
	const int	x86 = tfp_use_avx512();
#endif

	/* room for the batch: keep the last OVERLAP units */
	if (st->n - st->base + n > WBUF)
	{
		uint64_t	shift = st->n - st->base - OVERLAP;

		memmove(st->P, st->P + shift, (OVERLAP + 1) * sizeof(uint64_t));
		memmove(st->S, st->S + shift, (OVERLAP + 1) * sizeof(uint64_t));
		memmove(st->grams, st->grams + shift, OVERLAP * sizeof(uint64_t));
		memmove(st->glen, st->glen + shift, OVERLAP);
		st->base += shift;
	}
	base = st->base;
	P = st->P;
	S = st->S;
	grams = st->grams;
	glen = st->glen;
	u0 = st->n - base;
	N = u0 + n;

	/*
	 * The prefix sums.  S's chain (a multiplication and an addition a unit)
	 * would bound the loop, so it runs as two chains, two units a step:
	 * S(u + 2) = S(u) B^2 + K(u) B + K(u + 1), the same values mod 2^64.
	 */
	if (n > 0)
	{
		const uint64_t B2 = TFP_PK_MUL * TFP_PK_MUL;
		uint64_t	p = P[u0] + lens[0],
					s0 = S[u0],
					s1 = S[u0] * TFP_PK_MUL + in[0],
					km = in[0] * TFP_PK_MUL;

		P[u0 + 1] = p;
		S[u0 + 1] = s1;
		for (size_t i = 1; i < n; i += 2)
		{
			/* S(u0 + i + 1) from S(u0 + i - 1), then S(u0 + i + 2) from S(u0 + i) */
			const uint64_t km1 = in[i] * TFP_PK_MUL;

			s0 = s0 * B2 + km + in[i];
			P[u0 + i + 1] = p += lens[i];
			S[u0 + i + 1] = s0;
			if (i + 1 < n)
			{
				km = in[i + 1] * TFP_PK_MUL;
				s1 = s1 * B2 + km1 + in[i + 1];
				P[u0 + i + 2] = p += lens[i + 1];
				S[u0 + i + 2] = s1;
			}
		}
	}

	/* the k-grams completed: [k0, k1) */
	{
		const uint64_t *bpow = st->bpow,
					gk = TFP_PK_GRAM + k;
		uint64_t	j = st->kdone - base;

		k0 = j;
#if TFP_HAVE_X86_KERNELS
		if (x86)
			j = tfp_passage_grams_x86(P, S, grams, glen, j, N, (int) k, bpow);
#endif
		/*
		 * the k-grams complete now are the starts j with P(N) - P(j) >= k;
		 * each ends at the first e with P(e) - P(j) >= k, which is between
		 * j + ceil(k / 2) (all words) and j + k (all han units) and at most
		 * N: found in floor(k / 2) steps of a fixed count, no branch on
		 * the lengths
		 */
		{
			const uint64_t PN = P[N],
						m0 = (k + 1) / 2,
						steps = k / 2;

			for (; PN - P[j] >= k; j++)
			{
				const uint64_t pj = P[j];
				uint64_t	e = j + m0,
							m;

				for (uint64_t t = 0; t < steps; t++)
					e += P[e] - pj < k;
				m = e - j;
				grams[j] = (S[e] - S[j] * bpow[m]) ^ (gk + (m << 8));
				glen[j] = (uint8_t) m;
			}
		}
		k1 = j;
	}

	/* the windows each of them makes evaluable */
	{
		uint64_t	wnext = st->wnext - base,
					minh = st->minh,
					minp = st->minp < 0 ? UINT64_MAX : (uint64_t) st->minp - base,
					last = st->last < 0 ? UINT64_MAX : (uint64_t) st->last - base;
		uint32_t	npend = st->npend;
		uint64_t	j = k0;

#if TFP_HAVE_X86_KERNELS
		if (x86)
		{
			const uint64_t w0 = wnext;

			wnext = tfp_passage_windows_x86(P, grams, wnext, k1, N, (int) w, base, st->pend,
											&npend, &last);
			if (wnext != w0)
			{
				/*
				 * on from the first j at which the window at wnext is due
				 * (P(j) - P(wnext) < w, as the loop below keeps it), with
				 * the rightmost minimum of the k-grams [wnext, j) so far
				 */
				for (j = wnext; j < k1 && P[j + 1] - P[wnext] < w; j++)
					;
				minh = UINT64_MAX;
				minp = UINT64_MAX;
				for (uint64_t i = wnext; i < j; i++)
				{
					const uint64_t h = grams[i];

					minp = h <= minh ? i : minp;
					minh = h <= minh ? h : minh;
				}
			}
		}
#endif
		for (; j < k1; j++)
		{
			const uint64_t pk = P[j + 1];

			const uint64_t g = grams[j];

			/* conditional moves, not branches: which wins is random */
			minp = g <= minh ? j : minp;
			minh = g <= minh ? g : minh;
			for (; pk - P[wnext] >= w; wnext++)
			{
				if (minp < wnext)
				{
					minh = UINT64_MAX;
					for (uint64_t i = wnext; i <= j; i++)
					{
						const uint64_t h = grams[i];

						minp = h <= minh ? i : minp;
						minh = h <= minh ? h : minh;
					}
				}
				/* recorded if new, without a branch */
				st->pend[npend] = minp + base;
				npend += minp != last;
				last = minp;
			}
		}
		st->evaluated |= wnext + base != st->wnext;
		st->wnext = wnext + base;
		st->minh = minh;
		st->minp = minp == UINT64_MAX ? -1 : (int64_t) (minp + base);
		st->last = last == UINT64_MAX ? -1 : (int64_t) (last + base);
		st->npend = npend;
	}
	st->n = N + base;
	st->kdone = k1 + base;
	if (st->npend > 0)
		emit_ready(st, 0);
}

/* the default k and w as constants (the fixed-count loops on them
 * unrolled), other options as they are */
static void
winnow_units(winnow *st, const uint64_t *in, const uint8_t *lens, size_t n)
{
	if (st->k == TFP_PASSAGE_DEFAULT_K && st->w == TFP_PASSAGE_DEFAULT_W)
		winnow_units_kw(st, in, lens, n, TFP_PASSAGE_DEFAULT_K, TFP_PASSAGE_DEFAULT_W);
	else
		winnow_units_kw(st, in, lens, n, (uint64_t) st->k, (uint64_t) st->w);
}

static void
winnow_finish(winnow *st)
{
	/* a text shorter than w + k with a k-gram: they are one window */
	if (!st->evaluated && st->kdone > 0)
	{
		int64_t		best = -1;
		uint64_t	bh = UINT64_MAX;

		for (uint64_t j = 0; j < st->kdone; j++)
			if (st->grams[j - st->base] <= bh)
			{
				bh = st->grams[j - st->base];
				best = (int64_t) j;
			}
		if (best != st->last)
		{
			st->last = best;
			st->pend[st->npend++] = (uint64_t) best;
		}
	}
	emit_ready(st, 1);
	if (st->sink && st->nout > 0)
	{
		st->sink(st->arg, st->out, st->nout);
		st->nout = 0;
	}
}

uint64_t
tfp_passage_seeds(const char *s, size_t len, const tfp_passage_opts *o,
				  tfp_pseed_sink sink, void *arg, void (*tick) (void),
				  uint64_t *nunits)
{
	winnow	   *st;
	tfp_pseed	batch[TFP_PASSAGE_BATCH];
	utok		k;
	winnow		wst;

	st = &wst;
	winnow_init(st, o);
	st->out = batch;
	st->capout = TFP_PASSAGE_BATCH;
	st->sink = sink;
	st->arg = arg;
	k.sink = NULL;
	k.arg = NULL;
	k.wn = st;
	tokenize(s, len, o->reading, &k, tick, 0);
	winnow_finish(st);
	if (nunits)
		*nunits = st->n;
	return st->total;
}

size_t
tfp_passage_winnow_len(const uint64_t *keys, const uint8_t *lens, size_t n,
					   const tfp_passage_opts *o, tfp_pseed *out)
{
	winnow		st;
	uint8_t		ones[WBATCH];

	winnow_init(&st, o);
	st.out = out;
	st.capout = n;
	if (!lens)
		memset(ones, 1, sizeof(ones));
	for (size_t i = 0; i < n; i += WBATCH)
		winnow_units(&st, keys + i, lens ? lens + i : ones, n - i < WBATCH ? n - i : WBATCH);
	winnow_finish(&st);
	return (size_t) st.total;
}

size_t
tfp_passage_winnow(const uint64_t *keys, size_t n, const tfp_passage_opts *o, tfp_pseed *out)
{
	return tfp_passage_winnow_len(keys, NULL, n, o, out);
}

/* ------------------------------------------------------------------------
 * Comparing seed sets
 * ------------------------------------------------------------------------ */

static int
cmp_seed_hash(const void *x, const void *y)
{
	const tfp_pseed *a = x,
			   *b = y;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return a->unit < b->unit ? -1 : a->unit > b->unit;
}

void
tfp_pseed_sort_hash(tfp_pseed *s, size_t n)
{
	if (n > 1)
		qsort(s, n, sizeof(tfp_pseed), cmp_seed_hash);
}

size_t
tfp_passage_shared(const tfp_pseed *a, size_t na, const tfp_pseed *q, size_t nq)
{
	size_t		shared = 0;

	for (size_t i = 0; i < nq; i++)
	{
		size_t		lo = 0,
					hi = na;

		/* the first seed of a with hash >= q[i].hash */
		while (lo < hi)
		{
			size_t		mid = lo + (hi - lo) / 2;

			if (a[mid].hash < q[i].hash)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < na && a[lo].hash == q[i].hash; lo++)
			if (tfp_pseed_match(&a[lo], &q[i]))
			{
				shared++;
				break;
			}
	}
	return shared;
}
