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
		unsigned char c = s[pos];

		if (c < 0x80)
		{
			/* ASCII: letters and digits are TFP_CC_WORD, the rest
			 * TFP_CC_SEP, and only A-Z fold (test_boiler.c checks) */
			if ((unsigned) (c - 'a') < 26u)
				acc_put(a, c);
			else if ((unsigned) (c - 'A') < 26u)
				acc_put(a, c + ('a' - 'A'));
			else if ((unsigned) (c - '0') < 10u)
				acc_put(a, '0');
			else if ((c == '\n' || c == '\r') && breaks)
				break;
			pos++;
		}
		else
		{
			uint32_t	cp;

			pos += tfp_utf8_decode(s + pos, len - pos, &cp);
			put_normal(a, cp);
		}
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
