/*
 * tfp_supershingle.h -- Broder's super-shingles over a MinHash signature
 * (Broder 1997; Henzinger 2006: 84 min-hashes, 6 super-shingles, a match on
 * at least 2): pure C, no PostgreSQL headers
 *
 * DEFINITION (version 1; frozen: fingerprints are stored, so the definition
 * below never changes -- a new definition gets a new version number)
 *
 *  Input: a non-empty minhash signature v[0..k) (tfp_minhash.h) made with
 *  feature options ngram, shingle, fold, and a number of groups g dividing
 *  k.  Group j (0 <= j < g) is v[j*r .. (j+1)*r), r = k / g.
 *
 *  P = XXH3_64bits_withSeed(1, k, ngram, shingle, fold, g as 4-byte
 *      little-endian values, TFP_SUPERSHINGLE_SEED)
 *  super-shingle j = XXH3_64bits_withSeed(group j as 4-byte little-endian
 *      values, P + j)
 *
 *  The fingerprint is the set of the g super-shingles, sorted as int64,
 *  without duplicates.  The parameters enter P, so signatures made with
 *  different parameters share no super-shingle; j enters the seed, so equal
 *  values in different groups do not match either.
 *
 *  Two texts with shingle-set Jaccard similarity J agree on a group with
 *  probability about J^r (r values of one-permutation MinHash, nearly
 *  independent), so on at least b of g groups with probability
 *  sum_{i >= b} C(g, i) J^(ri) (1 - J^r)^(g - i).
 */
#ifndef TFP_SUPERSHINGLE_H
#define TFP_SUPERSHINGLE_H

#include <stddef.h>
#include <stdint.h>

#define TFP_SUPERSHINGLE_VERSION	1
#define TFP_SUPERSHINGLE_SEED		UINT64_C(0x7466703173757073)	/* "tfp1sups" */

/* Writes the super-shingles of v (g of them) to out, sorted as int64 and
 * distinct; returns their number. */
extern size_t tfp_supershingles(const uint32_t *v, int k, int ngram,
								int shingle, unsigned fold, int g,
								uint64_t *out);

#endif							/* TFP_SUPERSHINGLE_H */
