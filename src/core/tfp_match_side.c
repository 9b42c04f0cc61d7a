/*
 * tfp_match_side.c -- textfp_match() from two texts to a verdict
 * (tfp_match_side.h): the sides, their features, the middles of model 2,
 * the pair's features and the score
 */
#include <math.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_html.h"
#include "tfp_match_side.h"
#include "tfp_pinyin.h"
#include "tfp_sort.h"
#include "tfp_twfold.h"

#define FOLDS (TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN)
#define MAX2(x, y) ((x) > (y) ? (x) : (y))
#define MIN2(x, y) ((x) < (y) ? (x) : (y))

/* ---------------------------------------------------------------- buffers */

static void
release(const tfp_match_env *env, void *p)
{
	if (env->free && p)
		env->free(env->arg, p);
}

/* a growing buffer of features (h NULL: allocated by the first batch) */
typedef struct hbuf
{
	uint64_t   *h;
	size_t		n,
				cap;
	const tfp_match_env *env;
} hbuf;

static void
hbuf_sink(void *arg, const uint64_t *hashes, size_t n)
{
	hbuf	   *b = (hbuf *) arg;

	if (b->env->tick)
		b->env->tick();
	if (n == 0)
		return;
	if (b->h == NULL)
		b->h = b->env->alloc(b->env->arg, (b->cap = MAX2(b->cap, n)) * sizeof(uint64_t));
	else if (b->n + n > b->cap)
	{
		size_t		cap = MAX2(b->cap * 2, b->n + n);

		b->h = b->env->realloc(b->env->arg, b->h, cap * sizeof(uint64_t));
		b->cap = cap;
	}
	memcpy(b->h + b->n, hashes, n * sizeof(uint64_t));
	b->n += n;
}

/* the features of s[0..len) in text order (*n), Han ones in *nhan */
static uint64_t *
feature_seq(const char *s, size_t len, const tfp_feature_opts *o, const tfp_match_env *env,
			size_t *n, uint64_t *nhan)
{
	hbuf		b = {NULL, 0, 256, env};
	uint64_t	h;

	b.h = env->alloc(env->arg, b.cap * sizeof(uint64_t));
	tfp_extract_features_counted(s, len, o, hbuf_sink, &b, &h);
	*n = b.n;
	if (nhan)
		*nhan = h;
	return b.h;
}

/* the distinct values of v[0..n) sorted as int8, in v itself (*nout) */
static uint64_t *
sort_unique(uint64_t *v, size_t n, const tfp_match_env *env, size_t *nout)
{
	uint64_t   *scratch = n >= 64 ? env->alloc(env->arg, n * sizeof(uint64_t)) : NULL;

	*nout = tfp_sort_unique_u64(v, n, scratch);
	release(env, scratch);
	return v;
}

/* a sorted distinct copy of v[0..n) */
static uint64_t *
sorted_set(const uint64_t *v, size_t n, const tfp_match_env *env, size_t *nout)
{
	uint64_t   *c = env->alloc(env->arg, MAX2(n, 1) * sizeof(uint64_t));

	memcpy(c, v, n * sizeof(uint64_t));
	return sort_unique(c, n, env, nout);
}

/* ---------------------------------------------------------------- a side */

static void *
html_grow(void *ctx, void *p, size_t n)
{
	const tfp_match_env *env = (const tfp_match_env *) ctx;

	return p == NULL ? env->alloc(env->arg, n) : env->realloc(env->arg, p, n);
}

static void
html_release(void *ctx, void *p)
{
	release((const tfp_match_env *) ctx, p);
}

/*
 * The features of a side's text s[0..len) (after extraction and fold).  A
 * text without Han features (han2 = 0: every run of Han letters gives at
 * least one, counted, whatever the n-gram size) has the same features with
 * Han bigrams as with Han characters: its words, whose hashes do not depend
 * on the n-gram size.  Its character sequence is then its bigram sequence,
 * not kept twice.  A text that may have Han letters (wide: a byte of a 3-
 * or 4-byte sequence) has its bigrams and characters read in one pass
 * (tfp_extract_features_dual()), one without its bigrams only (and its
 * characters, were it to have Han features); one without Han features
 * has its shingles made from its words (tfp_word_shingles()), not read
 * again.  The sets are those of the sequences, the simhash that of the
 * bigram-kind sequence (as tfp_simhash_text); the shingles those of
 * j[0..jlen) when given (model 2: the text with its lines of Han text run
 * together).
 */
static void
side_features(const char *s, size_t len, const char *j, size_t jlen, int wide,
			  const tfp_match_env *env, tfp_match_side *m)
{
	tfp_feature_opts o5 = {5, 3, FOLDS};
	tfp_feature_opts o2 = {2, 1, FOLDS};
	tfp_feature_opts o1 = {1, 1, FOLDS};
	tfp_simhash_acc acc;

	if (wide)
	{
		/* bigrams and characters in one pass */
		hbuf		b2 = {NULL, 0, 256, env},
					b1 = {NULL, 0, 256, env};
		uint64_t	lead;

		b2.h = env->alloc(env->arg, b2.cap * sizeof(uint64_t));
		/* (b1 allocated by its first batch: none without Han letters) */
		tfp_extract_features_dual(s, len, &o2, hbuf_sink, &b2, hbuf_sink, &b1, &m->han2,
								  &lead);
		m->seq2 = b2.h;
		m->nseq2 = b2.n;
		if (m->han2 == 0)
		{
			release(env, b1.h);
			m->seq1 = m->seq2;
			m->nseq1 = m->nseq2;
		}
		else
		{
			/* the words before the first Han character, then the rest */
			m->nseq1 = (size_t) lead + b1.n;
			m->seq1 = env->alloc(env->arg, MAX2(m->nseq1, 1) * sizeof(uint64_t));
			memcpy(m->seq1, m->seq2, (size_t) lead * sizeof(uint64_t));
			if (b1.n > 0)
				memcpy(m->seq1 + lead, b1.h, b1.n * sizeof(uint64_t));
			release(env, b1.h);
		}
	}
	else
	{
		m->seq2 = feature_seq(s, len, &o2, env, &m->nseq2, &m->han2);
		if (m->han2 == 0)
		{
			m->seq1 = m->seq2;
			m->nseq1 = m->nseq2;
		}
		else
			m->seq1 = feature_seq(s, len, &o1, env, &m->nseq1, NULL);
	}
	if (j != NULL)
		m->seq5 = feature_seq(j, jlen, &o5, env, &m->nseq5, NULL);
	else if (m->han2 == 0)
	{
		/* no Han feature: the shingles are those of the words, which are
		 * the bigram-kind sequence (not read again) */
		m->seq5 = env->alloc(env->arg, MAX2(m->nseq2, 1) * sizeof(uint64_t));
		m->nseq5 = tfp_word_shingles(m->seq2, m->nseq2, o5.shingle, m->seq5);
	}
	else
		m->seq5 = feature_seq(s, len, &o5, env, &m->nseq5, NULL);
	m->s5 = sorted_set(m->seq5, m->nseq5, env, &m->n5);
	m->all2 = m->nseq2;
	m->s2 = sorted_set(m->seq2, m->nseq2, env, &m->n2);
	tfp_simhash_init(&acc);
	tfp_simhash_add(&acc, m->seq2, m->nseq2);
	m->sh = tfp_simhash_finish_centered(&acc, m->han2, o2.ngram, o2.shingle);
	m->text = s;
	m->len = len;
}

int
tfp_match_side_read(const char *s, size_t len, int html, const tfp_match_env *env,
					tfp_match_side *m)
{
	size_t		i = 0;
	char	   *out;

	memset(m, 0, sizeof(*m));
	m->env = env;
	m->html = html == TFP_MATCH_HTML_ALWAYS ||
		(html == TFP_MATCH_HTML_AUTO && tfp_html_looks_like(s, len));
	if (m->html)
	{
		tfp_html_alloc a = {html_grow, html_release, (void *) env};
		tfp_html_opts ho = {1, 1, 0};
		char	   *t;
		size_t		tlen;

		if (tfp_html_text(s, len, &ho, &a, env->tick, &t, &tlen) != 0)
			return TFP_MATCH_EHTML;
		s = t;
		len = tlen;
	}

	/*
	 * The Taiwan wording fold (tfp_twfold.h): traditional script and Taiwan
	 * vocabulary as mainland simplified vocabulary.  A text without a byte
	 * of a 3- or 4-byte UTF-8 sequence has no Han letter and is its own fold.
	 */
	while (i < len && (unsigned char) s[i] < 0xE0)
		i++;
	m->text = s;
	m->len = len;
	m->own = m->html ? (char *) s : NULL;
	if (i == len)
		return TFP_MATCH_OK;
	if (len > (SIZE_MAX / 2 - 1) / 4)
		return TFP_MATCH_ETOOLONG;
	out = env->alloc(env->arg, TFP_TWFOLD_BOUND(len) + 1);
	m->len = tfp_twfold(s, len, out, env->tick);
	release(env, m->own);		/* the extracted text, folded */
	m->text = m->own = out;
	m->wide = 1;
	return TFP_MATCH_OK;
}

/* give back a side's full-text features (of either kind) */
static void
side_drop_full(tfp_match_side *m)
{
	const tfp_match_env *env = m->env;

	if (m->seq1 != m->seq2)
		release(env, m->seq1);
	release(env, m->seq2);
	release(env, m->s2);
	release(env, m->seq5);
	release(env, m->s5);
	m->seq1 = m->seq2 = m->s2 = m->seq5 = m->s5 = NULL;
	m->nseq1 = m->nseq2 = m->n2 = m->nseq5 = m->n5 = 0;
	m->full = 0;
}

void
tfp_match_side_free(tfp_match_side *m)
{
	const tfp_match_env *env = m->env;

	if (env)
	{
		side_drop_full(m);
		release(env, m->sp);
		release(env, m->dna);
		release(env, m->lines);
		release(env, m->lhash);
		release(env, m->own);
	}
	memset(m, 0, sizeof(*m));
}

/*
 * The pinyin features of a side (only computed when a text has Chinese:
 * otherwise the model does not use them): the shingles of its pinyin() and
 * its pinyin_dna() with the defaults (window 32, overlap 50, 4 levels,
 * content-defined windows).
 */
static void
side_pinyin(tfp_match_side *m)
{
	const tfp_match_env *env = m->env;
	tfp_feature_opts o5 = {5, 3, FOLDS};
	tfp_dna_opts dopt = {32, 50, 4, 1};
	size_t		cap = 2 * m->len + 16,
				plen,
				nl;
	char	   *py,
			   *l;
	hbuf		b = {NULL, 0, 256, env};
	uint64_t	nhan,
			   *w;
	size_t		nw;

	tfp_pinyin_tick = env->tick;
	/* the words of the pinyin text, without the text, and their shingles
	 * (the same features: FOLDS are tfp_pinyin_words()'s folds) */
	w = env->alloc(env->arg, MAX2(m->len, 1) * sizeof(uint64_t));
	nw = tfp_pinyin_words(m->text, m->len, w);
	if (nw != SIZE_MAX)
	{
		b.h = w;				/* the shingles in place */
		b.n = tfp_word_shingles(w, nw, o5.shingle, w);
		if (env->tick)
			env->tick();
	}
	else
	{
		release(env, w);
		/* one pass into a buffer of twice the text, usually enough (a
		 * 3-byte character becomes a syllable of 1-6 letters and a
		 * space) */
		py = env->alloc(env->arg, cap + 1);
		plen = tfp_pinyin_text_bounded(m->text, m->len, 0, py, cap);
		if (plen > cap)
		{
			release(env, py);
			plen = tfp_pinyin_text(m->text, m->len, 0, NULL);
			py = env->alloc(env->arg, plen + 1);
			tfp_pinyin_text(m->text, m->len, 0, py);
		}
		py[plen] = '\0';
		b.h = env->alloc(env->arg, b.cap * sizeof(uint64_t));
		tfp_extract_features_counted(py, plen, &o5, hbuf_sink, &b, &nhan);
		release(env, py);
	}
	m->sp = sort_unique(b.h, b.n, env, &m->np);

	/* the letters (interruptible), then the DNA */
	l = env->alloc(env->arg, m->len + 1);
	nl = tfp_pinyin_letters_ticked(m->text, m->len, l, env->tick);
	m->dna = env->alloc(env->arg, MAX2(tfp_dna_max_windows(nl, &dopt), 1) * sizeof(int64_t));
	m->ndna = tfp_dna_windows(l, nl, &dopt, m->dna);
	release(env, l);
	m->have_py = 1;
}

/*
 * The features of two sides (pinyin ones when either has Han letters);
 * *dist: the simhash distance.  Two texts without Han letters have their
 * character sequences equal to their bigram sequences (side_features()):
 * ord1 is ord.
 */
static void
pair_features(tfp_match_side *a, tfp_match_side *b, const tfp_match_env *env,
			  tfp_match_features *f, int *dist)
{
	int			same1 = a->seq1 == a->seq2 && b->seq1 == b->seq2;
	double		dummy;
	size_t		need,
				r,
				mn;
	uint64_t   *scratch;

	if (a->han2 + b->han2 > 0)
	{
		if (!a->have_py)
			side_pinyin(a);
		if (!b->have_py)
			side_pinyin(b);
	}
	tfp_match_sets(a->s5, a->n5, b->s5, b->n5, &f->j5, &f->c5);
	tfp_match_sets(a->s2, a->n2, b->s2, b->n2, &f->j2, &f->c2);
	tfp_match_sets(a->sp, a->np, b->sp, b->np, &f->pj, &f->pc);
	tfp_match_sets((const uint64_t *) a->dna, a->ndna, (const uint64_t *) b->dna, b->ndna,
				   &f->dna, &dummy);
	need = MAX2(tfp_match_order_scratch(a->nseq2, b->nseq2),
				tfp_match_order_scratch(a->nseq1, b->nseq1));
	need = MAX2(need, MAX2(tfp_match_run_scratch(a->n5), tfp_match_run_scratch(b->n5)));
	scratch = env->alloc(env->arg, need * sizeof(uint64_t));
	/* both ways: each caps occurrences in the other text (symmetric) */
	f->ord = tfp_match_order_both(a->seq2, a->nseq2, b->seq2, b->nseq2, scratch);
	if (same1)
		f->ord1 = f->ord;
	else
		f->ord1 = tfp_match_order_both(a->seq1, a->nseq1, b->seq1, b->nseq1, scratch);
	r = MAX2(tfp_match_run(a->seq5, a->nseq5, b->s5, b->n5, scratch),
			 tfp_match_run(b->seq5, b->nseq5, a->s5, a->n5, scratch));
	mn = MIN2(a->nseq5, b->nseq5);
	f->run = mn == 0 ? 0.0 : MIN2(1.0, (double) r / (double) mn);
	release(env, scratch);
	*dist = tfp_hamming64(a->sh, b->sh);
	f->sim = (a->n2 == 0 || b->n2 == 0) ? 0.0 : 1.0 - *dist / 64.0;
	f->zh = (a->all2 + b->all2) == 0 ? 0.0 :
		(double) (a->han2 + b->han2) / (double) (a->all2 + b->all2);
}

/* ---------------------------------------------------------------- model 2 */

/* the middle of a side: its lines [lead, trail) without the short lines
 * of set[0..n) (tfp_match_middle), and its shingles with its lines of Han
 * text run together */
static void
side_middle(const tfp_match_side *m, tfp_match_line *l, size_t lead, size_t trail,
			const uint64_t *set, size_t n, const tfp_match_env *env, tfp_match_side *mid)
{
	size_t		room = l[trail - 1].end - l[lead].start + 1;
	char	   *out = env->alloc(env->arg, room),
			   *joined = NULL;
	size_t		len = tfp_match_middle(m->text, l, lead, trail, set, n, 0, out),
				jlen = 0;

	if (m->wide && tfp_match_han_first(m->text, l, lead, trail) < trail)
	{
		joined = env->alloc(env->arg, room);
		jlen = tfp_match_middle(m->text, l, lead, trail, set, n, 1, joined);
	}
	memset(mid, 0, sizeof(*mid));
	mid->env = env;
	side_features(out, len, joined, jlen, m->wide, env, mid);
	mid->own = out;
	mid->html = m->html;
	mid->wide = m->wide;
	mid->full = 2;
	release(env, joined);
}

/* the bytes of lines [lo, hi) other than white space at their ends */
static double
line_bytes(const tfp_match_line *l, size_t lo, size_t hi)
{
	double		n = 0;

	for (size_t i = lo; i < hi; i++)
		n += (double) (l[i].end - l[i].start);
	return n;
}

/* the bytes of the long lines (TFP_MATCH_LONG bytes or more) among [lo, hi) */
static double
long_bytes(const tfp_match_line *l, size_t lo, size_t hi)
{
	double		n = 0;

	for (size_t i = lo; i < hi; i++)
		if (l[i].end - l[i].start >= TFP_MATCH_LONG)
			n += (double) (l[i].end - l[i].start);
	return n;
}

/*
 * The non-blank lines of s[0..len) (tfp_match_lines) in one pass, into a
 * buffer grown as needed (one line in 48 bytes first: most texts' lines
 * are longer), their count in *n
 */
static tfp_match_line *
split_lines(const char *s, size_t len, const tfp_match_env *env, size_t *n)
{
	size_t		cap = len / 48 + 16,
				pos = 0;
	tfp_match_line *l = env->alloc(env->arg, cap * sizeof(tfp_match_line));

	*n = tfp_match_lines_part(s, len, &pos, l, cap);
	while (pos < len)
	{
		if (env->tick)
			env->tick();
		cap *= 2;
		l = env->realloc(env->arg, l, cap * sizeof(tfp_match_line));
		*n += tfp_match_lines_part(s, len, &pos, l + *n, cap - *n);
	}
	if (env->tick)
		env->tick();
	return l;
}

/* a side's lines, split once (in the side's memory) */
static void
side_lines(tfp_match_side *m)
{
	if (!m->have_lines)
	{
		m->lines = split_lines(m->text, m->len, m->env, &m->nlines);
		m->have_lines = 1;
	}
}

/*
 * A side's room for its line hashes and its line bytes (have_lset 1), then
 * the hashes of all its lines and their sorted set (2): once each, in the
 * side's memory.  A pair hashes and sorts the lines of its longer text
 * (the set the other's lines are looked up in) and hashes the lines of
 * the shorter one only as far as they are read (tfp_match_unshared stops
 * once the share is above its cap).
 */
static void
side_lset(tfp_match_side *m, int level)
{
	if (m->have_lset < 1)
	{
		side_lines(m);
		m->lhash = m->env->alloc(m->env->arg, MAX2(m->nlines, 1) * 2 * sizeof(uint64_t));
		m->nlhash = 0;
		m->lbytes = line_bytes(m->lines, 0, m->nlines);
		m->have_lset = 1;
	}
	if (level >= 2 && m->have_lset < 2)
	{
		tfp_match_line_hashes(m->text, m->lines + m->nlhash, m->nlines - m->nlhash,
							  m->lhash + m->nlhash);
		m->nlhash = m->nlines;
		m->lset = m->lhash + m->nlines;
		m->nlset = tfp_match_line_set(m->lhash, m->nlines, m->lset);
		m->have_lset = 2;
		if (m->env->tick)
			m->env->tick();
	}
}

/* the share of x's line bytes in lines y does not have (cap: below) */
static double
side_unshared(tfp_match_side *x, tfp_match_side *y, double cap)
{
	side_lset(y, 2);
	return tfp_match_unshared(x->text, x->lines, x->nlines, x->lhash, &x->nlhash,
							  y->lset, y->nlset, cap);
}

/*
 * Model 3's unshared (tfp_match.h): the share of the shorter text's line
 * bytes (fewer line bytes; of the two the less when they tie, so that the
 * pair's order does not matter) in lines the other text has nowhere; 1 as
 * soon as it is known to be above cap (model 3 reads max(0, 1 - 10
 * unshared), the same for any value from 0.1 on: its z does not change;
 * textfp_match_features asks for the exact share, cap 1).
 */
static double
pair_unshared(tfp_match_side *a, tfp_match_side *b, double cap)
{
	side_lset(a, 1);
	side_lset(b, 1);
	if (a->lbytes < b->lbytes)
		return side_unshared(a, b, cap);
	if (b->lbytes < a->lbytes)
		return side_unshared(b, a, cap);
	return MIN2(side_unshared(a, b, cap), side_unshared(b, a, cap));
}

/*
 * The features of a side's full text, once (in the side's memory): kind 1
 * of the text as it is (model 1, textfp_match_features' first part), kind
 * 2 with its shingles read with its lines of Han text run together (model
 * 2; the text itself when no break lies between two Han letters).  The
 * count of bigram-kind features (n2, all2, han2) and the sequences seq2 and
 * seq1 are the same in both: only seq5 and s5 differ.
 */
static void
side_full(tfp_match_side *m, int kind)
{
	const tfp_match_env *env = m->env;
	char	   *joined = NULL;
	size_t		jlen = 0;

	if (m->full == kind)
		return;
	if (m->full)
		side_drop_full(m);
	if (kind == 2)
	{
		size_t		first;

		side_lines(m);
		first = m->wide ? tfp_match_han_first(m->text, m->lines, 0, m->nlines) : m->nlines;
		if (first < m->nlines)
		{
			joined = env->alloc(env->arg, m->len + 1);
			jlen = tfp_match_joined(m->text, m->lines, m->nlines, first, joined);
		}
	}
	side_features(m->text, m->len, joined, jlen, m->wide, env, m);
	release(env, joined);
	m->full = kind;
}

/*
 * Model 2's middles (tfp_match.h): the common edges of the two texts (their
 * text only: no feature of the full texts is needed), taken in a fixed
 * order of the two (shorter first, then by bytes) so that the result is
 * symmetric.  When both keep a middle: the middles with their features
 * (*mx, *my), the edge share of the shorter text and its share in long
 * edge lines (p->edge, p->edge_long), and 1; otherwise 0, 0 and 0.  The
 * lines of a and b stay with them (side_lines).
 */
static int
pair_middles(tfp_match_side *a, tfp_match_side *b, const tfp_match_env *env,
			 tfp_match_side *mx, tfp_match_side *my, tfp_match_pair *p)
{
	tfp_match_side *x = a,
			   *y = b;
	tfp_match_line *lx,
			   *ly;
	size_t		nx,
				ny;
	tfp_match_cut c;
	int			cut = 0;

	p->edge = p->edge_long = 0.0;
	if (x->len > y->len ||
		(x->len == y->len && memcmp(x->text, y->text, x->len) > 0))
	{
		x = b;
		y = a;
	}
	side_lines(x);
	side_lines(y);
	lx = x->lines;
	nx = x->nlines;
	ly = y->lines;
	ny = y->nlines;
	tfp_match_edges(x->text, lx, nx, y->text, ly, ny, &c);
	if ((c.lead_a > 0 || c.trail_a < nx) && c.lead_a < c.trail_a && c.lead_b < c.trail_b)
	{
		double		all = line_bytes(lx, 0, nx);
		uint64_t   *sx = env->alloc(env->arg, (c.trail_a - c.lead_a) * sizeof(uint64_t)),
				   *sy = env->alloc(env->arg, (c.trail_b - c.lead_b) * sizeof(uint64_t));
		size_t		nsx = tfp_match_short_set(x->text, lx, c.lead_a, c.trail_a, sx),
					nsy = tfp_match_short_set(y->text, ly, c.lead_b, c.trail_b, sy);

		side_middle(x, lx, c.lead_a, c.trail_a, sy, nsy, env, mx);
		side_middle(y, ly, c.lead_b, c.trail_b, sx, nsx, env, my);
		cut = 1;
		p->edge = all > 0 ? 1.0 - line_bytes(lx, c.lead_a, c.trail_a) / all : 0.0;
		p->edge_long = all > 0 ? (long_bytes(lx, 0, c.lead_a) + long_bytes(lx, c.trail_a, nx)) / all : 0.0;
		release(env, sx);
		release(env, sy);
	}
	return cut;
}

/* ---------------------------------------------------------------- a pair */

void
tfp_match_eval(tfp_match_side *a, tfp_match_side *b, const tfp_match_model *model,
			   const tfp_match_env *env, tfp_match_result *r)
{
	tfp_match_side mx,
				my;
	tfp_match_pair p;
	int			empty;

	/*
	 * Model 2 reads the middles only (and the edge shares): when the texts
	 * share edges, the similarities returned are those of the middles and
	 * the full texts' are not computed (once, not twice, per pair); a text
	 * without features copies nothing, which needs the full texts'
	 * features when a middle has none.
	 */
	if (model->version >= 2 && pair_middles(a, b, env, &mx, &my, &p))
	{
		pair_features(&mx, &my, env, &p.mid, &r->dist);
		p.full = p.mid;
		empty = 0;
		if (mx.n2 == 0 || my.n2 == 0)
		{
			/* n2 is the same for both kinds of full features */
			if (!a->full)
				side_full(a, 2);
			if (!b->full)
				side_full(b, 2);
			empty = a->n2 == 0 || b->n2 == 0;
		}
		tfp_match_side_free(&mx);
		tfp_match_side_free(&my);
	}
	else if (model->version >= 2)
	{
		side_full(a, 2);
		side_full(b, 2);
		pair_features(a, b, env, &p.full, &r->dist);
		p.mid = p.full;
		empty = a->n2 == 0 || b->n2 == 0;
	}
	else
	{
		side_full(a, 1);
		side_full(b, 1);
		pair_features(a, b, env, &p.full, &r->dist);
		p.mid = p.full;
		empty = a->n2 == 0 || b->n2 == 0;
	}
	p.unshared = model->version >= 3 ? pair_unshared(a, b, TFP_MATCH_UNSHARED_CAP) : 0.0;
	r->f = p.mid;
	r->z = tfp_match_z(model, &p);
	if (empty)
		r->z = -INFINITY;		/* a text without features copies nothing */
	r->verdict = r->z >= model->threshold;
	r->score = 1.0 / (1.0 + exp(-r->z));
}

void
tfp_match_eval_features(tfp_match_side *a, tfp_match_side *b, const tfp_match_env *env,
						tfp_match_pair *p)
{
	tfp_match_side mx,
				my;
	int			dist;

	side_full(a, 1);
	side_full(b, 1);
	pair_features(a, b, env, &p->full, &dist);
	if (pair_middles(a, b, env, &mx, &my, p))
	{
		pair_features(&mx, &my, env, &p->mid, &dist);
		tfp_match_side_free(&mx);
		tfp_match_side_free(&my);
	}
	else
	{
		/* no common edge: model 2 reads the full texts, with the lines of
		 * Han text run together for its shingles */
		side_full(a, 2);
		side_full(b, 2);
		pair_features(a, b, env, &p->mid, &dist);
	}
	p->unshared = pair_unshared(a, b, 1.0);
}
