/*
 * test_twfold.c -- unit tests of the Taiwan wording fold (tfp_twfold.c):
 * hand examples with their expected output, the table's invariants (sorted,
 * folded, within the header's limits, every key rewritten to its value,
 * values unchanged by the fold), and the streaming window
 * against a brute-force greedy longest match over whole runs on random
 * texts made of keys, values, other Han letters, ASCII, marks, ignorables
 * and invalid bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_twfold.h"
#include "tap.h"

#define FLAGS (TFP_FOLD_CASE | TFP_FOLD_WIDTH | TFP_FOLD_HAN)

/* the golden digest of the fold of every key (see main) */
#define GOLDEN_BYTES 8476
#define GOLDEN_DIGEST UINT64_C(0x135b1dc2ab8f9950)

/* the fold as a NUL-terminated string (static buffer) */
static const char *
fold(const char *s, size_t len)
{
	static char out[1 << 12];

	out[tfp_twfold(s, len, out, NULL)] = '\0';
	return out;
}

static void
example(const char *in, const char *want, const char *what)
{
	const char *got = fold(in, strlen(in));
	char		msg[4096 + 1024];

	snprintf(msg, sizeof(msg), "%s: %s -> %s%s%s", what, in, got,
			 strcmp(got, want) == 0 ? "" : ", expected ", strcmp(got, want) == 0 ? "" : want);
	check(strcmp(got, want) == 0, msg);
}

static size_t
encode(const uint32_t *cp, int n, char *out)
{
	size_t		len = 0;

	for (int i = 0; i < n; i++)
		len += tfp_utf8_encode(cp[i], (unsigned char *) out + len);
	return len;
}

/* ---- the reference: decode everything, then greedy longest match by
 * trying every entry at every position */

static int
is_han(uint32_t cp, uint32_t *folded)
{
	uint32_t	f[TFP_FOLD_MAX];
	int			n;

	if (cp < 0x800 || cp == 0xFFFD)
		return 0;
	n = tfp_cp_fold(cp, FLAGS, f);
	if (n == 1 && tfp_cp_class(f[0]) == TFP_CC_HAN)
	{
		*folded = f[0];
		return 1;
	}
	return 0;
}

static size_t
brute(const char *s, size_t len, char *out)
{
	const unsigned char *p = (const unsigned char *) s;
	size_t		i = 0,
				o = 0;
	uint32_t   *run = malloc((len + 1) * sizeof(uint32_t));

	while (i < len)
	{
		int			n = 0;

		/* a run of Han letters (ignorables inside dropped) */
		for (;;)
		{
			uint32_t	cp,
						f,
						g[TFP_FOLD_MAX];
			size_t		k;

			if (i >= len || p[i] < 0x80)
				break;
			k = tfp_utf8_decode(p + i, len - i, &cp);
			if (is_han(cp, &f))
				run[n++] = f;
			else if (n > 0 && cp >= 0x800 && cp != 0xFFFD &&
					 tfp_cp_fold(cp, FLAGS, g) >= 1 && tfp_cp_class(g[0]) == TFP_CC_IGNORE)
				;
			else
				break;
			i += k;
		}
		for (int j = 0; j < n;)
		{
			int			best = -1;

			for (int e = 0; e < tfp_twfold_nentries; e++)
			{
				const tfp_twfold_entry *en = &tfp_twfold_entries[e];

				if (j + en->klen <= n &&
					memcmp(&tfp_twfold_pool[en->off], &run[j], en->klen * 4) == 0 &&
					(best < 0 || en->klen > tfp_twfold_entries[best].klen))
					best = e;
			}
			if (best < 0)
				o += encode(&run[j++], 1, out + o);
			else
			{
				const tfp_twfold_entry *en = &tfp_twfold_entries[best];

				o += encode(&tfp_twfold_pool[en->off + en->klen], en->vlen, out + o);
				j += en->klen;
			}
		}
		if (n == 0 && i < len)
		{
			uint32_t	cp;
			size_t		k = p[i] < 0x80 ? 1 : tfp_utf8_decode(p + i, len - i, &cp);

			memcpy(out + o, p + i, k);
			o += k;
			i += k;
		}
	}
	free(run);
	return o;
}

static const char *const pieces[] = {
	"a", " ", "\n", "Linux ", "x1", "\xC3\xA9", "e\xCC\x81", "\xEF\xBC\xA1",	/* é, e+mark, Ａ */
	"\xE2\x80\x8B", "\xCC\x81", "\xFF", "\xE4\xB8", "\xF0\x9F\x98\x80",	/* ZWSP, mark, bad, cut, emoji */
	"\xEF\xBC\x8C", "。", "的", "是", "中", "國", "国", "著", "名", "斯坦",
	"\xE2\x80\x8D", "\xEF\xB8\x8F", "\xE3\x80\x80",	/* ZWJ, VS16, ideographic space */
};

int
main(void)
{
	/* the table */
	{
		int			sorted = 1,
					limits = 1,
					folded = 1,
					filtered = 1,
					keyed = 1,
					stable = 1,
					changing = 0;

		for (int e = 0; e < tfp_twfold_nentries; e++)
		{
			const tfp_twfold_entry *en = &tfp_twfold_entries[e];
			const uint32_t *k = &tfp_twfold_pool[en->off];
			char		kb[256],
						vb[256],
						msg[4096 + 600];
			size_t		kl,
						vl;

			if (en->klen < 1 || en->klen > TFP_TWFOLD_MAX_KEY || en->vlen < 1 ||
				en->vlen > TFP_TWFOLD_MAX_GROWTH * en->klen)
				limits = 0;
			if (e > 0)
			{
				const tfp_twfold_entry *pr = &tfp_twfold_entries[e - 1];
				const uint32_t *pk = &tfp_twfold_pool[pr->off];
				int			c = 0;

				for (int i = 0; i < pr->klen && i < en->klen && c == 0; i++)
					c = pk[i] < k[i] ? -1 : pk[i] > k[i];
				if (c > 0 || (c == 0 && pr->klen >= en->klen))
					sorted = 0;
			}
			for (int i = 0; i < en->klen + en->vlen; i++)
			{
				uint32_t	f;

				if (!is_han(k[i], &f) || f != k[i])
					folded = 0;
			}
			{
				/* the index leads to this entry */
				uint32_t	h = (uint32_t) (k[0] * UINT32_C(0x9E3779B1)) >> (32 - TFP_TWFOLD_INDEX_BITS);
				int			found = 0;

				while (tfp_twfold_index[h].cp != 0 && !found)
				{
					const tfp_twfold_first *f = &tfp_twfold_index[h];

					found = f->cp == k[0] && f->first <= e && e < f->first + f->count;
					h = (h + 1) & ((1 << TFP_TWFOLD_INDEX_BITS) - 1);
				}
				if (!found)
					filtered = 0;
			}
			if (en->klen != en->vlen ||
				memcmp(k, k + en->klen, en->klen * 4) != 0)
				changing++;
			kl = encode(k, en->klen, kb);
			vl = encode(k + en->klen, en->vlen, vb);
			vb[vl] = '\0';
			if (strcmp(fold(kb, kl), vb) != 0)
			{
				keyed = 0;
				kb[kl] = '\0';
				snprintf(msg, sizeof(msg), "entry %d: %s folds to %s, not %s", e, kb, fold(kb, kl), vb);
				check(0, msg);
			}
			if (strcmp(fold(vb, vl), vb) != 0)
				stable = 0;
		}
		check(tfp_twfold_nentries > 800, "the table has its ~850 entries");
		check(changing > 800, "most entries change the text");
		check(sorted, "entries sorted by key, keys distinct");
		check(limits, "key and value lengths within TFP_TWFOLD_MAX_KEY and _MAX_GROWTH");
		check(folded, "keys and values are Han letters in folded form (fixed points of tfp_cp_fold)");
		check(filtered, "the index of first letters leads to every entry");
		check(keyed, "every key alone folds to its value");
		check(stable, "every value folds to itself");
	}

	/* golden: the table and the algorithm are part of textfp_match()'s
	 * features (model 1): the fold of every key, each followed by a comma,
	 * pinned as an FNV-1a digest (regenerating the table from another
	 * OpenCC changes it: a new model version once model 1 is released) */
	{
		size_t		cap = 0,
					len = 0,
					n;
		char	   *in,
				   *out;
		uint64_t	h = UINT64_C(0xcbf29ce484222325);
		char		msg[200];

		for (int e = 0; e < tfp_twfold_nentries; e++)
			cap += 4 * tfp_twfold_entries[e].klen + 3;
		in = malloc(cap);
		out = malloc(TFP_TWFOLD_BOUND(cap));
		for (int e = 0; e < tfp_twfold_nentries; e++)
		{
			len += encode(&tfp_twfold_pool[tfp_twfold_entries[e].off], tfp_twfold_entries[e].klen,
						  in + len);
			memcpy(in + len, "\xEF\xBC\x8C", 3);	/* ， */
			len += 3;
		}
		n = tfp_twfold(in, len, out, NULL);
		for (size_t i = 0; i < n; i++)
			h = (h ^ (unsigned char) out[i]) * UINT64_C(0x100000001b3);
		snprintf(msg, sizeof(msg), "golden: %d entries, fold of all keys %zu bytes, digest %016llx",
				 tfp_twfold_nentries, n, (unsigned long long) h);
		check(tfp_twfold_nentries == 855 && n == GOLDEN_BYTES && h == GOLDEN_DIGEST, msg);
		free(in);
		free(out);
	}

	/* hand examples: Taiwan wording to mainland wording */
	example("檔案", "文件", "file");
	example("網路", "网络", "network");
	example("軟體", "软件", "software");
	example("程式", "程序", "program");
	example("預設", "缺省", "default (opencc's first rendering)");
	example("默认", "缺省", "default, the mainland's other rendering");
	example("缺省", "缺省", "default, opencc's rendering, unchanged");
	example("資料", "数据", "data");
	example("記憶體", "内存", "memory");
	example("資料夾", "文件夹", "folder: the longer key wins");
	example("請將檔案儲存到預設的資料夾。", "请将文件保存到缺省的文件夹。", "a sentence");
	example("軟體與硬體的記憶體，Linux 網路設定", "软件与硬件的内存，Linux 网络设置", "with ASCII");
	example("預設值", "默认值", "default value (a phrase of its own)");
	example("默认值", "默认值", "default value, mainland, stays");
	example("週期與佔用", "周期与占用", "characters the Unihan fold leaves (週, 佔)");
	example("哈薩克斯坦與哈薩克", "哈萨克斯坦与哈萨克斯坦", "a value stops its key: no 斯坦斯坦");
	example("文件和程序", "文件和程序", "mainland words with another Taiwan meaning are kept");
	example("网络、软件、内存、数据", "网络、软件、内存、数据", "mainland wording unchanged");
	example("軟\xE2\x80\x8B體", "软件", "a zero-width space inside a run is dropped");
	example("軟\xCC\x81體", "软\xCC\x81体", "a combining mark ends a run and is kept");
	example("軟\xFF體", "软\xFF体", "an invalid byte ends a run and is kept");
	example("軟體\xE4\xB8", "软件\xE4\xB8", "a cut sequence at the end is kept");
	example("ＡＢＣ 软件", "ＡＢＣ 软件", "non-Han text is copied unfolded");
	example("", "", "empty text");
	{
		/* a long run (past the window) and a key across the window edge */
		char		in[4096],
					want[4096];

		in[0] = want[0] = '\0';
		for (int i = 0; i < 15; i++)
		{
			strcat(in, "的");
			strcat(want, "的");
		}
		strcat(in, "記憶體記憶體");
		strcat(want, "内存内存");
		example(in, want, "keys at and past the window's end");
	}

	/* random texts: streaming = brute force; within the bound */
	{
		int			same = 1,
					bound = 1;
		char		in[8192],
					a[4 * 8192],
					b[4 * 8192];

		for (int t = 0; t < 3000; t++)
		{
			size_t		len = 0,
						la,
						lb;
			int			parts = 1 + rnd(60);

			for (int i = 0; i < parts && len < 7000; i++)
			{
				int			kind = rnd(4);

				if (kind == 0)
				{
					const char *s = pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))];

					memcpy(in + len, s, strlen(s));
					len += strlen(s);
				}
				else
				{
					/* a key or a value of a random entry, or a part of one */
					const tfp_twfold_entry *en = &tfp_twfold_entries[rnd(tfp_twfold_nentries)];
					int			v = kind == 2;
					int			n = v ? en->vlen : en->klen;
					int			from = kind == 3 ? (int) rnd(n) : 0;

					len += encode(&tfp_twfold_pool[en->off + (v ? en->klen : 0) + from], n - from,
								  in + len);
				}
			}
			la = tfp_twfold(in, len, a, NULL);
			lb = brute(in, len, b);
			if (la != lb || memcmp(a, b, la) != 0)
				same = 0;
			if (la > TFP_TWFOLD_BOUND(len))
				bound = 0;
		}
		check(same, "3000 random texts: the streaming window = greedy longest match over whole runs");
		check(bound, "3000 random texts: output within TFP_TWFOLD_BOUND");
	}
	{
		/* the worst case of the bound: the key growing most, repeated */
		int			worst = 0;
		char		in[1024],
					out[4096];
		size_t		len = 0,
					o;

		for (int e = 1; e < tfp_twfold_nentries; e++)
		{
			const tfp_twfold_entry *en = &tfp_twfold_entries[e],
					   *w = &tfp_twfold_entries[worst];

			if (en->vlen * w->klen > w->vlen * en->klen)
				worst = e;
		}
		while (len + 64 < sizeof(in))
			len += encode(&tfp_twfold_pool[tfp_twfold_entries[worst].off],
						  tfp_twfold_entries[worst].klen, in + len);
		o = tfp_twfold(in, len, out, NULL);
		check(o <= TFP_TWFOLD_BOUND(len), "the most growing key, repeated: within the bound");
	}
	{
		/* ASCII only: a copy */
		const char *s = "The quick brown fox.\n\tNo Han here: 123 \x01";

		check(strcmp(fold(s, strlen(s)), s) == 0, "ASCII text is copied");
	}
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
