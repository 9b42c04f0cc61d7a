/*
 * tfp_pinyin_dna_x86.c -- the pinyin DNA windows with AVX-512 (see
 * tfp_cpu.h and tfp_pinyin_dna_int.h)
 *
 * Pure C with x86 intrinsics, compiled with a function target attribute and
 * called only where tfp_cpu_avx512().  The same DNAs as the portable code of
 * tfp_pinyin_dna.c, whose header comment is the definition
 * (test/unit/test_pinyin_paths.c compares the two on random letter strings
 * and options).  The letters are taken in chunks of RUNS winnowing runs:
 *
 * 1. Keys.  The hash of each letter 5-gram, (g * HASH_MUL) >> 20 (44 bits),
 *    shifted left by 19 and joined with 2^19 - 1 - its offset in the chunk:
 *    the smallest key of a run is its smallest hash, and on ties the one
 *    furthest right -- the anchor winnowing picks.
 * 2. Run minima by doubling (a sparse table): after the pass of span S,
 *    key[i] is the minimum of the 2S keys from i on; the minimum of a run of
 *    wn keys from r is then min(key[r], key[r + wn - S]) for the largest
 *    power of two S <= wn, as the two spans cover the run.  The anchors are
 *    the minima's offsets, kept where they change (they never decrease).
 * Fixed-offset windows (content_defined => false) skip steps 1 and 2: their
 * starts are 0, step, 2 step, ...
 *
 * 3. Counts and digits.  Prefix counts of the buckets, in bytes, for every
 *    letter of the chunk (a window's counts are the difference of two,
 *    exact below 256); each count is compared with the level thresholds,
 *    and the digits are combined into the base-levels number by
 *    multiply-adds of neighbouring digits (2, 4, 8 and then 32 digits).
 */
#include <string.h>

#include "tfp_pinyin_dna_int.h"

#if TFP_HAVE_X86_KERNELS

#include <immintrin.h>

#define RUNS		1024		/* runs per chunk */
#define POS_BITS	19
#define POS_MASK	((UINT64_C(1) << POS_BITS) - 1)
/* keys of a chunk: its runs plus the last run's wn - 1 <= 2 * 254 - 2 */
#define KEYS_MAX	(RUNS + 2 * TFP_DNA_SIMD_MAX_WINDOW)
/* prefix counts of a chunk: its keys' letters plus a window */
#define COUNTS_MAX	(KEYS_MAX + TFP_DNA_SIMD_MAX_WINDOW + TFP_DNA_KGRAM)

/* static: large for the stack; no state survives a call */
static uint64_t keys[KEYS_MAX + 16];
static uint32_t anchors[RUNS + 16];
static uint8_t prefix[COUNTS_MAX + 1][32] __attribute__((aligned(32)));

/* the count vector of one letter (letter & 31): 1 in its bucket's byte */
static uint8_t one_letter[32][32] __attribute__((aligned(32)));
static int	one_letter_ready = 0;

static void
init_one_letter(void)
{
	for (int c = 0; c < 32; c++)
	{
		int			slot = tfp_dna_slot_of_byte[0x60 | c];

		memset(one_letter[c], 0, 32);
		one_letter[c][slot == TFP_DNA_NONE ? 0 : TFP_DNA_LANE0 + slot] = 1;
	}
	one_letter_ready = 1;
}

/* keys of the 5-grams starting at l[0 .. nk) */
TFP_TARGET_AVX512 static void
chunk_keys(const char *l, size_t nk, size_t n_after)
{
	const __m512i c31 = _mm512_set1_epi64(31),
				mul = _mm512_set1_epi64((long long) TFP_DNA_HASH_MUL),
				eight = _mm512_set1_epi64(8);
	__m512i		pos = _mm512_sub_epi64(_mm512_set1_epi64((long long) POS_MASK),
									   _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
	size_t		i = 0;

	/* whole vectors while their 8-byte letter loads stay inside l[0 .. n_after) */
	for (; i + TFP_DNA_KGRAM - 1 + 8 <= n_after && i + 8 <= nk; i += 8)
	{
		__m512i		g = _mm512_setzero_si512();

		for (int k = 0; k < TFP_DNA_KGRAM; k++)
			g = _mm512_or_si512(_mm512_slli_epi64(g, 5),
								_mm512_and_si512(_mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *) (l + i + k))), c31));
		g = _mm512_srli_epi64(_mm512_mullo_epi64(g, mul), TFP_DNA_HASH_SHIFT);
		_mm512_storeu_si512(keys + i, _mm512_or_si512(_mm512_slli_epi64(g, POS_BITS), pos));
		pos = _mm512_sub_epi64(pos, eight);
	}
	for (; i < nk; i++)
	{
		uint64_t	g = 0;

		for (int k = 0; k < TFP_DNA_KGRAM; k++)
			g = (g << 5) | (uint64_t) (l[i + k] & 31);
		keys[i] = (((g * TFP_DNA_HASH_MUL) >> TFP_DNA_HASH_SHIFT) << POS_BITS) | (POS_MASK - i);
	}
}

/*
 * Anchors (offsets in the chunk) of its rc runs of wn keys, where they
 * change; prev is the last anchor before the chunk, as an offset in it
 * (UINT64_MAX if none there).  Returns how many.
 */
TFP_TARGET_AVX512 static size_t
chunk_anchors(size_t nk, size_t rc, size_t wn, uint64_t prev)
{
	size_t		s = 1,
				na = 0;
	const __m512i pm = _mm512_set1_epi64((long long) POS_MASK);
	__m512i		before = _mm512_set1_epi64((long long) prev);

	while (2 * s <= wn)
	{
		/* keys past nk - s take junk from the slack; no run reads them */
		for (size_t i = 0; i + s < nk; i += 8)
			_mm512_storeu_si512(keys + i, _mm512_min_epu64(_mm512_loadu_si512(keys + i),
														   _mm512_loadu_si512(keys + i + s)));
		s *= 2;
	}
	for (size_t r = 0; r < rc; r += 8)
	{
		__m512i		m = _mm512_min_epu64(_mm512_loadu_si512(keys + r),
										 _mm512_loadu_si512(keys + r + wn - s));
		__m512i		a = _mm512_sub_epi64(pm, _mm512_and_si512(m, pm));
		__mmask8	valid = rc - r >= 8 ? 0xFF : (__mmask8) ((1u << (rc - r)) - 1);
		__mmask8	changed = _mm512_mask_cmpneq_epu64_mask(valid, a, _mm512_alignr_epi64(a, before, 7));

		_mm256_storeu_si256((__m256i *) (anchors + na),
							_mm256_maskz_compress_epi32(changed, _mm512_cvtepi64_epi32(a)));
		na += (size_t) _mm_popcnt_u32(changed);
		before = a;
	}
	return na;
}

/* the DNAs of windows [a, a + w) for the na anchors, offsets from l */
TFP_TARGET_AVX512 static void
chunk_dnas(const char *l, size_t nl, size_t na, size_t w,
		   const tfp_dna_simd_thr *t, int64_t *out)
{
	const int	lv = t->levels;
	const uint64_t l8 = (uint64_t) lv * lv * lv * lv * lv * lv * lv * lv;
	const __m256i m1 = _mm256_set1_epi16((short) (lv | 1 << 8)),	/* bytes lv, 1 */
				m2 = _mm256_set1_epi32(lv * lv | 1 << 16),	/* words lv^2, 1 */
				m4 = _mm256_set1_epi64x((long long) lv * lv * lv * lv);
	__m256i		thr[TFP_DNA_MAX_LEVELS - 1],
				acc = _mm256_setzero_si256();

	if (!one_letter_ready)
		init_one_letter();
	for (int j = 0; j < lv - 1; j++)
		thr[j] = _mm256_loadu_si256((const __m256i *) t->thr[j]);
	_mm256_store_si256((__m256i *) prefix[0], acc);
	for (size_t i = 0; i < nl; i++)
	{
		acc = _mm256_add_epi8(acc, _mm256_load_si256((const __m256i *) one_letter[l[i] & 31]));
		_mm256_store_si256((__m256i *) prefix[i + 1], acc);
	}
	for (size_t k = 0; k < na; k++)
	{
		__m256i		c = _mm256_sub_epi8(_mm256_load_si256((const __m256i *) prefix[anchors[k] + w]),
										_mm256_load_si256((const __m256i *) prefix[anchors[k]]));
		__m256i		d = _mm256_setzero_si256(),
					x;
		uint64_t	q[4];

		/* digit = number of thresholds reached (count >= thr: max(c, thr) == c) */
		for (int j = 0; j < lv - 1; j++)
			d = _mm256_sub_epi8(d, _mm256_cmpeq_epi8(_mm256_max_epu8(c, thr[j]), c));
		/* 32 digits -> 16 of two (d0 lv + d1 <= 63) -> 8 of four (< 2^12) */
		x = _mm256_madd_epi16(_mm256_maddubs_epi16(d, m1), m2);
		/* -> 4 of eight: even * lv^4 + odd (< 2^24) */
		x = _mm256_add_epi64(_mm256_mul_epu32(x, m4), _mm256_srli_epi64(x, 32));
		_mm256_storeu_si256((__m256i *) q, x);
		/* q[0] holds digits 0..7, all 0 (bytes 0..10 are no bucket) */
		out[k] = (int64_t) ((q[1] * l8 + q[2]) * l8 + q[3]);
	}
}

TFP_TARGET_AVX512 size_t
tfp_dna_winnow_avx512(const char *l, size_t n, size_t nh, size_t wn, size_t w,
					  const tfp_dna_simd_thr *t, int64_t *out)
{
	size_t		nruns,
				nout = 0,
				last = SIZE_MAX;	/* the last anchor kept */

	if (nh < wn)
		wn = nh;				/* one run of all the hashes */
	nruns = nh - wn + 1;
	for (size_t r0 = 0; r0 < nruns; r0 += RUNS)
	{
		size_t		rc = nruns - r0 < RUNS ? nruns - r0 : RUNS,
					nk = rc + wn - 1,
					na,
					nl;

		if ((r0 / RUNS & 63) == 63 && tfp_pinyin_tick)
			tfp_pinyin_tick();
		chunk_keys(l + r0, nk, n - r0);
		na = chunk_anchors(nk, rc, wn, last != SIZE_MAX && last >= r0 ? last - r0 : UINT64_MAX);
		if (na == 0)
			continue;
		last = r0 + anchors[na - 1];
		/* only whole windows: anchors never decrease, so the rest fail too */
		while (na > 0 && r0 + anchors[na - 1] + w > n)
			na--;
		if (na == 0)
			break;
		nl = anchors[na - 1] + w;
		chunk_dnas(l + r0, nl, na, w, t, out + nout);
		nout += na;
	}
	return nout;
}

TFP_TARGET_AVX512 size_t
tfp_dna_fixed_avx512(const char *l, size_t n, size_t step, size_t w,
					 const tfp_dna_simd_thr *t, int64_t *out)
{
	/* windows per chunk: their letters must fit the prefix counts */
	size_t		per = (COUNTS_MAX - w) / step + 1,
				nout = 0;

	if (per > RUNS)
		per = RUNS;
	for (size_t a0 = 0; a0 + w <= n; a0 += per * step)
	{
		size_t		na = 0;

		if ((a0 / (per * step) & 63) == 63 && tfp_pinyin_tick)
			tfp_pinyin_tick();
		for (size_t a = a0; a + w <= n && na < per; a += step)
			anchors[na++] = (uint32_t) (a - a0);
		chunk_dnas(l + a0, anchors[na - 1] + w, na, w, t, out + nout);
		nout += na;
	}
	return nout;
}

TFP_TARGET_AVX512 size_t
tfp_dna_sort_small_avx512(uint64_t *v, size_t n)
{
	/*
	 * Rank of each value = how many are smaller; equal values share a rank
	 * (and a slot), and the slots taken, in order, are the sorted set.
	 */
	__m512i		z[8];
	uint64_t	slot[64] __attribute__((aligned(64)));
	uint64_t	taken = 0;
	int			nz = (int) ((n + 7) / 8);
	size_t		o = 0;

	for (int j = 0; j < nz; j++)
		z[j] = _mm512_mask_loadu_epi64(_mm512_set1_epi64(-1),
									   n - 8 * (size_t) j >= 8 ? 0xFF : (__mmask8) ((1u << (n - 8 * j)) - 1),
									   v + 8 * j);
	for (size_t i = 0; i < n; i++)
	{
		__m512i		x = _mm512_set1_epi64((long long) v[i]);
		unsigned	r = 0;

		for (int j = 0; j < nz; j++)
			r += (unsigned) _mm_popcnt_u32(_mm512_cmplt_epu64_mask(z[j], x));
		slot[r] = v[i];
		taken |= UINT64_C(1) << r;
	}
	for (int j = 0; j < 8; j++)
	{
		__mmask8	m = (__mmask8) (taken >> (8 * j));

		unsigned	c = (unsigned) _mm_popcnt_u32(m);

		_mm512_mask_storeu_epi64(v + o, (__mmask8) ((1u << c) - 1),
								 _mm512_maskz_compress_epi64(m, _mm512_load_si512(slot + 8 * j)));
		o += c;
	}
	return o;
}

#endif							/* TFP_HAVE_X86_KERNELS */
