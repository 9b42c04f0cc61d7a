/*
 * test_unicode.c -- unit tests of tfp_unicode.c (classes, folding, pinyin)
 *
 * Standalone: prints TAP lines and exits 1 on any failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tfp_unicode.h"

#include "tap.h"

static const char *
flagname(unsigned flags)
{
	static const char *const names[8] = {
		"none", "WIDTH", "CASE", "WIDTH|CASE", "HAN", "WIDTH|HAN",
		"CASE|HAN", "WIDTH|CASE|HAN"
	};

	return names[flags & 7];
}

/* expected: n code points */
static void
check_fold(uint32_t cp, unsigned flags, const uint32_t *exp, int n,
		   const char *what)
{
	uint32_t	out[TFP_FOLD_MAX + 8];
	char		desc[256];
	int			got,
				i,
				same;

	got = tfp_cp_fold(cp, flags, out);
	same = (got == n);
	for (i = 0; same && i < n; i++)
		same = (out[i] == exp[i]);
	snprintf(desc, sizeof(desc), "fold U+%04X (%s) with %s", (unsigned) cp,
			 what, flagname(flags));
	check(same, desc);
	if (!same)
	{
		printf("#   got %d:", got);
		for (i = 0; i < got && i < TFP_FOLD_MAX; i++)
			printf(" U+%04X", (unsigned) out[i]);
		printf("\n");
	}
}

#define FOLD(cp, flags, what, ...) \
	do { \
		const uint32_t exp_[] = {__VA_ARGS__}; \
		check_fold((cp), (flags), exp_, (int) (sizeof(exp_) / sizeof(exp_[0])), \
				   (what)); \
	} while (0)

static void
check_class(uint32_t cp, int cls, const char *what)
{
	static const char *const names[] = {"SEP", "WORD", "HAN", "MARK", "IGNORE"};
	char		desc[256];
	int			got = tfp_cp_class(cp);

	snprintf(desc, sizeof(desc), "class U+%04X (%s) is %s", (unsigned) cp,
			 what, names[cls]);
	check(got == cls, desc);
	if (got != cls)
		printf("#   got %d\n", got);
}

static void
check_pinyin(uint32_t cp, const char *exp, const char *what)
{
	char		desc[256];
	const char *got = tfp_pinyin(cp);

	snprintf(desc, sizeof(desc), "pinyin U+%04X (%s) is %s", (unsigned) cp,
			 what, exp ? exp : "NULL");
	check(exp ? (got && strcmp(got, exp) == 0) : got == NULL, desc);
	if (!(exp ? (got && strcmp(got, exp) == 0) : got == NULL))
		printf("#   got %s\n", got ? got : "NULL");
}

/*
 * Exhaustive checks over all code points and flag combinations: output
 * length in 1..TFP_FOLD_MAX, output is a fixed point, unchanged code points
 * come back as themselves, and the flags only add folds.
 */
static void
check_all(void)
{
	uint32_t	cp;
	unsigned	flags;
	long		badlen = 0,
				notfixed = 0,
				badpinyin = 0,
				badclass = 0;
	uint32_t	out[TFP_FOLD_MAX + 8],
				out2[TFP_FOLD_MAX + 8];

	for (cp = 0; cp < 0x110010; cp++)
	{
		int			c = tfp_cp_class(cp);
		const char *py = tfp_pinyin(cp);

		if (c < TFP_CC_SEP || c > TFP_CC_IGNORE)
			badclass++;
		if (py)
		{
			const char *p;

			if (!*py)
				badpinyin++;
			for (p = py; *p; p++)
				if (*p < 'a' || *p > 'z')
					badpinyin++;
		}
		for (flags = 0; flags < 8; flags++)
		{
			int			n = tfp_cp_fold(cp, flags, out),
						i;

			if (n < 1 || n > TFP_FOLD_MAX)
			{
				badlen++;
				continue;
			}
			for (i = 0; i < n; i++)
			{
				if (out[i] == cp && n == 1)
					continue;
				if (out[i] > 0x10FFFF ||
					tfp_cp_fold(out[i], flags, out2) != 1 || out2[0] != out[i])
					notfixed++;
			}
		}
	}
	check(badclass == 0, "every code point has a valid class");
	check(badlen == 0, "every fold has 1..TFP_FOLD_MAX code points");
	check(notfixed == 0, "every fold result is a fixed point");
	check(badpinyin == 0, "every pinyin reading is lowercase ASCII letters");
}

int
main(void)
{
	unsigned	f;
	int			identity;
	uint32_t	out[TFP_FOLD_MAX + 8];

	check(strcmp(TFP_UNICODE_VERSION, "15.0.0") == 0, "Unicode version 15.0.0");

	/* ASCII */
	FOLD('A', TFP_FOLD_CASE, "A", 'a');
	FOLD('A', 0, "A", 'A');
	FOLD('A', TFP_FOLD_WIDTH | TFP_FOLD_HAN, "A", 'A');
	FOLD('z', TFP_FOLD_CASE, "z", 'z');
	FOLD('5', 7, "5", '5');
	FOLD('@', TFP_FOLD_CASE, "@", '@');

	/* full-width */
	FOLD(0xFF21, TFP_FOLD_WIDTH | TFP_FOLD_CASE, "fullwidth A", 'a');
	FOLD(0xFF21, 0, "fullwidth A", 0xFF21);
	FOLD(0xFF21, TFP_FOLD_CASE, "fullwidth A", 0xFF41);
	FOLD(0xFF21, TFP_FOLD_WIDTH, "fullwidth A", 'A');
	FOLD(0x3000, TFP_FOLD_WIDTH, "ideographic space", 0x20);
	FOLD(0x3000, TFP_FOLD_CASE | TFP_FOLD_HAN, "ideographic space", 0x3000);

	/* canonical decomposition, always */
	FOLD(0x00E9, 0, "e acute", 0x65, 0x301);
	FOLD(0x00C9, TFP_FOLD_CASE, "E acute", 0x65, 0x301);
	FOLD(0x00C9, 0, "E acute", 0x45, 0x301);
	FOLD(0x1E09, 0, "c cedilla acute", 0x63, 0x327, 0x301);
	FOLD(0x212B, 0, "angstrom sign", 0x41, 0x30A);
	FOLD(0x212B, TFP_FOLD_CASE, "angstrom sign", 0x61, 0x30A);
	FOLD(0xF900, 0, "compatibility ideograph", 0x8C48);
	FOLD(0x304C, 0, "hiragana ga", 0x304B, 0x3099);
	FOLD(0xAC00, 7, "hangul syllable ga", 0xAC00);

	/* case folding */
	FOLD(0x00DF, TFP_FOLD_CASE, "sharp s", 's', 's');
	FOLD(0x00DF, TFP_FOLD_WIDTH | TFP_FOLD_HAN, "sharp s", 0xDF);
	FOLD(0x1E9E, TFP_FOLD_CASE, "capital sharp s", 's', 's');
	FOLD(0x0130, TFP_FOLD_CASE, "I dot", 'i', 0x307);
	FOLD(0x03A3, TFP_FOLD_CASE, "Sigma", 0x3C3);
	FOLD(0x03C2, TFP_FOLD_CASE, "final sigma", 0x3C3);
	FOLD(0x0410, TFP_FOLD_CASE, "Cyrillic A", 0x430);
	FOLD(0x1F88, TFP_FOLD_CASE, "alpha psili prosgegrammeni", 0x3B1, 0x313,
		 0x3B9);

	/* compatibility */
	FOLD(0xFB01, TFP_FOLD_WIDTH, "fi ligature", 'f', 'i');
	FOLD(0xFB01, 0, "fi ligature", 0xFB01);
	FOLD(0x2460, TFP_FOLD_WIDTH, "circled 1", '1');
	FOLD(0x00B2, TFP_FOLD_WIDTH, "superscript 2", '2');
	FOLD(0x1D400, TFP_FOLD_WIDTH | TFP_FOLD_CASE, "math bold A", 'a');
	FOLD(0x1D400, TFP_FOLD_CASE, "math bold A", 0x1D400);
	FOLD(0xFF76, TFP_FOLD_WIDTH, "halfwidth katakana ka", 0x30AB);
	FOLD(0x01C4, TFP_FOLD_WIDTH | TFP_FOLD_CASE, "DZ caron", 'd', 'z', 0x30C);
	FOLD(0xFDFA, TFP_FOLD_WIDTH, "longest decomposition", 0x635, 0x644, 0x649,
		 0x20, 0x627, 0x644, 0x644, 0x647, 0x20, 0x639, 0x644, 0x64A, 0x647,
		 0x20, 0x648, 0x633, 0x644, 0x645);

	/* traditional -> simplified */
	FOLD(0x6F22, TFP_FOLD_HAN, "han (trad.)", 0x6C49);
	FOLD(0x6F22, 0, "han (trad.)", 0x6F22);
	FOLD(0x6F22, TFP_FOLD_WIDTH | TFP_FOLD_CASE, "han (trad.)", 0x6F22);
	FOLD(0x570B, TFP_FOLD_HAN, "guo (trad.)", 0x56FD);
	FOLD(0x6C49, TFP_FOLD_HAN, "han (simpl.)", 0x6C49);
	FOLD(0x4E2D, 7, "zhong", 0x4E2D);
	FOLD(0x4E7E, TFP_FOLD_HAN, "qian (first value is itself)", 0x5E72);
	FOLD(0xF907, TFP_FOLD_HAN, "compatibility ideograph gui", 0x9F9F);

	/* code points that are not characters */
	FOLD(0xD800, 7, "surrogate", 0xD800);
	FOLD(0x110000, 7, "beyond U+10FFFF", 0x110000);
	FOLD(0xFFFFFFFF, 7, "0xFFFFFFFF", 0xFFFFFFFF);
	FOLD(0xE0041, 7, "tag A", 0xE0041);

	/* unknown flag bits are ignored */
	FOLD(0xFF21, TFP_FOLD_WIDTH | TFP_FOLD_CASE | 0x100, "fullwidth A", 'a');

	identity = 1;
	for (f = 0; f < 8; f++)
		identity &= (tfp_cp_fold(0x1F600, f, out) == 1 && out[0] == 0x1F600);
	check(identity, "emoji folds to itself under all flags");

	/* classes */
	check_class('a', TFP_CC_WORD, "a");
	check_class('Z', TFP_CC_WORD, "Z");
	check_class('5', TFP_CC_WORD, "5");
	check_class(0x00E9, TFP_CC_WORD, "e acute");
	check_class(0x0430, TFP_CC_WORD, "Cyrillic a");
	check_class(0x0661, TFP_CC_WORD, "Arabic-Indic digit one");
	check_class(0xAC00, TFP_CC_WORD, "hangul syllable");
	check_class(0x2460, TFP_CC_WORD, "circled digit one (No)");
	check_class(0x4E2D, TFP_CC_HAN, "zhong");
	check_class(0x3042, TFP_CC_HAN, "hiragana a");
	check_class(0x30AB, TFP_CC_HAN, "katakana ka");
	check_class(0x30FC, TFP_CC_HAN, "prolonged sound mark");
	check_class(0x3105, TFP_CC_HAN, "bopomofo b");
	check_class(0x0E01, TFP_CC_HAN, "Thai ko kai");
	check_class(0x0E50, TFP_CC_HAN, "Thai digit zero");
	check_class(0x0E81, TFP_CC_HAN, "Lao ko");
	check_class(0x1780, TFP_CC_HAN, "Khmer ka");
	check_class(0x1000, TFP_CC_HAN, "Myanmar ka");
	check_class(0xA000, TFP_CC_HAN, "Yi syllable it");
	check_class(0x3007, TFP_CC_HAN, "ideographic zero");
	check_class(0x3005, TFP_CC_HAN, "ideographic iteration mark");
	check_class(0xF900, TFP_CC_HAN, "compatibility ideograph");
	check_class(0x2F800, TFP_CC_HAN, "compatibility ideograph supplement");
	check_class(0x3400, TFP_CC_HAN, "Ext A");
	check_class(0x20000, TFP_CC_HAN, "Ext B");
	check_class(0x31350, TFP_CC_HAN, "Ext H");
	check_class(0x0301, TFP_CC_MARK, "combining acute");
	check_class(0x0E31, TFP_CC_MARK, "Thai mai han-akat");
	check_class(0x3099, TFP_CC_MARK, "combining kana voiced mark");
	check_class(0x0903, TFP_CC_MARK, "Devanagari visarga (Mc)");
	check_class(0x00AD, TFP_CC_IGNORE, "soft hyphen");
	check_class(0x200B, TFP_CC_IGNORE, "zero width space");
	check_class(0x200C, TFP_CC_IGNORE, "zero width non-joiner");
	check_class(0x200D, TFP_CC_IGNORE, "zero width joiner");
	check_class(0x034F, TFP_CC_IGNORE, "combining grapheme joiner");
	check_class(0xFE0F, TFP_CC_IGNORE, "variation selector 16");
	check_class(0xFEFF, TFP_CC_IGNORE, "BOM");
	check_class(0xE0001, TFP_CC_IGNORE, "language tag");
	check_class(0xE0100, TFP_CC_IGNORE, "variation selector 17");
	check_class(',', TFP_CC_SEP, "comma");
	check_class(' ', TFP_CC_SEP, "space");
	check_class('\t', TFP_CC_SEP, "tab");
	check_class('\n', TFP_CC_SEP, "newline");
	check_class(0x0000, TFP_CC_SEP, "NUL");
	check_class(0x00A0, TFP_CC_SEP, "no-break space");
	check_class(0x3000, TFP_CC_SEP, "ideographic space");
	check_class(0x3002, TFP_CC_SEP, "ideographic full stop");
	check_class(0xFF0C, TFP_CC_SEP, "fullwidth comma");
	check_class(0x1F600, TFP_CC_SEP, "emoji");
	check_class(0x2603, TFP_CC_SEP, "snowman");
	check_class(0xE000, TFP_CC_SEP, "private use");
	check_class(0xD800, TFP_CC_SEP, "surrogate");
	check_class(0x0378, TFP_CC_SEP, "unassigned");
	check_class(0x10FFFF, TFP_CC_SEP, "U+10FFFF");
	check_class(0x110000, TFP_CC_SEP, "beyond U+10FFFF");
	check_class(0xFFFFFFFF, TFP_CC_SEP, "0xFFFFFFFF");

	/* pinyin */
	check_pinyin(0x4E2D, "zhong", "zhong");
	check_pinyin(0x91CD, "zhong", "zhong/chong");
	check_pinyin(0x884C, "xing", "xing/hang");
	check_pinyin(0x7EFF, "lv", "lv");
	check_pinyin(0x5973, "nv", "nv");
	check_pinyin(0x6C49, "han", "han (simpl.)");
	check_pinyin(0x6F22, "han", "han (trad.)");
	check_pinyin(0x56FD, "guo", "guo");
	check_pinyin(0x3400, "qiu", "Ext A");
	check_pinyin(0x20000, "he", "Ext B");
	check_pinyin('a', NULL, "a");
	check_pinyin(0x3042, NULL, "hiragana a");
	check_pinyin(0x110000, NULL, "beyond U+10FFFF");
	check_pinyin(0xFFFFFFFF, NULL, "0xFFFFFFFF");

	check_all();

	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
