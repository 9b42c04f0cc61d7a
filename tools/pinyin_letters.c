/*
 * pinyin_letters.c -- helper of tools/gen_pinyin_ref.sh and the tests:
 * reads UTF-8 text on stdin, prints per-letter counts of the pinyin
 * initials (tfp_pinyin_letters), or with -l the initials of each line.
 * Built against the pure core: cc -Isrc/core -Isrc/core/generated tools/pinyin_letters.c src/core/tfp_pinyin*.c src/core/generated/tfp_pinyin*.c src/core/tfp_sort.c src/core/tfp_unicode.c src/core/generated/tfp_unicode_data.c -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_pinyin.h"

int
main(int argc, char **argv)
{
	static char buf[1 << 20];
	static char out[1 << 20];
	unsigned long long counts[26] = {0};
	int			lines = argc > 1 && strcmp(argv[1], "-l") == 0;

	while (fgets(buf, sizeof(buf), stdin))
	{
		size_t		len = strlen(buf);
		size_t		n = tfp_pinyin_letters(buf, len, out);

		if (lines)
			printf("%.*s\n", (int) n, out);
		for (size_t i = 0; i < n; i++)
			counts[out[i] - 'a']++;
	}
	if (!lines)
		for (int i = 0; i < 26; i++)
			printf("%c %llu\n", 'a' + i, counts[i]);
	return 0;
}
