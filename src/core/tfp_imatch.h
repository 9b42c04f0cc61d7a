/*
 * tfp_imatch.h -- I-Match (Chowdhury, Frieder, Grossman and McCabe 2002) and
 * its lexicon randomization (Kołcz, Chowdhury and Alspector 2004): pure C,
 * no PostgreSQL headers
 *
 * DEFINITION (version 1; frozen: fingerprints are stored, so the definition
 * below never changes -- a new definition gets a new version number)
 *
 *  Terms of a text: the distinct features of tfp_extract_features under the
 *  lexicon's feature options (by default ngram 2, shingle 1, every fold:
 *  Han bigrams and single words), as 64-bit hashes.
 *
 *  Lexicon L: a set of term hashes, chosen by the caller from collection
 *  statistics (normally the terms whose idf lies within a band; see README).
 *
 *  I-Match: K = terms(text) n L.  If K is empty the text has no I-Match
 *  fingerprint (SQL: NULL).  Otherwise the fingerprint is
 *  XXH3_64bits_withSeed(K written as 8-byte little-endian integers in
 *  ascending order of their values read as signed int64, TFP_IMATCH_SEED).
 *
 *  Randomized I-Match, n extra lexicons, fraction f left out of each:
 *  extra lexicon i (1 <= i <= n) is
 *    L_i = { t in L : (tfp_fmix64(t ^ (TFP_IMATCH_SUBSEED + i)) >> 32) >= D }
 *  with D = floor(f * 2^32) (0 <= f < 1), so each term is left out of each
 *  extra lexicon independently with probability f.  Signature i is the
 *  I-Match of K_i = K n L_i with seed TFP_IMATCH_SEED + i (none if K_i is
 *  empty); signature 0 is the plain I-Match (seed TFP_IMATCH_SEED + 0).  The
 *  fingerprint is the set of signatures 0..n that exist, sorted as int64,
 *  without duplicates.  Two texts match when their sets intersect: a change
 *  of one kept term breaks the plain signature but leaves every extra
 *  lexicon that does not contain the term.
 */
#ifndef TFP_IMATCH_H
#define TFP_IMATCH_H

#include <stddef.h>
#include <stdint.h>

#include "tfp_termset.h"

#define TFP_IMATCH_VERSION		1
#define TFP_IMATCH_SEED			UINT64_C(0x74667031696d6174)	/* "tfp1imat" */
#define TFP_IMATCH_SUBSEED		UINT64_C(0x74667031696c6578)	/* "tfp1ilex" */
#define TFP_IMATCH_MAX_LEXICONS	64

/*
 * Keep in terms[0..n) the ones in the set, in their order; returns how many
 * remain.
 */
extern size_t tfp_imatch_filter(const tfp_termset *s, uint64_t *terms, size_t n);

/*
 * The I-Match signature with seed TFP_IMATCH_SEED + sub of kept[0..n),
 * which must be sorted as int64 and distinct, n >= 1.
 */
extern uint64_t tfp_imatch_hash(const uint64_t *kept, size_t n, unsigned sub);

/* D of the definition for a fraction f, 0 <= f < 1 (the caller checks). */
extern uint32_t tfp_imatch_drop_threshold(double f);

/*
 * The randomized fingerprint of kept[0..n) (sorted as int64, distinct, the
 * terms of a text in the lexicon): signatures 0..nlex, written to out (room
 * for nlex + 1), sorted as int64 and distinct; returns their number (0 when
 * n == 0).  scratch has room for n values.
 */
extern size_t tfp_imatch_randomized(const uint64_t *kept, size_t n,
									int nlex, uint32_t drop,
									uint64_t *scratch, uint64_t *out);

#endif							/* TFP_IMATCH_H */
