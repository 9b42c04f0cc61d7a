/*
 * tfp_passage_x86.c -- steps 3 and 4 of the passage fingerprint (the k-gram
 * hashes, and each window's rightmost minimum) with AVX-512, eight k-grams
 * or windows at a time (see tfp_passage_int.h, tfp_cpu.h)
 *
 * Pure C with x86 intrinsics, compiled with a function target attribute and
 * called only where tfp_cpu_avx512().  The portable loops of tfp_passage.c
 * are the definition; these give the same hashes, lengths and seeds, bit
 * for bit (test/unit/test_passage.c runs both against its brute-force
 * reference).
 *
 * Both turn the portable code's searches into fixed sets of tests, each on
 * its own, at fixed offsets (so eight lanes read consecutive memory): as P
 * increases by 1 or 2 a unit, the first e after j with P(e) - P(j) >= L is
 * j + ceil(L / 2) plus the number of tests P(j + ceil(L / 2) + t) - P(j) <
 * L, t < floor(L / 2), that hold (they hold for a prefix of t).
 */
#include "tfp_passage.h"
#include "tfp_passage_int.h"

#if TFP_HAVE_X86_KERNELS

#include <immintrin.h>

/*
 * The k-gram at j ends at e = j + m, m = ceil(k / 2) plus the tests that
 * hold (above); its hash is (S(e) - S(j) B^m) ^ (TFP_PK_GRAM + k + m 256).
 * S(e) and B^m are taken from the candidates of each test as it holds.
 */
TFP_TARGET_AVX512 uint64_t
tfp_passage_grams_x86(const uint64_t *P, const uint64_t *S, uint64_t *grams, uint8_t *glen,
					  uint64_t j, uint64_t N, int k, const uint64_t *bpow)
{
	const uint64_t m0 = (uint64_t) (k + 1) / 2,
				steps = (uint64_t) k / 2;
	const __m512i vk = _mm512_set1_epi64(k),
				one = _mm512_set1_epi64(1),
				gk = _mm512_set1_epi64((long long) (TFP_PK_GRAM + (uint64_t) k));

	for (; j + 7 + (uint64_t) k <= N; j += 8)
	{
		const __m512i pj = _mm512_loadu_si512(P + j);
		__m512i		se = _mm512_loadu_si512(S + j + m0),
					bp = _mm512_set1_epi64((long long) bpow[m0]),
					m = _mm512_set1_epi64((long long) m0),
					g;

		for (uint64_t t = 0; t < steps; t++)
		{
			const __m512i pt = _mm512_loadu_si512(P + j + m0 + t);
			const __mmask8 lt = _mm512_cmplt_epu64_mask(_mm512_sub_epi64(pt, pj), vk);

			se = _mm512_mask_loadu_epi64(se, lt, S + j + m0 + t + 1);
			bp = _mm512_mask_mov_epi64(bp, lt, _mm512_set1_epi64((long long) bpow[m0 + t + 1]));
			m = _mm512_mask_add_epi64(m, lt, m, one);
		}
		g = _mm512_sub_epi64(se, _mm512_mullo_epi64(_mm512_loadu_si512(S + j), bp));
		g = _mm512_xor_si512(g, _mm512_add_epi64(gk, _mm512_slli_epi64(m, 8)));
		_mm512_storeu_si512(grams + j, g);
		_mm512_mask_cvtepi64_storeu_epi8(glen + j, 0xFF, m);
	}

	return j;
}

/*
 * The window at i holds the k-grams [i, e - 1], e the first unit after i
 * with P(e) - P(i) >= w (above); it is evaluated if e <= k1, and as e does
 * not decrease with i, the evaluated lanes of a group are a prefix of it.
 * Its rightmost minimum: the minimum v of its hashes, then the last member
 * whose hash is v.  Positions do not decrease from window to window, so a
 * position is new where it differs from the lane before (the first lane:
 * from *last).
 */
static inline __attribute__((always_inline)) TFP_TARGET_AVX512 uint64_t
windows(const uint64_t *P, const uint64_t *grams, uint64_t wnext, uint64_t k1, uint64_t N,
		const int w, uint64_t base, uint64_t *pend, uint32_t *npend, uint64_t *last)
{
	const uint64_t m0 = (uint64_t) (w + 1) / 2,
				steps = (uint64_t) w / 2;
	const __m512i vw = _mm512_set1_epi64(w),
				one = _mm512_set1_epi64(1),
				lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0),
				vk1 = _mm512_set1_epi64((long long) k1),
				vbase = _mm512_set1_epi64((long long) base);
	uint64_t	lst = *last;
	uint32_t	np = *npend;
	__m512i		before = _mm512_set1_epi64((long long) lst);
	int			nev = 0;

	/* (the tests read P up to wnext + 7 + w - 1) */
	while (wnext + 7 + (uint64_t) w <= N + 1)
	{
		const __m512i pi = _mm512_loadu_si512(P + wnext),
					iv = _mm512_add_epi64(_mm512_set1_epi64((long long) wnext), lane);
		__m512i		len = _mm512_set1_epi64((long long) m0),
					v = _mm512_set1_epi64(-1),
					pos = _mm512_setzero_si512(),	/* the offset in the window */
					prev;
		__mmask8	ev,
					fresh;

		for (uint64_t t = 0; t < steps; t++)
		{
			const __m512i pt = _mm512_loadu_si512(P + wnext + m0 + t);
			const __mmask8 lt = _mm512_cmplt_epu64_mask(_mm512_sub_epi64(pt, pi), vw);

			len = _mm512_mask_add_epi64(len, lt, len, one);
		}
		ev = _mm512_cmple_epu64_mask(_mm512_add_epi64(iv, len), vk1);
		if (ev == 0)
			break;
		/*
		 * the minimum of the members' hashes, then the last member with
		 * it (w is a constant in the default case: the loops unrolled,
		 * each member read once)
		 */
#pragma GCC unroll 16
		for (int o = 0; o < w; o++)
		{
			/* a window holds at least m0 k-grams */
			const __mmask8 in = o < (int) m0 ? ev :
				ev & _mm512_cmpgt_epu64_mask(len, _mm512_set1_epi64(o));

			v = _mm512_mask_min_epu64(v, in, v, _mm512_maskz_loadu_epi64(in, grams + wnext + o));
		}
#pragma GCC unroll 16
		for (int o = 0; o < w; o++)
		{
			const __mmask8 in = o < (int) m0 ? ev :
				ev & _mm512_cmpgt_epu64_mask(len, _mm512_set1_epi64(o));
			const __m512i g = _mm512_maskz_loadu_epi64(in, grams + wnext + o);

			pos = _mm512_mask_mov_epi64(pos, _mm512_mask_cmpeq_epu64_mask(in, g, v),
										_mm512_set1_epi64(o));
		}
		pos = _mm512_add_epi64(pos, iv);
		/*
		 * prev[l] = pos[l - 1], prev[0] = the last position recorded: the
		 * last lane of the group before (all its lanes were evaluated), so
		 * no group waits for the one before
		 */
		prev = _mm512_alignr_epi64(pos, before, 7);
		fresh = ev & _mm512_cmpneq_epu64_mask(pos, prev);
		/* compressed in a register and stored whole (pend has room for
		 * TFP_PASSAGE_PAD more): a compressing store is slow */
		_mm512_storeu_si512(pend + np, _mm512_maskz_compress_epi64(fresh, _mm512_add_epi64(pos, vbase)));
		np += (uint32_t) __builtin_popcount(fresh);
		nev = __builtin_popcount(ev);
		wnext += (uint64_t) nev;
		before = pos;
		if (ev != 0xFF)
			break;
	}
	if (nev > 0)
		lst = (uint64_t) _mm_cvtsi128_si64(_mm512_castsi512_si128(
			_mm512_permutexvar_epi64(_mm512_set1_epi64(nev - 1), before)));
	*last = lst;
	*npend = np;
	return wnext;
}

TFP_TARGET_AVX512 uint64_t
tfp_passage_windows_x86(const uint64_t *P, const uint64_t *grams, uint64_t wnext, uint64_t k1,
						uint64_t N, int w, uint64_t base, uint64_t *pend, uint32_t *npend,
						uint64_t *last)
{
	if (w == TFP_PASSAGE_DEFAULT_W)
		return windows(P, grams, wnext, k1, N, TFP_PASSAGE_DEFAULT_W, base, pend, npend, last);
	return windows(P, grams, wnext, k1, N, w, base, pend, npend, last);
}

/*
 * The seeds' context bytes, eight seeds at a time, with gathers: the
 * portable code's fixed steps (as P increases the tests that hold are a
 * prefix, so each is made on its own), then the two polynomials; B^m for
 * m <= c <= 4 from a vector.  Each seed is stored as its two halves (hash;
 * unit, left, right, pad), interleaved.
 */
TFP_TARGET_AVX512 void
tfp_passage_emit_x86(const uint64_t *P, const uint64_t *S, const uint64_t *grams,
					 const uint8_t *glen, const uint64_t *bpow, const uint64_t *pend, uint32_t n,
					 uint64_t base, uint64_t n_units, int c, tfp_pseed *out)
{
	const __m512i vc = _mm512_set1_epi64(c),
				vbase = _mm512_set1_epi64((long long) base),
				vbc = _mm512_set1_epi64((long long) (base + (uint64_t) c)),
				vn = _mm512_set1_epi64((long long) n_units),
				vctx = _mm512_set1_epi64((long long) TFP_PK_CTX),
				bp = _mm512_maskz_loadu_epi64(0x1F, bpow),
				lo = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0),
				hi = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);

	for (uint32_t i = 0; i < n; i += 8)
	{
		const __m512i p = _mm512_loadu_si512(pend + i),
					gl = _mm512_and_si512(_mm512_cvtepu32_epi64(
						_mm512_i64gather_epi32(p, (const void *) glen, 1)), _mm512_set1_epi64(0xFF)),
					e = _mm512_add_epi64(p, gl),
					pp = _mm512_i64gather_epi64(p, (const void *) P, 8),
					pe = _mm512_i64gather_epi64(e, (const void *) P, 8),
					l0 = _mm512_mask_blend_epi64(_mm512_cmpge_epu64_mask(p, vbc), vbase,
												 _mm512_sub_epi64(p, vc)),
					r0 = _mm512_min_epu64(_mm512_add_epi64(e, vc), vn);
		__m512i		l = l0,
					r = r0,
					ml,
					mr,
					left,
					right,
					meta,
					h;

		for (int t = 0; t < (c + 1) / 2; t++)
		{
			const __m512i vt = _mm512_set1_epi64(t),
						li = _mm512_min_epu64(_mm512_add_epi64(l0, vt), p),
						ri = _mm512_max_epu64(_mm512_sub_epi64(r0, vt), e);
			const __mmask8 gl_ = _mm512_cmpgt_epu64_mask(
				_mm512_sub_epi64(pp, _mm512_i64gather_epi64(li, (const void *) P, 8)), vc),
						gr = _mm512_cmpgt_epu64_mask(
				_mm512_sub_epi64(_mm512_i64gather_epi64(ri, (const void *) P, 8), pe), vc);

			l = _mm512_mask_add_epi64(l, gl_, l, _mm512_set1_epi64(1));
			r = _mm512_mask_sub_epi64(r, gr, r, _mm512_set1_epi64(1));
		}
		ml = _mm512_sub_epi64(p, l);
		mr = _mm512_sub_epi64(r, e);
		left = _mm512_sub_epi64(_mm512_i64gather_epi64(p, (const void *) S, 8),
								_mm512_mullo_epi64(_mm512_i64gather_epi64(l, (const void *) S, 8),
												   _mm512_permutexvar_epi64(ml, bp)));
		right = _mm512_sub_epi64(_mm512_i64gather_epi64(r, (const void *) S, 8),
								 _mm512_mullo_epi64(_mm512_i64gather_epi64(e, (const void *) S, 8),
													_mm512_permutexvar_epi64(mr, bp)));
		left = _mm512_srli_epi64(_mm512_xor_si512(left, _mm512_add_epi64(vctx, ml)), 56);
		right = _mm512_srli_epi64(_mm512_xor_si512(right, _mm512_add_epi64(vctx, mr)), 56);
		meta = _mm512_or_si512(_mm512_and_si512(p, _mm512_set1_epi64(0xFFFFFFFF)),
							   _mm512_or_si512(_mm512_slli_epi64(left, 32),
											   _mm512_slli_epi64(right, 40)));
		h = _mm512_i64gather_epi64(p, (const void *) grams, 8);
		_mm512_storeu_si512(out + i, _mm512_permutex2var_epi64(h, lo, meta));
		_mm512_storeu_si512(out + i + 4, _mm512_permutex2var_epi64(h, hi, meta));
	}
}

/*
 * ASCII words.  A word of bytes c_0 .. c_{n-1} (folded) whose H was H0
 * before it has H = H0 M^n + sum_i c_i M^(n-i), step 2's fold written out
 * (mod 2^64).  M is odd, so it has an inverse R mod 2^64: with Q(x) =
 * sum_{t<x} c_t R^t over the bytes t of a block (c_t = 0 at separators),
 * the bytes [a, e) of a word in the block have sum_{i=a}^{e-1} c_i M^(e-i)
 * = M^e (Q(e) - Q(a)).  Q comes from products and prefix sums, eight bytes
 * a vector, and each word's H from two multiplications: no chain from byte
 * to byte, as there is in ascii_keys.  A word's last byte is a word byte
 * followed by a separator in the block; a word open at the block's end is
 * carried, as H, into the next block (or back to the caller).
 */
static uint64_t mpow[65];		/* M^n */
static uint64_t rpow[64];		/* R^t */
static int	pow_ready = 0;

static void
pow_init(void)
{
	uint64_t	r = TFP_PK_MUL;

	/* Newton's iteration for the inverse: from 3 correct bits (M M = 1
	 * mod 8 for odd M), twice as many each time */
	for (int i = 0; i < 6; i++)
		r *= 2 - TFP_PK_MUL * r;
	mpow[0] = rpow[0] = 1;
	for (int n = 1; n <= 64; n++)
		mpow[n] = mpow[n - 1] * TFP_PK_MUL;
	for (int t = 1; t < 64; t++)
		rpow[t] = rpow[t - 1] * r;
	pow_ready = 1;
}

TFP_TARGET_AVX512 size_t
tfp_passage_ascii_x86(const unsigned char *s, size_t pos, size_t end, uint64_t *hp,
					  uint64_t *inwp, uint64_t *keys, size_t *nbp, const uint8_t *wordmap)
{
	const __m512i map = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *) wordmap)),
				hibit = _mm512_broadcast_i32x4(_mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128,
															 0, 0, 0, 0, 0, 0, 0, 0)),
				nib = _mm512_set1_epi8(0x0F),
				zero = _mm512_setzero_si512(),
				iota = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50,
									   49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36,
									   35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22,
									   21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8,
									   7, 6, 5, 4, 3, 2, 1, 0);
	uint64_t	h = *hp,
				open = *inwp & 1;
	size_t		nb = *nbp;
	uint64_t	Q[65];
	uint8_t		cb[64],
				st[64],
				en[64];

	if (!pow_ready)
		pow_init();
	Q[0] = 0;
	while (pos < end && nb + 32 <= TFP_PASSAGE_BATCH)
	{
		/* the block: up to 64 bytes, to end or the first byte not ASCII */
		const size_t rest = end - pos;
		const uint64_t in = rest >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << rest) - 1;
		const __m512i v = _mm512_maskz_loadu_epi8(in, s + pos);
		const uint64_t high = (uint64_t) _mm512_movepi8_mask(v) & in;
		const int	len = high ? __builtin_ctzll(high) : rest >= 64 ? 64 : (int) rest;
		const uint64_t lm = len == 64 ? ~UINT64_C(0) : (UINT64_C(1) << len) - 1;
		const __m512i lo = _mm512_and_si512(v, nib),
					hi = _mm512_and_si512(_mm512_srli_epi16(v, 4), nib);
		const uint64_t wm = lm & (uint64_t) _mm512_test_epi8_mask(_mm512_shuffle_epi8(map, lo),
																  _mm512_shuffle_epi8(hibit, hi));
		const __mmask64 up = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('A')),
													_mm512_set1_epi8(26));
		__m512i		carry = zero,
					qv[8],
					tot[8];
		uint64_t	starts,
					ends;
		int			ns,
					ne;

		if (len == 0)
			break;

		/* the word bytes folded (A-Z to a-z, as word_byte[]), 0 elsewhere */
		_mm512_storeu_si512(cb, _mm512_maskz_mov_epi8(wm, _mm512_mask_add_epi8(v, up, v,
																			   _mm512_set1_epi8(32))));
		/* the prefix sums within each vector, then the vectors' totals
		 * before it added (only additions chained) */
#pragma GCC unroll 8
		for (int g = 0; g < 8; g++)
		{
			__m512i		x = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *) (cb + 8 * g)));

			x = _mm512_mullo_epi64(x, _mm512_loadu_si512(rpow + 8 * g));
			x = _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 7));
			x = _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 6));
			x = _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 4));
			qv[g] = x;
			tot[g] = _mm512_permutexvar_epi64(_mm512_set1_epi64(7), x);
		}
#pragma GCC unroll 8
		for (int g = 0; g < 8; g++)
		{
			_mm512_storeu_si512(Q + 1 + 8 * g, _mm512_add_epi64(qv[g], carry));
			carry = _mm512_add_epi64(carry, tot[g]);
		}
		/* a word open before the block that ends at its first byte */
		if (open && !(wm & 1))
		{
			keys[nb++] = h;
			open = 0;
		}
		starts = wm & ~((wm << 1) | open);
		ends = wm & ~(wm >> 1) & ~(UINT64_C(1) << (len - 1));
		ns = __builtin_popcountll(starts);
		ne = __builtin_popcountll(ends);
		_mm512_storeu_si512(st, _mm512_maskz_compress_epi8(starts, iota));
		_mm512_storeu_si512(en, _mm512_maskz_compress_epi8(ends, iota));
		/* the words in order: the open one (if any) first, then those of
		 * the starts; the i-th ends at the i-th end */
		for (int i = 0; i < ne; i++)
		{
			const int	cont = open && i == 0;
			const uint64_t a = cont ? 0 : st[i - (int) open],
						e = (uint64_t) en[i] + 1;

			keys[nb++] = (cont ? h : TFP_PK_WORD) * mpow[e - a] + mpow[e] * (Q[e] - Q[a]);
		}
		if ((wm >> (len - 1)) & 1)
		{
			/* the last word stays open */
			const int	cont = open && ne == 0;
			const uint64_t a = cont ? 0 : st[ns - 1];

			h = (cont ? h : TFP_PK_WORD) * mpow[len - a] + mpow[len] * (Q[len] - Q[a]);
			open = 1;
		}
		else
		{
			h = TFP_PK_WORD;
			open = 0;
		}
		pos += (size_t) len;
		if (len < 64)
			break;
	}
	*hp = h;
	*inwp = open ? ~UINT64_C(0) : 0;
	*nbp = nb;
	return pos;
}

#endif							/* TFP_HAVE_X86_KERNELS */
