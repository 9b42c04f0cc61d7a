/*
 * gen_passage_corpus.c -- NEW Chinese and English text with the local
 * statistics of the real text pools, for the passage-retrieval benchmark
 * ("which stored documents did this text copy passages from"): a corpus of
 * documents with controlled duplication, and query texts whose true sources
 * are known.  One C11 file, libc only (threads from glibc's libc).
 *
 * WHY.  The real text offline is small (test/data/pool_zh.txt 2.5 MB,
 * pool_en.txt 3.3 MB).  A million 2 KB documents sampled from it (as
 * tools/make_bench_docs.py does) repeat every sentence in ~300 documents, so
 * every query passage would have hundreds of true sources.  Markov chains
 * trained on the pools write text whose words and common phrases are those of
 * the pools but whose passages are new.
 *
 * USE (from the repository root; --pool-dir DIR, default test/data, or
 * --zh FILE --en FILE name the pools):
 *   gcc -O2 -Wall -Wextra -o /tmp/gen tools/gen_passage_corpus.c
 *   /tmp/gen corpus 1000000 [--seed 1] [--threads 2] [--plain] > docs.tsv
 *   /tmp/gen queries 1000 --corpus-n 1000000 [--seed 1] [--none 0.2] > q.tsv
 *   /tmp/gen check [--corpus-n 20000]          # self-check + statistics
 *   psql: \copy docs(id, lang, body) FROM PROGRAM '/tmp/gen corpus 1000000'
 * corpus: `id  lang  body`; queries: `qid  lang  body  sources`, sources an
 * int8[] literal {i,j}.  PostgreSQL COPY text format: paragraphs joined by
 * the two characters \n, backslashes doubled.  Odd ids and qids are Chinese
 * (zh), even ones English (en).  Everything is a function of the seed, the
 * pools and N: document i comes from an RNG seeded by (seed, i) alone, so it
 * can be regenerated without the others (queries mode does that).  --plain:
 * no duplication (model text only).  A summary goes to stderr.
 *
 * MODEL.  zh: order-4 chain over tokens: one non-ASCII code point (Han or CJK
 * punctuation), one ASCII space or punctuation mark, or a run of ASCII letters
 * and digits (the "RAID", "LVM" of Chinese text stay words).  en: order-3
 * chain over space-separated words with their punctuation (case as in the
 * source; a word after a sentence end is capitalized).  A pool line is a
 * paragraph.  The pool's token positions are sorted by their K preceding
 * tokens, nearest first, so the successors of a context of any order o <= K
 * are one contiguous range, and drawing an entry of the range draws a
 * successor in proportion to its count.  The state is (q, m): a pool
 * position and how many of the last tokens generated equal those before q;
 * the range for every (q, m) is precomputed, so a step is ~2 memory reads.
 * Anti-copying rules (the defaults; tuning options in usage()):
 *  - a context is used only if seen at least twice (--min-count 2), and two
 *    occurrences count as two only if the 8 tokens before them differ
 *    (--dedup 8: a paragraph the pool holds twice, e.g. in two help pages,
 *    counts once); else the order below is used;
 *  - after 8 steps that continued at the very pool position (--max-run) the
 *    token is redrawn at the orders below, away from it;
 *  - loop guard: a token that would repeat a window of 10 tokens of the same
 *    text is redrawn (a chain can cycle through a repetitive sentence).
 * So phrases the pool uses in several places come out whole, at about their
 * real frequency, and a passage the pool has once does not.  Orders were
 * chosen by measuring (tools/README.md): with zh order 4 / en order 3 and
 * these rules, 10,000 generated documents share 13-unit windows about as
 * often as the real pool's 1,200-1,500 do (at equal counts a third as often:
 * most of the pool's repeats are paragraphs it holds twice); an en order-2
 * chain gets there only by using contexts seen once (verbatim rare text).
 *
 * CORPUS N.  Bodies ~2,048 bytes (a paragraph end past 92%, a sentence end
 * past 97%, a cut at 108%).  Besides the originals:
 *  - famous passages: 20 generated passages of 60-200 units (10 zh, 10 en),
 *    5 each in 10, 100, 1,000 and 10,000 documents of their language per
 *    10^6 documents (scaled by N / 10^6, at least 2), as one paragraph; the
 *    documents are the first ranks of a keyed permutation of the language's
 *    ids, so the counts are exact;
 *  - near-copies, ~2%: 70-100% of an earlier original (a contiguous span cut
 *    after sentence ends), 1-6 unit edits;
 *  - boilerplate, ~5%: the document ends with one of 50 site lines (25 per
 *    language: copyright, licence, repost notice, disclaimer, newsletter).
 * A unit is what the passage index reads: a Han character or a word.
 *
 * QUERIES M.  ~3 KB.  A share --none (0.2) has no passage; the others 1-3
 * passages of 40-400 units (at most the source's own text, ~2.6 KB in all)
 * from distinct random originals of corpus N (no near-copy, no famous-passage
 * document, never the boilerplate line), 40% verbatim, 60% with 1-5% of the
 * units edited (zh: a Han character replaced, deleted or doubled; en: a word
 * with one letter substituted, deleted or inserted), between pieces of fresh
 * filler text.  sources = the source documents and every near-copy of one
 * that kept at least half of the passage's bytes.
 *
 * STATISTICS (check, seed 1): share of the 13-unit windows of a set of
 * documents that also occur in another document of the set:
 *                         real pool, 2 KB docs   generated, same count   10,000 docs
 *   zh                    1.78% (1,190 docs)     0.54%                   1.65%
 *   en                    0.51% (1,463 docs)     0.19%                   0.49%
 * Of the generated windows 0.45% (zh) / 0.18% (en) occur in the pool; with
 * the duplication (corpus 20000's first 10,000 documents) 6.25% / 5.07%
 * occur in another document.  Speed (2 cores): corpus 1000000 (2.0 GB) in
 * ~46 s, queries 1000 in 0.7 s, check in 14 s.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

enum { ZH = 0, EN = 1 };
#define DOC_BYTES 2048
#define QUERY_BYTES 3072
#define QUERY_PASSAGE_BYTES 2600
#define WIN 13                                   /* window of the statistics */
#define NFAM 20
#define NBOIL 25
static const char *LANGNAME[2] = { "zh", "en" };
typedef unsigned long long ull;

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("gen_passage_corpus: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* ---- PRNG: splitmix64's finalizer for seeds and keyed hashes, xoshiro256** */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
static inline uint64_t h3(uint64_t a, uint64_t b, uint64_t c)
{
	return mix64((a * 0x9E3779B97F4A7C15ull) ^ mix64((b + 0x632BE59BD9B4E019ull) ^ mix64(c + 1)));
}
typedef struct { uint64_t s[4]; } rng_t;
static void rseed(rng_t *r, uint64_t seed, uint64_t stream, uint64_t i)
{
	uint64_t x = h3(seed, stream, i);
	for (int k = 0; k < 4; k++) r->s[k] = mix64(x += 0x9E3779B97F4A7C15ull);
}
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t rnext(rng_t *r)
{
	uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3], s[2] ^= t, s[3] = rotl(s[3], 45);
	return res;
}
static inline uint32_t rbelow(rng_t *r, uint32_t n) { return (uint32_t)(((rnext(r) >> 32) * n) >> 32); }
static inline double runit(rng_t *r) { return (rnext(r) >> 11) * 0x1.0p-53; }

/* zeroed memory for the big random-access tables, on huge pages if allowed
 * (a step of the chain is a cache and TLB miss or two) */
static void *big_alloc(size_t n)
{
	size_t huge = (size_t)2 << 20;
	n = (n + huge - 1) / huge * huge;
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) die("out of memory");
#ifdef MADV_HUGEPAGE
	madvise(p, n, MADV_HUGEPAGE);
#endif
	return p;
}

/* ---- growable byte buffer */
typedef struct { char *p; size_t n, cap; } buf_t;
static void bgrow(buf_t *b, size_t add)
{
	if (b->n + add <= b->cap) return;
	b->cap = b->cap * 2 > b->n + add + 4096 ? b->cap * 2 : b->n + add + 4096;
	if (!(b->p = realloc(b->p, b->cap))) die("out of memory");
}
static inline void bput(buf_t *b, const void *s, size_t k) { bgrow(b, k); memcpy(b->p + b->n, s, k); b->n += k; }
static inline void bputc(buf_t *b, char c) { bgrow(b, 1); b->p[b->n++] = c; }
static void bprintf(buf_t *b, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	bput(b, tmp, (size_t)k);
}
static void bput_copy(buf_t *b, const char *s, size_t k)   /* COPY text escaping */
{
	bgrow(b, 2 * k);
	for (size_t i = 0; i < k; i++) {
		char c = s[i];
		if (c == '\\' || c == '\n' || c == '\t' || c == '\r') {
			b->p[b->n++] = '\\';
			c = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : '\\';
		}
		b->p[b->n++] = c;
	}
}
static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* ---- UTF-8 and units: a Han character, or a run of word characters */
static inline uint32_t u8dec(const unsigned char *s, size_t n, size_t *len)
{
	uint32_t c = s[0];
	size_t k = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
	*len = 1;
	if (k == 1) return c;
	if (k > n || c < 0xC0) return 0xFFFD;
	c &= 0x3F >> (k - 1);
	for (size_t i = 1; i < k; i++) c = (c << 6) | (s[i] & 0x3F);
	*len = k;
	return c;
}
static inline int is_han(uint32_t c)
{
	return (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) ||
	       (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x3134F);
}
static inline int is_alnum(uint32_t c) { return (c | 32) - 'a' < 26 || c - '0' < 10; }
static inline int is_wordch(uint32_t c)
{
	return is_alnum(c) || (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7) || (c >= 0x370 && c <= 0x52F);
}
typedef struct { uint32_t s, e; } span_t;
typedef struct { span_t *v; size_t n, cap; } spans_t;
static size_t scan_units(const char *p, size_t n, spans_t *S)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0, k;
	S->n = 0;
	while (i < n) {
		uint32_t c = u8dec(s + i, n - i, &k);
		if (!is_han(c) && !is_wordch(c)) { i += k; continue; }
		if (S->n == S->cap && !(S->v = realloc(S->v, (S->cap = S->cap ? 2 * S->cap : 1024) * sizeof *S->v)))
			die("out of memory");
		span_t *u = &S->v[S->n++];
		u->s = (uint32_t)i;
		i += k;
		if (!is_han(c))
			while (i < n && is_wordch(c = u8dec(s + i, n - i, &k))) i += k;
		u->e = (uint32_t)i;
	}
	return S->n;
}
static uint32_t count_units(const char *p, size_t n)
{
	spans_t S = { 0 };
	uint32_t k = (uint32_t)scan_units(p, n, &S);
	free(S.v);
	return k;
}
/* bytes of the sentence end at p[i]: 。！？, .!? before a space or newline, a newline */
static inline size_t sent_end_at(const char *p, size_t n, size_t i)
{
	const unsigned char *s = (const unsigned char *)p + i;
	if (s[0] == '\n') return 1;
	if ((s[0] == '.' || s[0] == '!' || s[0] == '?') && (i + 1 == n || s[1] == ' ' || s[1] == '\n')) return 1;
	if (i + 3 <= n && ((s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x82) ||
	                   (s[0] == 0xEF && s[1] == 0xBC && (s[2] == 0x81 || s[2] == 0x9F)))) return 3;
	return 0;
}

/* ---- the Markov model */
enum { T_BOS = 0, T_EOP = 1 };                   /* paragraph start padding, paragraph end */
enum { F_END = 1, F_HAN = 2, F_SPACE = 4 };
#define HT_SIZE (1u << 18)
typedef struct { uint32_t off; uint16_t len; uint8_t fl, units; } voc_t;
/* a successor: token, pool position, and the range of the state (pos + 1, K)
 * it leads to when drawn at order K or K - 1 (saves a memory read) */
typedef struct { uint32_t tok, pos; uint64_t next; } ent_t;
typedef struct {
	int lang, K, cmin, rmax, dedup;
	buf_t str; voc_t *voc; uint32_t nv, *ht;     /* token strings, interned */
	uint32_t *tok; size_t ntok, captok;          /* the pool as token ids */
	ent_t *ent; uint32_t nent;                   /* successor positions sorted by context */
	uint64_t *rg;                                /* [q * (K+1) + m]: start | len << 32 | order << 60 */
	uint32_t q0, *han, nhan;                     /* a paragraph start; Han successors (for edits) */
} model_t;

static uint32_t intern(model_t *M, const char *s, size_t n, uint8_t fl)
{
	if (!M->ht && !(M->ht = calloc(HT_SIZE, 4))) die("out of memory");
	uint32_t j = (uint32_t)fnv(s, n) & (HT_SIZE - 1);
	for (; M->ht[j]; j = (j + 1) & (HT_SIZE - 1)) {
		const voc_t *v = &M->voc[M->ht[j] - 1];
		if (v->len == n && !memcmp(M->str.p + v->off, s, n)) return M->ht[j] - 1;
	}
	if (M->nv >= HT_SIZE / 2 || n > 65535) die("pool vocabulary too large");
	if (!(M->nv & (M->nv + 1)) && !(M->voc = realloc(M->voc, 2 * (M->nv + 1) * sizeof *M->voc))) die("out of memory");
	uint32_t u = count_units(s, n);
	M->voc[M->nv] = (voc_t){ (uint32_t)M->str.n, (uint16_t)n, fl, (uint8_t)(u > 255 ? 255 : u) };
	bput(&M->str, s, n);
	M->ht[j] = M->nv + 1;
	return M->nv++;
}
static void push_tok(model_t *M, uint32_t t)
{
	if (M->ntok == M->captok && !(M->tok = realloc(M->tok, (M->captok = 2 * M->captok + (1 << 20)) * 4)))
		die("out of memory");
	M->tok[M->ntok++] = t;
}
static void tokenize_line(model_t *M, const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	for (size_t i = 0, j, k; i < n; i = j) {
		uint8_t fl = 0;
		if (M->lang == EN) {                     /* a word with its punctuation */
			while (i < n && s[i] == ' ') i++;
			for (j = i; j < n && s[j] != ' '; j++);
			if (j == i) break;
			for (k = j; k > i && strchr(")]\"'", s[k - 1]); k--);
			if (k > i && (s[k - 1] == '.' || s[k - 1] == '!' || s[k - 1] == '?')) fl = F_END;
		} else {                                 /* a code point or an ASCII alphanumeric run */
			uint32_t c = u8dec(s + i, n - i, &k);
			j = i + k;
			if (is_alnum(c)) while (j < n && is_alnum(s[j])) j++;
			fl = is_han(c) ? F_HAN : c == ' ' ? F_SPACE : c == 0x3002 || c == 0xFF01 || c == 0xFF1F ? F_END : 0;
		}
		push_tok(M, intern(M, p + i, j - i, fl));
	}
}
static char *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f) die("cannot open %s (use --pool-dir DIR or --zh/--en FILE)", path);
	buf_t b = { 0 };
	size_t k;
	do { bgrow(&b, 1 << 20); k = fread(b.p + b.n, 1, 1 << 20, f); b.n += k; } while (k > 0);
	fclose(f);
	bputc(&b, '\n');
	*n = b.n;
	return b.p;
}

static const uint32_t *g_tok;
static int g_K;
static int cmp_ctx(const void *a, const void *b)  /* by the K tokens before, nearest first */
{
	uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;
	for (int d = 1; d <= g_K; d++)
		if (g_tok[p - d] != g_tok[q - d]) return g_tok[p - d] < g_tok[q - d] ? -1 : 1;
	return (p > q) - (p < q);
}
static void model_train(model_t *M, const char *text, size_t n)
{
	int K = M->K;
	intern(M, "<s>", 3, 0), intern(M, "</p>", 4, 0);
	for (size_t i = 0, e; i < n; i = e + 1) {    /* K start tokens, the line, an end token */
		const char *nl = memchr(text + i, '\n', n - i);
		e = nl ? (size_t)(nl - text) : n;
		if (e == i) continue;
		for (int k = 0; k < K; k++) push_tok(M, T_BOS);
		tokenize_line(M, text + i, e - i);
		push_tok(M, T_EOP);
	}
	M->q0 = (uint32_t)K;
	uint32_t *pos = malloc(M->ntok * 4);
	if (!pos) die("out of memory");
	for (size_t p = 0; p < M->ntok; p++)
		if (M->tok[p] != T_BOS) pos[M->nent++] = (uint32_t)p;
	g_tok = M->tok, g_K = K;
	qsort(pos, M->nent, 4, cmp_ctx);
	M->ent = big_alloc((size_t)M->nent * sizeof *M->ent);
	M->rg = big_alloc(M->ntok * (K + 1) * 8);
	if (!(M->han = malloc((size_t)M->nent * 4))) die("out of memory");
	for (uint32_t i = 0; i < M->nent; i++) {
		M->ent[i].tok = M->tok[pos[i]], M->ent[i].pos = pos[i];
		if (M->voc[M->tok[pos[i]]].fl & F_HAN) M->han[M->nhan++] = M->tok[pos[i]];
	}
	/* the groups of each order o; an accepted group is the range of (q, m)
	 * for its positions q and every m >= o (higher orders come later and win) */
	for (int o = 0; o <= K; o++)
		for (uint32_t s = 0, e; s < M->nent; s = e) {
			uint32_t occ = 0;
			uint64_t seen[16];
			for (e = s; e < M->nent; e++) {
				int same = 1;
				for (int d = 1; d <= o && same; d++) same = M->tok[pos[e] - d] == M->tok[pos[s] - d];
				if (!same) break;
				if (occ >= (uint32_t)M->cmin) continue;
				uint64_t h = 0;                  /* an occurrence: a new left context of dedup tokens */
				for (int d = o + 1; d <= o + M->dedup && pos[e] >= (uint32_t)d; d++)
					h = (h + M->tok[pos[e] - d] + 1) * 0x9E3779B97F4A7C15ull;
				uint32_t k = 0;
				while (k < occ && seen[k] != h) k++;
				if (k == occ || !M->dedup) seen[occ++] = h;
			}
			if (o > 0 && occ < (uint32_t)M->cmin) continue;
			if (e - s >= 1u << 28) die("pool too large");
			uint64_t R = s | (uint64_t)(e - s) << 32 | (uint64_t)o << 60;
			for (uint32_t i = s; i < e; i++)
				for (int m = o; m <= K; m++) M->rg[(size_t)pos[i] * (K + 1) + m] = R;
		}
	for (uint32_t i = 0; i < M->nent; i++)
		if (M->ent[i].tok != T_EOP) M->ent[i].next = M->rg[((size_t)M->ent[i].pos + 1) * (K + 1) + K];
	free(pos);
}

/* the loop guard: hashes of the windows of LOOP_W tokens of the text so far */
#define LOOP_W 10
#define LOOP_SET 4096
typedef struct { uint64_t set[LOOP_SET]; uint32_t ring[LOOP_W], n, inserted; } loopg_t;
static inline uint64_t loop_hash(const loopg_t *G, uint32_t t)
{
	uint64_t h = t + 1;
	for (uint32_t i = 1; i < LOOP_W; i++) h = h * 0x9E3779B97F4A7C15ull + G->ring[(G->n - i) % LOOP_W] + 1;
	return mix64(h) | 1;
}
static inline int loop_seen(const loopg_t *G, uint32_t t)
{
	if (G->n < LOOP_W - 1 || t == T_EOP) return 0;
	uint64_t h = loop_hash(G, t);
	for (uint32_t i = (uint32_t)(h >> 52); G->set[i]; i = (i + 1) % LOOP_SET)
		if (G->set[i] == h) return 1;
	return 0;
}
static inline void loop_push(loopg_t *G, uint32_t t)
{
	if (G->n >= LOOP_W - 1 && G->inserted < LOOP_SET / 2) {
		uint64_t h = loop_hash(G, t);
		uint32_t i = (uint32_t)(h >> 52);
		while (G->set[i] && G->set[i] != h) i = (i + 1) % LOOP_SET;
		if (!G->set[i]) G->set[i] = h, G->inserted++;
	}
	G->ring[G->n++ % LOOP_W] = t;
}

/* One step from state (q, m); R is the range of (q, K), valid when m == K;
 * run counts the steps that continued at q itself. */
typedef struct { uint32_t q, m, run; uint64_t R; } gst_t;
static inline const ent_t *draw(const model_t *M, rng_t *r, uint64_t R)
{
	return &M->ent[(uint32_t)R + rbelow(r, (uint32_t)(R >> 32) & 0x0FFFFFFF)];
}
static inline uint32_t gstep(const model_t *M, rng_t *r, gst_t *g, const loopg_t *G)
{
	const uint64_t *row = M->rg + (size_t)g->q * (M->K + 1);
	uint64_t R = g->m == (uint32_t)M->K ? g->R : row[g->m];
	const ent_t *e = draw(M, r, R);
	uint32_t o = (uint32_t)(R >> 60);
	g->run = e->pos == g->q ? g->run + 1 : 0;
	if ((e->pos == g->q && g->run >= (uint32_t)M->rmax) || loop_seen(G, e->tok)) {
		for (uint32_t m = o + 1, t = 0; m-- > 0;) {   /* redraw at this order and below */
			R = row[m], o = (uint32_t)(R >> 60), m = o;
			for (t = 0; t < 4; t++) {
				e = draw(M, r, R);
				if ((e->pos != g->q || g->run < (uint32_t)M->rmax) && !loop_seen(G, e->tok)) break;
			}
			if (t < 4) break;
		}
		g->run = 0;
	}
	g->q = e->pos + 1;
	g->m = o + 1 < (uint32_t)M->K ? o + 1 : (uint32_t)M->K;
	g->R = e->next;
	return e->tok;
}

/* Append text to b, paragraphs joined by '\n'.  Byte mode (unit_target 0):
 * stop at a paragraph end past 92% of target, at a sentence end past 97%,
 * cut past 108%.  Unit mode: stop at the first sentence end with at least
 * unit_target units, or before exceeding unit_max. */
static void gen_text(const model_t *M, rng_t *r, buf_t *b, size_t target, uint32_t unit_target, uint32_t unit_max)
{
	static _Thread_local loopg_t G;   /* 32 KB, per thread */
	size_t b0 = b->n;
	uint32_t units = 0;
	int done = 0;
	memset(G.set, 0, sizeof G.set);
	G.inserted = 0;
	while (!done) {
		gst_t g = { M->q0, (uint32_t)M->K, 0, M->rg[(size_t)M->q0 * (M->K + 1) + M->K] };
		size_t ps = b->n;
		int cap_next = 0;
		for (G.n = 0;;) {
			uint32_t t = gstep(M, r, &g, &G);
			if (t == T_EOP) break;
			loop_push(&G, t);
			const voc_t *v = &M->voc[t];
			if (b->n == ps && (v->fl & F_SPACE)) continue;
			if (unit_target && units + v->units > unit_max) { done = 1; break; }
			if (M->lang == EN && b->n > ps) bputc(b, ' ');
			size_t at = b->n;
			bput(b, M->str.p + v->off, v->len);
			if (cap_next && b->p[at] >= 'a' && b->p[at] <= 'z') b->p[at] -= 32;
			cap_next = M->lang == EN && (v->fl & F_END);
			units += v->units;
			size_t cur = b->n - b0;
			if (unit_target ? units >= unit_target && (v->fl & F_END)
			                : ((v->fl & F_END) && cur * 100 >= target * 97) || cur * 100 >= target * 108) {
				done = 1;
				break;
			}
		}
		while (b->n > ps && b->p[b->n - 1] == ' ') b->n--;
		if (done || b->n == ps) continue;
		if (unit_target ? units >= unit_target : (b->n - b0) * 100 >= target * 92) break;
		bputc(b, '\n');
	}
}

/* ---- the corpus: every document's kind is a keyed hash of (seed, id) */
typedef struct { uint32_t n, half; uint64_t key[4]; } perm_t;   /* Feistel, cycle-walking */
static uint32_t perm_apply(const perm_t *P, uint32_t x)
{
	uint32_t mask = (1u << P->half) - 1;
	do {
		uint32_t L = x >> P->half, R = x & mask;
		for (int k = 0; k < 4; k++) {
			uint32_t t = L ^ ((uint32_t)mix64(R ^ P->key[k]) & mask);
			L = R, R = t;
		}
		x = L << P->half | R;
	} while (x >= P->n);
	return x;
}
typedef struct {
	uint64_t seed;
	int plain;
	uint32_t N, NL[2], famtot[2];                /* N, per language: documents, famous ones */
	model_t M[2];
	perm_t perm[2];
	struct { int lang; uint32_t freq, lo; buf_t text; } fam[NFAM];
	buf_t boil[2][NBOIL];
} corpus_t;
enum { K_ORIG, K_FAMOUS, K_NEAR };
typedef struct { int kind, famous, boiler; uint32_t src, own_e, keep_s, keep_e; } docinfo_t;
typedef struct { buf_t body, src, tmp, aux; spans_t sp; } ctx_t;   /* per-thread scratch */

static inline int lang_of(uint32_t id) { return id & 1 ? ZH : EN; }
static inline uint32_t id_of(int l, uint32_t h) { return 2 * h + (l == ZH ? 1 : 2); }
static int famous_of(const corpus_t *C, uint32_t id)
{
	int l = lang_of(id);
	if (!C->famtot[l]) return -1;
	uint32_t r = perm_apply(&C->perm[l], (id - 1) / 2);
	for (int p = 0; r < C->famtot[l] && p < NFAM; p++)
		if (C->fam[p].lang == l && r >= C->fam[p].lo && r < C->fam[p].lo + C->fam[p].freq) return p;
	return -1;
}
static int is_near(const corpus_t *C, uint32_t id)
{
	return !C->plain && id > 2 && h3(C->seed, 'N', id) % 10000 < 200 && famous_of(C, id) < 0;
}
static uint32_t near_src(const corpus_t *C, uint32_t id)   /* an earlier original, same language */
{
	rng_t r;
	rseed(&r, C->seed, 'n', id);
	for (int t = 0; t < 32; t++) {
		uint32_t j = id_of(lang_of(id), rbelow(&r, (id - 1) / 2));
		if (famous_of(C, j) < 0 && !is_near(C, j)) return j;
	}
	return 0;
}
static int boiler_of(const corpus_t *C, uint32_t id, int stream)
{
	uint64_t h = h3(C->seed, stream, id);
	return !C->plain && h % 10000 < 500 ? (int)((h >> 32) % NBOIL) : -1;
}

static void corpus_init(corpus_t *C, uint64_t seed, uint32_t N)
{
	static const char *site[2][5] = {
		{ "示例技术网", "开源学习站", "运维手册网", "极客文库", "软件百科" },
		{ "Example Tech Notes", "OpenDocs Hub", "SysAdmin Corner", "The Linux Handbook Online", "Packet Street Wiki" } };
	static const char *tpl[2][5] = { {
		"本文版权归%s所有，未经书面许可，任何单位和个人不得转载、摘编或以其他方式使用。",
		"声明：本站部分内容来源于网络，仅供学习交流使用，如有侵权请联系%s删除。",
		"转载请注明出处：%s，本文链接地址请以页面上方显示为准，谢谢合作。",
		"© 2015-2024 %s 版权所有 保留一切权利 本站内容遵循知识共享署名相同方式共享许可协议",
		"关注%s官方公众号，获取更多操作系统、数据库和网络运维相关的技术文章与教程。" }, {
		"Copyright © 2008-2024 %s. All rights reserved. No part of this page may be reproduced without written permission.",
		"Content on %s is available under the Creative Commons Attribution-ShareAlike License unless otherwise noted.",
		"This article was originally published on %s. Please cite the original source when you share or adapt it.",
		"Disclaimer: %s is not affiliated with the Debian project. Information is provided as is, without any warranty.",
		"Found this guide useful? Subscribe to the %s newsletter for weekly tips on Linux, networking and system administration." } };
	char line[512];
	C->seed = seed, C->N = N, C->NL[ZH] = (N + 1) / 2, C->NL[EN] = N / 2;
	for (int l = 0; l < 2; l++) {
		for (int k = 0; k < NBOIL; k++) {
			int len = snprintf(line, sizeof line, tpl[l][k / 5], site[l][k % 5]);
			bput(&C->boil[l][k], line, (size_t)len);
		}
		perm_t *P = &C->perm[l];
		P->n = C->NL[l], P->half = 1;
		while ((uint64_t)1 << (2 * P->half) < P->n) P->half++;
		for (int k = 0; k < 4; k++) P->key[k] = h3(seed, 'P' + l, k);
	}
	for (int p = 0; p < NFAM; p++) {
		static const double tierf[4] = { 10, 100, 1000, 10000 };
		rng_t r;
		int l = p & 1 ? EN : ZH;
		double f = tierf[p / 5] * N / 1e6 + 0.5;
		C->fam[p].lang = l, C->fam[p].freq = f < 2 ? 2 : (uint32_t)f;
		C->fam[p].lo = C->famtot[l], C->famtot[l] += C->fam[p].freq;
		rseed(&r, seed, 'F', (uint64_t)p);
		uint32_t u;
		do {                                     /* 60-200 units as the index counts them */
			C->fam[p].text.n = 0;
			gen_text(&C->M[l], &r, &C->fam[p].text, 0, 60 + rbelow(&r, 141), 200);
			u = count_units(C->fam[p].text.p, C->fam[p].text.n);
		} while (u < 60 || u > 200);
	}
	if (!C->plain && (C->famtot[ZH] * 4 > C->NL[ZH] || C->famtot[EN] * 4 > C->NL[EN]))
		fprintf(stderr, "gen_passage_corpus: N=%u too small: no famous passages\n", N), C->plain = -1;
	if (C->plain) C->famtot[ZH] = C->famtot[EN] = 0, C->plain = C->plain > 0;
}

/* nedit unit edits to b: zh a Han character replaced, deleted or doubled; en
 * one letter of a word substituted, deleted or inserted */
static void edit_units(const model_t *M, rng_t *r, buf_t *b, uint32_t nedit, ctx_t *X)
{
	size_t nu = scan_units(b->p, b->n, &X->sp), k, last = 0;
	uint32_t pick[64], np = 0;
	if (nedit > 64) nedit = 64;
	for (uint32_t t = 0; t < 8 * nedit && np < nedit && nu; t++) {   /* distinct units, sorted */
		uint32_t i = rbelow(r, (uint32_t)nu), dup = 0, j;
		const span_t *u = &X->sp.v[i];
		if (M->lang == ZH ? !is_han(u8dec((const unsigned char *)b->p + u->s, u->e - u->s, &k))
		                  : !is_alnum((unsigned char)b->p[u->s])) continue;
		for (j = 0; j < np; j++) dup |= pick[j] == i;
		if (dup) continue;
		for (j = np++; j > 0 && pick[j - 1] > i; j--) pick[j] = pick[j - 1];
		pick[j] = i;
	}
	buf_t *o = &X->tmp;
	o->n = 0;
	for (uint32_t j = 0; j < np; j++) {
		const span_t *u = &X->sp.v[pick[j]];
		const char *w = b->p + u->s;
		size_t wl = u->e - u->s, a = 0;
		bput(o, b->p + last, u->s - last);
		last = u->e;
		uint32_t op = rbelow(r, 3);
		if (M->lang == ZH) {
			if (op == 0) {                       /* replaced by a Han character of the pool */
				uint32_t t = M->han[rbelow(r, M->nhan)];
				if (M->voc[t].len == wl && !memcmp(M->str.p + M->voc[t].off, w, wl)) t = M->han[rbelow(r, M->nhan)];
				bput(o, M->str.p + M->voc[t].off, M->voc[t].len);
			} else if (op == 2) bput(o, w, wl), bput(o, w, wl);
			continue;
		}
		for (int t = 0; t < 8; t++) { a = rbelow(r, (uint32_t)wl); if ((unsigned char)w[a] < 0x80) break; }
		if ((unsigned char)w[a] >= 0x80) { bput(o, w, wl); continue; }
		char c = (char)('a' + rbelow(r, 26));
		if (w[a] >= 'A' && w[a] <= 'Z') c -= 32;
		bput(o, w, a);
		if (op == 0 || (op == 1 && wl < 2)) { if (c == w[a]) c = c == 'z' || c == 'Z' ? c - 1 : c + 1; bputc(o, c); }
		else if (op == 2) bputc(o, c), bputc(o, w[a]);
		bput(o, w + a + 1, wl - a - 1);
	}
	bput(o, b->p + last, b->n - last);
	buf_t t = *b; *b = *o; *o = t;
}

static inline int mid_unit(const char *p, size_t i)    /* p[i] continues a character or a word */
{
	return (p[i] & 0xC0) == 0x80 || (is_alnum((unsigned char)p[i]) && is_alnum((unsigned char)p[i - 1]));
}
static void doc_build(const corpus_t *C, ctx_t *X, uint32_t id, buf_t *out, docinfo_t *I)
{
	int l = lang_of(id);
	const model_t *M = &C->M[l];
	rng_t r;
	uint32_t j;
	memset(I, 0, sizeof *I);
	I->famous = famous_of(C, id);
	if (I->famous < 0 && is_near(C, id) && (j = near_src(C, id)) != 0) {
		docinfo_t J;
		buf_t *S = &X->src;
		doc_build(C, X, j, S, &J);
		rseed(&r, C->seed, 'C', id);
		size_t L = S->n, keep = (size_t)(L * (0.70 + 0.30 * runit(&r))), a, b, i, k = 0;
		a = rbelow(&r, (uint32_t)(L - keep + 1)), b = a + keep;
		if (a > 0) {                             /* start after a sentence end, else at a unit */
			for (i = a; i < b && i < a + L / 8; i++)
				if ((k = sent_end_at(S->p, L, i))) break;
			if (k) a = i + k;
			else while (a < b && mid_unit(S->p, a)) a++;
		}
		if (b < L) {                             /* end after a sentence end, else after a unit */
			for (i = b, k = 0; i > a && i + L / 8 > b; i--, k = 0)
				if ((k = sent_end_at(S->p, L, i - 1)) && i - 1 + k <= b) break;
			if (k) b = i - 1 + k;
			else while (b > a && mid_unit(S->p, b)) b--;
		}
		while (a < b && (S->p[a] == ' ' || S->p[a] == '\n')) a++;
		while (b > a && (S->p[b - 1] == ' ' || S->p[b - 1] == '\n')) b--;
		out->n = 0;
		bput(out, S->p + a, b - a);
		edit_units(M, &r, out, 1 + rbelow(&r, 6), X);
		I->kind = K_NEAR, I->src = j, I->keep_s = (uint32_t)a, I->keep_e = (uint32_t)b;
		I->boiler = J.boiler >= 0 && b == L ? J.boiler : -1;
		if (I->boiler < 0 && (I->boiler = boiler_of(C, id, 'b')) >= 0)
			bputc(out, '\n'), bput(out, C->boil[l][I->boiler].p, C->boil[l][I->boiler].n);
		return;
	}
	const buf_t *F = I->famous >= 0 ? &C->fam[I->famous].text : NULL;
	I->kind = F ? K_FAMOUS : K_ORIG;
	I->boiler = boiler_of(C, id, 'B');
	size_t target = DOC_BYTES - (I->boiler >= 0 ? C->boil[l][I->boiler].n + 1 : 0) - (F ? F->n + 1 : 0);
	rseed(&r, C->seed, 'D', id);
	out->n = 0;
	gen_text(M, &r, out, target, 0, 0);
	I->own_e = (uint32_t)out->n;
	if (F) {                                     /* a paragraph at a random paragraph boundary */
		uint32_t np = 1, k, c = 0;
		for (size_t i = 0; i < out->n; i++) np += out->p[i] == '\n';
		k = rbelow(&r, np + 1);
		size_t at = 0;
		for (; c < k && at < out->n; at++) c += out->p[at] == '\n';
		if (k == np) at = out->n;
		bgrow(out, F->n + 1);
		memmove(out->p + at + F->n + 1, out->p + at, out->n - at);
		if (at == out->n) out->p[at] = '\n', memcpy(out->p + at + 1, F->p, F->n);
		else memcpy(out->p + at, F->p, F->n), out->p[at + F->n] = '\n';
		out->n += F->n + 1;
	}
	if (I->boiler >= 0) bputc(out, '\n'), bput(out, C->boil[l][I->boiler].p, C->boil[l][I->boiler].n);
}
static void doc_line(const corpus_t *C, ctx_t *X, uint32_t id, buf_t *out, docinfo_t *I)
{
	doc_build(C, X, id, &X->body, I);
	bprintf(out, "%u\t%s\t", id, LANGNAME[lang_of(id)]);
	bput_copy(out, X->body.p, X->body.n);
	bputc(out, '\n');
}

/* ---- corpus mode: batches of documents made by T threads, written in order */
typedef struct { ull docs, bytes, kind[3], boiler, famtier[4], lang[2]; } stats_t;
typedef struct { const corpus_t *C; ctx_t X; buf_t out; uint32_t lo, hi; stats_t st; } job_t;
static void *run_batch(void *arg)
{
	job_t *J = arg;
	docinfo_t I;
	J->out.n = 0;
	for (uint32_t id = J->lo; id < J->hi; id++) {
		doc_line(J->C, &J->X, id, &J->out, &I);
		J->st.docs++, J->st.bytes += J->X.body.n, J->st.kind[I.kind]++, J->st.lang[lang_of(id)]++;
		J->st.boiler += I.boiler >= 0;
		if (I.famous >= 0) J->st.famtier[I.famous / 5]++;
	}
	return NULL;
}
/* sink NULL: write to stdout; else sink(arg, text of a batch, its first id) */
static void corpus_run(const corpus_t *C, int T, stats_t *st, void (*sink)(void *, const buf_t *, uint32_t), void *arg)
{
	enum { B = 1000 };
	job_t *J = calloc((size_t)T, sizeof *J);
	pthread_t *th = calloc((size_t)T, sizeof *th);
	for (uint32_t lo = 1; lo <= C->N; lo += (uint32_t)T * B) {
		int used = 0;
		for (int t = 0; t < T && lo + (uint32_t)t * B <= C->N; t++, used++) {
			J[t].C = C, J[t].lo = lo + (uint32_t)t * B;
			J[t].hi = J[t].lo + B > C->N + 1 ? C->N + 1 : J[t].lo + B;
			if (t > 0 && pthread_create(&th[t], NULL, run_batch, &J[t])) die("pthread_create");
		}
		run_batch(&J[0]);
		for (int t = 0; t < used; t++) {
			if (t > 0) pthread_join(th[t], NULL);
			if (sink) sink(arg, &J[t].out, J[t].lo);
			else if (fwrite(J[t].out.p, 1, J[t].out.n, stdout) != J[t].out.n) die("write error");
		}
	}
	memset(st, 0, sizeof *st);
	for (int t = 0; t < T; t++)
		for (size_t k = 0; k < sizeof *st / sizeof(ull); k++) ((ull *)st)[k] += ((ull *)&J[t].st)[k];
	free(J), free(th);
}

/* ---- queries */
typedef struct { uint32_t src; int verbatim; buf_t text; } qpass_t;
typedef struct { uint64_t *v; size_t n; } nearmap_t;   /* source << 32 | near-copy, sorted */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}
static void nearmap_build(const corpus_t *C, nearmap_t *NM)
{
	size_t cap = 1024;
	NM->n = 0, NM->v = malloc(cap * 8);
	for (uint32_t k = 3, j; k <= C->N; k++)
		if (is_near(C, k) && (j = near_src(C, k)) != 0) {
			if (NM->n == cap) NM->v = realloc(NM->v, (cap *= 2) * 8);
			NM->v[NM->n++] = (uint64_t)j << 32 | k;
		}
	qsort(NM->v, NM->n, 8, cmp_u64);
}
/* query qid into X->body; its passages into P[*np]; returns the number of
 * sorted distinct source ids written to srcs (room for 64) */
static uint32_t query_build(const corpus_t *C, const nearmap_t *NM, ctx_t *X, uint32_t qid, double none,
                            qpass_t *P, uint32_t *np, uint32_t *srcs)
{
	int l = lang_of(qid);
	const model_t *M = &C->M[l];
	rng_t r;
	docinfo_t I;
	uint32_t ns = 0, want, used = 0;
	rseed(&r, C->seed, 'Q', qid);
	want = runit(&r) < none || !C->NL[l] ? 0 : 1 + rbelow(&r, 3);
	*np = 0;
	for (uint32_t p = 0; p < want; p++) {
		uint32_t j = 0, U = 0, L, s;
		for (int t = 0; t < 1000 && !U; t++) {   /* a random original, not used yet */
			j = id_of(l, rbelow(&r, C->NL[l]));
			int dup = 0;
			for (uint32_t q = 0; q < *np; q++) dup |= P[q].src == j;
			if (dup || famous_of(C, j) >= 0 || is_near(C, j)) continue;
			doc_build(C, X, j, &X->body, &I);
			U = (uint32_t)scan_units(X->body.p, I.own_e, &X->sp);
			if (U < 40) U = 0;
		}
		if (!U) break;
		L = 40 + rbelow(&r, 361);
		if (L > U) L = U;
		s = rbelow(&r, U - L + 1);
		const span_t *u = X->sp.v;
		while (L >= 40 && u[s + L - 1].e - u[s].s + used > QUERY_PASSAGE_BYTES) L--;
		if (L < 40) break;
		size_t ps = u[s].s, pe = u[s + L - 1].e;
		qpass_t *Q = &P[(*np)++];
		Q->src = j, Q->text.n = 0;
		bput(&Q->text, X->body.p + ps, pe - ps);
		used += (uint32_t)(pe - ps);
		if (!(Q->verbatim = runit(&r) < 0.4)) {
			uint32_t ne = (uint32_t)((0.01 + 0.04 * runit(&r)) * L + 0.5);
			edit_units(M, &r, &Q->text, ne ? ne : 1, X);
		}
		srcs[ns++] = j;
		size_t lo = 0, hi = NM->n;               /* near-copies of j that kept half of it */
		while (lo < hi) { size_t mid = (lo + hi) / 2; if (NM->v[mid] >> 32 < j) lo = mid + 1; else hi = mid; }
		for (; lo < NM->n && NM->v[lo] >> 32 == j && ns < 60; lo++) {
			doc_build(C, X, (uint32_t)NM->v[lo], &X->aux, &I);
			size_t a = I.keep_s > ps ? I.keep_s : ps, b = I.keep_e < pe ? I.keep_e : pe;
			if (b > a && 2 * (b - a) >= pe - ps) srcs[ns++] = (uint32_t)NM->v[lo];
		}
	}
	/* filler cut at sentence ends into np + 1 pieces, the passages between them */
	buf_t *F = &X->src, *B = &X->body;
	F->n = 0;
	gen_text(M, &r, F, used + 256 > QUERY_BYTES ? 256 : QUERY_BYTES - used, 0, 0);
	size_t cut[4] = { 0 }, nc = 0, last = 0, i, k;
	for (uint32_t p = 0; p < *np; p++) {
		size_t at = rbelow(&r, (uint32_t)F->n + 1);
		for (k = 0; at < F->n && !(k = sent_end_at(F->p, F->n, at)); at++);
		at = at < F->n ? at + k : F->n;
		for (i = nc++; i > 0 && cut[i - 1] > at; i--) cut[i] = cut[i - 1];
		cut[i] = at;
	}
	B->n = 0;
	for (size_t p = 0; p <= nc; p++) {
		size_t e = p < nc ? cut[p] : F->n, s = last;
		last = e;
		while (s < e && (F->p[s] == ' ' || F->p[s] == '\n')) s++;
		while (e > s && (F->p[e - 1] == ' ' || F->p[e - 1] == '\n')) e--;
		for (int piece = 0; piece < 2; piece++) {   /* the filler piece, then passage p */
			const char *t = piece ? (p < nc ? P[p].text.p : NULL) : F->p + s;
			size_t tn = piece ? (p < nc ? P[p].text.n : 0) : e - s;
			if (!tn) continue;
			if (B->n && rbelow(&r, 2)) bputc(B, '\n');
			else if (B->n && l == EN) bputc(B, ' ');
			bput(B, t, tn);
		}
	}
	for (uint32_t a = 1, b; a < ns; a++) {       /* sort, drop repeats */
		uint32_t v = srcs[a];
		for (b = a; b > 0 && srcs[b - 1] > v; b--) srcs[b] = srcs[b - 1];
		srcs[b] = v;
	}
	uint32_t w = 0;
	for (uint32_t a = 0; a < ns; a++) if (!w || srcs[w - 1] != srcs[a]) srcs[w++] = srcs[a];
	return w;
}

/* ---- statistics: the share of a set's 13-unit windows also in another document */
typedef struct { uint64_t h; uint32_t doc; } win_t;
static int cmp_win(const void *a, const void *b)
{
	const win_t *x = a, *y = b;
	return x->h != y->h ? (x->h > y->h) - (x->h < y->h) : (x->doc > y->doc) - (x->doc < y->doc);
}
typedef struct { const char **p; size_t *n; uint32_t nd; } docset_t;
/* windows of D; *rep: in another document; *inpool: in the sorted hashes pool;
 * all (if not NULL): the sorted distinct hashes, *nall of them */
static size_t rep_stat(const docset_t *D, const uint64_t *pool, size_t npool, size_t *rep, size_t *inpool,
                       uint64_t **all, size_t *nall)
{
	spans_t S = { 0 };
	size_t cap = 1 << 20, n = 0, ucap = 0;
	win_t *w = malloc(cap * sizeof *w);
	uint64_t *uh = NULL;
	for (uint32_t d = 0; d < D->nd; d++) {
		size_t nu = scan_units(D->p[d], D->n[d], &S);
		if (nu > ucap) uh = realloc(uh, (ucap = 2 * nu) * 8);
		if (n + nu > cap) w = realloc(w, (cap = 2 * (n + nu)) * sizeof *w);
		for (size_t i = 0; i < nu; i++) {        /* unit hashes, ASCII case folded */
			uint64_t h = 1469598103934665603ull;
			for (uint32_t k = S.v[i].s; k < S.v[i].e; k++) {
				unsigned char c = (unsigned char)D->p[d][k];
				h = (h ^ (c >= 'A' && c <= 'Z' ? c + 32 : c)) * 1099511628211ull;
			}
			uh[i] = mix64(h);
		}
		for (size_t i = 0; i + WIN <= nu; i++) {
			uint64_t h = 0;
			for (int k = 0; k < WIN; k++) h = h * 0x9E3779B97F4A7C15ull + uh[i + k];
			w[n].h = mix64(h), w[n++].doc = d;
		}
	}
	qsort(w, n, sizeof *w, cmp_win);
	*rep = *inpool = 0;
	if (all) *all = malloc((n + 1) * 8), *nall = 0;
	for (size_t s = 0, e; s < n; s = e) {
		for (e = s + 1; e < n && w[e].h == w[s].h; e++);
		if (w[e - 1].doc != w[s].doc) *rep += e - s;
		if (all) (*all)[(*nall)++] = w[s].h;
		size_t lo = 0, hi = npool;
		while (lo < hi) { size_t mid = (lo + hi) / 2; if (pool[mid] < w[s].h) lo = mid + 1; else hi = mid; }
		if (lo < npool && pool[lo] == w[s].h) *inpool += e - s;
	}
	free(w), free(uh), free(S.v);
	return n;
}
static void report(const char *lang, const char *what, const docset_t *D, const uint64_t *pool, size_t npool)
{
	size_t rep, inpool, n = rep_stat(D, pool, npool, &rep, &inpool, NULL, NULL);
	fprintf(stderr, "  %s %-44s %6u docs %8zu windows: in another doc %5.2f%%", lang, what, D->nd, n, 100.0 * rep / (n ? n : 1));
	if (pool) fprintf(stderr, ", in the pool %5.2f%%", 100.0 * inpool / (n ? n : 1));
	fputc('\n', stderr);
}

/* ---- check mode */
typedef struct { const corpus_t *C; uint64_t *hash; ull famcount[NFAM]; buf_t famesc[NFAM]; } checksink_t;
static void check_sink(void *arg, const buf_t *b, uint32_t id)
{
	checksink_t *K = arg;
	for (const char *p = b->p, *end = b->p + b->n, *nl; p < end; p = nl + 1, id++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		K->hash[id] = fnv(p, (size_t)(nl - p));
		for (int f = 0; f < NFAM; f++)
			if (K->C->fam[f].lang == lang_of(id) && memmem(p, (size_t)(nl - p), K->famesc[f].p, K->famesc[f].n))
				K->famcount[f]++;
	}
}
static int same_alone(const corpus_t *C, ctx_t *X, const checksink_t *K, uint32_t id, docinfo_t *I)
{
	buf_t *line = &X->aux;
	line->n = 0;
	doc_line(C, X, id, line, I);
	if (fnv(line->p, line->n - 1) == K->hash[id]) return 1;
	fprintf(stderr, "check: FAIL document %u differs when generated alone\n", id);
	return 0;
}
static int check_mode(corpus_t *C, char *pooltext[2], size_t pooln[2], int T)
{
	int bad = 0;
	uint32_t N = C->N, tested = 0, nnear = 0, np, srcs[64], nv = 0, nq = 0, nsrc = 0;
	double t0 = now();
	checksink_t K = { .C = C, .hash = calloc(N + 1, 8) };
	stats_t st;
	ctx_t X = { 0 };
	docinfo_t I;
	rng_t r;
	for (int f = 0; f < NFAM; f++) bput_copy(&K.famesc[f], C->fam[f].text.p, C->fam[f].text.n);
	corpus_run(C, T, &st, check_sink, &K);
	fprintf(stderr, "check: corpus %u made in %.1f s (%.1f MB)\n", N, now() - t0, st.bytes / 1e6);
	/* 1. documents generated alone (the last 500 backwards, then at random) equal the corpus's */
	rseed(&r, C->seed, 'k', 0);
	for (uint32_t t = 0; t < 3000 && t < N; t++, tested++) {
		bad += !same_alone(C, &X, &K, t < 500 ? N - t : 1 + rbelow(&r, N), &I);
		nnear += I.kind == K_NEAR;
	}
	fprintf(stderr, "check: %u documents generated alone (%u near-copies): %s\n", tested, nnear, bad ? "DIFFER" : "identical");
	/* 2. the famous passages: in exactly freq documents each, 60-200 units */
	for (int f = 0; f < NFAM; f++) {
		size_t u = count_units(C->fam[f].text.p, C->fam[f].text.n);
		int ok = K.famcount[f] == (C->famtot[0] ? C->fam[f].freq : 0) && u >= 60 && u <= 200;
		bad += !ok;
		fprintf(stderr, "check: famous passage %2d (%s, %3zu units, %4zu bytes): in %6llu docs, expected %6u %s\n", f,
		        LANGNAME[C->fam[f].lang], u, C->fam[f].text.n, K.famcount[f], C->fam[f].freq, ok ? "ok" : "FAIL");
	}
	/* 3. queries: their sources as the corpus has them, verbatim passages inside them */
	nearmap_t NM;
	qpass_t P[3] = { { 0 } };
	nearmap_build(C, &NM);
	for (uint32_t q = 1; q <= 300; q++) {
		uint32_t ns = query_build(C, &NM, &X, q, 0.2, P, &np, srcs);
		for (uint32_t s = 0; s < ns; s++, nsrc++) bad += !same_alone(C, &X, &K, srcs[s], &I);
		for (uint32_t p = 0; p < np; p++) {
			if (!P[p].verbatim) continue;
			nq++;
			doc_build(C, &X, P[p].src, &X.aux, &I);
			if (memmem(X.aux.p, X.aux.n, P[p].text.p, P[p].text.n)) nv++;
			else fprintf(stderr, "check: FAIL query %u: verbatim passage not in document %u\n", q, P[p].src), bad++;
		}
	}
	fprintf(stderr, "check: 300 queries: %u sources as in the corpus, %u of %u verbatim passages in their source\n",
	        nsrc, nv, nq);
	/* 4. repetition statistics */
	fprintf(stderr, "check: 13-unit windows (unit: a Han character or a word) also in another document of the set\n");
	for (int l = 0; l < 2; l++) {
		enum { NG = 10000 };
		const char *ln = LANGNAME[l];
		docset_t D = { malloc(NG * sizeof(char *)), malloc(NG * sizeof(size_t)), 0 };
		buf_t *gb = calloc(NG, sizeof *gb);
		uint64_t *pool;
		size_t rep, inpool, npool;
		for (size_t s = 0, i = 0; s < pooln[l] && D.nd < NG; s = i, D.nd++) {   /* the pool in 2 KB docs */
			while (i < pooln[l] && i - s < DOC_BYTES) {
				const char *nl = memchr(pooltext[l] + i, '\n', pooln[l] - i);
				i = nl ? (size_t)(nl - pooltext[l]) + 1 : pooln[l];
			}
			D.p[D.nd] = pooltext[l] + s, D.n[D.nd] = i - s;
		}
		uint32_t npd = D.nd;
		rep_stat(&D, NULL, 0, &rep, &inpool, &pool, &npool);
		report(ln, "real: the pool in 2 KB docs", &D, NULL, 0);
		for (uint32_t i = 0; i < NG; i++) {
			rseed(&r, C->seed, 'S' + l, i);
			gen_text(&C->M[l], &r, &gb[i], DOC_BYTES, 0, 0);
			D.p[i] = gb[i].p, D.n[i] = gb[i].n;
		}
		D.nd = npd;
		report(ln, "generated, as many docs as the pool", &D, pool, npool);
		D.nd = NG;
		report(ln, "generated (model only)", &D, pool, npool);
		for (D.nd = 0; D.nd < NG && id_of(l, D.nd) <= N; D.nd++) {
			doc_build(C, &X, id_of(l, D.nd), &X.body, &I);
			gb[D.nd].n = 0, bput(&gb[D.nd], X.body.p, X.body.n);
			D.p[D.nd] = gb[D.nd].p, D.n[D.nd] = gb[D.nd].n;
		}
		report(ln, "the corpus's first docs (with duplication)", &D, pool, npool);
		for (uint32_t i = 0; i < NG; i++) free(gb[i].p);
		free(gb), free(D.p), free(D.n), free(pool);
	}
	fprintf(stderr, "check: %s (%.1f s)\n", bad ? "FAILED" : "passed", now() - t0);
	return bad ? 1 : 0;
}

static void usage(void)
{
	die("usage: gen_passage_corpus corpus N | queries M --corpus-n N [--none F] | check [--corpus-n N]\n"
	    "  [--seed S] [--threads T] [--plain] [--pool-dir DIR | --zh FILE --en FILE]\n"
	    "  model (zh,en): --order 4,3 --min-count 2,2 --dedup 8,8 --max-run 8,8");
}
int main(int argc, char **argv)
{
	static corpus_t C;
	const char *mode = argc > 1 ? argv[1] : "", *pooldir = "test/data", *path[2] = { NULL, NULL };
	ull seed = 1, count = 0, corpus_n = 0;
	double none = 0.2, t0 = now();
	int T = 2, K[2] = { 4, 3 }, cmin[2] = { 2, 2 }, rmax[2] = { 8, 8 }, dedup[2] = { 8, 8 };
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (!strcmp(a, name) && v && ++i)
		if (OPT("--seed")) seed = strtoull(v, NULL, 10);
		else if (OPT("--corpus-n")) corpus_n = strtoull(v, NULL, 10);
		else if (OPT("--none")) none = atof(v);
		else if (OPT("--threads")) T = atoi(v);
		else if (!strcmp(a, "--plain")) C.plain = 1;
		else if (OPT("--pool-dir")) pooldir = v;
		else if (OPT("--zh")) path[ZH] = v;
		else if (OPT("--en")) path[EN] = v;
		else if (OPT("--order")) sscanf(v, "%d,%d", &K[ZH], &K[EN]);
		else if (OPT("--min-count")) sscanf(v, "%d,%d", &cmin[ZH], &cmin[EN]);
		else if (OPT("--max-run")) sscanf(v, "%d,%d", &rmax[ZH], &rmax[EN]);
		else if (OPT("--dedup")) sscanf(v, "%d,%d", &dedup[ZH], &dedup[EN]);
		else if (a[0] >= '0' && a[0] <= '9' && !count) count = strtoull(a, NULL, 10);
		else usage();
#undef OPT
	}
	if (!strcmp(mode, "corpus")) corpus_n = count;
	else if (!strcmp(mode, "check")) corpus_n = corpus_n ? corpus_n : count ? count : 20000;
	else if (strcmp(mode, "queries") || !corpus_n) usage();
	if (corpus_n < 1 || corpus_n > 2000000000u || T < 1 || T > 64) die("bad N or --threads");
	for (int l = 0; l < 2; l++)
		if (K[l] < 1 || K[l] > 7 || rmax[l] < 1 || cmin[l] < 1 || cmin[l] > 16 || dedup[l] < 0) usage();

	char *text[2], dflt[2][4096];
	size_t n[2];
	for (int l = 0; l < 2; l++) {
		if (!path[l]) snprintf(dflt[l], sizeof dflt[l], "%s/pool_%s.txt", pooldir, LANGNAME[l]), path[l] = dflt[l];
		text[l] = read_file(path[l], &n[l]);
		model_t *M = &C.M[l];
		M->lang = l, M->K = K[l], M->cmin = cmin[l], M->rmax = rmax[l], M->dedup = dedup[l];
		model_train(M, text[l], n[l]);
	}
	corpus_init(&C, seed, (uint32_t)corpus_n);
	fprintf(stderr, "gen_passage_corpus: models trained in %.2f s (zh %zu tokens, %u types, order %d; "
	        "en %zu tokens, %u types, order %d)\n", now() - t0, C.M[ZH].ntok, C.M[ZH].nv, K[ZH], C.M[EN].ntok, C.M[EN].nv, K[EN]);
	if (!strcmp(mode, "check")) return check_mode(&C, text, n, T);
	if (!strcmp(mode, "corpus")) {
		stats_t st;
		corpus_run(&C, T, &st, NULL, NULL);
		if (fflush(stdout)) die("write error");
		fprintf(stderr, "corpus: %llu docs (zh %llu, en %llu), %.1f MB of text, mean %.0f bytes; originals %llu, "
		        "near-copies %llu, with a famous passage %llu (tiers 10/100/1k/10k: %llu %llu %llu %llu), "
		        "ending with boilerplate %llu; %.1f s\n", st.docs, st.lang[ZH], st.lang[EN], st.bytes / 1e6,
		        st.docs ? (double)st.bytes / st.docs : 0.0, st.kind[K_ORIG], st.kind[K_NEAR], st.kind[K_FAMOUS],
		        st.famtier[0], st.famtier[1], st.famtier[2], st.famtier[3], st.boiler, now() - t0);
		if (C.famtot[ZH]) {
			fprintf(stderr, "corpus: documents per famous passage:");
			for (int f = 0; f < NFAM; f++) fprintf(stderr, " %u%s", C.fam[f].freq, LANGNAME[C.fam[f].lang]);
			fputc('\n', stderr);
		}
		return 0;
	}
	nearmap_t NM;                                /* queries */
	ctx_t X = { 0 };
	qpass_t P[3] = { { 0 } };
	buf_t out = { 0 };
	uint32_t np, srcs[64];
	ull nnone = 0, npass = 0, nverb = 0, bytes = 0, nsrc = 0, units = 0;
	nearmap_build(&C, &NM);
	for (uint32_t q = 1; q <= count; q++) {
		uint32_t ns = query_build(&C, &NM, &X, q, none, P, &np, srcs);
		out.n = 0;
		bprintf(&out, "%u\t%s\t", q, LANGNAME[lang_of(q)]);
		bput_copy(&out, X.body.p, X.body.n);
		bput(&out, "\t{", 2);
		for (uint32_t s = 0; s < ns; s++) bprintf(&out, s ? ",%u" : "%u", srcs[s]);
		bput(&out, "}\n", 2);
		if (fwrite(out.p, 1, out.n, stdout) != out.n) die("write error");
		nnone += np == 0, npass += np, nsrc += ns, bytes += X.body.n;
		for (uint32_t p = 0; p < np; p++) nverb += P[p].verbatim, units += count_units(P[p].text.p, P[p].text.n);
	}
	if (fflush(stdout)) die("write error");
	fprintf(stderr, "queries: %llu (corpus %llu), %llu without a passage, %llu passages (%llu verbatim, mean %.0f units), "
	        "%llu sources (%llu of them near-copies of a source), mean %.0f bytes; %.1f s\n", count, corpus_n, nnone,
	        npass, nverb, npass ? (double)units / npass : 0.0, nsrc, nsrc - npass, count ? (double)bytes / count : 0.0,
	        now() - t0);
	return 0;
}
