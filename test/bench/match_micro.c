/*
 * match_micro.c -- the core of textfp_match() (tfp_match_side.c) on pairs
 * of benchmark documents, without PostgreSQL: the time per pair and a
 * checksum of every output, to compare two builds of the core (the same
 * checksum: the same outputs) and to profile it (perf record).
 *
 *   match_micro DOCS.TSV LANG ROUNDS MODEL KIND
 *
 * DOCS.TSV: tools/make_bench_docs.py's output; LANG zh or en; KIND plain
 * (document i against document i + 1 of the language: different texts),
 * copies (document i against itself with its paragraphs in the reverse
 * order and a line added at the top), reposts (document i against itself
 * with a line added at the top, as test/bench/match_speed.sh's copies) or
 * many (document 1 against all the
 * others: one side kept, as for the candidates of one text).  Each pair is
 * read afresh (both sides) in every round, except the kept side of many.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfp_match_side.h"

static void *
m_alloc(void *arg, size_t n)
{
	void	   *p = malloc(n ? n : 1);

	(void) arg;
	if (!p)
		abort();
	return p;
}

static void *
m_realloc(void *arg, void *p, size_t n)
{
	void	   *q = realloc(p, n ? n : 1);

	(void) arg;
	if (!q)
		abort();
	return q;
}

static void
m_free(void *arg, void *p)
{
	(void) arg;
	free(p);
}

static const tfp_match_env env = {m_alloc, m_realloc, m_free, NULL, NULL};

typedef struct doc
{
	char	   *s;
	size_t		len;
} doc;

/* the body of a line of the TSV, COPY text escapes undone */
static doc
unescape(const char *body)
{
	doc			d;
	size_t		n = strlen(body),
				j = 0;

	d.s = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
	{
		if (body[i] == '\\' && i + 1 < n)
		{
			i++;
			d.s[j++] = body[i] == 'n' ? '\n' : body[i] == 't' ? '\t' : body[i];
		}
		else if (body[i] != '\n')
			d.s[j++] = body[i];
	}
	d.s[j] = 0;
	d.len = j;
	return d;
}

/* a document with a line on top (match_speed.sh's copies) */
static doc
repost(doc a)
{
	doc			d;
	const char *top = "Reposted from our friends.\n";

	d.len = strlen(top) + a.len;
	d.s = malloc(d.len + 1);
	memcpy(d.s, top, strlen(top));
	memcpy(d.s + strlen(top), a.s, a.len + 1);
	return d;
}

/* the copy of a document: a line on top, its paragraphs in reverse order */
static doc
reorder(doc a)
{
	doc			d;
	const char *top = "转载自本站 | reposted\n";
	size_t		j,
				end = a.len;

	d.s = malloc(a.len + strlen(top) + 2);
	strcpy(d.s, top);
	j = strlen(top);
	while (end > 0)
	{
		size_t		start = end;

		while (start > 0 && a.s[start - 1] != '\n')
			start--;
		memcpy(d.s + j, a.s + start, end - start);
		j += end - start;
		if (start > 0)
			d.s[j++] = '\n';
		end = start > 0 ? start - 1 : 0;
	}
	d.s[j] = 0;
	d.len = j;
	return d;
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static double ck = 0;

static void
fold(const tfp_match_result *r)
{
	const double *f = &r->f.j5;

	ck += r->verdict + r->dist + (r->z > -1e300 ? r->z : 0);
	for (size_t i = 0; i < sizeof(r->f) / sizeof(double); i++)
		ck += f[i] * (double) (i + 1);
}

int
main(int argc, char **argv)
{
	FILE	   *fp;
	char	   *line = NULL;
	size_t		cap = 0,
				nd = 0,
				np = 0;
	doc		   *docs = malloc(sizeof(doc) * 100000);
	int			rounds,
				version;
	const char *lang,
			   *kind;
	const tfp_match_model *model;
	double		t0,
				t;

	if (argc != 6 || !(fp = fopen(argv[1], "r")))
	{
		fprintf(stderr, "usage: match_micro DOCS.TSV zh|en ROUNDS MODEL plain|copies|reposts|many\n");
		return 2;
	}
	lang = argv[2];
	rounds = atoi(argv[3]);
	version = atoi(argv[4]);
	kind = argv[5];
	if (!(model = tfp_match_get_model(version)))
	{
		fprintf(stderr, "no model %d\n", version);
		return 2;
	}
	while (getline(&line, &cap, fp) > 0 && nd < 100000)
	{
		char	   *t1 = strchr(line, '\t'),
				   *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;

		if (!t2 || strncmp(t1 + 1, lang, strlen(lang)) != 0 || t1 + 1 + strlen(lang) != t2)
			continue;
		docs[nd++] = unescape(t2 + 1);
	}
	fclose(fp);
	if (nd < 2)
	{
		fprintf(stderr, "fewer than 2 documents of %s\n", lang);
		return 2;
	}
	t0 = now();
	for (int k = 0; k < rounds; k++)
	{
		if (strcmp(kind, "many") == 0)
		{
			tfp_match_side a;

			tfp_match_side_read(docs[0].s, docs[0].len, TFP_MATCH_HTML_AUTO, &env, &a);
			for (size_t i = 1; i < nd; i++)
			{
				tfp_match_side b;
				tfp_match_result r;

				tfp_match_side_read(docs[i].s, docs[i].len, TFP_MATCH_HTML_AUTO, &env, &b);
				tfp_match_eval(&a, &b, model, &env, &r);
				fold(&r);
				tfp_match_side_free(&b);
				np++;
			}
			tfp_match_side_free(&a);
			continue;
		}
		for (size_t i = 0; i + 1 < nd; i++)
		{
			tfp_match_side a,
						b;
			tfp_match_result r;
			doc			db = strcmp(kind, "copies") == 0 ? reorder(docs[i]) :
				strcmp(kind, "reposts") == 0 ? repost(docs[i]) : docs[i + 1];

			tfp_match_side_read(docs[i].s, docs[i].len, TFP_MATCH_HTML_AUTO, &env, &a);
			tfp_match_side_read(db.s, db.len, TFP_MATCH_HTML_AUTO, &env, &b);
			tfp_match_eval(&a, &b, model, &env, &r);
			fold(&r);
			tfp_match_side_free(&a);
			tfp_match_side_free(&b);
			if (db.s != docs[i + 1].s)
				free(db.s);
			np++;
		}
	}
	t = now() - t0;
	printf("%s %s model %d: %zu pairs, %.1f us per pair, %.0f pairs/s, ck %.9g\n",
		   lang, kind, version, np, t / np * 1e6, np / t, ck);
	return 0;
}
