/*
 * tfp_features.c -- Unicode-aware, locale-independent feature extraction
 *
 * Implements the definition in tfp_core.h.  One pass over the UTF-8 bytes:
 * the general code here handles every input; the fast paths of
 * tfp_features_fast.h take the common shapes of text (runs of plain Han
 * characters, ASCII words) and give the same features.  Features are hashed
 * with XXH3 and handed to the caller's sink in batches.
 */
#include "tfp_extract.h"

/* ------------------------------------------------------------------------
 * UTF-8
 * ------------------------------------------------------------------------ */

static inline size_t
utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned char c = s[0];
	uint32_t	v;
	size_t		need,
				i;

	if (c < 0x80)
	{
		*cp = c;
		return 1;
	}
	/* fast path: a well-formed 3-byte sequence (all of CJK's BMP) */
	if ((c & 0xF0) == 0xE0 && len >= 3 &&
		(s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80)
	{
		v = ((uint32_t) (c & 0x0F) << 12) | ((uint32_t) (s[1] & 0x3F) << 6) | (s[2] & 0x3F);
		if (v >= 0x800 && (v < 0xD800 || v > 0xDFFF))
		{
			*cp = v;
			return 3;
		}
	}
	if (c >= 0xC2 && c <= 0xDF)
	{
		need = 1;
		v = c & 0x1F;
	}
	else if (c >= 0xE0 && c <= 0xEF)
	{
		need = 2;
		v = c & 0x0F;
	}
	else if (c >= 0xF0 && c <= 0xF4)
	{
		need = 3;
		v = c & 0x07;
	}
	else
	{
		*cp = 0xFFFD;
		return 1;
	}
	if (len <= need)
	{
		*cp = 0xFFFD;
		return 1;
	}
	for (i = 1; i <= need; i++)
	{
		if ((s[i] & 0xC0) != 0x80)
		{
			*cp = 0xFFFD;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3F);
	}
	/* reject overlong forms, surrogates and values beyond U+10FFFF */
	if ((need == 2 && v < 0x800) || (need == 3 && (v < 0x10000 || v > 0x10FFFF)) ||
		(v >= 0xD800 && v <= 0xDFFF))
	{
		*cp = 0xFFFD;
		return 1;
	}
	*cp = v;
	return need + 1;
}

size_t
tfp_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	return utf8_decode(s, len, cp);
}

int
tfp_utf8_encode(uint32_t cp, unsigned char *out)
{
	if (cp < 0x80)
	{
		out[0] = (unsigned char) cp;
		return 1;
	}
	if (cp < 0x800)
	{
		out[0] = (unsigned char) (0xC0 | (cp >> 6));
		out[1] = (unsigned char) (0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000)
	{
		out[0] = (unsigned char) (0xE0 | (cp >> 12));
		out[1] = (unsigned char) (0x80 | ((cp >> 6) & 0x3F));
		out[2] = (unsigned char) (0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (unsigned char) (0xF0 | (cp >> 18));
	out[1] = (unsigned char) (0x80 | ((cp >> 12) & 0x3F));
	out[2] = (unsigned char) (0x80 | ((cp >> 6) & 0x3F));
	out[3] = (unsigned char) (0x80 | (cp & 0x3F));
	return 4;
}

uint64_t
tfp_token_hash(const char *utf8, size_t len)
{
	return XXH3_64bits_withSeed(utf8, len, TFP_SEED_TOKEN);
}

/*
 * Hash of the han n-gram made of the k units ending at ring position `last`:
 * XXH3 of the units' code points as 32-bit little-endian integers.
 */
#if defined(__GNUC__)
__attribute__((flatten))
#endif
static uint64_t
han_gram_hash(extractor *x, uint64_t last, int k)
{
	unsigned char buf[4 * TFP_UNIT_CPS * TFP_MAX_NGRAM];
	size_t		len = 0;
	int			i;
	uint32_t	j;

	for (i = k - 1; i >= 0; i--)
	{
		const unit *u = &x->ring[(last - i) & (RING - 1)];

		for (j = 0; j < u->n; j++, len += 4)
			put_le32(buf + len, u->cp[j]);
	}
	return xxh3_fixed(buf, len, TFP_SEED_HAN);
}

/* Close the open han unit: it completes one n-gram if the run is long enough. */
static void
tfpx_han_close_unit(extractor *x)
{
	uint64_t	last = x->run_len;

	x->han_open = 0;
	if (x->sink1)
	{
		/* the unit alone; the first one starts the second stream */
		if (!x->on1)
		{
			x->on1 = 1;
			x->lead1 = x->nfeatures + x->nbatch;
		}
		emit1(x, han_gram_hash(x, last, 1));
	}
	x->run_len++;
	if (x->run_len >= (uint64_t) x->o->ngram)
	{
		const unit *a = &x->ring[(last - 1) & (RING - 1)];
		const unit *b = &x->ring[last & (RING - 1)];

		x->nhan++;
		/* the default bigram of two plain characters, inline */
		if (x->o->ngram == 2 && a->n == 1 && b->n == 1)
			emit(x, xxh3_pair(a->cp[0], b->cp[0]));
		else
			emit(x, han_gram_hash(x, last, x->o->ngram));
	}
}

/* End the han run: a run shorter than ngram is one feature. */
static void
han_end_run(extractor *x)
{
	if (x->han_open)
		tfpx_han_close_unit(x);
	if (x->run_len > 0 && x->run_len < (uint64_t) x->o->ngram)
	{
		x->nhan++;
		emit(x, han_gram_hash(x, x->run_len - 1, (int) x->run_len));
	}
	x->run_len = 0;
}

static void
tfpx_han_begin_unit(extractor *x, uint32_t cp)
{
	unit	   *u;

	if (x->han_open)
		tfpx_han_close_unit(x);
	u = &x->ring[x->run_len & (RING - 1)];
	u->cp[0] = cp;
	u->n = 1;
	x->han_open = 1;
}

static void
han_add_mark(extractor *x, uint32_t cp)
{
	unit	   *u = &x->ring[x->run_len & (RING - 1)];

	if (u->n < TFP_UNIT_CPS)
		u->cp[u->n++] = cp;
}

static void
word_add(extractor *x, const unsigned char *b, size_t len)
{
	x->in_word = 1;
	if (!x->streaming)
	{
		if (x->wlen + len <= WORD_BUF)
		{
			memcpy(x->wbuf + x->wlen, b, len);
			x->wlen += len;
			return;
		}
		/* a state on the stack must be initialised before a seeded reset,
		 * which otherwise may keep a stale secret (xxhash.h, XXH3_INITSTATE) */
		memset(&x->wstate, 0, sizeof(x->wstate));
		XXH3_64bits_reset_withSeed(&x->wstate, TFP_SEED_WORD);
		XXH3_64bits_update(&x->wstate, x->wbuf, x->wlen);
		x->streaming = 1;
	}
	XXH3_64bits_update(&x->wstate, b, len);
	x->wlen += len;
}

#if defined(__GNUC__)
__attribute__((flatten))
#endif
static uint64_t
tfpx_shingle_hash(extractor *x, uint64_t last, int k)
{
	unsigned char buf[8 * TFP_MAX_SHINGLE];
	int			i;

	for (i = 0; i < k; i++)
		put_le64(buf + i * 8, x->words[(last - (k - 1) + i) & (RING - 1)]);
	return xxh3_fixed(buf, 8 * (size_t) k, TFP_SEED_SHINGLE);
}

static void
tfpx_word_close(extractor *x)
{
	uint64_t	h;

	h = x->streaming ? XXH3_64bits_digest(&x->wstate)
		: xxh3(x->wbuf, x->wlen, TFP_SEED_WORD);
	x->in_word = 0;
	x->streaming = 0;
	x->wlen = 0;
	word_done(x, h);
}

/* Handle one folded code point with its class. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
feed(extractor *x, uint32_t cp, int cls)
{
	unsigned char b[4];

	switch (cls)
	{
		case TFP_CC_WORD:
			if (x->run_len || x->han_open)
				han_end_run(x);
			if (cp < 0x80)
			{
				b[0] = (unsigned char) cp;
				word_add(x, b, 1);
			}
			else
				word_add(x, b, tfp_utf8_encode(cp, b));
			break;
		case TFP_CC_HAN:
			word_end(x);
			tfpx_han_begin_unit(x, cp);
			break;
		case TFP_CC_MARK:
			if (x->han_open)
				han_add_mark(x, cp);
			else
				word_add(x, b, tfp_utf8_encode(cp, b));
			break;
		case TFP_CC_IGNORE:
			break;
		default:				/* separator */
			word_end(x);
			if (x->run_len || x->han_open)
				han_end_run(x);
			break;
	}
}

/* ASCII lower-casing table (bytes >= 0x80 are never looked up) */
static const unsigned char ascii_lower[128] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
	32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
	48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
	64, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o',
	'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 91, 92, 93, 94, 95,
	96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
	112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127,
};

uint64_t
tfp_extract_features(const char *utf8, size_t len, const tfp_feature_opts *opts,
					 tfp_feature_sink sink, void *arg)
{
	uint64_t	nhan;

	return tfp_extract_features_counted(utf8, len, opts, sink, arg, &nhan);
}

/* the extraction, with the second stream of tfp_extract_features_dual()
 * when sink1 is not NULL */
static uint64_t
extract(const char *utf8, size_t len, const tfp_feature_opts *opts,
		tfp_feature_sink sink, void *arg, tfp_feature_sink sink1, void *arg1,
		uint64_t *nhan, uint64_t *lead1)
{
	extractor  *x;
	extractor	xs;
	const unsigned char *s = (const unsigned char *) utf8;
	size_t		pos = 0;
	size_t		next_tick = TFP_TICK;
	int			fold_case = (opts->fold & TFP_FOLD_CASE) != 0;
	const uint32_t *han_tab = tfp_extract_fastpath ? tfpx_han_fast_table(opts->fold) : NULL;

	x = &xs;
	memset(x, 0, offsetof(extractor, wbuf));
	x->o = opts;
	x->sink = sink;
	x->arg = arg;
	x->sink1 = sink1;
	x->arg1 = arg1;

	while (pos < len)
	{
		unsigned char c = s[pos];

		if (pos >= next_tick)
		{
			sink(arg, NULL, 0);
			next_tick = pos + TFP_TICK;
		}

		if (c < 0x80)
		{
			if (ascii_word[c])
			{
				/* ASCII fast path: a run of letters and digits extends a word */
				size_t		end = pos + 1;
				size_t		n;

				if (x->run_len || x->han_open)
					han_end_run(x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
				if (han_tab != NULL && !x->in_word)
				{
					size_t		p2 = tfpx_ascii_words(x, s, pos,
													  len < next_tick ? len : next_tick,
													  fold_case);

					if (p2 != pos)
					{
						pos = p2;
						continue;
					}
				}
				if (tfp_extract_fastpath && !x->streaming)
				{
					/*
					 * Eight bytes at a time: copy them (lower-cased) to the
					 * word buffer, whose 8 bytes of slack take what follows
					 * the word; stop at the first byte that is not an ASCII
					 * letter or digit.
					 */
					unsigned char *w = x->wbuf + x->wlen;
					size_t		room = WORD_BUF - x->wlen;

					end = pos;
					while (end + 8 <= len && end - pos + 8 <= room)
					{
						uint64_t	v,
									alpha,
									word;

						memcpy(&v, s + end, 8);
						alpha = swar_alpha(v);
						word = alpha | swar_digit(v);
						if (fold_case)
							v |= alpha >> 2;
						memcpy(w + (end - pos), &v, 8);
						if (word != BYTES(0x80))
						{
							end += (size_t) __builtin_ctzll(~word & BYTES(0x80)) >> 3;
							goto word_scanned;
						}
						end += 8;
					}
					{
						/* the tail, byte by byte: [pos, end) is copied */
						size_t		i = end - pos;

						while (end < len && ascii_word[s[end]])
							end++;
						n = end - pos;
						if (n > room)
							goto word_general;	/* a long word: streamed below */
						for (; i < n; i++)
							w[i] = fold_case ? ascii_lower[s[pos + i]] : s[pos + i];
						x->wlen += n;
						x->in_word = 1;
						pos = end;
						continue;
					}
			word_scanned:
					if (end == pos)
					{
						/* cannot happen (s[pos] is a word byte); never loop */
						end = pos + 1;
						while (end < len && ascii_word[s[end]])
							end++;
						goto word_general;
					}
					if (x->wlen == 0 && end < len && s[end] < 0x80)
					{
						/*
						 * A whole word of ASCII followed by an ASCII
						 * separator (the common case): hash it here, and
						 * take the separator too (it only ends the word).
						 */
						word_done(x, XXH3_64bits_withSeed(w, end - pos, TFP_SEED_WORD));
						pos = end + 1;
						continue;
					}
					x->wlen += end - pos;
					x->in_word = 1;
					pos = end;
					continue;
				}
#endif
				while (end < len && ascii_word[s[end]])
					end++;		/* ascii_word[] is 0 for bytes >= 0x80 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
		word_general:
#endif
				n = end - pos;
				if (!x->streaming && x->wlen + n <= WORD_BUF)
				{
					unsigned char *w = x->wbuf + x->wlen;
					size_t		i;

					if (fold_case)
						for (i = 0; i < n; i++)
							w[i] = ascii_lower[s[pos + i]];
					else
						memcpy(w, s + pos, n);
					x->wlen += n;
					x->in_word = 1;
				}
				else
				{
					size_t		i;

					for (i = 0; i < n; i++)
					{
						unsigned char b = fold_case ? ascii_lower[s[pos + i]] : s[pos + i];

						word_add(x, &b, 1);
					}
				}
				pos = end;
			}
			else
			{
				pos++;
				word_end(x);
				if (x->run_len || x->han_open)
					han_end_run(x);
			}
		}
		else
		{
			uint32_t	cp;
			uint32_t	out[TFP_FOLD_MAX];
			int			n,
						i;

			if (han_tab != NULL && pos + 3 <= len)
			{
				uint32_t	e = han_fast_entry(han_tab, s + pos);

				if (e & HAN_SIMPLE)
				{
					/* stop at the next tick, so that is still checked */
					pos = tfpx_han_run_fast(x, s, pos + 3,
									   len < next_tick ? len : next_tick,
									   han_tab, e);
					continue;
				}
			}
			pos += utf8_decode(s + pos, len - pos, &cp);
			n = tfp_cp_fold_inline(cp, opts->fold, out);
			if (n == 1)
				feed(x, out[0], tfp_cp_class_inline(out[0]));
			else
				for (i = 0; i < n; i++)
					feed(x, out[i], tfp_cp_class_inline(out[i]));
		}
	}
	word_end(x);
	han_end_run(x);
	/* fewer words than the shingle size: one feature of all of them */
	if (opts->shingle > 1 && x->nwords > 0 && x->nwords < (uint64_t) opts->shingle)
		emit(x, tfpx_shingle_hash(x, x->nwords - 1, (int) x->nwords));
	if (x->nbatch > 0)
	{
		sink(arg, x->batch, x->nbatch);
		x->nfeatures += x->nbatch;
	}
	if (sink1 && x->nbatch1 > 0)
		sink1(arg1, x->batch1, x->nbatch1);
	*nhan = x->nhan;
	if (lead1)
		*lead1 = x->on1 ? x->lead1 : x->nfeatures;
	return x->nfeatures;
}

uint64_t
tfp_extract_features_counted(const char *utf8, size_t len,
							 const tfp_feature_opts *opts,
							 tfp_feature_sink sink, void *arg, uint64_t *nhan)
{
	return extract(utf8, len, opts, sink, arg, NULL, NULL, nhan, NULL);
}

/*
 * Bigrams and characters in one pass: a closed Han unit is a feature of
 * the second stream (as with n-grams of 1: every unit closes once, in text
 * order, whatever the n-gram size), a word a feature of both (shingles of
 * 1: the word's hash); the first stream is that of opts.  The features of
 * a text in n-grams of 1 are its units and its words in text order: the
 * words before the first unit, which are the first stream's first *lead1
 * features (no Han feature comes before the first unit closes), then the
 * second stream.  A text without Han letters (most English text that is
 * not all ASCII) so costs the second stream nothing.
 */
uint64_t
tfp_extract_features_dual(const char *utf8, size_t len, const tfp_feature_opts *opts,
						  tfp_feature_sink sink, void *arg,
						  tfp_feature_sink sink1, void *arg1, uint64_t *nhan,
						  uint64_t *lead1)
{
	if (opts->ngram != 2 || opts->shingle != 1)
	{
		/* (only bigrams and words are read in one pass) */
		tfp_feature_opts o1 = {1, 1, opts->fold};
		uint64_t	n1;

		*lead1 = 0;
		extract(utf8, len, &o1, sink1, arg1, NULL, NULL, &n1, NULL);
		return extract(utf8, len, opts, sink, arg, NULL, NULL, nhan, NULL);
	}
	return extract(utf8, len, opts, sink, arg, sink1, arg1, nhan, lead1);
}

uint64_t
tfp_word_hash(const void *w, size_t n)
{
	return xxh3(w, n, TFP_SEED_WORD);
}

/* the shingles word_done() emits, and the one of all words at the end of
 * tfp_extract_features_counted() (k bytes of each hash, as
 * tfpx_shingle_hash() lays them out) */
size_t
tfp_word_shingles(const uint64_t *w, size_t n, int k, uint64_t *out)
{
	unsigned char buf[8 * TFP_MAX_SHINGLE];
	size_t		m;

	if (n == 0)
		return 0;
	if (k == 1)
	{
		memcpy(out, w, n * sizeof(uint64_t));
		return n;
	}
	if (n < (size_t) k)
		k = (int) n;
	m = n - (size_t) k + 1;
	for (size_t i = 0; i < m; i++)
	{
		for (int j = 0; j < k; j++)
			put_le64(buf + j * 8, w[i + (size_t) j]);
		out[i] = xxh3_fixed(buf, 8 * (size_t) k, TFP_SEED_SHINGLE);
	}
	return m;
}

/* the fast paths: part of this translation unit (see tfp_extract.h) */
#include "tfp_features_fast.h"
