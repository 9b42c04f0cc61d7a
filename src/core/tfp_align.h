/*
 * tfp_align.h -- which passages of two texts match: the passages of b that
 * were copied from a (and where in a), robust to small edits, and an HTML
 * side-by-side rendering of them.  Pure C (no PostgreSQL headers).
 *
 * UNITS.  A text is read as a sequence of units, the way the feature
 * extractor reads it (tfp_core.h): UTF-8 decoded (an invalid byte is a
 * separator), every code point folded by tfp_cp_fold() under the caller's
 * TFP_FOLD_* flags and classified by tfp_cp_class().  A unit is a Han
 * character (with its combining marks: Han, kana, Thai, ... -- the "han"
 * class) or a word (a maximal run of word characters with their marks);
 * separators (white space, punctuation, symbols) and ignorable code points
 * are not units, so punctuation and spacing never matter.  Two units are
 * equal when their folded code points are; with the option "reading", two
 * han units whose first code points have a Mandarin reading (tfp_pinyin())
 * are equal when the readings are, so homophones (同音字) match.  The LENGTH of a unit is 1 for a
 * Han character and 2 for a word (a Chinese word is about two characters);
 * lengths of passages and texts, min_length, seed and max_gap are measured
 * in it.
 *
 * METHOD (expected time linear in the number of units; memory below).
 *  1. Seeds: at every unit, the shortest run of units of length >= seed
 *     (4 by default: four Han characters, two words).  The seeds of a go
 *     into a hash table; every seed of b looks up its equal seeds in a
 *     (compared unit by unit), each pair an anchor.  A seed found more than
 *     K times in a (K <= 8, the largest that keeps the anchors within
 *     nA + nB + 1024) is paired only with the occurrence of the same rank
 *     (the r-th in b with the r-th in a) and with the continuations of the
 *     diagonals of the last two anchors, so repetitive text stays linear
 *     and a copy goes on through it.
 *  2. Chaining: anchors, in (b unit, a unit) order, are chained by dynamic
 *     programming as in minimap2: an anchor x may follow y when both texts
 *     advance, the units between them not covered by y (a substitution,
 *     insertion or deletion) are of length <= max_gap on each side and the
 *     shift between the diagonals is <= max_gap; the score adds the new
 *     length x covers and subtracts the edit's size.  Chains are read back
 *     from the best-scoring ends, no anchor in two chains; a chain whose
 *     seeds cover less than half of min_length is dropped.
 *  3. A chain is a candidate passage: its anchors, the units between them
 *     (paired by a longest common subsequence, so edits are counted
 *     exactly), and a gapped X-drop extension at both ends (a banded
 *     alignment that goes on while the score stays within max_gap of its
 *     best, at most 2 (seed + max_gap) + 16 units).  "matched" is the
 *     length of the units paired with an equal unit.
 *  4. One to one: candidates are taken greedily, most matched length first
 *     (ties: the one whose relative position in a and b is closest, then
 *     the earliest in b, then in a); a candidate that overlaps one already
 *     taken, in a or in b, loses the overlapping anchors, splits where its
 *     links cross taken text, and competes again.  Passages with matched <
 *     min_length are dropped; passages next to each other in both texts,
 *     separated by an edit within max_gap, are merged.  So no unit of a or
 *     of b is in two passages: text repeated in b is matched once, and
 *     paragraphs moved around are separate passages.
 *
 * Memory: about 50-60 bytes per unit of the two texts together (Chinese
 * text has a unit per character, English one per word), at most about
 * 120; TFP_ALIGN_MAX_UNITS per text bounds it.
 *
 * The result depends only on the texts and the options (no hash value
 * decides anything, except that a 64-bit hash collision of unequal units
 * would count them as equal), so equal inputs give equal outputs.
 */
#ifndef TFP_ALIGN_H
#define TFP_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#define TFP_ALIGN_MAX_SEED		32
#define TFP_ALIGN_MAX_GAP		64
#define TFP_ALIGN_MAX_MIN_LENGTH 1000000000
/* units per text: beyond this tfp_align() returns TFP_ALIGN_ETOOBIG (about
 * 12 MB of Chinese or 25 MB of English text) */
#define TFP_ALIGN_MAX_UNITS		(UINT32_C(1) << 22)

#define TFP_ALIGN_DEFAULT_MIN_LENGTH	16
#define TFP_ALIGN_DEFAULT_SEED			4
#define TFP_ALIGN_DEFAULT_MAX_GAP		12

enum
{
	TFP_ALIGN_OK = 0,
	TFP_ALIGN_ENOMEM = 1,		/* env->alloc returned NULL */
	TFP_ALIGN_ETOOBIG = 2,		/* a text has more than TFP_ALIGN_MAX_UNITS
								 * units or 4 GB */
	TFP_ALIGN_EINVAL = 3		/* an option out of range */
};

typedef struct tfp_align_opts
{
	int			min_length;		/* 1..TFP_ALIGN_MAX_MIN_LENGTH */
	int			seed;			/* 1..TFP_ALIGN_MAX_SEED */
	int			max_gap;		/* 0..TFP_ALIGN_MAX_GAP */
	unsigned	fold;			/* TFP_FOLD_* flags */
	int			reading;		/* 1: han units equal by their reading */
} tfp_align_opts;

/* Memory and interrupts: alloc returns NULL on failure (or does not
 * return); free may be NULL (memory released by the caller, e.g. with its
 * memory context); tick, if not NULL, is called every few ten thousand
 * steps of every long loop and may longjmp out (memory is then the
 * caller's to release). */
typedef struct tfp_align_env
{
	void	   *(*alloc) (void *arg, size_t size);
	void		(*free) (void *arg, void *p);
	void	   *arg;
	void		(*tick) (void);
} tfp_align_env;

typedef struct tfp_align_passage
{
	uint32_t	a_start,		/* bytes [a_start, a_end) of a: from the first */
				a_end;			/* unit of the passage to its last */
	uint32_t	b_start,
				b_end;
	uint32_t	a_len,			/* length of the passage in a, in b */
				b_len;
	uint32_t	matched;		/* length of its units paired with an equal unit */
	/* characters: 0-based offset and count; tfp_align() counts code points
	 * (an invalid byte is one), a caller may store its own (the renderer
	 * prints these) */
	uint32_t	a_cstart,
				a_clen,
				b_cstart,
				b_clen;
} tfp_align_passage;

typedef struct tfp_align_result
{
	tfp_align_passage *p;		/* n passages, by b_start, then a_start;
								 * from env->alloc (NULL if n = 0) */
	size_t		n;
	uint64_t	a_total,		/* length of a, of b */
				b_total;
	uint64_t	a_covered,		/* length inside the passages */
				b_covered;
} tfp_align_result;

/*
 * The matching passages of UTF-8 texts a and b (see above).  Returns
 * TFP_ALIGN_OK and fills *r, or an error code (r->p is then NULL).
 */
extern int	tfp_align(const char *a, size_t alen, const char *b, size_t blen,
					  const tfp_align_opts *o, const tfp_align_env *env,
					  tfp_align_result *r);

/* Number of units of a UTF-8 text and (if length is not NULL) its length. */
extern size_t tfp_align_units(const char *s, size_t len, unsigned fold,
							  uint64_t *length);

/* The passages of r in order of their start on one side (0: a, 1: b),
 * ties by index: e[k].idx is the k-th passage; e has room for r->n. */
typedef struct tfp_align_order
{
	uint32_t	start;
	uint32_t	idx;
} tfp_align_order;

extern void tfp_align_sort_side(const tfp_align_result *r, int side,
								tfp_align_order *e);

/* Fill the passages' a_cstart/a_clen (side 0) or b_cstart/b_clen (side 1)
 * with code point counts of the UTF-8 text s (an invalid byte counts as
 * one); scratch has room for r->n entries. */
extern void tfp_align_char_offsets(const char *s, size_t len, tfp_align_result *r,
								   int side, tfp_align_order *scratch);

/*
 * HTML rendering (tfp_align_html.c): a side-by-side comparison of a and b
 * with the passages of r highlighted, each passage in the same colour on
 * both sides, numbered, and linked to its counterpart; a summary line; a
 * list of the passages.  Every text is HTML-escaped (an invalid UTF-8
 * byte, a control character or a noncharacter is written as U+FFFD); the
 * markup is ASCII, well-formed as XML too, and every class name and id
 * begins with "textfp-".
 */
typedef struct tfp_html_opts
{
	int			context;		/* -1: the whole texts; n >= 0: only the
								 * passages, with n characters of context
								 * around each; the rest is elided */
	int			page;			/* 1: a whole HTML document with the style
								 * sheet; 0: a fragment (a <div>) */
	const char *a_title;		/* column headings (UTF-8), escaped */
	size_t		a_title_len;
	const char *b_title;
	size_t		b_title_len;
	const char *id;				/* id prefix (letters, digits, '-'), or NULL:
								 * "textfp-" and 16 hex digits of a hash of
								 * the texts and passages */
} tfp_html_opts;

/*
 * Write the HTML into out (NULL: only measure) and return its length in
 * bytes; SIZE_MAX if it would exceed max_len (nothing more is written) or
 * env->alloc failed (scratch for more than 16 passages).  Passages may be
 * given in any order and are clipped to the texts (one that overlaps the
 * one before it on a side starts where that one ends).
 */
extern size_t tfp_align_html(char *out, size_t max_len,
							 const char *a, size_t alen,
							 const char *b, size_t blen,
							 const tfp_align_result *r, const tfp_html_opts *o,
							 const tfp_align_env *env);

/* The style sheet of the rendering (every rule scoped by .textfp-compare). */
extern const char *tfp_align_css(void);

#endif							/* TFP_ALIGN_H */
