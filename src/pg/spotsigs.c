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
#include "sets.h"
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

/* the built-in lists, hashed once per backend: antecedents, and
 * antecedents with stopwords */
static token_list default_ante,
			default_skip;
static bool defaults_ready = false;

static void
builtin_words(uint64 *h, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tfp_spot_token(words[i], strlen(words[i]), &h[i]) != 1)
			elog(ERROR, "built-in SpotSigs word \"%s\" is not one token", words[i]);
}

static void
defaults(void)
{
	size_t		na = tfp_spot_ndefault_antecedents,
				ns = tfp_spot_ndefault_stopwords;
	uint64	   *h;

	if (defaults_ready)
		return;
	h = palloc((2 * na + ns) * sizeof(uint64));
	builtin_words(h, tfp_spot_default_antecedents, na);
	builtin_words(h + na, tfp_spot_default_stopwords, ns);
	memcpy(h + na + ns, h, na * sizeof(uint64));
	list_build(&default_ante, h + na + ns, na, TopMemoryContext);
	list_build(&default_skip, h, na + ns, TopMemoryContext);
	pfree(h);
	defaults_ready = true;
}

/* the tokens of a text[] argument (each entry must be one token) into h,
 * which has room for them; returns how many */
static int
user_words(uint64 *h, ArrayType *a, const char *what)
{
	Datum	   *d;
	bool	   *nulls;
	int			n;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be a one-dimensional array", what),
				 errdetail("The array has %d dimensions.", ARR_NDIM(a))));
	deconstruct_array(a, TEXTOID, -1, false, TYPALIGN_INT, &d, &nulls, &n);
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
	return n;
}

static void
spot_sink(void *arg, uint64_t spot)
{
	textfp_collect_distinct(arg, &spot, 1);
}

static void
token_sink(void *arg, const uint64_t *hashes, size_t n)
{
	textfp_interrupt_tick();
	tfp_spot_feed((tfp_spot_state *) arg, hashes, n);
}

static Datum
spots(text *body, const token_list *ante, const token_list *skip, int32 chain)
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
	tfp_spot_init(&st, &ante->set, &skip->set, chain, Max(ante->n, 1),
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
	PG_RETURN_DATUM(spots(PG_GETARG_TEXT_PP(0), &default_ante, &default_skip,
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
	ArrayType  *a = PG_GETARG_ARRAYTYPE_P(1);
	ArrayType  *s = PG_GETARG_ARRAYTYPE_P(2);
	uint64	   *h = palloc(((Size) ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a)) +
							ArrayGetNItems(ARR_NDIM(s), ARR_DIMS(s)) + 1) * sizeof(uint64));
	token_list	ante,
				skip;
	int			na = user_words(h, a, "antecedents"),
				ns = user_words(h + na, s, "stopwords");
	uint64	   *ha = palloc(((Size) na + 1) * sizeof(uint64));

	memcpy(ha, h, (Size) na * sizeof(uint64));
	list_build(&ante, ha, (size_t) na, CurrentMemoryContext);
	list_build(&skip, h, (size_t) na + ns, CurrentMemoryContext);
	PG_RETURN_DATUM(spots(PG_GETARG_TEXT_PP(0), &ante, &skip, PG_GETARG_INT32(3)));
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
