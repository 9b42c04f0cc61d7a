/*
 * test_boiler.c -- unit tests of the boilerplate lines core (tfp_boiler.c):
 * the line hash recomputed from the definition (public fold and class
 * functions, bytes hashed one by one), the ASCII fast path against the
 * general one, long lines (streaming hash), line breaks, stripping, and
 * golden values that must never change.
 * Prints TAP lines; exits 1 if any check fails.
 */
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "tfp_core.h"
#include "tfp_boiler.h"

#include "tap.h"

/* the definition's hash, computed the slow way */
static int
ref_hash(const char *s, size_t len, uint64_t *h)
{
	unsigned char *b = malloc(4 * TFP_FOLD_MAX * (len + 1));
	size_t		nb = 0,
				pos = 0;

	while (pos < len)
	{
		uint32_t	cp,
					f[TFP_FOLD_MAX];
		int			k;

		pos += tfp_utf8_decode((const unsigned char *) s + pos, len - pos, &cp);
		k = tfp_cp_fold(cp, TFP_FOLD_WIDTH | TFP_FOLD_CASE | TFP_FOLD_HAN, f);
		for (int i = 0; i < k; i++)
		{
			int			cc = tfp_cp_class(f[i]);
			uint32_t	v = f[i];

			if (cc != TFP_CC_WORD && cc != TFP_CC_HAN)
				continue;
			if (v >= '1' && v <= '9')
				v = '0';
			for (int j = 0; j < 4; j++)
				b[nb++] = (unsigned char) (v >> (8 * j));
		}
	}
	if (nb > 0)
		*h = XXH3_64bits_withSeed(b, nb, UINT64_C(0x7466703162706c74));
	free(b);
	return nb > 0;
}

static uint64_t
hash_of(const char *s)
{
	uint64_t	h = 0;

	if (!tfp_boiler_line_hash(s, strlen(s), &h, NULL))
		return 0;
	return h;
}

static int
same_as_ref(const char *s, size_t len)
{
	uint64_t	a = 0,
				b = 0;
	int			ha = tfp_boiler_line_hash(s, len, &a, NULL),
				hb = ref_hash(s, len, &b);

	return ha == hb && a == b;
}

/* lines of a text as "start-end-next-has;" */
static char lines_buf[1024];

static void
line_rec(void *arg, size_t start, size_t end, size_t next, int has, uint64_t h)
{
	(void) arg;
	(void) h;
	sprintf(lines_buf + strlen(lines_buf), "%zu-%zu-%zu-%d;", start, end, next, has);
}

static const char *
lines_of(const char *s)
{
	lines_buf[0] = '\0';
	tfp_boiler_lines(s, strlen(s), line_rec, NULL, NULL);
	return lines_buf;
}

static int	nticks = 0;
static void
count_tick(void)
{
	nticks++;
}

/* strip s with a set of the hashes of the given lines */
static char *
strip_with(const char *s, const char **lines, int n, size_t *removed)
{
	uint64_t	terms[16],
				slots[64];
	tfp_termset set;
	char	   *out = malloc(strlen(s) + 1);
	size_t		k;

	for (int i = 0; i < n; i++)
		terms[i] = hash_of(lines[i]);
	tfp_termset_build(&set, slots, tfp_termset_slots((size_t) n) < 64 ? tfp_termset_slots((size_t) n) : 64,
					  terms, (size_t) n);
	k = tfp_boiler_strip(s, strlen(s), &set, out, removed, NULL);
	out[k] = '\0';
	return out;
}

int
main(void)
{
	/* the definition, recomputed */
	{
		const char *samples[] = {
			"Hello, World!", "Copyright © 2024 Example Inc. All rights reserved.",
			"版權所有 © 2024 新華網", "ＡＢＣ　１２３", "Ｃａｆé crème", "ﬁnance",
			"\xff\xfe broken \xc3", "", "   ---   ", "Straße ΣΊΣΥΦΟΣ",
			"日本語のテキスト", "x\ty\rz\n", "①②③ ¹²³",
		};
		int			ok = 1;

		for (size_t i = 0; i < sizeof(samples) / sizeof(*samples); i++)
			ok &= same_as_ref(samples[i], strlen(samples[i]));
		check(ok, "line hash is the definition's, recomputed slowly");
	}
	/* every ASCII character alone and between letters: fast path */
	{
		int			ok = 1;

		for (int c = 1; c < 128; c++)
		{
			char		s[4] = {'a', (char) c, 'b', 0};

			ok &= same_as_ref(s + 1, 1) && same_as_ref(s, 3);
		}
		check(ok, "ASCII fast path agrees with the fold and class tables");
	}
	/* random UTF-8, including long lines past the buffer (streaming) */
	{
		int			ok = 1;
		static const char *pieces[] = {"a", "Z", "7", " ", ",", "é", "e\xcc\x81", "中", "國", "Ａ", "\xff", "ß", "\xe2\x80\x8b", "٣"};

		for (int t = 0; t < 300; t++)
		{
			char		s[8192];
			size_t		n = 0;
			int			np = (int) rnd(t < 100 ? 40 : 1500);

			for (int i = 0; i < np; i++)
			{
				const char *p = pieces[rnd(sizeof(pieces) / sizeof(*pieces))];

				memcpy(s + n, p, strlen(p));
				n += strlen(p);
			}
			ok &= same_as_ref(s, n);
		}
		check(ok, "random texts up to 1500 pieces (streaming hash) agree with the definition");
	}
	/* the variants of a template line are one line */
	check(hash_of("Copyright 2024 Example News. All rights reserved.") ==
		  hash_of("COPYRIGHT © 1999 example news -- all rights reserved"),
		  "case, digits and punctuation do not matter");
	check(hash_of("Copyright 2024 Example News") == hash_of("Ｃｏｐｙｒｉｇｈｔ　２０２４　Ｅｘａｍｐｌｅ　Ｎｅｗｓ"),
		  "full-width is ASCII");
	check(hash_of("版權所有，轉載請註明出處。") == hash_of("版权所有 转载请注明出处"),
		  "traditional script and Chinese punctuation do not matter");
	check(hash_of("本文发布于2024年10月1日") == hash_of("本文发布于２０１９年１２月３日"),
		  "digits, full-width ones too, are one digit (count kept)");
	check(hash_of("page 12") != hash_of("page 123"), "the number of digits matters");
	check(hash_of("café") == hash_of("cafe"), "accents (combining marks) do not matter");
	check(hash_of("rights reserved") != hash_of("rights reversed"), "letters matter");
	{
		uint64_t	h = 1;

		check(tfp_boiler_line_hash("  -- ** --  ", 12, &h, NULL) == 0 && h == 1,
			  "a line of punctuation has no hash");
		check(tfp_boiler_line_hash("", 0, &h, NULL) == 0, "the empty line has no hash");
	}
	/* golden values: frozen forever (the SQL golden test pins the same) */
	check(hash_of("Hello, World!") == UINT64_C(0x4bb6a4d21bd4e89e), "golden: Hello, World!");
	check(hash_of("版權所有") == UINT64_C(0x6516a8e5d15bcaa6), "golden: 版权所有");

	/* lines */
	check(strcmp(lines_of("a\nb"), "0-1-2-1;2-3-3-1;") == 0, "LF splits; last line without break");
	check(strcmp(lines_of("a\r\nb\rc\n"), "0-1-3-1;3-4-5-1;5-6-7-1;") == 0, "CR LF, CR and LF are breaks; no empty last line");
	check(strcmp(lines_of("\n\n-\n"), "0-0-1-0;1-1-2-0;2-3-4-0;") == 0, "blank and punctuation lines have no hash");
	check(strcmp(lines_of(""), "") == 0, "the empty text has no line");
	check(strcmp(lines_of("\r"), "0-0-1-0;") == 0, "a lone CR is one empty line");

	/* stripping */
	{
		const char *tpl[] = {"Home | News | Sport", "Copyright 2024 Example News"};
		size_t		removed = 0;
		char	   *o;

		o = strip_with("HOME  |  NEWS  |  SPORT\r\nThe river rose.\n\nCopyright 1999 Example News.\nIt fell.",
					   tpl, 2, &removed);
		check(strcmp(o, "The river rose.\n\nIt fell.") == 0 && removed == 2,
			  "template lines go with their breaks; other lines byte for byte");
		free(o);
		o = strip_with("The river rose.\nCopyright 2024 Example News", tpl, 2, &removed);
		check(strcmp(o, "The river rose.\n") == 0 && removed == 1, "a last template line goes");
		free(o);
		o = strip_with("Home News Sport\nCopyright 2024 Example News\n", tpl, 2, &removed);
		check(strcmp(o, "") == 0 && removed == 2, "a text of template lines strips to empty");
		free(o);
		o = strip_with("a\n\n---\nb", tpl, 0, &removed);
		check(strcmp(o, "a\n\n---\nb") == 0 && removed == 0, "the empty set keeps everything");
		free(o);
		o = strip_with("Home News Sport is not the point\nHome News Sport", tpl, 2, &removed);
		check(strcmp(o, "Home News Sport is not the point\n") == 0 && removed == 1,
			  "only whole lines are template");
		free(o);
	}
	/* ticks on a long text */
	{
		size_t		n = 3 * TFP_BOILER_TICK + 10;
		char	   *s = malloc(n);
		uint64_t	h;

		memset(s, 'x', n);
		nticks = 0;
		tfp_boiler_line_hash(s, n, &h, count_tick);
		check(nticks == 3, "a long line ticks every TFP_BOILER_TICK bytes");
		free(s);
	}
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
