/*
 * test_match.c -- unit tests of textfp_match()'s core (tfp_match.c): set
 * similarities, the ordered overlap (longest common subsequence through the
 * first four occurrences) and the longest run against brute force on random
 * sequences, the model table.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_match.h"
#include "tfp_sort.h"
#include "tap.h"

#define KEY(v) ((uint64_t) (v) << 40)	/* distinct in the top 40 bits */

/* LCS of a and b where a[i] may match b[j] only if j is among the first
 * four positions of b holding that key */
static size_t
lcs_brute(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t	   *d = calloc((na + 1) * (nb + 1), sizeof(size_t));
	size_t		r;

	for (size_t i = 1; i <= na; i++)
		for (size_t j = 1; j <= nb; j++)
		{
			size_t		best = d[(i - 1) * (nb + 1) + j];
			int			occ = 0,
						ok = 0;

			if (d[i * (nb + 1) + j - 1] > best)
				best = d[i * (nb + 1) + j - 1];
			for (size_t k = 0; k < j; k++)
				if (b[k] >> 24 == a[i - 1] >> 24)
					occ++;
			ok = (b[j - 1] >> 24 == a[i - 1] >> 24) && occ <= 4;
			if (ok && d[(i - 1) * (nb + 1) + j - 1] + 1 > best)
				best = d[(i - 1) * (nb + 1) + j - 1] + 1;
			d[i * (nb + 1) + j] = best;
		}
	r = d[na * (nb + 1) + nb];
	free(d);
	return r;
}

static size_t
run_brute(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t		best = 0;

	for (size_t i = 0; i < na; i++)
	{
		size_t		l = 0;

		while (i + l < na)
		{
			int			in = 0;

			for (size_t j = 0; j < nb; j++)
				in |= b[j] == a[i + l];
			if (!in)
				break;
			l++;
		}
		if (l > best)
			best = l;
	}
	return best;
}

int
main(void)
{
	uint64_t	x[] = {KEY(1), KEY(2), KEY(3), KEY(5)},
				y[] = {KEY(2), KEY(3), KEY(4)};
	double		j,
				c;
	int			bad_lcs = 0,
				bad_run = 0;
	uint64_t   *scratch = malloc(sizeof(uint64_t) * 1000);

	tfp_match_sets(x, 4, y, 3, &j, &c);
	check(fabs(j - 2.0 / 5.0) < 1e-15 && fabs(c - 2.0 / 3.0) < 1e-15, "Jaccard 2/5, containment 2/3");
	tfp_match_sets(x, 4, y, 0, &j, &c);
	check(j == 0 && c == 0, "an empty set: 0, 0");
	check(tfp_match_order(x, 4, y, 0, scratch) == 0, "ordered overlap with nothing is 0");
	check(tfp_match_get_model(1) != NULL && tfp_match_get_model(0) == NULL &&
		  tfp_match_get_model(2) == NULL, "model 1 exists, 0 and 2 do not");
	for (int t = 0; t < 3000; t++)
	{
		uint64_t	a[60],
					b[60],
					bs[60];
		size_t		na = 1 + rnd(60),
					nb = 1 + rnd(60),
					ns,
					want;
		uint32_t	alpha = 2 + rnd(t % 3 == 0 ? 4 : 30);
		double		got;

		for (size_t i = 0; i < na; i++)
			a[i] = KEY(rnd(alpha)) | rnd(1000);		/* low bits: not part of the key */
		for (size_t i = 0; i < nb; i++)
			b[i] = KEY(rnd(alpha)) | rnd(1000);
		want = lcs_brute(a, na, b, nb);
		got = tfp_match_order(a, na, b, nb, scratch);
		if (fabs(got - (double) want / (double) (na < nb ? na : nb)) > 1e-12)
			bad_lcs++;
		/* runs: against the set of b's exact values */
		for (size_t i = 0; i < nb; i++)
			a[i % na] = rnd(4) == 0 ? b[i] : a[i % na];
		memcpy(bs, b, sizeof(uint64_t) * nb);
		ns = tfp_sort_unique_u64(bs, nb, NULL);
		if (tfp_match_run(a, na, bs, ns) != run_brute(a, na, b, nb))
			bad_run++;
	}
	check(bad_lcs == 0, "ordered overlap = brute-force LCS through the first four occurrences (3,000 random)");
	check(bad_run == 0, "longest run = brute force (3,000 random)");
	free(scratch);
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
