/*
 * tfp_pinyin_x86.c -- tfp_pinyin_letters() with AVX-512 (see tfp_cpu.h)
 *
 * Pure C with x86 intrinsics, compiled with a function target attribute and
 * called only where tfp_cpu_avx512().  It gives the letters of the portable
 * code in tfp_pinyin.c, byte for byte (test/unit/test_pinyin_paths.c
 * compares them on random and malformed text and on the whole Chinese pool).
 *
 * The text is read in blocks of 64 bytes at fixed offsets.  Masks of each
 * block tell which bytes lead a well-formed 3-byte sequence ("good" leads:
 * E0..EF followed by two continuation bytes, which may lie in the next
 * block).  A block whose non-ASCII bytes all belong to good sequences (or
 * continue the last sequence of the block before) is "clean": its characters
 * are ASCII, which give no letter, and BMP characters, whose letters and
 * phrase flags come from tfp_py_info, looked up one by one (a gather is
 * slower on the CPUs measured) and packed into a vector, from which the
 * letters are compressed and stored at once.  Any other block (2- or 4-byte
 * sequences, malformed bytes) goes through the portable per-character code,
 * from the character boundary where the block's first character starts.
 *
 * Phrases of the polyphone table are decided afterwards (tfp_pinyin_int.h):
 * the blocks record the candidates (a character with INFO_START followed at
 * once by one with INFO_CONT), at most two per block without a branch, and
 * tfp_py_try_phrase() runs over them in text order.  The text is processed
 * in segments of SEG_BYTES: the candidates of a segment are tried once the
 * letters of the next one are written, so a phrase that crosses into it
 * overwrites final letters (a phrase takes at most 12 bytes).
 */
#include <string.h>

#include "tfp_pinyin.h"
#include "tfp_pinyin_int.h"

#if TFP_HAVE_X86_KERNELS

#include <immintrin.h>

#define SEG_BYTES	1024
/* candidates of one segment: at most one per byte, plus a block's slack */
#define SEG_CANDS	(SEG_BYTES + 64)

typedef struct cand_buf
{
	uint32_t	pos[SEG_CANDS + 8];		/* byte offset of the phrase start */
	uint32_t	letter[SEG_CANDS + 8];	/* index of its letter */
	size_t		n;
} cand_buf;

/* the character before the current position, if a phrase may start there */
typedef struct letters_state
{
	uint32_t	start;			/* 1: it has INFO_START */
	uint32_t	pos;			/* its byte offset */
	uint32_t	letter;			/* index of its letter */
	uint32_t	end;			/* byte offset just after it */
} letters_state;

/*
 * Characters from p (a character boundary) while before stop, by the
 * portable per-character rules; returns where it stopped (the last character
 * may end past stop).
 */
static const uint8_t *
letters_run(const uint8_t *s, const uint8_t *p, const uint8_t *stop,
			const uint8_t *end, char *out, size_t *np, letters_state *st,
			cand_buf *cb)
{
	size_t		n = *np;

	while (p < stop)
	{
		uint32_t	pos = (uint32_t) (p - s),
					cp;
		unsigned	info;

		if (*p < 0x80)
		{
			p++;
			continue;
		}
		cp = tfp_py_utf8_next(&p, end);
		if (cp >= 0x10000)
		{
			/* supplementary planes: no phrase starts or goes on there */
			const char *r = tfp_py_reading_slow(cp);

			if (r != NULL)
				out[n++] = r[0];
			continue;
		}
		info = tfp_py_info[cp];
		cb->pos[cb->n] = st->pos;
		cb->letter[cb->n] = st->letter;
		cb->n += st->start & (info >> 6) & (pos == st->end);
		st->start = (info >> 7) & 1;
		st->pos = pos;
		st->letter = (uint32_t) n;
		st->end = (uint32_t) (p - s);
		out[n] = (char) ('a' - 1 + (info & INFO_LETTER));
		n += (info != 0);
	}
	*np = n;
	return p;
}

/* info of the good lead at the lowest set bit of m; bit 8 t of acc */
#define LOOKUP(acc, t) \
	do { \
		uint32_t	w_; \
		memcpy(&w_, q + _tzcnt_u64(m), 4); \
		acc |= (uint64_t) tfp_py_info[_pext_u32(__builtin_bswap32(w_), 0x0F3F3F00)] << (8 * (t)); \
		m &= m - 1; \
	} while (0)
#define LOOKUP8(acc) \
	do { \
		LOOKUP(acc, 0); LOOKUP(acc, 1); LOOKUP(acc, 2); LOOKUP(acc, 3); \
		LOOKUP(acc, 4); LOOKUP(acc, 5); LOOKUP(acc, 6); LOOKUP(acc, 7); \
	} while (0)

/*
 * A clean block at p (its bytes read from q: p itself, or a zero-padded copy
 * of the text's end): letters, candidates, state.  good is non-zero.
 */
TFP_TARGET_AVX512 static inline void
letters_block(const uint8_t *s, const uint8_t *p, const uint8_t *q,
			  uint64_t good, char *out, size_t *np, letters_state *st,
			  cand_buf *cb)
{
	size_t		n = *np;
	uint32_t	base = (uint32_t) (p - s);
	unsigned	k = (unsigned) _mm_popcnt_u64(good);
	unsigned	first = (unsigned) _tzcnt_u64(good),
				last = 63 - (unsigned) _lzcnt_u64(good);
	uint64_t	m = good,
				a0 = 0,
				a1 = 0,
				a2 = 0;
	uint32_t	kmask = (uint32_t) ((UINT64_C(1) << k) - 1),
				startm,
				contm,
				letm,
				adjacent,
				cm,
				b1,
				b2,
				rest;
	__m256i		info;

	/*
	 * The code point of a sequence read big-endian (bytes b0 b1 b2 x) is
	 * pext with 0x0F3F3F00; a block holds at most 22 leads.  Lookups past
	 * the last lead (m = 0) read 4 bytes at q + 64, inside the text or the
	 * padded copy, and land in lanes the masks below clear.
	 */
	LOOKUP8(a0);
	if (k > 8)
		LOOKUP8(a1);
	if (k > 16)
		LOOKUP8(a2);
	info = _mm256_set_epi64x(0, (long long) a2, (long long) a1, (long long) a0);
	startm = (uint32_t) _mm256_movemask_epi8(info) & kmask;
	contm = (uint32_t) _mm256_movemask_epi8(_mm256_slli_epi16(info, 1)) & kmask;
	letm = (uint32_t) _mm256_test_epi8_mask(info, _mm256_set1_epi8(INFO_LETTER)) & kmask;
	_mm256_mask_storeu_epi8(out + n, (__mmask32) ((UINT64_C(1) << _mm_popcnt_u32(letm)) - 1),
							_mm256_maskz_compress_epi8(letm,
													   _mm256_add_epi8(_mm256_and_si256(info, _mm256_set1_epi8(INFO_LETTER)),
																	   _mm256_set1_epi8('a' - 1))));

	/* a candidate where the block's first character follows the one before */
	cb->pos[cb->n] = st->pos;
	cb->letter[cb->n] = st->letter;
	cb->n += st->start & contm & (base + first == st->end);
	/* inside the block: character j + 1 right after j, which starts a phrase */
	adjacent = (uint32_t) _pext_u64(good & (good << 3), good);
	cm = startm & (contm >> 1) & (adjacent >> 1);
	/* the first two without a branch, further ones (rare) with one */
	b1 = cm & (0u - cm);
	rest = cm & (cm - 1);
	b2 = rest & (0u - rest);
	cb->pos[cb->n] = base + (uint32_t) _tzcnt_u64(_pdep_u64(b1, good));
	cb->letter[cb->n] = (uint32_t) n + (uint32_t) _mm_popcnt_u32(letm & (b1 - 1));
	cb->pos[cb->n + 1] = base + (uint32_t) _tzcnt_u64(_pdep_u64(b2, good));
	cb->letter[cb->n + 1] = (uint32_t) n + (uint32_t) _mm_popcnt_u32(letm & (b2 - 1));
	cb->n += (b1 != 0) + (b2 != 0);
	rest &= rest - 1;
	while (__builtin_expect(rest != 0, 0))
	{
		uint32_t	b = rest & (0u - rest);

		rest &= rest - 1;
		cb->pos[cb->n] = base + (uint32_t) _tzcnt_u64(_pdep_u64(b, good));
		cb->letter[cb->n++] = (uint32_t) n + (uint32_t) _mm_popcnt_u32(letm & (b - 1));
	}
	/* the block's last character, for the next block */
	st->start = (startm >> (k - 1)) & 1;
	st->pos = base + last;
	st->letter = (uint32_t) n + (uint32_t) _mm_popcnt_u32(letm & ((UINT32_C(1) << (k - 1)) - 1));
	st->end = base + last + 3;
	*np = n + (size_t) _mm_popcnt_u32(letm);
}

static void
try_phrases(const uint8_t *s, const uint8_t *end, char *out, const cand_buf *cb,
			const uint8_t **covered)
{
	for (size_t i = 0; i < cb->n; i++)
		*covered = tfp_py_try_phrase(s + cb->pos[i], end, out, cb->letter[i], *covered);
}

TFP_TARGET_AVX512 size_t
tfp_pinyin_letters_avx512(const char *str, size_t len, char *out)
{
	/* static: large for the stack; no state survives a call */
	static cand_buf cbs[2];
	const uint8_t *s = (const uint8_t *) str,
			   *p = s,
			   *end = s + len,
			   *covered = s;
	size_t		n = 0;
	unsigned	carry = 0,		/* bytes at p that continue a character
								 * already done */
				cur = 0;
	letters_state st = {0, 0, 0, UINT32_MAX};
	const __m512i xF0 = _mm512_set1_epi8((char) 0xF0),
				xE0 = _mm512_set1_epi8((char) 0xE0),
				xC0 = _mm512_set1_epi8((char) 0xC0),
				x80 = _mm512_set1_epi8((char) 0x80);
	uint8_t		tail[64 + 72];

	cbs[0].n = cbs[1].n = 0;
	while (p < end)
	{
		const uint8_t *seg_end = end - p > SEG_BYTES ? p + SEG_BYTES : end;
		cand_buf   *cb = &cbs[cur];

		cb->n = 0;
		while (p < seg_end)
		{
			const uint8_t *q = p;
			__m512i		v,
						v1,
						v2;
			uint64_t	nonascii,
						cin = (UINT64_C(1) << carry) - 1,
						good;

			/* 72: the loads below and the lookups past the last lead */
			if (end - p < 72)
			{
				memset(tail, 0, sizeof(tail));
				memcpy(tail, p, (size_t) (end - p));
				q = tail;
			}
			v = _mm512_loadu_si512(q);
			nonascii = _mm512_movepi8_mask(v) & ~cin;
			if (nonascii == 0)
			{
				p += 64;
				carry = 0;
				continue;
			}
			v1 = _mm512_loadu_si512(q + 1);
			v2 = _mm512_loadu_si512(q + 2);
			good = _mm512_cmpeq_epi8_mask(_mm512_and_si512(v, xF0), xE0) &
				_mm512_cmpeq_epi8_mask(_mm512_and_si512(v1, xC0), x80) &
				_mm512_cmpeq_epi8_mask(_mm512_and_si512(v2, xC0), x80) & ~cin;
			if ((nonascii & ~(good | good << 1 | good << 2)) != 0)
			{
				/*
				 * Not clean.  A good lead in the copy of the text's end has
				 * its continuation bytes in the text (the padding is zero),
				 * so every clean block is read right.
				 */
				const uint8_t *r = letters_run(s, p + carry, end - p > 64 ? p + 64 : end,
											   end, out, &n, &st, cb);

				carry = r > p + 64 ? (unsigned) (r - (p + 64)) : 0;
				p += 64;
				continue;
			}
			letters_block(s, p, q, good, out, &n, &st, cb);
			carry = (unsigned) ((good >> 62) & 1) | (unsigned) ((good >> 63) << 1);
			p += 64;
		}
		/* the candidates of the segment before, now that these letters are written */
		try_phrases(s, end, out, &cbs[cur ^ 1], &covered);
		cur ^= 1;
	}
	try_phrases(s, end, out, &cbs[cur ^ 1], &covered);
	return n;
}

#endif							/* TFP_HAVE_X86_KERNELS */
