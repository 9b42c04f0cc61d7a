/*
 * match.c -- textfp_match(): is b a copy of a?  The arguments to the core
 * and its answer to a record (the sides, the pair, the score:
 * tfp_match_side.c; the features and models: tfp_match.c)
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "textfp.h"
#include "tfp_arena.h"
#include "tfp_match_side.h"

/* the core's memory: a memory context (arg; NULL: the current one);
 * interrupts */
static void *
env_alloc(void *arg, size_t size)
{
	return MemoryContextAllocExtended(arg ? (MemoryContext) arg : CurrentMemoryContext,
									  Max(size, 1), MCXT_ALLOC_HUGE);
}

static void *
env_realloc(void *arg, void *p, size_t size)
{
	return repalloc_huge(p, Max(size, 1));
}

static void
env_free(void *arg, void *p)
{
	pfree(p);
}

static const tfp_match_env match_env = {env_alloc, env_realloc, env_free, NULL,
textfp_interrupt_tick};

/* a side of the pair (tfp_match_side_read) of the UTF-8 text s[0..len) */
static void
side_read(const char *s, size_t len, int html_mode, const tfp_match_env *env,
		  tfp_match_side *m)
{
	int			rc = tfp_match_side_read(s, len, html_mode, env, m);

	if (rc == TFP_MATCH_ETOOLONG)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("text too long for textfp_match"),
				 errdetail("The text has %zu bytes; the Chinese wording fold needs four times as many.",
						   len)));
	if (rc != TFP_MATCH_OK)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("The text of an HTML document of %zu bytes did not fit.", len)));
}

static void
side_text(text *t, int html_mode, tfp_match_side *m)
{
	size_t		len;
	const char *s = textfp_text_utf8(t, &len);

	side_read(s, len, html_mode, &match_env, m);
}

/* an arena's blocks: memory of the call site's context (owner) */
static void *
block_alloc(void *owner, size_t size)
{
	return MemoryContextAllocExtended((MemoryContext) owner, size, MCXT_ALLOC_HUGE);
}

static void
block_free(void *owner, void *p)
{
	pfree(p);
}

/*
 * What a call site of textfp_match keeps from one call to the next
 * (fn_extra, in fn_mcxt): the side of each argument, and the arena of the
 * pairs' memory.
 *
 * A side (slots[]): a text met by many others, as $1 in
 * LATERAL textfp_match($1, c.body), is read, folded, split into lines and
 * given its full-text and pinyin features once (tfp_match_eval keeps them
 * in the side, in the slot's arena), the same answers as fresh sides.  The
 * slot is valid only between two whole evaluations: an error in the middle
 * of one leaves it invalid.  Texts of more than SIDE_CACHE_MAX bytes are
 * not kept (their copy would double their memory).
 *
 * The memory of a side and of a pair comes from arenas (tfp_arena.h) that
 * keep their blocks from one call to the next: a pair's buffers, freed
 * when it is done, had the kernel map and zero their pages again for the
 * next pair (palloc hands chunks above 8 kB to malloc, and malloc gives
 * its large chunks back), a third of the time of a pair of 2 kB texts.
 * The pairs' arena is reset before and after each evaluation, a side's
 * when its text changes; after an error, the next call resets them.
 */
#define SIDE_CACHE_MAX (1024 * 1024)

typedef struct side_slot
{
	tfp_arena	arena;
	tfp_match_env env;
	bool		valid;
	int			html;
	size_t		len;
	char	   *bytes;			/* the text as given, UTF-8 */
	tfp_match_side side;
} side_slot;

typedef struct match_site
{
	side_slot	slots[2];
	tfp_arena	pair;
	tfp_match_env pair_env;
} match_site;

static match_site *
site_of(FunctionCallInfo fcinfo)
{
	match_site *site = (match_site *) fcinfo->flinfo->fn_extra;
	MemoryContext cxt = fcinfo->flinfo->fn_mcxt;

	if (site == NULL)
	{
		site = MemoryContextAllocZero(cxt, sizeof(match_site));
		for (int i = 0; i < 2; i++)
		{
			tfp_arena_init(&site->slots[i].arena, block_alloc, block_free, cxt);
			site->slots[i].env = match_env;
			site->slots[i].env.alloc = tfp_arena_alloc;
			site->slots[i].env.realloc = tfp_arena_realloc;
			site->slots[i].env.free = tfp_arena_free;
			site->slots[i].env.arg = &site->slots[i].arena;
		}
		tfp_arena_init(&site->pair, block_alloc, block_free, cxt);
		site->pair_env = site->slots[0].env;
		site->pair_env.arg = &site->pair;
		fcinfo->flinfo->fn_extra = site;
	}
	return site;
}

static side_slot *
cached_side(FunctionCallInfo fcinfo, match_site *site, int argno, int html_mode,
			tfp_match_side *fresh, tfp_match_side **side)
{
	side_slot  *slot;
	size_t		len;
	const char *s = textfp_text_utf8(PG_GETARG_TEXT_PP(argno), &len);

	if (len > SIDE_CACHE_MAX)
	{
		side_read(s, len, html_mode, &match_env, fresh);
		*side = fresh;
		return NULL;
	}
	slot = &site->slots[argno];
	*side = &slot->side;
	if (slot->valid && slot->html == html_mode && slot->len == len &&
		memcmp(slot->bytes, s, len) == 0)
	{
		slot->valid = false;	/* until the evaluation is done */
		return slot;
	}
	slot->valid = false;
	tfp_arena_reset(&slot->arena);
	slot->bytes = tfp_arena_alloc(&slot->arena, len + 1);
	memcpy(slot->bytes, s, len);
	slot->len = len;
	slot->html = html_mode;
	side_read(slot->bytes, len, html_mode, &slot->env, &slot->side);
	return slot;
}

static int
html_mode(text *t)
{
	char	   *m = text_to_cstring(t);

	if (strcmp(m, "auto") == 0)
		return TFP_MATCH_HTML_AUTO;
	if (strcmp(m, "always") == 0)
		return TFP_MATCH_HTML_ALWAYS;
	if (strcmp(m, "never") == 0)
		return TFP_MATCH_HTML_NEVER;
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
	tfp_match_side a,
				b,
			   *pa,
			   *pb;
	match_site *site;
	side_slot  *sa,
			   *sb;
	tfp_match_result r;
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
	site = site_of(fcinfo);
	sa = cached_side(fcinfo, site, 0, mode, &a, &pa);
	sb = cached_side(fcinfo, site, 1, mode, &b, &pb);
	tfp_arena_reset(&site->pair);
	tfp_match_eval(pa, pb, model, &site->pair_env, &r);
	tfp_arena_reset(&site->pair);
	if (sa)
		sa->valid = true;
	if (sb)
		sb->valid = true;
	values[0] = BoolGetDatum(r.verdict);
	values[1] = Float8GetDatum(r.score);
	values[2] = Float8GetDatum(r.f.j5);
	values[3] = Float8GetDatum(r.f.c5);
	values[4] = Float8GetDatum(r.f.j2);
	values[5] = Float8GetDatum(r.f.c2);
	values[6] = Int32GetDatum(r.dist);
	values[7] = Float8GetDatum(r.f.dna);
	values[8] = Float8GetDatum(r.f.pj);
	values[9] = Float8GetDatum(r.f.pc);
	values[10] = Float8GetDatum(r.f.ord);
	values[11] = Float8GetDatum(r.f.ord1);
	values[12] = Float8GetDatum(r.f.run);
	values[13] = Float8GetDatum(r.f.zh);
	values[14] = BoolGetDatum(pa->html != 0);
	values[15] = BoolGetDatum(pb->html != 0);
	td = BlessTupleDesc(td);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(td, values, nulls)));
}

/*
 * textfp_match_features(a text, b text, html text) returns float8[]: what
 * the models read, for tools/fit_match.py: the 12 features of the full
 * texts (in the order of tfp_match_features), the edge share, the 12
 * features of the middles, the share in long edge lines, the share of the
 * shorter text in lines the other has nowhere (tfp_match.h)
 */
PG_FUNCTION_INFO_V1(textfp_match_features);
Datum
textfp_match_features(PG_FUNCTION_ARGS)
{
	int			mode = html_mode(PG_GETARG_TEXT_PP(2));
	tfp_match_side a,
				b;
	tfp_match_pair p;
	Datum		d[27];
	const tfp_match_features *fs[2];

	side_text(PG_GETARG_TEXT_PP(0), mode, &a);
	side_text(PG_GETARG_TEXT_PP(1), mode, &b);
	tfp_match_eval_features(&a, &b, &match_env, &p);
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
	d[26] = Float8GetDatum(p.unshared);
	PG_RETURN_ARRAYTYPE_P(construct_array(d, 27, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}
