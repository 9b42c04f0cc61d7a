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
 * Model 2 also reads the texts' shared edges (tfp_match_edges.c): the
 * longest common leading and trailing runs of (non-blank, white space
 * ignored) lines of the two texts, a run going on over a gap of at most
 * TFP_MATCH_RESYNC short lines on each side (a line of a template that
 * changes from page to page: a date, related posts).  When both texts keep a
 * middle outside the edges and the edges are not empty (edge_long: the
 * share of the shorter text's bytes in edge lines of TFP_MATCH_LONG bytes or
 * more, paragraphs rather than a template's lines, which are short), the similarities
 * above are measured again on the middles (mid: without the short lines
 * both middles have, template lines that changed place), and edge is the share of
 * the shorter text's bytes in its edges; otherwise mid is measured on the
 * full texts and edge is 0 (a copy with a header or footer added has no
 * common edge, or its whole shorter text is an edge).  Two articles in one
 * site template share only the edges: their middles are unlike; the same
 * article with and without a template has no common edge at all.  The
 * shingles of mid (j5, c5, run) are those of the texts (middles or full)
 * with their lines of Han text run together (tfp_match_join_lines()): a
 * passage copied with its lines joined shares its n-grams across the
 * former line ends with the original read that way; the other similarities
 * of mid are those of the texts as they are.  Without Han text, mid of
 * texts without a common edge is the full features.
 * Model 3 also reads where the texts' lines are, in neither order nor
 * place: unshared, the share of the bytes of the shorter text's lines (the
 * one with fewer line bytes; the less of the two when they tie) in lines
 * (their bytes, without the white space at their ends) that occur nowhere
 * in the other text.  A copy with its paragraphs, sentences or lines moved, or a
 * part of a text, has 0 whatever its edges and middles; two pages of one
 * site template that do not share an article keep their articles' lines
 * (set 3's same-template pairs: 0.11 and more, docs/match.md).
 *
 * A model (a version: frozen forever once released, a later model is a new
 * version) is a logistic regression on fixed transforms of these (its
 * version's tfp_match_inputs*()), z = bias + sum w[i] * x[i], fitted by
 * tools/fit_match.py; the verdict is z >= threshold, the score
 * 1 / (1 + exp(-z)).  The sum runs in a fixed order in double precision, so
 * the verdict does not depend on the platform's exp().  Model 1: fitted on
 * the train split of tools/make_match_set.py's labelled pairs, threshold by
 * cross-validation over whole books of that split.  Model 2: the
 * similarities of the middles, every weight of a similarity >= 0 (the score
 * never falls when a similarity rises), fitted on the train parts of both
 * labelled sets (tools/make_match_set.py and tools/make_match_set2.py),
 * threshold chosen on their train parts with a floor set by a sample of
 * site-template pairs (tools/fit_match2.py).  With model 2, textfp_match()
 * computes the full texts' features only when the texts share no edge
 * (then the middles are the full texts): its similarities are those of the
 * middles otherwise.  Model 3: model 2's inputs and two order-free ones
 * (unshared, and the pinyin containment of the middles with their ordered
 * characters), fitted the same way on the train parts of three labelled
 * sets (tools/make_match_set3.py the third: moved, cut and revised copies;
 * tools/fit_match3.py); it computes what model 2 does and the lines' hash
 * sets (once per text).
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

/* what model 2 reads: the full texts' features, the middles', the edge */
typedef struct tfp_match_pair
{
	tfp_match_features full,
				mid;
	double		edge,
				edge_long,
				unshared;		/* model 3: see above */
} tfp_match_pair;

#define TFP_MATCH_NX 24			/* most inputs of a model (the rest weigh 0) */
#define TFP_MATCH_NX1 16		/* inputs of model 1 (tfp_match_inputs) */
#define TFP_MATCH_NX2 17		/* inputs of model 2 (tfp_match_inputs2) */
#define TFP_MATCH_NX3 19		/* inputs of model 3 (tfp_match_inputs3) */
#define TFP_MATCH_RESYNC 3		/* the gap a common edge bridges, lines */
#define TFP_MATCH_SHORT 100		/* ... each shorter than this, bytes */
#define TFP_MATCH_LONG 200		/* an edge line this long is a paragraph */
#define TFP_MATCH_UNSHARED_CAP 0.1	/* model 3 reads unshared below this only */

/* a non-blank line of a text: hash of its bytes other than white space
 * (0: not computed yet; tfp_match_line_hash()), byte range without the
 * white space at its ends */
typedef struct tfp_match_line
{
	uint64_t	hash;
	size_t		start,
				end;
} tfp_match_line;

/* the edges of two texts, in lines of tfp_match_lines(): lines
 * [0, lead) and [trail, n) of each text are edges */
typedef struct tfp_match_cut
{
	size_t		lead_a,
				lead_b,
				trail_a,
				trail_b;
} tfp_match_cut;

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

/* the inputs x[0..TFP_MATCH_NX1) of model 1 from the features */
extern void tfp_match_inputs(const tfp_match_features *f, double *x);

/* the inputs x[0..TFP_MATCH_NX2) of model 2 */
extern void tfp_match_inputs2(const tfp_match_pair *p, double *x);

/* the inputs x[0..TFP_MATCH_NX3) of model 3 */
extern void tfp_match_inputs3(const tfp_match_pair *p, double *x);

/* at most how many lines s[0..len) has, and its non-blank lines (out holds
 * tfp_match_line_bound() of them; returns their count; their hashes are
 * computed when asked for: the functions below take the text too); or
 * those of s[*pos..len) that fit in out[0..cap), *pos set to where the
 * split stopped (len when done): a split into a buffer grown as needed */
extern size_t tfp_match_line_bound(const char *s, size_t len);
extern size_t tfp_match_lines(const char *s, size_t len, tfp_match_line *out);
extern size_t tfp_match_lines_part(const char *s, size_t len, size_t *pos,
								   tfp_match_line *out, size_t cap);
extern uint64_t tfp_match_line_hash(const char *s, tfp_match_line *l);

/* the common edges of the lines a[0..na) of sa and b[0..nb) of sb */
extern void tfp_match_edges(const char *sa, tfp_match_line *a, size_t na,
							const char *sb, tfp_match_line *b, size_t nb, tfp_match_cut *cut);

/*
 * The ordered overlap (ord above) of the feature sequence a[0..na) against
 * b[0..nb), and the larger of it and b's against a (both from one table of
 * the two sequences' keys); scratch holds tfp_match_order_scratch(na, nb)
 * values.  O(na + nb), expected, and a step per occurrence matched.
 */
extern size_t tfp_match_order_scratch(size_t na, size_t nb);
extern double tfp_match_order(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
							  uint64_t *scratch);
extern double tfp_match_order_both(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
								   uint64_t *scratch);

/*
 * The longest run of consecutive features of the sequence a[0..na) that
 * are all among the values b[0..nb), sorted as int64 and distinct (a
 * passage of a whose shingles all occur in b); scratch holds
 * tfp_match_run_scratch(nb) values.  O(na + nb), and a binary search for
 * each value of a that b may hold.
 */
extern size_t tfp_match_run_scratch(size_t nb);
extern size_t tfp_match_run(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
							uint64_t *scratch);

/*
 * The hashes of the short lines (shorter than TFP_MATCH_SHORT bytes) among
 * l[lo..hi), sorted and distinct, into set (room for hi - lo); and a middle:
 * the lines l[lo..hi) of s joined by newlines without the short ones whose
 * hash is in set[0..n) (the other text's), into out (room for the bytes of
 * s from l[lo].start to l[hi - 1].end); returns the count, the length.
 * With join, without the breaks between two lines of Han text
 * (tfp_match_han_break()): model 2's text for its shingles.
 */
extern size_t tfp_match_short_set(const char *s, tfp_match_line *l, size_t lo, size_t hi,
								  uint64_t *set);
extern size_t tfp_match_middle(const char *s, tfp_match_line *l, size_t lo, size_t hi,
							   const uint64_t *set, size_t n, int join, char *out);

/*
 * Lines of Han text run together (tfp_match_join.c): does the break between
 * line x of s and the line y that follows it (blank lines between them)
 * lie between two letters of a script written without spaces
 * (TFP_CC_HAN)?  And how many of the breaks between the lines l[lo..hi) do.
 * Model 2's shingles (j5, c5, run) are those of the text with these breaks
 * removed (tfp_match_middle() with join).
 */
extern int	tfp_match_han_break(const char *s, const tfp_match_line *x, const tfp_match_line *y);
extern size_t tfp_match_han_breaks(const char *s, const tfp_match_line *l, size_t lo, size_t hi);

/*
 * The first i in [lo, hi - 1) whose break to l[i + 1] goes, or hi (stops
 * there, unlike tfp_match_han_breaks()); and the lines l[0..n) of s joined
 * without those breaks (first: tfp_match_han_first(s, l, 0, n)), into out
 * (room for l[n - 1].end - l[0].start bytes): the same as
 * tfp_match_middle(s, l, 0, n, NULL, 0, 1, out), without testing the
 * breaks before first again.
 */
extern size_t tfp_match_han_first(const char *s, const tfp_match_line *l, size_t lo, size_t hi);
extern size_t tfp_match_joined(const char *s, const tfp_match_line *l, size_t n, size_t first,
							   char *out);

/*
 * The lines shared anywhere (model 3's unshared): the XXH3 of each line
 * l[0..n) of s (its bytes: the white space at their ends is not in it),
 * into h[0..n); their distinct values sorted as tfp_sort_unique_u64()
 * sorts, into set (room for n; returns the count); and the share of the
 * bytes of the lines l[0..n) of s in lines whose hash is not among
 * set[0..nset) (sorted so), 1 when there is no line, and 1 when it is
 * above cap (the lines are then read only until it is known to be: cap 1
 * for the exact share).  h[0..*nh) holds the hashes of the first lines
 * already computed; the others read are computed into h and *nh raised.
 * O(n log nset).
 */
extern void tfp_match_line_hashes(const char *s, const tfp_match_line *l, size_t n, uint64_t *h);
extern size_t tfp_match_line_set(const uint64_t *h, size_t n, uint64_t *set);
extern double tfp_match_unshared(const char *s, const tfp_match_line *l, size_t n,
								 uint64_t *h, size_t *nh,
								 const uint64_t *set, size_t nset, double cap);

/* z of a model (model 1 reads p->full only) */
extern double tfp_match_z(const tfp_match_model *m, const tfp_match_pair *p);

#endif							/* TFP_MATCH_H */
