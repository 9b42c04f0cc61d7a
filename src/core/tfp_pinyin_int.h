/*
 * tfp_pinyin_int.h -- internals of the pinyin conversion shared by its
 * portable code (tfp_pinyin.c) and its AVX-512 kernel (tfp_pinyin_x86.c)
 *
 * Pure C, not part of the core's interface.
 */
#ifndef TFP_PINYIN_INT_H
#define TFP_PINYIN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "tfp_cpu.h"

/*
 * tfp_py_info[cp] for a BMP code point: 0 if it has no reading, else the
 * first letter of its reading (1 = 'a' .. 26 = 'z'; for a character with a
 * one-character entry in the phrase table, that entry's) | INFO_START if its
 * traditional->simplified fold starts a phrase | INFO_CONT if its fold
 * appears after the first character of a phrase.  Built by tfp_py_init().
 */
#define INFO_LETTER 0x1F
#define INFO_SINGLE	0x20		/* a one-character entry overrides it */
#define INFO_CONT	0x40
#define INFO_START	0x80
extern uint8_t tfp_py_info[0x10000];

/* builds the tables on first use (about a millisecond); tfp_py_ready then 1 */
extern int	tfp_py_ready;
extern void tfp_py_init(void);

/* reading of a code point, NULL if it has none */
extern const char *tfp_py_reading_slow(uint32_t cp);

/*
 * The code point of the UTF-8 sequence at *pp (advanced past it); a byte
 * that does not start a valid, shortest-form sequence gives U+FFFD and
 * advances by one byte (or up to the first byte that breaks the sequence).
 */
static inline uint32_t
tfp_py_utf8_next(const uint8_t **pp, const uint8_t *end)
{
	const uint8_t *p = *pp;
	uint32_t	c = *p++;
	int			n;
	uint32_t	min;

	if (c < 0x80)
	{
		*pp = p;
		return c;
	}
	if (c >= 0xC2 && c <= 0xDF)
		n = 1, c &= 0x1F, min = 0x80;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 2, c &= 0x0F, min = 0x800;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 3, c &= 0x07, min = 0x10000;
	else
	{
		*pp = p;
		return 0xFFFD;
	}
	if (end - p < n)
	{
		*pp = end;
		return 0xFFFD;
	}
	for (int i = 0; i < n; i++)
	{
		if ((p[i] & 0xC0) != 0x80)
		{
			*pp = p + i;
			return 0xFFFD;
		}
		c = (c << 6) | (p[i] & 0x3F);
	}
	*pp = p + n;
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0xFFFD;
	return c;
}

/*
 * Phrases decided after the letters are written.  A phrase of two or more
 * characters can start only at a character with INFO_START followed at once
 * by a 3-byte character with INFO_CONT: the letter pass records each such
 * position (a candidate) with the index of its letter, and then, in text
 * order, tfp_py_try_phrase() matches the longest phrase there, exactly as
 * the greedy conversion of tfp_pinyin_letters() does (it skips candidates
 * inside the last phrase matched, which the greedy scan never visits), and
 * overwrites the phrase's letters (one per character, as every character of
 * a phrase has a reading).  Returns the new end of the text covered by
 * phrases: covered if nothing matched, else the end of the phrase.
 */
extern const uint8_t *tfp_py_try_phrase(const uint8_t *p, const uint8_t *end,
										char *out, size_t k,
										const uint8_t *covered);

#if TFP_HAVE_X86_KERNELS
/* tfp_pinyin_letters() with AVX-512 (tfp_pinyin_x86.c); the same letters */
extern size_t tfp_pinyin_letters_avx512(const char *s, size_t len, char *out);
#endif

#endif							/* TFP_PINYIN_INT_H */
