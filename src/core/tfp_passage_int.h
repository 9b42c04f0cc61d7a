/*
 * tfp_passage_int.h -- the winnowing stages of the passage fingerprint
 * shared by the portable code (tfp_passage.c) and its AVX-512 kernels
 * (tfp_passage_x86.c).  Not part of the core's API.
 *
 * Both kernels read the arrays of tfp_passage.c's winnow state, indexed
 * relative to its base: P and S, the prefix sums of lengths and of the
 * keys' polynomial (P(u), S(u) for u in [0, N]), and grams and glen, the
 * k-gram hashes and lengths in units.  They give exactly what the portable
 * loops give (test/unit/test_passage.c compares the two paths against a
 * brute-force reference); the portable code is the definition.
 */
#ifndef TFP_PASSAGE_INT_H
#define TFP_PASSAGE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "tfp_cpu.h"

/* room the kernels may read past N, masked (vector width) */
#define TFP_PASSAGE_PAD		8

#if TFP_HAVE_X86_KERNELS
/*
 * The k-grams starting at j, j + 8, ... while j + 7 + k <= N (so every
 * unit the test of a k-gram's end reads is at most N): grams[j] and
 * glen[j] as tfp_passage.c's step 3 computes them.  bpow: B^m for m in [0,
 * k].  Returns the first start not done (the portable loop does the rest).
 */
TFP_TARGET_AVX512 extern uint64_t tfp_passage_grams_x86(const uint64_t *P, const uint64_t *S,
													   uint64_t *grams, uint8_t *glen,
													   uint64_t j, uint64_t N, int k,
													   const uint64_t *bpow);

/*
 * The windows at wnext, wnext + 1, ... in groups of 8 while the group's
 * reads are at most N and all its windows are evaluated (their last k-gram
 * is below k1): each window's rightmost minimum is recorded into pend
 * (base added) unless it is *last (relative, UINT64_MAX: none), which then
 * becomes it.  Returns the first window not evaluated.
 */
TFP_TARGET_AVX512 extern uint64_t tfp_passage_windows_x86(const uint64_t *P, const uint64_t *grams,
														 uint64_t wnext, uint64_t k1, uint64_t N,
														 int w, uint64_t base, uint64_t *pend,
														 uint32_t *npend, uint64_t *last);

/*
 * Step 5 for the seeds at pend[0..n), n a multiple of 8, whose right
 * context is known: out[i] as tfp_passage.c's emit_ready() makes it, the
 * context length c <= TFP_PASSAGE_MAX_CTX.  P, S, grams and glen are
 * indexed by the unit (base subtracted already), the text has n_units
 * units so far, base is the first in the arrays.
 */
TFP_TARGET_AVX512 extern void tfp_passage_emit_x86(const uint64_t *P, const uint64_t *S,
												  const uint64_t *grams, const uint8_t *glen,
												  const uint64_t *bpow, const uint64_t *pend,
												  uint32_t n, uint64_t base, uint64_t n_units,
												  int c, tfp_pseed *out);

/*
 * Step 2 for a run of ASCII bytes, keys only (tfp_passage.c's ascii_keys):
 * the blocks of up to 64 bytes at pos, pos + 64, ... up to the first byte
 * that is not ASCII or end, while the batch keys[0..TFP_PASSAGE_BATCH) has
 * room for the 32 words a block can end.  Each word ended is put at keys[*nb] as its H (the
 * caller mixes H into K); *h and *inw are the open word's H (TFP_PK_WORD if
 * none) and all ones while one is open, as in ascii_keys.  wordmap[lo]:
 * bit hi set if the byte 16 hi + lo is a word character.  Returns the
 * first byte not read.
 */
TFP_TARGET_AVX512 extern size_t tfp_passage_ascii_x86(const unsigned char *s, size_t pos,
													 size_t end, uint64_t *h, uint64_t *inw,
													 uint64_t *keys, size_t *nb,
													 const uint8_t *wordmap);
#endif

#endif							/* TFP_PASSAGE_INT_H */
