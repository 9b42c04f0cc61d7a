/*
 * tfp_match.h -- textfp_match(): one calibrated verdict on whether b is a
 * copy of a, from the similarities of the two texts (pure C)
 *
 * The similarities (features) of two texts A and B, after the HTML text
 * extraction when they are pages and the Taiwan wording fold when they
 * have Han characters (tfp_twfold.h: traditional script and Taiwan
 * vocabulary read as mainland simplified vocabulary, 軟體 as 软件); for
 * two sets X, Y: J = |X & Y| / |X | Y|,
 * C = |X & Y| / min(|X|, |Y|) (0 when a set is empty):
 *   j5, c5   J and C of the distinct shingles (Han 5-grams, word 3-shingles,
 *            folds on: shingles(text)), the exact Jaccard that minhash()
 *            estimates, and containment (partial copies)
 *   j2, c2   J and C of Han bigrams and single words (shingles(text, 2, 1))
 *   sim      1 - simhash_dist(simhash(A), simhash(B)) / 64
 *   dna      pinyin_dna_similarity(pinyin_dna(A), pinyin_dna(B))
 *   pj, pc   J and C of the word 3-shingles of pinyin(A) and pinyin(B)
 *            (homophones and script variants read alike); dna, pj and pc
 *            are 0 when neither text has a Han character (zh = 0: the model
 *            weighs them by zh, so they are not computed)
 *   ord      the longest common subsequence of the two texts' sequences of
 *            Han bigrams and words (each matched with one of its first four
 *            occurrences in the other text; the larger of the two ways),
 *            over the shorter sequence: the
 *            share of the text that appears in the same order (translations,
 *            revisions and edited copies keep the order; texts on the same
 *            topic share words, not their order)
 *   ord1     the same for the sequences of Han characters and words
 *   run      the longest run of consecutive 5-gram/3-word shingles of one
 *            text that all occur in the other (the larger of the two ways),
 *            over the shorter text's count: the longest copied passage
 *   zh       the share of Han features among the bigram-set features of
 *            both texts (0 = no Chinese, 1 = only Chinese)
 * A model (a version: frozen forever once released, a later model is a new
 * version) is a logistic regression on fixed transforms of these,
 * z = bias + sum w[i] * x[i], fitted by tools/fit_match.py on the train
 * split of tools/make_match_set.py's labelled pairs; the verdict is
 * z >= threshold (chosen there by cross-validation over whole books of
 * that split for precision 0.99 on books it was not fitted on), the
 * score 1 / (1 + exp(-z)).  The sum runs in a fixed order in double
 * precision, so the verdict does not depend on the platform's exp().
 */
#ifndef TFP_MATCH_H
#define TFP_MATCH_H

#include <stddef.h>
#include <stdint.h>

typedef struct tfp_match_features
{
	double		j5,
				c5,
				j2,
				c2,
				sim,
				dna,
				pj,
				pc,
				ord,
				ord1,
				run,
				zh;
} tfp_match_features;

#define TFP_MATCH_NX 16			/* inputs of a model (tfp_match_inputs) */

typedef struct tfp_match_model
{
	int			version;
	double		bias;
	double		w[TFP_MATCH_NX];
	double		threshold;		/* of z */
	double		precision;		/* on the train split at the threshold */
	double		recall;
} tfp_match_model;

/* the models, by version (tfp_match_model.c, generated) */
extern const tfp_match_model tfp_match_models[];
extern const int tfp_match_nmodels;

/* the model of a version, or NULL */
extern const tfp_match_model *tfp_match_get_model(int version);

/* J and C of two sorted distinct sets */
extern void tfp_match_sets(const uint64_t *x, size_t nx, const uint64_t *y, size_t ny,
						   double *jaccard, double *containment);

/* the inputs x[0..TFP_MATCH_NX) of a model from the features */
extern void tfp_match_inputs(const tfp_match_features *f, double *x);

/*
 * The ordered overlap (ord above) of the feature sequences a[0..na) and
 * b[0..nb); scratch holds tfp_match_order_scratch(nb) values.
 * O(nb + na log nb), expected.
 */
extern size_t tfp_match_order_scratch(size_t nb);
extern double tfp_match_order(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
							  uint64_t *scratch);

/*
 * The longest run of consecutive features of the sequence a[0..na) that
 * are all among the values b[0..nb) (a passage of a whose shingles all
 * occur in b); scratch holds tfp_match_run_scratch(nb) values.  O(na + nb),
 * expected.
 */
extern size_t tfp_match_run_scratch(size_t nb);
extern size_t tfp_match_run(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
							uint64_t *scratch);

/* z of a model */
extern double tfp_match_z(const tfp_match_model *m, const tfp_match_features *f);

#endif							/* TFP_MATCH_H */
