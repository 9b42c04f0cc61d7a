/*
 * tfp_passage.c -- the passage fingerprint (definition, guarantee and its
 * proof in tfp_passage.h): units and their keys, k-gram hashes, winnowing
 * with context bytes, streamed in batches with O(1) memory.  Pure C.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_passage.h"
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
 * table of its classes (A-Z folded); and the code points of the CJK blocks
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
#define FAST_N		(FAST_HI - FAST_LO)
#define FAST_SEP	UINT64_C(1) /* the entry of a code point that folds to
								 * separators only */

static const unsigned FOLD_ALL = TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN;

/* [reading][cp - FAST_LO (or its place after the first block)]: the key of
 * the unit of cp alone if cp folds to one han code point, FAST_SEP if it
 * folds to separators only, 0 if it takes the general path;
 * ascii_cls[c]: the class of ASCII c */
static uint64_t fast_key[2][FAST_N];
static uint8_t ascii_cls[128];
static uint8_t word_byte[256];	/* an ASCII word character folded, else 0 */
static int	fast_ready = 0;

static inline int
fast_index(uint32_t cp)
{
	return cp - FAST_LO < (uint32_t) FAST_N ? (int) (cp - FAST_LO) : -1;
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
#else
#define ALWAYS_INLINE inline
#endif

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
				/* a run of ASCII word characters: folds to itself but for A-Z */
				uint64_t	h;
				size_t		end = len - pos > 65536 ? pos + 65536 : len;

				if (k->kind == K_WORD)
					h = k->h;
				else
				{
					utok_close(k);
					k->kind = K_WORD;
					k->start = (uint32_t) pos;
					h = TFP_PK_WORD;
				}
				h = hstep(h, word_byte[cp]);
				pos++;
				while (pos < end && (cp = word_byte[s[pos]]) != 0)
				{
					h = hstep(h, cp);
					pos++;
				}
				if (pos < end && s[pos] < 0x80 && ascii_cls[s[pos]] == TFP_CC_SEP)
				{
					/* an ASCII separator ends the word: put it, skip the
					 * separators after it */
					put_unit(k, tfp_fmix64(h), k->start, (uint32_t) pos, 0, spans);
					k->kind = K_NONE;
					pos++;
					while (pos < end && s[pos] < 0x80 && ascii_cls[s[pos]] == TFP_CC_SEP)
						pos++;
					continue;
				}
				k->h = h;
				k->end = (uint32_t) pos;
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
				/* a run of fast han characters and separators */
				uint64_t	key = 0;	/* the open unit's, 0: none */
				uint32_t	ocp = 0;
				size_t		start = 0,
							end = len - pos > 65536 ? pos + 65536 : len;

				utok_close(k);
				do
				{
					uint64_t	e = fk[i];

					if (key != 0)
						put_unit(k, key, (uint32_t) start, (uint32_t) (start + 3), 1, spans);
					key = 0;
					if (e != FAST_SEP)
					{
						key = e;
						start = pos;
						ocp = cp;
					}
					pos += 3;
					if (pos + 4 > end)
						break;
					cp = tfp_utf8_3byte_le(s + pos);
					if (cp == UINT32_MAX)
						break;
					i = fast_index(cp);
				} while (i >= 0 && fk[i] != 0);
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
	uint64_t	base;			/* unit of keys[0] */
	uint64_t	keys[WBUF];
	uint8_t		lens[WBUF];		/* 1 (han) or 2 (word) */
	uint64_t	pos[WBUF + 1];	/* P: length of the units before unit u */
	uint64_t	pre[WBUF + 1];	/* S: polynomial of the units before unit u:
								 * the k-gram [i, e) is S(e) - S(i) B^(e-i) */
	uint64_t	bpow[TFP_PASSAGE_MAX_K + 2];	/* B^m */
	uint64_t	grams[WBUF];	/* hash of the k-gram starting at unit u */
	uint64_t	gend[WBUF];		/* its end (a unit) */
	uint64_t	kdone;			/* k-grams complete below this start */
	uint64_t	wnext;			/* next window to evaluate */
	uint64_t	wend;			/* its k-grams: starts [wnext, wend) */
	uint64_t	minh;			/* their rightmost minimum */
	int64_t		minp;			/* its start, -1: none */
	int64_t		last;			/* last position recorded, -1: none */
	int			evaluated;		/* a window was evaluated */
	uint32_t	npend;			/* recorded, not emitted: pend[0..npend) */
	uint64_t	pend[WBUF + WBATCH];	/* (positions wait at most OVERLAP units) */
	tfp_pseed  *out;			/* a batch, or the caller's array */
	size_t		nout,
				capout;
	uint64_t	total;
	tfp_pseed_sink sink;		/* NULL: out is the caller's array */
	void	   *arg;
};
typedef struct winnow winnow;

#define KEYS(u)		(st->keys[(u) - st->base])
#define LENS(u)		(st->lens[(u) - st->base])
#define POS(u)		(st->pos[(u) - st->base])
#define GRAM(u)		(st->grams[(u) - st->base])
#define GEND(u)		(st->gend[(u) - st->base])

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
	st->pos[0] = 0;
	st->pre[0] = 0;
	st->kdone = st->wnext = st->wend = 0;
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
 * has ended): the context units of a seed at p with k-gram end e are, on
 * the left, the units [l, p) with P(p) - P(l) <= c, l as small as that
 * allows (and no earlier than the text's start), and on the right the units
 * [e, r) with P(r) - P(e) <= c, r as large as that and the text allow.  The
 * right context is known once units of c in length follow e.
 */
static void
emit_ready(winnow *st, int all)
{
	const uint64_t base = st->base,
				n = st->n,
				c = (uint64_t) st->c;
	const uint64_t *keys = st->keys - base,
			   *pos = st->pos - base,
			   *grams = st->grams - base,
			   *gend = st->gend - base;
	tfp_pseed  *out = st->out;
	size_t		nout = st->nout;
	uint32_t	i = 0;

	for (; i < st->npend; i++)
	{
		uint64_t	p = st->pend[i],
					e = gend[p],
					l = p,
					r = e,
					cl = 0,
					cr = 0;
		tfp_pseed  *o;

		if (!all && pos[n] - pos[e] < c)
			break;
		while (l > base && pos[p] - pos[l - 1] <= c)
			l--;
		while (r < n && pos[r + 1] - pos[e] <= c)
			r++;
		for (uint64_t j = l; j < p; j++)
			cl = cl * TFP_PK_MUL + keys[j];
		for (uint64_t j = e; j < r; j++)
			cr = cr * TFP_PK_MUL + keys[j];
		o = &out[nout++];
		o->hash = grams[p];
		o->unit = (uint32_t) p;
		o->left = ctx_of(cl, (int) (p - l));
		o->right = ctx_of(cr, (int) (r - e));
		o->pad = 0;
		if (st->sink && nout == st->capout)
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

static inline void
record(winnow *st, int64_t p)
{
	if (p != st->last)
	{
		st->last = p;
		st->pend[st->npend++] = (uint64_t) p;
	}
}

/*
 * Read n <= WBATCH more units (lens NULL: all of length 1), in phases over
 * the buffers: the units and their prefix sums (P, and the prefix
 * polynomial S); the k-grams they complete (k-gram j ends at the first e
 * with P(e) - P(j) >= k: two pointers, a hash in one step from S); the
 * windows whose k-grams are then all known: window i (its k-grams start at
 * units j >= i with P(j) - P(i) < w) once the first unit whose k-gram is
 * not complete yet (kdone) is at least w after i; at the text's end kdone
 * is the first unit that starts no k-gram, and the windows short of it are
 * not evaluated.  The window's rightmost minimum is kept as (minh, minp): a
 * k-gram joining at or below it becomes it; when it leaves (i passes it),
 * the window is scanned again (about 2 / (w + 1) of the steps).
 */
static void
winnow_units(winnow *st, const uint64_t *in, const uint8_t *lens, size_t n)
{
	const uint64_t k = (uint64_t) st->k,
				w = (uint64_t) st->w,
				gseed = TFP_PK_GRAM + (uint64_t) st->k;
	uint64_t	u0,
				N,
				base;
	uint64_t   *keys,
			   *pos,
			   *pre,
			   *grams,
			   *gend;
	uint8_t    *ulens;

	/* room for the batch: keep the last OVERLAP units */
	if (st->n - st->base + n > WBUF)
	{
		uint64_t	shift = st->n - st->base - OVERLAP;

		memmove(st->keys, st->keys + shift, OVERLAP * sizeof(uint64_t));
		memmove(st->lens, st->lens + shift, OVERLAP);
		memmove(st->pos, st->pos + shift, (OVERLAP + 1) * sizeof(uint64_t));
		memmove(st->pre, st->pre + shift, (OVERLAP + 1) * sizeof(uint64_t));
		memmove(st->grams, st->grams + shift, OVERLAP * sizeof(uint64_t));
		memmove(st->gend, st->gend + shift, OVERLAP * sizeof(uint64_t));
		st->base += shift;
	}
	base = st->base;
	keys = st->keys - base;
	pos = st->pos - base;
	pre = st->pre - base;
	grams = st->grams - base;
	gend = st->gend - base;
	ulens = st->lens - base;
	u0 = st->n;
	N = u0 + n;

	/* the units and their prefix sums */
	{
		uint64_t	P = pos[u0],
					S = pre[u0];

		memcpy(keys + u0, in, n * sizeof(uint64_t));
		if (lens)
			memcpy(ulens + u0, lens, n);
		else
			memset(ulens + u0, 1, n);
		for (uint64_t u = u0; u < N; u++)
		{
			P += ulens[u];
			S = S * TFP_PK_MUL + keys[u];
			pos[u + 1] = P;
			pre[u + 1] = S;
		}
		st->n = N;
	}

	/* the k-grams now complete */
	{
		const uint64_t PN = pos[N];
		const uint64_t *bpow = st->bpow;
		uint64_t	j = st->kdone,
					e = j + 1;

		for (; j < N && PN - pos[j] >= k; j++)
		{
			if (e <= j)
				e = j + 1;
			while (pos[e] - pos[j] < k)
				e++;
			grams[j] = (pre[e] - pre[j] * bpow[e - j]) ^ (gseed + ((e - j) << 8));
			gend[j] = e;
		}
		st->kdone = j;
	}

	/* the windows now complete */
	{
		const uint64_t pk = pos[st->kdone],
					kdone = st->kdone;
		uint64_t	wnext = st->wnext,
					wend = st->wend,
					minh = st->minh;
		int64_t		minp = st->minp,
					last = st->last;
		uint32_t	npend = st->npend;

		for (; wnext < kdone && pk - pos[wnext] >= w; wnext++)
		{
			if (minp >= 0 && (uint64_t) minp < wnext)
			{
				minp = -1;
				minh = UINT64_MAX;
				for (uint64_t j = wnext; j < wend; j++)
					if (grams[j] <= minh)
					{
						minh = grams[j];
						minp = (int64_t) j;
					}
			}
			if (wend < wnext)
				wend = wnext;
			for (; wend < kdone && pos[wend] - pos[wnext] < w; wend++)
				if (grams[wend] <= minh)
				{
					minh = grams[wend];
					minp = (int64_t) wend;
				}
			if (minp != last)
			{
				last = minp;
				st->pend[npend++] = (uint64_t) minp;
			}
			st->evaluated = 1;
		}
		st->wnext = wnext;
		st->wend = wend;
		st->minh = minh;
		st->minp = minp;
		st->last = last;
		st->npend = npend;
	}
	if (st->npend > 0)
		emit_ready(st, 0);
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
			if (GRAM(j) <= bh)
			{
				bh = GRAM(j);
				best = (int64_t) j;
			}
		record(st, best);
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

	winnow_init(&st, o);
	st.out = out;
	st.capout = n;
	for (size_t i = 0; i < n; i += WBATCH)
		winnow_units(&st, keys + i, lens ? lens + i : NULL, n - i < WBATCH ? n - i : WBATCH);
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
