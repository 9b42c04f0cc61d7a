/*
 * bit_balance.c -- share of 1s of each fingerprint bit over a set of texts
 *
 * Reads one text per line on stdin (a literal "\n" stands for a line
 * break), fingerprints each with simhash(text)'s features (default sizes, or
 * `bit_balance NGRAM SHINGLE`), centered
 * (the default) and plain (center => false), and prints for each the number
 * of texts, the mean |share - 50%| over the 64 bits, the lowest and highest
 * share.  Then "own ref": a reference of the collection's own
 * (simhash_reference()) made from the first half of the texts, measured on
 * the second half (and the built-in centering on that half, to compare).
 * Used by test/bench/bit_balance.sh; build from the repository root:
 *   cc -O2 -Isrc/core -Isrc/core/generated -o /tmp/bit_balance tools/bit_balance.c src/core/tfp_features.c \
 *      src/core/tfp_simhash.c src/core/tfp_simhash_balance.c src/core/generated/tfp_simhash_ref.c src/core/tfp_unicode.c src/core/generated/tfp_unicode_data.c -lm
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"

static void
sink(void *acc, const uint64_t *h, size_t n)
{
	if (n)
		tfp_simhash_add(acc, h, n);
}

static void
report(const char *what, long n, const long *ones)
{
	double		lo = 1,
				hi = 0,
				dev = 0;

	for (int b = 0; b < 64; b++)
	{
		double		s = n ? (double) ones[b] / n : 0.5;

		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
		dev += fabs(s - 0.5);
	}
	printf("  %-8s n = %6ld  mean deviation %5.2f%%  bits %4.1f%% .. %4.1f%%\n",
		   what, n, dev / 64 * 100, lo * 100, hi * 100);
}

int
main(int argc, char **argv)
{
	char	   *line = NULL;
	size_t		cap = 0;
	ssize_t		len;
	long		n = 0,
				ones[2][64] = {{0}},
				own[64] = {0};
	tfp_feature_opts o = {2, 1, TFP_FOLD_WIDTH | TFP_FOLD_CASE | TFP_FOLD_HAN};
	char	  **texts = NULL;
	size_t	   *lens = NULL,
				ntexts = 0,
				ntrain = 0;
	int32_t    *q,
				thr[64];
	uint64_t   *exact;
	uint32_t   *counts;

	/* optional: ngram and shingle sizes (default 2 and 1, simhash's) */
	if (argc > 2)
	{
		o.ngram = atoi(argv[1]);
		o.shingle = atoi(argv[2]);
		if (o.ngram < 1 || o.ngram > TFP_MAX_NGRAM || o.shingle < 1 || o.shingle > TFP_MAX_SHINGLE)
			return 2;
	}

	while ((len = getline(&line, &cap, stdin)) > 0)
	{
		tfp_simhash_acc acc,
					plain;
		uint64_t	nhan,
					fp[2];
		ssize_t		i,
					j;

		/* "\n" -> line break */
		for (i = 0, j = 0; i < len; i++)
		{
			if (line[i] == '\\' && i + 1 < len && line[i + 1] == 'n')
			{
				line[j++] = '\n';
				i++;
			}
			else if (line[i] != '\n')
				line[j++] = line[i];
		}
		tfp_simhash_init(&acc);
		tfp_extract_features_counted(line, (size_t) j, &o, sink, &acc, &nhan);
		plain = acc;
		fp[0] = tfp_simhash_finish_centered(&acc, nhan, o.ngram, o.shingle);
		fp[1] = tfp_simhash_finish(&plain);
		for (int k = 0; k < 2; k++)
			for (int b = 0; b < 64; b++)
				ones[k][b] += (long) ((fp[k] >> b) & 1);
		n++;
		texts = realloc(texts, (ntexts + 1) * sizeof(char *));
		lens = realloc(lens, (ntexts + 1) * sizeof(size_t));
		texts[ntexts] = malloc((size_t) j + 1);
		memcpy(texts[ntexts], line, (size_t) j);
		lens[ntexts++] = (size_t) j;
	}
	report("centered", n, ones[0]);
	report("plain", n, ones[1]);

	/*
	 * A reference of the collection's own (simhash_reference()): made from
	 * the first half of the texts, measured on the second half
	 */
	q = malloc(sizeof(int32_t) * 64 * (ntexts / 2 + 1));
	exact = malloc(sizeof(uint64_t) * (ntexts / 2 + 1));
	counts = malloc(sizeof(uint32_t) * TFP_BALANCE_SCRATCH);
	for (size_t t = 0; t < ntexts / 2; t++)
		if (tfp_simhash_text_ratios(texts[t], lens[t], &o, NULL, q + 64 * ntrain,
									exact + ntrain) > 0)
			ntrain++;
	if (ntrain > 0)
	{
		long		ntest = 0;

		/* and the built-in centering on the same second half, to compare */
		tfp_simhash_choose_thresholds(q, exact, ntrain, thr, counts);
		memset(ones, 0, sizeof(ones));
		for (size_t t = ntexts / 2; t < ntexts; t++, ntest++)
		{
			uint64_t	fp = tfp_simhash_text_thresholds(texts[t], lens[t], &o, thr, NULL, NULL),
						fc = tfp_simhash_text(texts[t], lens[t], &o, 1, NULL, NULL);

			for (int b = 0; b < 64; b++)
			{
				own[b] += (long) ((fp >> b) & 1);
				ones[0][b] += (long) ((fc >> b) & 1);
			}
		}
		report("own ref", ntest, own);
		report("(centered, same half)", ntest, ones[0]);
	}
	for (size_t t = 0; t < ntexts; t++)
		free(texts[t]);
	free(texts);
	free(lens);
	free(q);
	free(exact);
	free(counts);
	free(line);
	return 0;
}
