/*
 * tfp_spotsigs.h -- SpotSigs spot signatures (Theobald, Siddharth and
 * Paepcke, SIGIR 2008): pure C, no PostgreSQL headers
 *
 * DEFINITION (version 1; frozen: fingerprints are stored, so the definition
 * below never changes -- a new definition gets a new version number)
 *
 *  Tokens: the features tfp_extract_features gives with ngram 1, shingle 1
 *  and every fold (TFP_FOLD_WIDTH | TFP_FOLD_CASE | TFP_FOLD_HAN), in text
 *  order: every word and every Han unit (a character with its marks) is one
 *  token, hashed as the extractor hashes it; spaces and punctuation are not
 *  tokens.  So a Chinese "word" is one character here: function characters
 *  such as 的 了 在 是 和 are single characters, and the characters after
 *  them begin the next word.
 *
 *  Antecedents A and stopwords S: sets of token hashes (each list entry is
 *  one token, folded as the text is).  A token in A or S is a stopword; any
 *  other token is a content token.
 *
 *  Spots: for every token whose hash a is in A, followed somewhere later in
 *  the text by at least c content tokens (c = chain, 1..TFP_SPOT_MAX_CHAIN),
 *  the spot is
 *     XXH3_64bits_withSeed(a, t1, ..., tc as 8-byte little-endian values,
 *                          TFP_SPOT_SEED)
 *  where t1..tc are the first c content tokens after it (stopwords between
 *  them are skipped: the spot distance is 1).  An antecedent with fewer than
 *  c content tokens after it gives no spot.
 *
 *  The fingerprint is the set of spots, sorted as int64, without duplicates.
 *
 * Streaming: every pending antecedent takes every content token, so the
 * antecedents that have taken j tokens have all taken the last j content
 * tokens; the state is, for each j < c, the set of distinct antecedents at
 * stage j (at most |A| each), and the last c content tokens.  Memory does not
 * grow with the text, and the work is O(tokens + spots * c).
 */
#ifndef TFP_SPOTSIGS_H
#define TFP_SPOTSIGS_H

#include <stddef.h>
#include <stdint.h>

#include "tfp_termset.h"

#define TFP_SPOT_VERSION	1
#define TFP_SPOT_SEED		UINT64_C(0x7466703173706f74)	/* "tfp1spot" */
#define TFP_SPOT_MAX_CHAIN	16
#define TFP_SPOT_FOLDS		7	/* TFP_FOLD_WIDTH | TFP_FOLD_CASE | TFP_FOLD_HAN */

typedef void (*tfp_spot_sink) (void *arg, uint64_t spot);

typedef struct tfp_spot_state
{
	const tfp_termset *ante;	/* A */
	const tfp_termset *skip;	/* A u S: one look-up for a content token */
	int			chain;			/* c */
	size_t		cap;			/* room of each stage: |A| distinct */
	uint64_t   *stage;			/* chain * cap: stage j at (j * cap) */
	size_t		nstage[TFP_SPOT_MAX_CHAIN];
	int			first;			/* stage array of j = 0 (they rotate) */
	uint64_t	ring[TFP_SPOT_MAX_CHAIN];	/* the last c content tokens:
											 * token i at i % c */
	uint64_t	ncontent;		/* content tokens seen */
	tfp_spot_sink sink;
	void	   *arg;
} tfp_spot_state;

/*
 * Start: ante is A, skip is A u S; stage has room for chain * nante values,
 * nante being the number of distinct antecedents (an upper bound is fine).
 */
extern void tfp_spot_init(tfp_spot_state *st, const tfp_termset *ante,
						  const tfp_termset *skip, int chain, size_t nante,
						  uint64_t *stage, tfp_spot_sink sink, void *arg);

/* Feed tokens (a tfp_feature_sink's batch, in text order). */
extern void tfp_spot_feed(tfp_spot_state *st, const uint64_t *tokens, size_t n);

/*
 * The hash of a list entry as a token: tokens of utf8[0..len) under the
 * SpotSigs options; returns how many there are (1 for a valid entry) and
 * stores the first in *h.
 */
extern size_t tfp_spot_token(const char *utf8, size_t len, uint64_t *h);

/* The built-in lists (UTF-8, frozen with version 1). */
extern const char *const tfp_spot_default_antecedents[];
extern const size_t tfp_spot_ndefault_antecedents;
extern const char *const tfp_spot_default_stopwords[];
extern const size_t tfp_spot_ndefault_stopwords;

#endif							/* TFP_SPOTSIGS_H */
