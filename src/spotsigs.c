/*
 * spotsigs.c -- spotsigs(): SpotSigs spot signatures of a text, with the
 * built-in or the caller's antecedent and stopword lists, and the built-in
 * lists as text[] (the core is tfp_spotsigs.c)
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "minhash.h"
#include "tfp_sort.h"
#include "tfp_spotsigs.h"

/* a list of tokens as a hash set */
typedef struct token_list
{
	tfp_termset set;
	size_t		n;				/* distinct tokens */
} token_list;

static void
list_build(token_list *l, uint64 *h, size_t n, MemoryContext cxt)
{
	size_t		nslots;

	n = tfp_sort_unique_u64(h, n, NULL);
	nslots = tfp_termset_slots(n);
	tfp_termset_build(&l->set, MemoryContextAlloc(cxt, nslots * sizeof(uint64)),
					  nslots, h, n);
	l->n = n;
}

/* the built-in lists, hashed once per backend */
static token_list default_ante,
			default_stop;
static bool defaults_ready = false;

static void
builtin_list(token_list *l, const char *const *words, size_t n)
{
	uint64	   *h = palloc(n * sizeof(uint64));

	for (size_t i = 0; i < n; i++)
		if (tfp_spot_token(words[i], strlen(words[i]), &h[i]) != 1)
			elog(ERROR, "built-in SpotSigs word \"%s\" is not one token", words[i]);
	list_build(l, h, n, TopMemoryContext);
	pfree(h);
}

static void
defaults(void)
{
	if (defaults_ready)
		return;
	builtin_list(&default_ante, tfp_spot_default_antecedents,
				 tfp_spot_ndefault_antecedents);
	builtin_list(&default_stop, tfp_spot_default_stopwords,
				 tfp_spot_ndefault_stopwords);
	defaults_ready = true;
}

/* a text[] argument as a list of tokens: each entry must be one token */
static void
user_list(token_list *l, ArrayType *a, const char *what)
{
	Datum	   *d;
	bool	   *nulls;
	int			n;
	uint64	   *h;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be a one-dimensional array", what),
				 errdetail("The array has %d dimensions.", ARR_NDIM(a))));
	deconstruct_array(a, TEXTOID, -1, false, TYPALIGN_INT, &d, &nulls, &n);
	h = palloc(((Size) n + 1) * sizeof(uint64));
	for (int i = 0; i < n; i++)
	{
		size_t		len;
		const char *s;

		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s must not contain nulls", what),
					 errdetail("Each entry is one word or one Han character.")));
		s = textfp_text_utf8(DatumGetTextPP(d[i]), &len);
		if (tfp_spot_token(s, len, &h[i]) != 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s entry \"%s\" is not one word or one Han character",
							what, TextDatumGetCString(d[i])),
					 errdetail("Spots are made of tokens: a word, or a Han character; punctuation is not a token.")));
	}
	list_build(l, h, (size_t) n, CurrentMemoryContext);
}

static void
spot_sink(void *arg, uint64_t spot)
{
	hash_buf   *b = (hash_buf *) arg;

	textfp_collect_sink(b, &spot, 1);
}

static void
token_sink(void *arg, const uint64_t *hashes, size_t n)
{
	textfp_interrupt_tick();
	tfp_spot_feed((tfp_spot_state *) arg, hashes, n);
}

static Datum
spots(text *body, const token_list *ante, const token_list *stop, int32 chain)
{
	tfp_feature_opts o = {1, 1, TFP_SPOT_FOLDS};
	tfp_spot_state st;
	hash_buf	b;
	const char *s;
	size_t		len;

	if (chain < 1 || chain > TFP_SPOT_MAX_CHAIN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("chain must be between 1 and %d, not %d", TFP_SPOT_MAX_CHAIN, chain),
				 errdetail("chain is the number of content words in a spot after its antecedent.")));
	b.cap = 64;
	b.n = 0;
	b.h = palloc(b.cap * sizeof(uint64));
	tfp_spot_init(&st, &ante->set, &stop->set, chain, Max(ante->n, 1),
				  palloc((Size) chain * Max(ante->n, 1) * sizeof(uint64)),
				  spot_sink, &b);
	s = textfp_text_utf8(body, &len);
	tfp_extract_features(s, len, &o, token_sink, &st);
	textfp_sort_unique(&b);
	if (b.n > (MaxAllocSize - ARR_OVERHEAD_NONULLS(1)) / sizeof(int64))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("text has too many spot signatures for an array"),
				 errdetail("It has %zu distinct spots.", b.n)));
	return PointerGetDatum(textfp_int8_array((const int64 *) b.h, (int) b.n));
}

/* spotsigs(body text, chain int4) returns int8[]: the built-in lists */
PG_FUNCTION_INFO_V1(spotsigs);
Datum
spotsigs(PG_FUNCTION_ARGS)
{
	defaults();
	PG_RETURN_DATUM(spots(PG_GETARG_TEXT_PP(0), &default_ante, &default_stop,
						  PG_GETARG_INT32(1)));
}

/*
 * spotsigs(body text, antecedents text[], stopwords text[], chain int4)
 * returns int8[]
 */
PG_FUNCTION_INFO_V1(spotsigs_lists);
Datum
spotsigs_lists(PG_FUNCTION_ARGS)
{
	token_list	ante,
				stop;

	user_list(&ante, PG_GETARG_ARRAYTYPE_P(1), "antecedents");
	user_list(&stop, PG_GETARG_ARRAYTYPE_P(2), "stopwords");
	PG_RETURN_DATUM(spots(PG_GETARG_TEXT_PP(0), &ante, &stop, PG_GETARG_INT32(3)));
}

static Datum
words_array(const char *const *words, size_t n)
{
	Datum	   *d = palloc(n * sizeof(Datum));

	for (size_t i = 0; i < n; i++)
	{
		/* the lists are UTF-8: in the server encoding (or an error, 22P05,
		 * where it has no such character) */
		char	   *w = pg_any_to_server(words[i], (int) strlen(words[i]), PG_UTF8);

		d[i] = CStringGetTextDatum(w);
	}
	return PointerGetDatum(construct_array(d, (int) n, TEXTOID, -1, false, TYPALIGN_INT));
}

/* spotsigs_antecedents() returns text[] */
PG_FUNCTION_INFO_V1(spotsigs_antecedents);
Datum
spotsigs_antecedents(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(words_array(tfp_spot_default_antecedents, tfp_spot_ndefault_antecedents));
}

/* spotsigs_stopwords() returns text[] */
PG_FUNCTION_INFO_V1(spotsigs_stopwords);
Datum
spotsigs_stopwords(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(words_array(tfp_spot_default_stopwords, tfp_spot_ndefault_stopwords));
}
