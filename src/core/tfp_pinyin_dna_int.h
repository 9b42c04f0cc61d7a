/*
 * tfp_pinyin_dna_int.h -- internals of the pinyin DNA shared by its
 * portable code (tfp_pinyin_dna.c) and its AVX-512 kernel
 * (tfp_pinyin_dna_x86.c)
 *
 * Pure C, not part of the core's interface.
 */
#ifndef TFP_PINYIN_DNA_INT_H
#define TFP_PINYIN_DNA_INT_H

#include <stddef.h>
#include <stdint.h>

#include "tfp_cpu.h"
#include "tfp_pinyin.h"

/* the winnowed hashes are of letter KGRAM-grams, 5 bits a letter */
#define TFP_DNA_KGRAM		5
#define TFP_DNA_HASH_MUL	UINT64_C(0x9E3779B97F4A7C15)
/* a 5-gram's hash: (g * TFP_DNA_HASH_MUL) >> TFP_DNA_HASH_SHIFT, 44 bits */
#define TFP_DNA_HASH_SHIFT	20

/* letter byte -> bucket 0..20; TFP_DNA_NONE for i, u, v */
#define TFP_DNA_NONE		TFP_DNA_BUCKETS
extern const unsigned char tfp_dna_slot_of_byte[256];

/*
 * Windows of at most this many letters count in bytes in the AVX-512
 * kernel (a count then never reaches 255, the value every threshold above
 * the window is clamped to).
 */
#define TFP_DNA_SIMD_MAX_WINDOW 254

/*
 * A window's digits as the AVX-512 kernel finds them: bucket b counts in
 * byte 11 + b of a 32-byte vector (bytes 0..10 hold no bucket and get digit
 * 0, the NONE slot counting in byte 0), and its digit is the number of
 * levels j = 1 .. levels-1 whose threshold thr[j-1][11 + b] the count
 * reaches; so the 32 bytes read as a base-levels number, first byte most
 * significant, are the DNA.
 */
#define TFP_DNA_LANE0		11
typedef struct tfp_dna_simd_thr
{
	int			levels;
	uint8_t		thr[TFP_DNA_MAX_LEVELS - 1][32];
} tfp_dna_simd_thr;

#if TFP_HAVE_X86_KERNELS
/*
 * The content-defined windows of l[0..n) (nh = n - 4 hashes, runs of wn,
 * windows of w <= TFP_DNA_SIMD_MAX_WINDOW letters): the DNAs of the distinct
 * anchors a with a + w <= n, in the order of the anchors, as the portable
 * winnow() gives them.  Returns how many.
 */
extern size_t tfp_dna_winnow_avx512(const char *l, size_t n, size_t nh,
									size_t wn, size_t w,
									const tfp_dna_simd_thr *t, int64_t *out);

/*
 * The fixed-offset windows of l[0..n): starts 0, step, 2 step, ... with
 * a + w <= n (w <= TFP_DNA_SIMD_MAX_WINDOW), their DNAs in that order.
 */
extern size_t tfp_dna_fixed_avx512(const char *l, size_t n, size_t step,
								   size_t w, const tfp_dna_simd_thr *t,
								   int64_t *out);

/* sort and deduplicate n <= 64 values below 2^63 in place; the new count */
extern size_t tfp_dna_sort_small_avx512(uint64_t *v, size_t n);
#endif

#endif							/* TFP_PINYIN_DNA_INT_H */
