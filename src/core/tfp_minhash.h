/*
 * tfp_minhash.h -- MinHash signatures by one-permutation hashing with
 * optimal densification (pure C, no PostgreSQL headers)
 *
 * ALGORITHM (version 1; frozen: signatures are stored, so the definition
 * below never changes -- a new definition gets a new version number)
 *
 *  Input: the set S of 64-bit feature hashes of a text (tfp_extract_features;
 *  repeated features count once).  Every h in S is mixed to
 *  g = tfp_fmix64(h ^ TFP_MINHASH_SEED_V1) (a bijection, so distinct features
 *  stay distinct).  The high 32 bits of g choose its bin,
 *  bin = ((g >> 32) * k) >> 32 (0 <= bin < k), and the low 32 bits are its
 *  value.  Bin i keeps the minimum value that falls into it ("one-permutation
 *  hashing", Li, Owen and Zhang 2012): one hash per feature instead of k.
 *
 *  Empty bins are filled by optimal densification (Shrivastava 2017): for an
 *  empty bin i, probe bins p_1, p_2, ... with p_a = bin of
 *  tfp_fmix64(TFP_MINHASH_PROBE_V1 + (i << 32) + a) (same bin mapping as
 *  above) until a non-empty bin is met, and copy its minimum.  The probe
 *  sequence depends only on (i, a), so two sets with bin i empty probe the
 *  same bins.
 *
 *  An empty set (a text without any feature) has no values at all: it is
 *  flagged empty and is similar to nothing (estimate 0), not even to another
 *  empty text.
 *
 * ESTIMATOR: J^ = (number of positions i with A[i] = B[i]) / k.  For every
 * position, P(A[i] = B[i]) = J(A, B) (up to 32-bit value collisions between
 * different features of one bin, probability < 2^-32 per position), so J^ is
 * unbiased.  Without empty bins its variance is that of sampling without
 * replacement, J(1-J)/k * (1 - (k-1)/(|A u B|-1)) approximately, a little
 * below the J(1-J)/k of k independent permutations; densification adds
 * correlation between the copied positions, which brings it back up for
 * small sets (see docs/minhash.md for measurements).
 */
#ifndef TFP_MINHASH_H
#define TFP_MINHASH_H

#include <stddef.h>
#include <stdint.h>

#define TFP_MINHASH_VERSION		1
#define TFP_MINHASH_MAX_K		4096
#define TFP_MINHASH_SEED_V1		UINT64_C(0x746670316d696e68)	/* "tfp1minh" */
#define TFP_MINHASH_PROBE_V1	UINT64_C(0x7466703170726f62)	/* "tfp1prob" */

/* Accumulator: bins of the current set, filled by tfp_minhash_add. */
typedef struct tfp_minhash_acc
{
	int			k;
	uint32_t	nonempty;		/* number of non-empty bins */
	uint32_t   *vals;			/* k values (caller's memory) */
	uint8_t    *full;			/* k flags: bin non-empty (caller's memory) */
} tfp_minhash_acc;

/* vals and full must have room for k entries; 1 <= k <= TFP_MINHASH_MAX_K. */
extern void tfp_minhash_init(tfp_minhash_acc *acc, int k, uint32_t *vals, uint8_t *full);
extern void tfp_minhash_add(tfp_minhash_acc *acc, const uint64_t *hashes, size_t n);
/* Densify; returns 0 if the set was empty (vals then undefined), else 1. */
extern int	tfp_minhash_finish(tfp_minhash_acc *acc);

/* Number of equal positions of two signatures of length k. */
extern int	tfp_minhash_matches(const uint32_t *a, const uint32_t *b, int k);

/* The bin of a mixed value for k bins. */
static inline int
tfp_minhash_bin(uint64_t g, int k)
{
	return (int) (((g >> 32) * (uint64_t) k) >> 32);
}


#endif							/* TFP_MINHASH_H */
