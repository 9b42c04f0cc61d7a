/*
 * tfp_match_side.h -- textfp_match() from two texts to a verdict, without
 * PostgreSQL: a text read once into a side (HTML extraction, the Taiwan
 * wording fold), the features of a pair of sides for models 1 to 3 (the
 * common edges and middles of models 2 and 3, the lines of Han text run
 * together, the pinyin features when either text has Han letters, the
 * lines shared anywhere of model 3), the score.
 * tfp_match.h holds the features, the edges and the models these use.
 *
 * Memory: every buffer comes from env->alloc / env->realloc, which return
 * memory or do not return (a longjmp, an abort).  env->free (may be NULL:
 * nothing is freed, as in a memory context or an arena) gets back the
 * scratch buffers and what belongs to a pair as soon as the pair is done,
 * the features of a side that a model of the other kind replaces, and
 * everything a side keeps in tfp_match_side_free(): with malloc, realloc
 * and free nothing is left once both sides are freed.  env->tick, if not
 * NULL, is called every few ten thousand steps of every long loop and may
 * longjmp out (the buffers of a side are then released with its memory
 * context or arena, not with tfp_match_side_free()).
 */
#ifndef TFP_MATCH_SIDE_H
#define TFP_MATCH_SIDE_H

#include <stddef.h>
#include <stdint.h>

#include "tfp_match.h"

typedef struct tfp_match_env
{
	void	   *(*alloc) (void *arg, size_t size);
	void	   *(*realloc) (void *arg, void *p, size_t size);
	void		(*free) (void *arg, void *p);
	void	   *arg;
	void		(*tick) (void);
} tfp_match_env;

/* how a text is read: as HTML when it looks like it, always, never */
enum
{
	TFP_MATCH_HTML_AUTO = 0,
	TFP_MATCH_HTML_ALWAYS = 1,
	TFP_MATCH_HTML_NEVER = 2
};

/* what tfp_match_side_read() returns */
enum
{
	TFP_MATCH_OK = 0,
	TFP_MATCH_ETOOLONG = 1,		/* the fold would need more than SIZE_MAX / 2 */
	TFP_MATCH_EHTML = 2			/* the HTML extraction failed (memory) */
};

/* one text as textfp_match() reads it, and its features once computed */
typedef struct tfp_match_side
{
	int			html,			/* read as HTML */
				wide;			/* has a byte of a 3- or 4-byte UTF-8
								 * sequence (else no Han letter) */
	uint64_t   *s5,				/* distinct shingles: 5-gram/3-word, */
			   *s2,				/* bigram/word, pinyin 3-shingles */
			   *sp;
	size_t		n5,
				n2,
				np;
	uint64_t	han2,			/* features of the bigram kind: Han ones, all */
				all2;
	uint64_t   *seq5,			/* 5-gram/3-word features in text order, */
			   *seq2,			/* bigram/word ones, */
			   *seq1;			/* Han characters and words */
	size_t		nseq5,
				nseq2,
				nseq1;
	uint64_t	sh;				/* simhash */
	int64_t    *dna;
	size_t		ndna;
	const char *text;			/* the text (UTF-8, after HTML extraction) */
	size_t		len;
	char	   *own;			/* the buffer of text the side allocated
								 * (text; NULL: text is the caller's) */
	tfp_match_line *lines;		/* its lines (model 2) */
	size_t		nlines;
	uint64_t   *lhash,			/* their hashes (model 3; of the first
								 * nlhash lines), */
			   *lset;			/* distinct, sorted */
	size_t		nlhash,
				nlset;
	double		lbytes;			/* their bytes */
	/* what is computed (once: a side met by many others reuses it) */
	int			have_lines,
				have_lset,
				have_py,		/* sp and dna */
				full;			/* the features above: 0 none, 1 of the text
								 * as it is, 2 model 2's (its lines of Han
								 * text run together for the shingles) */
	const tfp_match_env *env;	/* the memory of what the side keeps */
} tfp_match_side;

/* what textfp_match() returns: the verdict, z and the score 1 / (1 +
 * exp(-z)) (z = -inf for a text without features: a copy of nothing), the
 * similarities (the middles' with model 2 when the texts share an edge),
 * the simhash distance */
typedef struct tfp_match_result
{
	int			verdict;
	double		z,
				score;
	tfp_match_features f;
	int			dist;
} tfp_match_result;

/*
 * Read the UTF-8 text s[0..len) as textfp_match() does (html: one of
 * TFP_MATCH_HTML_*): its main text when it is read as HTML, then the
 * Taiwan wording fold (a text with no byte of a 3- or 4-byte sequence is
 * its own fold and is not copied: m->text may be s).  Returns TFP_MATCH_OK
 * or an error.
 */
extern int	tfp_match_side_read(const char *s, size_t len, int html,
								const tfp_match_env *env, tfp_match_side *m);

/*
 * The verdict of a model on two sides read by tfp_match_side_read().  What
 * belongs to one text (its lines, its full-text features, its pinyin
 * features) is computed once, in the side's memory (the env it was read
 * with), and kept in the side: a side can meet many others, each pair
 * giving the same answer as two fresh sides (what belongs to the pair, the
 * middles and scratch, comes from env).  A side is not to be used by two
 * calls at once.
 */
extern void tfp_match_eval(tfp_match_side *a, tfp_match_side *b, const tfp_match_model *model,
						   const tfp_match_env *env, tfp_match_result *r);

/* everything the models read (textfp_match_features): the full texts'
 * features, the middles' (the full texts' with their lines of Han text run
 * together when there is no common edge), the edge shares.
 * tfp_match_z() of p is the z of tfp_match_eval() for both models when
 * neither text is without features. */
extern void tfp_match_eval_features(tfp_match_side *a, tfp_match_side *b,
									const tfp_match_env *env, tfp_match_pair *p);

/* give back (env->free of the env the side was read with) everything the
 * side keeps; the side is then as after memset 0 */
extern void tfp_match_side_free(tfp_match_side *m);

#endif							/* TFP_MATCH_SIDE_H */
