/*
 * tfp_boiler.c -- line hashes and stripping of boilerplate lines
 * (definition in tfp_boiler.h)
 *
 * One pass over the bytes: each line's normal form is hashed as it is read,
 * from a small buffer of code points (one-shot XXH3 for the usual short
 * line, XXH3's streaming state once a line's normal form outgrows the
 * buffer: both give the same hash of the same bytes).  ASCII takes a fast
 * path whose result test_boiler.c checks against the general one.
 */
#include <string.h>

#include "tfp_core.h"
#include "tfp_boiler.h"
#include "tfp_hashes.h"
#include "tfp_unicode_inline.h"

#define ACC_BUF 256

typedef struct line_acc
{
	size_t		n;				/* code points in buf */
	int			streaming;		/* st holds the earlier ones */
	uint32_t	buf[ACC_BUF];
	XXH3_state_t st;
} line_acc;

static void
acc_flush(line_acc *a)
{
	if (!a->streaming)
	{
		/* a state must be zeroed before a seeded reset (xxhash.h) */
		memset(&a->st, 0, sizeof(a->st));
		XXH3_64bits_reset_withSeed(&a->st, TFP_BOILER_SEED);
		a->streaming = 1;
	}
	tfp_xxh3_update_le(&a->st, a->buf, a->n, 4);
	a->n = 0;
}

static inline void
acc_put(line_acc *a, uint32_t cp)
{
	if (a->n == ACC_BUF)
		acc_flush(a);
	a->buf[a->n++] = cp;
}

/* 1 and *hash, or 0 for an empty normal form */
static int
acc_finish(line_acc *a, uint64_t *hash)
{
	if (a->streaming)
	{
		if (a->n > 0)
			tfp_xxh3_update_le(&a->st, a->buf, a->n, 4);
		*hash = XXH3_64bits_digest(&a->st);
		return 1;
	}
	if (a->n == 0)
		return 0;
	*hash = tfp_xxh3_le(a->buf, a->n, 4, TFP_BOILER_SEED);
	return 1;
}

#define FOLDS (TFP_FOLD_WIDTH | TFP_FOLD_CASE | TFP_FOLD_HAN)

/*
 * The code point at s (len > 0 bytes, s[0] >= 0x80) and its length: a
 * well-formed 3-byte sequence (all of CJK's BMP) read inline, the rest by
 * tfp_utf8_decode (U+FFFD for an invalid byte).
 */
static inline size_t
utf8_next(const unsigned char *s, size_t len, uint32_t *cp)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (len >= 4)
	{
		uint32_t	v = tfp_utf8_3byte_le(s);

		if (v != UINT32_MAX && v >= 0x800 && (v < 0xD800 || v > 0xDFFF))
		{
			*cp = v;
			return 3;
		}
	}
#endif
	return tfp_utf8_decode(s, len, cp);
}

/* the normal form of one decoded code point, into a */
static inline void
put_normal(line_acc *a, uint32_t cp)
{
	uint32_t	f[TFP_FOLD_MAX];
	int			k = tfp_cp_fold_inline(cp, FOLDS, f);

	for (int i = 0; i < k; i++)
	{
		int			cc = tfp_cp_class_inline(f[i]);

		if (cc != TFP_CC_WORD && cc != TFP_CC_HAN)
			continue;
		acc_put(a, f[i] - '1' < 9u ? (uint32_t) '0' : f[i]);
	}
}

/*
 * The normal form of each ASCII character: itself for a-z, lower case for
 * A-Z, '0' for a digit (letters and digits are TFP_CC_WORD, and only A-Z
 * fold: test_boiler.c checks), 1 for CR and LF, 0 for the rest (TFP_CC_SEP:
 * dropped).  A table, not tests: which case a character of a text falls in
 * is unpredictable, and branches on it cost more than the rest of the scan.
 */
static const uint8_t ascii_normal[128] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 0, 0, 0, 0, 0, 0,
	0, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
	112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 0, 0, 0, 0, 0,
	0, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
	112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 0, 0, 0, 0, 0,
};

/*
 * Hash the line starting at s[pos] up to its break (if breaks) or the end;
 * returns where the line's content ends (a CR, an LF or len).  *ticked is
 * the position of the last tick.
 */
static size_t
scan_line(const unsigned char *s, size_t pos, size_t len, int breaks,
		  line_acc *a, void (*tick) (void), size_t *ticked)
{
	a->n = 0;
	a->streaming = 0;
	while (pos < len)
	{
		/* up to the next tick: ASCII in a loop of its own, n in a register */
		size_t		stop = len - pos > TFP_BOILER_TICK ? pos + TFP_BOILER_TICK : len;
		size_t		n = a->n;

		while (pos < stop)
		{
			unsigned char c = s[pos];

			if (c < 0x80)
			{
				uint32_t	m = ascii_normal[c];

				if (m == 1 && breaks)
				{
					a->n = n;
					return pos;
				}
				if (n == ACC_BUF)
				{
					a->n = n;
					acc_flush(a);
					n = 0;
				}
				/* written always, counted if kept (m > 1) */
				a->buf[n] = m;
				n += (m > 1);
				pos++;
			}
			else
			{
				uint32_t	cp;

				pos += utf8_next(s + pos, len - pos, &cp);
				a->n = n;
				put_normal(a, cp);
				n = a->n;
			}
		}
		a->n = n;
		if (tick && pos - *ticked >= TFP_BOILER_TICK)
		{
			tick();
			*ticked = pos;
		}
	}
	return pos;
}

/* the end of the break at s[end] (end < len: a CR or an LF) */
static inline size_t
break_end(const unsigned char *s, size_t end, size_t len)
{
	if (s[end] == '\r' && end + 1 < len && s[end + 1] == '\n')
		return end + 2;
	return end + 1;
}

int
tfp_boiler_line_hash(const char *s, size_t len, uint64_t *hash, void (*tick) (void))
{
	line_acc	a;
	size_t		ticked = 0;

	/* a CR or LF inside is a separator like any other */
	scan_line((const unsigned char *) s, 0, len, 0, &a, tick, &ticked);
	return acc_finish(&a, hash);
}

void
tfp_boiler_lines(const char *s, size_t len, tfp_boiler_line_fn fn, void *arg,
				 void (*tick) (void))
{
	const unsigned char *u = (const unsigned char *) s;
	line_acc	a;
	size_t		ticked = 0,
				pos = 0;

	while (pos < len)
	{
		size_t		end = scan_line(u, pos, len, 1, &a, tick, &ticked),
					next = end < len ? break_end(u, end, len) : end;
		uint64_t	h = 0;
		int			has = acc_finish(&a, &h);

		fn(arg, pos, end, next, has, h);
		pos = next;
	}
}

typedef struct strip_state
{
	const char *s;
	const tfp_termset *set;
	char	   *out;
	size_t		nout;
	size_t		removed;
} strip_state;

static void
strip_line(void *arg, size_t start, size_t end, size_t next, int has_hash,
		   uint64_t hash)
{
	strip_state *st = (strip_state *) arg;

	(void) end;
	if (has_hash && tfp_termset_contains(st->set, hash))
	{
		st->removed++;
		return;
	}
	memcpy(st->out + st->nout, st->s + start, next - start);
	st->nout += next - start;
}

size_t
tfp_boiler_strip(const char *s, size_t len, const tfp_termset *set, char *out,
				 size_t *removed, void (*tick) (void))
{
	strip_state st = {s, set, out, 0, 0};

	tfp_boiler_lines(s, len, strip_line, &st, tick);
	if (removed)
		*removed = st.removed;
	return st.nout;
}
