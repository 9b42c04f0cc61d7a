/*
 * test_pinyin.c -- unit tests of tfp_pinyin.c and tfp_pinyin_dna.c
 *
 * Standalone: prints TAP lines and exits 1 on any failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_pinyin.h"
#include "tfp_sort.h"

#include "tap.h"

static char *
conv(const char *s, unsigned flags)
{
	size_t		n = tfp_pinyin_text(s, strlen(s), flags, NULL);
	char	   *out = malloc(n + 1);
	size_t		m = tfp_pinyin_text(s, strlen(s), flags, out);

	out[m] = '\0';
	if (m != n)
		out[0] = '!';
	return out;
}

static void
check_conv(const char *in, unsigned flags, const char *exp)
{
	char	   *got = conv(in, flags);
	char		desc[512];

	snprintf(desc, sizeof(desc), "%s %s -> \"%s\" (got \"%s\")",
			 flags ? "initials" : "pinyin", in, exp, got);
	check(strcmp(got, exp) == 0, desc);
	free(got);
}

static void
check_letters(const char *in, const char *exp)
{
	char		out[1024];
	size_t		n = tfp_pinyin_letters(in, strlen(in), out);
	char		desc[3000];

	out[n] = '\0';
	snprintf(desc, sizeof(desc), "letters %s -> %s (got %s)", in, exp, out);
	check(strcmp(out, exp) == 0, desc);
}

static size_t
dna(const char *text, int window, int overlap, int levels, int cd,
	int64_t **res)
{
	tfp_dna_opts o = {window, overlap, levels, cd};
	size_t		len = strlen(text);
	char	   *l = malloc(len + 1);
	size_t		n = tfp_pinyin_letters(text, len, l);
	int64_t    *out = malloc(sizeof(int64_t) * tfp_dna_max_windows(n, &o));
	size_t		k = tfp_dna_windows(l, n, &o, out);

	free(l);
	*res = out;
	return k;
}

int
main(void)
{
	check_conv("中华人民共和国", TFP_PY_INITIALS, "zhrmghg");
	check_conv("中華人民共和國", TFP_PY_INITIALS, "zhrmghg");
	check_conv("中华人民共和国", 0, "zhong hua ren min gong he guo");
	check_conv("重庆", TFP_PY_INITIALS, "cq");
	check_conv("重慶", 0, "chong qing");
	check_conv("会计", 0, "kuai ji");
	check_conv("會計", 0, "kuai ji");
	check_conv("银行行长", 0, "yin hang hang zhang");
	check_conv("长大", TFP_PY_INITIALS, "zd");
	check_conv("长城很长", 0, "chang cheng hen chang");
	check_conv("重新", TFP_PY_INITIALS, "cx");
	check_conv("重要", TFP_PY_INITIALS, "zy");
	check_conv("还是", 0, "hai shi");
	check_conv("还款", 0, "huan kuan");
	check_conv("Hello, 世界!", 0, "hello shi jie");
	check_conv("Hello, 世界!", TFP_PY_INITIALS, "hello sj");
	check_conv("ＡＢＣ１２３ café", 0, "abc123 cafe");
	check_conv("2024年", 0, "2024 nian");
	check_conv("", 0, "");
	check_conv("。，！", 0, "");
	check_conv("\xff\xfe中", 0, "zhong");
	check_conv("中\xe4", 0, "zhong");
	check_letters("中华人民共和国", "zhrmghg");
	check_letters("Hello 世界 ok", "sj");
	check_letters("", "");
	/* malformed UTF-8 between Han characters: overlong, surrogate,
	 * truncated, stray continuation bytes -- no letter, and the neighbours
	 * keep theirs (also at the end, where fewer than 4 bytes remain) */
	check_letters("\xe4\xb8\xad\xe0\x80\x80\xe6\x96\x87", "zw");
	check_letters("\xe4\xb8\xad\xed\xa0\x80\xe6\x96\x87", "zw");
	check_letters("\xe4\xb8\xad\xe4\xb8\xe6\x96\x87\x80\xbf", "zw");
	check_letters("\xe4\xb8\xad\xed\xa0\x80", "z");
	check_letters("\xe4\xb8\xad\xe0\x80\x80 \xe6\x96\x87", "zw");
	{
		/* letters = initials without spaces, on Han-only text */
		const char *t = "银行行长会计重新长大还是重庆音乐角色便宜厦门标识校验粘贴命令行运行数据调试解调器系统体系上一行";
		char		a[512],
					b[512];
		size_t		n = tfp_pinyin_letters(t, strlen(t), a),
					m = tfp_pinyin_text(t, strlen(t), TFP_PY_INITIALS, b);

		check(n == m && memcmp(a, b, n) == 0, "letters agree with pinyin_initials");
	}
	{
		tfp_dna_opts o = {64, 50, 4, 1};

		check(tfp_dna_check(&o) == NULL, "default options valid");
		o.window = 7;
		check(tfp_dna_check(&o) != NULL, "window 7 rejected");
		o.window = 64;
		o.levels = 9;
		check(tfp_dna_check(&o) != NULL, "levels 9 rejected");
		o.levels = 1;
		check(tfp_dna_check(&o) != NULL, "levels 1 rejected");
		o.levels = 4;
		o.overlap = 91;
		check(tfp_dna_check(&o) != NULL, "overlap 91 rejected");
	}
	{
		uint32_t	c[TFP_DNA_BUCKETS] = {0};
		uint32_t	big[TFP_DNA_BUCKETS];

		for (int i = 0; i < TFP_DNA_BUCKETS; i++)
			big[i] = 1024;
		uint32_t	c1[TFP_DNA_BUCKETS];

		for (int i = 0; i < TFP_DNA_BUCKETS; i++)
			c1[i] = 20;
		check(tfp_dna_pack(c, 64, 4) < tfp_dna_pack(c1, 64, 4), "more letters of every kind: larger DNA");
		check(tfp_dna_pack(c1, 64, 4) >= 0 && tfp_dna_pack(c1, 64, 4) < (INT64_C(1) << 42), "4 levels: 42 bits");
		check(tfp_dna_pack(big, 1024, 8) == INT64_MAX, "all-max counts, 8 levels: 2^63-1");
		check(tfp_dna_pack(big, 1024, 2) == (INT64_C(1) << 21) - 1, "all-max counts, 2 levels: 2^21-1");
	}
	{
		/* a long text: prefix insertion keeps most content-defined windows */
		const char *para = "本章以不同的视角回到之前已经讲过的几个方面：现在我们将学习大规模部署系统，而非仅仅安装单台计算机。我们将学习手动创建卷而非在安装系统时创建，以防将来时情况有变需要修改。最后，我们将讨论监控工具与虚拟化技术。因此，本章主要面向专业管理员，而不太面向使用家庭网络的个人。前者通过引入冗余来保证数据在硬件故障时的安全性和可用性，后者可让卷管理更加灵活而不受底层硬盘的实际大小的限制。";
		char		buf[8192];
		int64_t    *a,
				   *b,
				   *t;
		size_t		na,
					nb,
					nt,
					common;

		na = dna(para, 32, 50, 4, 1, &a);
		snprintf(buf, sizeof(buf), "插入的广告文字%s", para);
		nb = dna(buf, 32, 50, 4, 1, &b);
		common = tfp_intersect_count_u64((const uint64_t *) a, na, (const uint64_t *) b, nb);
		check(na > 3 && common + 1 >= na, "content-defined windows survive a prefix insertion");
		free(b);
		nb = dna(buf, 32, 50, 4, 0, &b);
		free(a);
		na = dna(para, 32, 50, 4, 0, &a);
		check(tfp_intersect_count_u64((const uint64_t *) a, na, (const uint64_t *) b, nb) < na / 2, "fixed windows do not");
		/* sorted, unique, non-negative */
		{
			int			good = 1;

			for (size_t i = 0; i < na; i++)
				if (a[i] < 0 || (i > 0 && a[i] <= a[i - 1]))
					good = 0;
			check(good, "DNA sorted, unique, non-negative");
		}
		/* traditional = simplified */
		nt = dna("本章主要面向專業管理員，而不太面向使用家庭網絡的個人。前者通過引入冗餘來保證數據在硬件故障時的安全性和可用性", 16, 50, 4, 1, &t);
		free(a);
		na = dna("本章主要面向专业管理员，而不太面向使用家庭网络的个人。前者通过引入冗余来保证数据在硬件故障时的安全性和可用性", 16, 50, 4, 1, &a);
		check(na == nt && memcmp(a, t, na * sizeof(int64_t)) == 0, "traditional text has the DNA of the simplified");
		free(a);
		free(b);
		free(t);
		{
			/*
			 * all anchors too late for a whole window: one window of all the
			 * letters, here 3,003 of them (window 1024, so close to the
			 * 3 x window bound); ASan/UBSan build: within the tables
			 */
			size_t		len = 273 * strlen("中华人民共和国重庆银行");
			char	   *rep = malloc(len + 1),
					   *l = malloc(len);
			uint32_t	c[TFP_DNA_BUCKETS] = {0};
			size_t		n;

			for (int i = 0; i < 273; i++)
				strcpy(rep + i * strlen("中华人民共和国重庆银行"), "中华人民共和国重庆银行");
			n = tfp_pinyin_letters(rep, len, l);
			for (size_t i = 0; i < n; i++)
				if (tfp_dna_bucket(l[i]) >= 0)
					c[tfp_dna_bucket(l[i])]++;
			nt = dna(rep, 1024, 0, 8, 1, &t);
			check(n == 3003 && nt == 1 && t[0] == tfp_dna_pack(c, (int) n, 8),
				  "late anchors: one window of all 3,003 letters");
			free(t);
			free(rep);
			free(l);
		}
		check(dna("hello world", 64, 50, 4, 1, &a) == 0, "no Han: no DNA");
		free(a);
		check(dna("中文", 64, 50, 4, 1, &a) == 1, "short text: one DNA");
		free(a);
	}
	{
		/* tfp_pinyin_text_bounded: the whole pinyin when cap is enough,
		 * the right length and nothing written past cap otherwise */
		const char *texts[] = {"重庆银行的行长 Ｆｕｌｌ-width ÉCOLE x", "中文", "", "abc",
		"\xEF\xB7\xBA \xEF\xAC\x80 長長的路"};
		int			ok = 1;

		for (int t = 0; t < 5; t++)
			for (unsigned flags = 0; flags < 2; flags++)
			{
				const char *s = texts[t];
				size_t		n = tfp_pinyin_text(s, strlen(s), flags, NULL);
				char	   *full = malloc(n + 1),
						   *b = malloc(n + 64);

				tfp_pinyin_text(s, strlen(s), flags, full);
				for (size_t cap = 0; cap <= n + 8; cap++)
				{
					size_t		m;

					memset(b, '#', n + 64);
					m = tfp_pinyin_text_bounded(s, strlen(s), flags, b, cap);
					if (m != n || b[cap] != '#' || (cap >= n && memcmp(b, full, n) != 0))
						ok = 0;
				}
				free(full);
				free(b);
			}
		check(ok, "bounded pinyin: full length always, the pinyin when it fits, nothing past cap");
	}
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
