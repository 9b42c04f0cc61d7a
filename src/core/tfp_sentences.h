/*
 * tfp_sentences.h -- the top-k longest sentences of a text, hashed: pure C,
 * no PostgreSQL headers
 *
 * DEFINITION (version 1; frozen: fingerprints are stored, so the definition
 * below never changes -- a new definition gets a new version number)
 *
 *  Sentences: the UTF-8 text is cut at sentence ends, and the pieces between
 *  them are the sentences.  A sentence ends at
 *    - ! ? and their full-width forms ！(U+FF01) ？(U+FF1F), the ideographic
 *      full stop 。(U+3002) and its half-width form ｡(U+FF61);
 *    - . and the full-width ．(U+FF0E) when the next code point is not a
 *      letter, digit or mark (class word, han or mark of tfp_cp_class), so
 *      3.14, e.g. "example.com" and ３．５ do not end sentences;
 *    - a paragraph break: a line feed followed, after any spaces, tabs,
 *      carriage returns, form feeds, vertical tabs or U+3000, by another line
 *      feed; and U+2029 (paragraph separator).
 *  (Sentence ends are read before folding; invalid UTF-8 is a separator.)
 *
 *  Normalized sentence: its tokens, as tfp_extract_features gives them with
 *  ngram 1, shingle 1 and every fold (each word and each Han character is a
 *  token; spaces and punctuation are not), so case, width, script
 *  (traditional/simplified) and punctuation changes do not change it.
 *  Length: the number of tokens.  Hash: XXH3_64bits_withSeed(the token
 *  hashes as 8-byte little-endian values, TFP_SENTENCE_SEED).  Sentences
 *  without tokens are ignored; a sentence that occurs more than once counts
 *  once.
 *
 *  Fingerprint: the hashes of the k longest distinct sentences (longer
 *  first; among equally long ones, the smaller hash as int64 first), sorted
 *  as int64.  A text with fewer than k sentences gives all of them.
 */
#ifndef TFP_SENTENCES_H
#define TFP_SENTENCES_H

#include <stddef.h>
#include <stdint.h>

#define TFP_SENTENCE_VERSION	1
#define TFP_SENTENCE_SEED		UINT64_C(0x7466703173656e74)	/* "tfp1sent" */
#define TFP_SENTENCE_MAX_K		256
#define TFP_SENTENCE_FOLDS		7	/* every fold */

/*
 * The fingerprint of utf8[0..len): writes at most k hashes to out (sorted
 * as int64) and returns their number.  tick, if not NULL, is called now and
 * then (at least every 64 KB and every TFP_TICK code points); it may longjmp.
 */
extern size_t tfp_sentences_topk(const char *utf8, size_t len, int k,
								 void (*tick) (void), uint64_t *out);

/*
 * The sentences themselves, for tests: calls fn(arg, start, end, ntokens,
 * hash) for every sentence with at least one token, in text order.
 */
typedef void (*tfp_sentence_fn) (void *arg, size_t start, size_t end,
								 uint64_t ntokens, uint64_t hash);
extern void tfp_sentences_each(const char *utf8, size_t len,
							   void (*tick) (void), tfp_sentence_fn fn,
							   void *arg);

#endif							/* TFP_SENTENCES_H */
