/*
 * tfp_spotsigs.c -- spot signatures (definition in tfp_spotsigs.h) and the
 * built-in antecedent and stopword lists
 */
#include "tfp_core.h"
#include "tfp_hashes.h"
#include "tfp_spotsigs.h"

/*
 * Antecedents.  English: the paper's running example anchors spots on
 * articles and forms of "to be" ("a:rally:kick", "the:...", "is:...");
 * these are the most frequent English function words of those kinds, plus
 * "there", "this" and "that".  Chinese: the most frequent function
 * characters -- the structural particle 的, the aspect particle 了, the
 * preposition/verb 在, the copula 是, the conjunctions 和 与, and the
 * prepositions of agent and object 对 将 把 被 从 为.  Traditional forms
 * fold to these (fold_han), full-width and capitals fold too.
 */
const char *const tfp_spot_default_antecedents[] = {
	"a", "an", "the", "is", "are", "was", "were", "there", "this", "that",
	"的", "了", "在", "是", "和", "与", "对", "将", "把", "被", "从", "为",
};
const size_t tfp_spot_ndefault_antecedents =
	sizeof(tfp_spot_default_antecedents) / sizeof(tfp_spot_default_antecedents[0]);

/*
 * Stopwords, skipped inside a chain (the antecedents are skipped too):
 * English function words (articles, pronouns, auxiliaries, prepositions,
 * conjunctions, a few adverbs), and Chinese function characters (particles,
 * prepositions, conjunctions, pronouns, measure word 个) that rarely carry
 * the content on their own.
 */
const char *const tfp_spot_default_stopwords[] = {
	"about", "above", "after", "again", "against", "all", "am", "and", "any",
	"as", "at", "be", "because", "been", "before", "being", "below",
	"between", "both", "but", "by", "can", "could", "did", "do", "does",
	"doing", "down", "during", "each", "few", "for", "from", "further",
	"had", "has", "have", "having", "he", "her", "here", "hers", "herself",
	"him", "himself", "his", "how", "i", "if", "in", "into", "it", "its",
	"itself", "just", "me", "more", "most", "my", "myself", "no", "nor",
	"not", "of", "off", "on", "once", "only", "or", "other", "our", "ours",
	"ourselves", "out", "over", "own", "same", "she", "should", "so", "some",
	"such", "than", "their", "theirs", "them", "themselves", "then", "these",
	"they", "those", "through", "to", "too", "under", "until", "up", "very",
	"we", "what", "when", "where", "which", "while", "who", "whom", "why",
	"will", "with", "would", "you", "your", "yours", "yourself",
	"yourselves",
	"及", "或", "而", "且", "并", "向", "以", "于", "由", "之", "其", "也",
	"都", "就", "又", "还", "这", "那", "此", "该", "各", "我", "你", "他",
	"她", "它", "们", "吗", "呢", "吧", "啊", "个",
};
const size_t tfp_spot_ndefault_stopwords =
	sizeof(tfp_spot_default_stopwords) / sizeof(tfp_spot_default_stopwords[0]);

void
tfp_spot_init(tfp_spot_state *st, const tfp_termset *ante,
			  const tfp_termset *skip, int chain, size_t nante,
			  uint64_t *stage, tfp_spot_sink sink, void *arg)
{
	memset(st, 0, sizeof(*st));
	st->ante = ante;
	st->skip = skip;
	st->chain = chain;
	st->cap = nante;
	st->stage = stage;
	st->sink = sink;
	st->arg = arg;
}

/* a content token u: every pending antecedent takes it */
static void
spot_content(tfp_spot_state *st, uint64_t u)
{
	int			c = st->chain;
	int			last = (st->first + c - 1) % c;	/* the array of stage c - 1 */

	st->ring[st->ncontent % (uint64_t) c] = u;
	st->ncontent++;
	/* stage c - 1 had taken c - 1 tokens: with u they are complete */
	if (st->nstage[last] > 0)
	{
		uint64_t	key[TFP_SPOT_MAX_CHAIN + 1];

		for (int j = 0; j < c; j++)
			key[1 + j] = st->ring[(st->ncontent - (uint64_t) c + (uint64_t) j) % (uint64_t) c];
		for (size_t j = 0; j < st->nstage[last]; j++)
		{
			key[0] = st->stage[(size_t) last * st->cap + j];
			st->sink(st->arg, tfp_xxh3_u64(key, (size_t) c + 1, TFP_SPOT_SEED));
		}
	}
	/* stage j becomes stage j + 1; the emptied array is the new stage 0 */
	st->nstage[last] = 0;
	st->first = last;
}

/* an antecedent a starts a chain (once per stage: equal chains give equal spots) */
static void
spot_antecedent(tfp_spot_state *st, uint64_t a)
{
	uint64_t   *s0 = st->stage + (size_t) st->first * st->cap;
	size_t		n = st->nstage[st->first];

	for (size_t j = 0; j < n; j++)
		if (s0[j] == a)
			return;
	if (n < st->cap)			/* always: cap counts the distinct antecedents */
	{
		s0[n] = a;
		st->nstage[st->first] = n + 1;
	}
}

void
tfp_spot_feed(tfp_spot_state *st, const uint64_t *tokens, size_t n)
{
	for (size_t i = 0; i < n; i++)
	{
		uint64_t	t = tokens[i];

		if (!tfp_termset_contains(st->skip, t))
			spot_content(st, t);
		else if (tfp_termset_contains(st->ante, t))
			spot_antecedent(st, t);
	}
}

typedef struct first_token
{
	size_t		n;
	uint64_t	h;
} first_token;

static void
first_token_sink(void *arg, const uint64_t *hashes, size_t n)
{
	first_token *f = (first_token *) arg;

	if (n > 0 && f->n == 0)
		f->h = hashes[0];
	f->n += n;
}

size_t
tfp_spot_token(const char *utf8, size_t len, uint64_t *h)
{
	tfp_feature_opts o = {1, 1, TFP_SPOT_FOLDS};
	first_token f = {0, 0};

	tfp_extract_features(utf8, len, &o, first_token_sink, &f);
	*h = f.h;
	return f.n;
}
