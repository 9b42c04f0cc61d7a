/*
 * replay.h -- run a libFuzzer target without libFuzzer, as a unit test
 * (test/unit/test_fuzz_*.c): every file of its regression corpus
 * (test/fuzz/corpus/NAME/, inputs that once failed), then a fixed number of
 * deterministic random inputs built from fragments that reach the
 * interesting code: Han text with polyphone phrases, kana, the CJK
 * compatibility squares and Arabic ligatures that one code point folds to
 * many, Hangul syllables (canonical decomposition), full-width forms,
 * combining marks, 4-byte characters and every kind of malformed UTF-8;
 * half of the inputs are mostly of one kind.
 *
 * A target reports a broken invariant with FUZZ_FAIL(): abort() under
 * libFuzzer, here a counted failure (the target returns at once); each
 * corpus file and the random inputs as a whole are one check, and the first
 * failing random input is printed in hex.  A crash or a sanitizer report
 * ends the program (non-zero status: a failure for test/run-tests.sh), the
 * line printed before it naming the input.  Runs plainly and under ASan +
 * UBSan (the .san build) with the other unit tests.  Include this before
 * the target's source.
 */
#ifndef TFP_FUZZ_REPLAY_H
#define TFP_FUZZ_REPLAY_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"
#include "../unit/tap.h"

static int	fuzz_failures = 0;

#define FUZZ_FAIL() do { fuzz_failures++; return 0; } while (0)

typedef int (*fuzz_target) (const uint8_t *data, size_t size);

/* one fragment of text appended at p (at most 16 bytes); returns its length.
 * fav >= 0: four times in five the fragment is of the kind fav chooses (one
 * kind of text dominates the input: long runs of Han syllables, of kana,
 * of compatibility squares, ...) */
static size_t
fragment(uint8_t *p, int fav)
{
	static const char *const words[] = {
		"the", "a", "Hello", "WORLD", "x1", "42", " ", "  ", "\n", "\t", ".",
		", ", "!?", "-", "'", "\xe3\x80\x82" /* 。 */ , "\xef\xbc\x8c" /* ， */ ,
		"\xe9\x87\x8d\xe5\xba\x86" /* 重庆 */ , "\xe9\x93\xb6\xe8\xa1\x8c" /* 银行 */ ,
		"\xe6\x9c\x83\xe8\xa8\x88" /* 會計 */ , "\xe8\xbf\x98\xe6\x98\xaf" /* 还是 */ ,
		"\xe9\x95\xb7\xe5\xa4\xa7" /* 長大 */ , "\xe9\x87\x8d\xe6\x96\xb0" /* 重新 */ ,
		"\xef\xb7\xba" /* U+FDFA, 18 code points under the width fold */ ,
		"\xc0\x80", "\xe0\x80\x80", "\xed\xa0\x80" /* surrogate */ ,
		"\xf4\x90\x80\x80" /* > U+10FFFF */ , "\xe4\xb8" /* truncated */ ,
		"\x80", "\xff", "\xf0\x9f", "e\xcc\x81" /* e + combining acute */ ,
	};
	uint32_t	r;

#ifdef REPLAY_HTML
	/* html_text's target: one fragment in three is markup (at most 16 bytes) */
	static const char *const html[] = {
		"<p>", "</p>", "<div>", "</div>", "<li>", "<br>", "</br>", "<a href=x>", "</a>",
		"<script>", "</script>", "<style>", "</style>", "<!--", "-->", "--!>", "<!-->",
		"<textarea>", "</textarea>", "<title>", "</title>", "<pre>", "</pre>", "<xmp>",
		"<plaintext>", "<svg>", "</svg>", "<math>", "<![CDATA[", "]]>", "<nav>", "</nav>",
		"<head>", "</head>", "<body>", "<table>", "<tr>", "<td>", "<th>", "</table>",
		"<main>", "<article>", "<form>", "</form>", "<img alt='a&amp;b'>", "<x-y hidden>",
		"</x-y>", "<span role=menu>", "<p class=\"ad\">", "<p style=display:none>",
		"<!DOCTYPE html>", "<?x?>", "</ x>", "<", ">", "&", "&amp;", "&amp", "&notit;",
		"&#x1F600;", "&#0;", "&#128;", "&#xD800;", "&#99999999;", "&nGt;", "&nbsp;",
		"=\"", "'", "/>", "<h1>", "<h2>", "<dd>", "<dt>", "<option>", "<select>",
		"<noscript>", "<iframe>", "<template>", "</template>", "<button>", "<header>",
		"\r\n", "<!-- <script>", "</script -->", "<SCRIPT>", "</SCRIPT>", "<P>"
	};
#define REPLAY_EXTRA html
#endif
#ifdef REPLAY_TWFOLD
	/* the Taiwan wording fold's target: one fragment in three is a phrase of
	 * its table (Taiwan or mainland wording, traditional or simplified) */
	static const char *const tw[] = {
		"軟體", "软件", "記憶體", "内存", "檔案", "文件", "網路", "网络", "預設", "默认",
		"缺省", "預設值", "默认值", "資料夾", "程式", "程序", "哈薩克", "哈萨克斯坦", "斯坦",
		"著名", "著", "週", "佔", "裡", "裏", "介面", "界面", "接口", "高級", "高階", "乾隆",
		"網際網路", "計程車", "資料庫", "伺服器", "滑鼠", "列印", "\xe2\x80\x8b" /* ZWSP */
	};
#define REPLAY_EXTRA tw
#endif
#ifdef REPLAY_EXTRA
	/* a target's own fragments (REPLAY_HTML, REPLAY_TWFOLD): one in three */
	if (rnd(3) == 0)
	{
		const char *w = REPLAY_EXTRA[rnd(sizeof(REPLAY_EXTRA) / sizeof(REPLAY_EXTRA[0]))];
		size_t		n = strlen(w);

		memcpy(p, w, n);
		return n;
	}
#endif
	r = rnd(100);
	if (fav >= 0 && rnd(5) != 0)
		r = (uint32_t) fav;
	if (r < 20)					/* common Han */
		return (size_t) tfp_utf8_encode(0x4E00 + rnd(0x9FFF - 0x4E00 + 1), p);
	if (r < 28)
	{
		const char *w = words[rnd(sizeof(words) / sizeof(words[0]))];
		size_t		n = strlen(w);

		memcpy(p, w, n);
		return n;
	}
	if (r < 36)					/* any byte */
		return p[0] = (uint8_t) rnd(256), 1;
	if (r < 44)					/* ASCII letters */
		return p[0] = (uint8_t) ('a' + rnd(26)), 1;
	if (r < 50)					/* kana */
		return (size_t) tfp_utf8_encode(0x3040 + rnd(0xC0), p);
	if (r < 55)					/* CJK compatibility: squares fold to up to 5 */
		return (size_t) tfp_utf8_encode(0x3300 + rnd(0x100), p);
	if (r < 60)					/* Hangul syllables: 2-3 jamo each */
		return (size_t) tfp_utf8_encode(0xAC00 + rnd(0xD7A4 - 0xAC00), p);
	if (r < 65)					/* full-width and half-width forms */
		return (size_t) tfp_utf8_encode(0xFF01 + rnd(0xFFEF - 0xFF01), p);
	if (r < 70)					/* Latin-1, Greek, Cyrillic */
		return (size_t) tfp_utf8_encode(0xC0 + rnd(0x500 - 0xC0), p);
	if (r < 74)					/* combining marks */
		return (size_t) tfp_utf8_encode(0x300 + rnd(0x70), p);
	if (r < 78)					/* presentation forms: ligatures */
		return (size_t) tfp_utf8_encode(0xFB00 + rnd(0x500), p);
	if (r < 82)					/* Han extension B..G, emoji */
	{
		static const uint32_t base[] = {0x20000, 0x2A700, 0x30000, 0x1F300, 0x2F800};

		return (size_t) tfp_utf8_encode(base[rnd(5)] + rnd(0x400), p);
	}
	if (r < 86)					/* CJK compatibility ideographs, radicals */
		return (size_t) tfp_utf8_encode((rnd(2) ? 0xF900 : 0x2E80) + rnd(0x200), p);
	return (size_t) tfp_utf8_encode(rnd(0x10000), p);	/* anything in the BMP */
}

/* run a target over its corpus directory and `count` random inputs of
 * `nopts` option bytes and up to `maxfrag` fragments */
static int
fuzz_replay(const char *name, fuzz_target target, size_t nopts, int count,
			int maxfrag)
{
	char		dir[256],
				path[512],
				what[600];
	DIR		   *d;
	struct dirent *e;
	uint8_t    *buf = malloc(nopts + 16 * (size_t) maxfrag);
	int			files = 0,
				before,
				first_bad = -1;

	snprintf(dir, sizeof(dir), "test/fuzz/corpus/%s", name);
	if ((d = opendir(dir)) == NULL)
		check(0, "corpus directory test/fuzz/corpus/NAME exists (run from the top)");
	else
	{
		while ((e = readdir(d)) != NULL)
		{
			FILE	   *f;
			static uint8_t in[1 << 20];
			size_t		n;

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if ((f = fopen(path, "rb")) == NULL)
				continue;
			n = fread(in, 1, sizeof(in), f);
			fclose(f);
			printf("# %s\n", path);
			fflush(stdout);
			before = fuzz_failures;
			target(in, n);
			snprintf(what, sizeof(what), "%s: corpus input %s", name, e->d_name);
			check(fuzz_failures == before, what);
			files++;
		}
		closedir(d);
		snprintf(what, sizeof(what), "%s: regression corpus is not empty", name);
		check(files > 0, what);
	}
	for (int i = 0; i < count; i++)
	{
		size_t		n = 0;
		int			k = (int) rnd((uint32_t) (rnd(4) == 0 ? maxfrag : 40) + 1),
					fav = rnd(2) ? (int) rnd(100) : -1;

		for (size_t j = 0; j < nopts; j++)
			buf[n++] = (uint8_t) rnd(256);
		for (int j = 0; j < k; j++)
			n += fragment(buf + n, fav);
		if (i % 1000 == 0)
		{
			printf("# random inputs %d..%d\n", i, i + 999);
			fflush(stdout);
		}
		before = fuzz_failures;
		target(buf, n);
		if (fuzz_failures != before && first_bad < 0)
		{
			first_bad = i;
			printf("# random input %d fails:", i);
			for (size_t j = 0; j < n; j++)
				printf(" %02x", buf[j]);
			printf("\n");
		}
	}
	snprintf(what, sizeof(what), "%s: %d random inputs keep every invariant", name, count);
	check(first_bad < 0, what);
	free(buf);
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}

#endif							/* TFP_FUZZ_REPLAY_H */
