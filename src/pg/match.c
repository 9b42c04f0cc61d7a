/*
 * match.c -- textfp_match(): is b a copy of a?  One calibrated verdict and
 * score from the texts' similarities (features and model: tfp_match.c;
 * pages are read with html_text()'s extraction, Chinese with the Taiwan
 * wording fold of tfp_twfold.c)
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "textfp.h"
#include "html_text.h"
#include "tfp_match.h"
#include "tfp_twfold.h"

/* what textfp_match needs of one text */
typedef struct match_side
{
	bool		html,			/* read as HTML */
				wide;			/* has a byte of a 3- or 4-byte UTF-8
								 * sequence (else no Han letter) */
	uint64	   *s5,				/* distinct shingles: 5-gram/3-word, */
			   *s2,				/* bigram/word, pinyin 3-shingles */
			   *sp;
	size_t		n5,
				n2,
				np;
	uint64		han2,			/* features of the bigram kind: Han ones, all */
				all2;
	uint64	   *seq5,			/* 5-gram/3-word features in text order, */
			   *seq2,			/* bigram/word ones, */
			   *seq1;			/* Han characters and words */
	size_t		nseq5,
				nseq2,
				nseq1;
	uint64		sh;				/* simhash */
	int64	   *dna;
	size_t		ndna;
	const char *text;			/* the text (UTF-8, after HTML extraction) */
	size_t		len;
	tfp_match_line *lines;		/* its lines (model 2: pair_middles) */
	size_t		nlines;
} match_side;

#define FOLDS (TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN)

/*
 * The text with the Taiwan wording fold (tfp_twfold.h): traditional script
 * and Taiwan vocabulary as mainland simplified vocabulary.  A text without
 * a byte of a 3- or 4-byte UTF-8 sequence has no Han letter and is its own
 * fold.
 */
static const char *
tw_fold(const char *s, size_t *len)
{
	size_t		i = 0;
	char	   *out;

	while (i < *len && (unsigned char) s[i] < 0xE0)
		i++;
	if (i == *len)
		return s;
	if (*len > (MaxAllocHugeSize - 1) / 4)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("text too long for textfp_match"),
				 errdetail("The text has %zu bytes; the Chinese wording fold needs four times as many.",
						   *len)));
	out = palloc_extended(TFP_TWFOLD_BOUND(*len) + 1, MCXT_ALLOC_HUGE);
	*len = tfp_twfold(s, *len, out, textfp_interrupt_tick);
	return out;
}

/*
 * The features of a side's text s[0..len) (after extraction and fold).  A
 * text without Han features (han2 = 0: every run of Han letters gives at
 * least one, counted, whatever the n-gram size) has the same features with
 * Han bigrams as with Han characters: its words, whose hashes do not depend
 * on the n-gram size.  Its character sequence is then its bigram sequence,
 * not read again.
 */
static void
side_features(const char *s, size_t len, const char *j, size_t jlen, match_side *m)
{
	tfp_feature_opts o5 = {5, 3, FOLDS};
	tfp_feature_opts o2 = {2, 1, FOLDS};
	tfp_feature_opts o1 = {1, 1, FOLDS};
	tfp_simhash_acc acc;

	/* three passes over the text: the sets are those of the sequences, the
	 * simhash that of the bigram-kind sequence (as tfp_simhash_text); the
	 * shingles those of j[0..jlen) when given (model 2: the text with its
	 * lines of Han text run together) */
	if (j != NULL)
		m->seq5 = textfp_feature_seq_utf8(j, jlen, &o5, &m->nseq5);
	else
		m->seq5 = textfp_feature_seq_utf8(s, len, &o5, &m->nseq5);
	m->s5 = textfp_sorted_set(m->seq5, m->nseq5, &m->n5);
	m->seq2 = textfp_feature_seq_counted_utf8(s, len, &o2, &m->nseq2, &m->han2);
	m->all2 = m->nseq2;
	m->s2 = textfp_sorted_set(m->seq2, m->nseq2, &m->n2);
	if (m->han2 == 0)
	{
		m->seq1 = m->seq2;
		m->nseq1 = m->nseq2;
	}
	else
		m->seq1 = textfp_feature_seq_utf8(s, len, &o1, &m->nseq1);
	tfp_simhash_init(&acc);
	tfp_simhash_add(&acc, m->seq2, m->nseq2);
	m->sh = tfp_simhash_finish_centered(&acc, m->han2, o2.ngram, o2.shingle);
	m->text = s;
	m->len = len;
	m->sp = NULL;
	m->np = 0;
	m->dna = NULL;
	m->ndna = 0;
}

/* a side's text (after extraction and fold); its features come after */
static void
side_text(text *t, int html_mode, match_side *m)
{
	size_t		len;
	const char *s = textfp_text_utf8(t, &len),
			   *folded;
	bool		html = html_mode == 1 || (html_mode == 0 && tfp_html_looks_like(s, len));

	if (html)
	{
		tfp_html_opts ho = {1, 1, 0};

		s = textfp_html_extract(s, len, &ho, &len);
	}
	folded = tw_fold(s, &len);
	m->wide = folded != s;
	s = folded;
	m->text = s;
	m->len = len;
	m->html = html;
}

/* the pinyin features of a side (only computed when a text has Chinese:
 * otherwise the model does not use them) */
static void
side_pinyin(match_side *m)
{
	tfp_feature_opts o5 = {5, 3, FOLDS};
	size_t		plen;
	char	   *py = textfp_pinyin_utf8(m->text, m->len, &plen);

	m->sp = textfp_shingle_set_utf8(py, plen, &o5, &m->np, NULL, NULL);
	m->dna = textfp_pinyin_dna_utf8(m->text, m->len, &m->ndna);
}

/*
 * The features of two sides (pinyin ones when either has Han letters);
 * *dist: the simhash distance.  Two texts without Han letters have their
 * character sequences equal to their bigram sequences (side_features()):
 * ord1 is ord.
 */
static void
pair_features(match_side *a, match_side *b, tfp_match_features *f, int *dist)
{
	bool		same1 = a->seq1 == a->seq2 && b->seq1 == b->seq2;

	double		dummy;

	if (a->han2 + b->han2 > 0)
	{
		side_pinyin(a);
		side_pinyin(b);
	}
	tfp_match_sets(a->s5, a->n5, b->s5, b->n5, &f->j5, &f->c5);
	tfp_match_sets(a->s2, a->n2, b->s2, b->n2, &f->j2, &f->c2);
	tfp_match_sets(a->sp, a->np, b->sp, b->np, &f->pj, &f->pc);
	tfp_match_sets((const uint64 *) a->dna, a->ndna, (const uint64 *) b->dna, b->ndna, &f->dna, &dummy);
	{
		size_t		need = Max(Max(tfp_match_order_scratch(a->nseq2), tfp_match_order_scratch(b->nseq2)),
							   Max(tfp_match_order_scratch(a->nseq1), tfp_match_order_scratch(b->nseq1)));
		uint64	   *scratch;
		size_t		r,
					mn;

		need = Max(need, Max(tfp_match_run_scratch(a->n5), tfp_match_run_scratch(b->n5)));
		scratch = palloc_extended(need * sizeof(uint64), MCXT_ALLOC_HUGE);
		/* both ways: each caps occurrences in the other text (symmetric) */
		f->ord = Max(tfp_match_order(a->seq2, a->nseq2, b->seq2, b->nseq2, scratch),
					 tfp_match_order(b->seq2, b->nseq2, a->seq2, a->nseq2, scratch));
		if (same1)
			f->ord1 = f->ord;
		else
			f->ord1 = Max(tfp_match_order(a->seq1, a->nseq1, b->seq1, b->nseq1, scratch),
						  tfp_match_order(b->seq1, b->nseq1, a->seq1, a->nseq1, scratch));
		r = Max(tfp_match_run(a->seq5, a->nseq5, b->s5, b->n5, scratch),
				tfp_match_run(b->seq5, b->nseq5, a->s5, a->n5, scratch));
		mn = Min(a->nseq5, b->nseq5);
		f->run = mn == 0 ? 0.0 : Min(1.0, (double) r / (double) mn);
		pfree(scratch);
	}
	*dist = tfp_hamming64(a->sh, b->sh);
	f->sim = (a->n2 == 0 || b->n2 == 0) ? 0.0 : 1.0 - *dist / 64.0;
	f->zh = (a->all2 + b->all2) == 0 ? 0.0 : (double) (a->han2 + b->han2) / (double) (a->all2 + b->all2);
}

/* the middle of a side: its lines [lead, trail) without the short lines
 * of set[0..n) (tfp_match_middle), and its shingles with its lines of Han
 * text run together */
static void
side_middle(const match_side *m, tfp_match_line *l, size_t lead, size_t trail,
			const uint64 *set, size_t n, match_side *mid)
{
	size_t		room = l[trail - 1].end - l[lead].start + 1;
	char	   *out = palloc_extended(room, MCXT_ALLOC_HUGE),
			   *joined = NULL;
	size_t		len = tfp_match_middle(m->text, l, lead, trail, set, n, 0, out),
				jlen = 0;

	if (m->wide && tfp_match_han_first(m->text, l, lead, trail) < trail)
	{
		joined = palloc_extended(room, MCXT_ALLOC_HUGE);
		jlen = tfp_match_middle(m->text, l, lead, trail, set, n, 1, joined);
	}
	side_features(out, len, joined, jlen, mid);
	mid->html = m->html;
	mid->wide = m->wide;
	if (joined)
		pfree(joined);
}

/*
 * The features of a side's full text for model 2: its shingles with its
 * lines of Han text run together (its lines: pair_middles); the text
 * itself when no break lies between two Han letters.
 */
static void
side_features2(match_side *m)
{
	char	   *joined = NULL;
	size_t		jlen = 0,
				first = m->wide ? tfp_match_han_first(m->text, m->lines, 0, m->nlines) : m->nlines;

	if (first < m->nlines)
	{
		joined = palloc_extended(m->len + 1, MCXT_ALLOC_HUGE);
		jlen = tfp_match_joined(m->text, m->lines, m->nlines, first, joined);
	}
	side_features(m->text, m->len, joined, jlen, m);
	if (joined)
		pfree(joined);
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
split_lines(const char *s, size_t len, size_t *n)
{
	size_t		cap = len / 48 + 16,
				pos = 0;
	tfp_match_line *l = palloc_extended(cap * sizeof(tfp_match_line), MCXT_ALLOC_HUGE);

	*n = tfp_match_lines_part(s, len, &pos, l, cap);
	while (pos < len)
	{
		CHECK_FOR_INTERRUPTS();
		cap *= 2;
		l = repalloc_huge(l, cap * sizeof(tfp_match_line));
		*n += tfp_match_lines_part(s, len, &pos, l + *n, cap - *n);
	}
	CHECK_FOR_INTERRUPTS();
	return l;
}

/*
 * Model 2's middles (tfp_match.h): the common edges of the two texts (their
 * text only: no feature of the full texts is needed), taken in a fixed
 * order of the two (shorter first, then by bytes) so that the result is
 * symmetric.  When both keep a middle: the middles with their features
 * (*mx, *my), the edge share of the shorter text and its share in long
 * edge lines (p->edge, p->edge_long), and true; otherwise 0, 0 and false.
 * The lines of a and b stay in a->lines and b->lines (side_features2).
 */
static bool
pair_middles(match_side *a, match_side *b, match_side *mx, match_side *my, tfp_match_pair *p)
{
	match_side *x = a,
			   *y = b;
	tfp_match_line *lx,
			   *ly;
	size_t		nx,
				ny;
	tfp_match_cut c;
	bool		cut = false;

	p->edge = p->edge_long = 0.0;
	if (x->len > y->len ||
		(x->len == y->len && memcmp(x->text, y->text, x->len) > 0))
	{
		x = b;
		y = a;
	}
	lx = split_lines(x->text, x->len, &nx);
	ly = split_lines(y->text, y->len, &ny);
	tfp_match_edges(x->text, lx, nx, y->text, ly, ny, &c);
	if ((c.lead_a > 0 || c.trail_a < nx) && c.lead_a < c.trail_a && c.lead_b < c.trail_b)
	{
		double		all = line_bytes(lx, 0, nx);
		uint64	   *sx = palloc_extended((c.trail_a - c.lead_a) * sizeof(uint64), MCXT_ALLOC_HUGE),
				   *sy = palloc_extended((c.trail_b - c.lead_b) * sizeof(uint64), MCXT_ALLOC_HUGE);
		size_t		nsx = tfp_match_short_set(x->text, lx, c.lead_a, c.trail_a, sx),
					nsy = tfp_match_short_set(y->text, ly, c.lead_b, c.trail_b, sy);

		side_middle(x, lx, c.lead_a, c.trail_a, sy, nsy, mx);
		side_middle(y, ly, c.lead_b, c.trail_b, sx, nsx, my);
		cut = true;
		p->edge = all > 0 ? 1.0 - line_bytes(lx, c.lead_a, c.trail_a) / all : 0.0;
		p->edge_long = all > 0 ? (long_bytes(lx, 0, c.lead_a) + long_bytes(lx, c.trail_a, nx)) / all : 0.0;
	}
	x->lines = lx;
	x->nlines = nx;
	y->lines = ly;
	y->nlines = ny;
	return cut;
}

static int
html_mode(text *t)
{
	char	   *m = text_to_cstring(t);

	if (strcmp(m, "auto") == 0)
		return 0;
	if (strcmp(m, "always") == 0)
		return 1;
	if (strcmp(m, "never") == 0)
		return 2;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("html must be 'auto', 'always' or 'never', not \"%s\"", m),
			 errdetail("'auto' reads a text as HTML when it starts like an HTML document.")));
	return 0;
}

/*
 * textfp_match(a text, b text, html text, model int4,
 *				OUT verdict bool, OUT score float8, OUT shingle_jaccard float8,
 *				OUT shingle_containment float8, OUT bigram_jaccard float8,
 *				OUT bigram_containment float8, OUT simhash_distance int4,
 *				OUT pinyin_dna_similarity float8, OUT pinyin_jaccard float8,
 *				OUT pinyin_containment float8, OUT ordered float8, OUT chinese float8,
 *				OUT html_a bool, OUT html_b bool) returns record
 */
PG_FUNCTION_INFO_V1(textfp_match);
Datum
textfp_match(PG_FUNCTION_ARGS)
{
	int			mode = html_mode(PG_GETARG_TEXT_PP(2));
	int32		version = PG_GETARG_INT32(3);
	const tfp_match_model *model = tfp_match_get_model(version);
	match_side	a,
				b,
				mx,
				my;
	tfp_match_features f;
	tfp_match_pair p;
	double		z;
	int			dist;
	bool		empty;
	TupleDesc	td;
	Datum		values[16];
	bool		nulls[16] = {0};

	if (model == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("textfp_match model must be 1 to %d, not %d",
						tfp_match_models[tfp_match_nmodels - 1].version, version),
				 errdetail("Model %d is the default; model 1 is the first, kept unchanged.",
						   tfp_match_models[tfp_match_nmodels - 1].version)));
	if (get_call_result_type(fcinfo, NULL, &td) != TYPEFUNC_COMPOSITE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("textfp_match must be called in a context that accepts a record")));
	side_text(PG_GETARG_TEXT_PP(0), mode, &a);
	side_text(PG_GETARG_TEXT_PP(1), mode, &b);

	/*
	 * Model 2 reads the middles only (and the edge shares): when the texts
	 * share edges, the similarities returned are those of the middles and
	 * the full texts' are not computed (once, not twice, per pair); a text
	 * without features copies nothing, which needs the full texts'
	 * features when a middle has none.
	 */
	if (version >= 2 && pair_middles(&a, &b, &mx, &my, &p))
	{
		pair_features(&mx, &my, &p.mid, &dist);
		p.full = p.mid;
		empty = false;
		if (mx.n2 == 0 || my.n2 == 0)
		{
			side_features(a.text, a.len, NULL, 0, &a);
			side_features(b.text, b.len, NULL, 0, &b);
			empty = a.n2 == 0 || b.n2 == 0;
		}
	}
	else if (version >= 2)
	{
		side_features2(&a);
		side_features2(&b);
		pair_features(&a, &b, &p.full, &dist);
		p.mid = p.full;
		empty = a.n2 == 0 || b.n2 == 0;
	}
	else
	{
		side_features(a.text, a.len, NULL, 0, &a);
		side_features(b.text, b.len, NULL, 0, &b);
		pair_features(&a, &b, &p.full, &dist);
		p.mid = p.full;
		empty = a.n2 == 0 || b.n2 == 0;
	}
	f = p.mid;
	z = tfp_match_z(model, &p);
	if (empty)
		z = -INFINITY;			/* a text without features copies nothing */
	values[0] = BoolGetDatum(z >= model->threshold);
	values[1] = Float8GetDatum(1.0 / (1.0 + exp(-z)));
	values[2] = Float8GetDatum(f.j5);
	values[3] = Float8GetDatum(f.c5);
	values[4] = Float8GetDatum(f.j2);
	values[5] = Float8GetDatum(f.c2);
	values[6] = Int32GetDatum(dist);
	values[7] = Float8GetDatum(f.dna);
	values[8] = Float8GetDatum(f.pj);
	values[9] = Float8GetDatum(f.pc);
	values[10] = Float8GetDatum(f.ord);
	values[11] = Float8GetDatum(f.ord1);
	values[12] = Float8GetDatum(f.run);
	values[13] = Float8GetDatum(f.zh);
	values[14] = BoolGetDatum(a.html);
	values[15] = BoolGetDatum(b.html);
	td = BlessTupleDesc(td);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(td, values, nulls)));
}

/*
 * textfp_match_features(a text, b text, html text) returns float8[]: what
 * the models read, for tools/fit_match.py: the 12 features of the full
 * texts (in the order of tfp_match_features), the edge share, the 12
 * features of the middles, the share in long edge lines (tfp_match.h)
 */
PG_FUNCTION_INFO_V1(textfp_match_features);
Datum
textfp_match_features(PG_FUNCTION_ARGS)
{
	int			mode = html_mode(PG_GETARG_TEXT_PP(2));
	match_side	a,
				b,
				mx,
				my;
	tfp_match_pair p;
	int			dist;
	Datum		d[26];
	const tfp_match_features *fs[2];

	side_text(PG_GETARG_TEXT_PP(0), mode, &a);
	side_text(PG_GETARG_TEXT_PP(1), mode, &b);
	side_features(a.text, a.len, NULL, 0, &a);
	side_features(b.text, b.len, NULL, 0, &b);
	pair_features(&a, &b, &p.full, &dist);
	if (!pair_middles(&a, &b, &mx, &my, &p))
	{
		/* no common edge: model 2 reads the full texts, with the lines of
		 * Han text run together for its shingles */
		mx = a;
		my = b;
		side_features2(&mx);
		side_features2(&my);
	}
	pair_features(&mx, &my, &p.mid, &dist);
	fs[0] = &p.full;
	fs[1] = &p.mid;
	for (int k = 0; k < 2; k++)
	{
		const tfp_match_features *f = fs[k];
		Datum	   *v = d + 13 * k;

		v[0] = Float8GetDatum(f->j5);
		v[1] = Float8GetDatum(f->c5);
		v[2] = Float8GetDatum(f->j2);
		v[3] = Float8GetDatum(f->c2);
		v[4] = Float8GetDatum(f->sim);
		v[5] = Float8GetDatum(f->dna);
		v[6] = Float8GetDatum(f->pj);
		v[7] = Float8GetDatum(f->pc);
		v[8] = Float8GetDatum(f->ord);
		v[9] = Float8GetDatum(f->ord1);
		v[10] = Float8GetDatum(f->run);
		v[11] = Float8GetDatum(f->zh);
	}
	d[12] = Float8GetDatum(p.edge);
	d[25] = Float8GetDatum(p.edge_long);
	PG_RETURN_ARRAYTYPE_P(construct_array(d, 26, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}
