/*
 * test_imatch.c -- unit tests of the I-Match core (tfp_imatch.c, the term set
 * of tfp_termset.h) and of Broder's super-shingles (tfp_supershingle.c):
 * the definitions recomputed byte by byte, membership against a sorted
 * reference, the randomized signatures' properties, edge values.
 * Prints TAP lines; exits 1 if any check fails.
 */
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "tfp_core.h"
#include "tfp_imatch.h"
#include "tfp_sort.h"
#include "tfp_supershingle.h"

#include "tap.h"

static uint64_t
rnd64(void)
{
	return ((uint64_t) rnd(1u << 31) << 33) ^ ((uint64_t) rnd(1u << 31) << 2) ^ rnd(4);
}

/* XXH3 of values written byte by byte as 8-byte little-endian integers */
static uint64_t
ref_hash64(const uint64_t *v, size_t n, uint64_t seed)
{
	unsigned char *b = malloc(8 * n + 1);
	uint64_t	h;

	for (size_t i = 0; i < n; i++)
		for (int j = 0; j < 8; j++)
			b[8 * i + j] = (unsigned char) (v[i] >> (8 * j));
	h = XXH3_64bits_withSeed(b, 8 * n, seed);
	free(b);
	return h;
}

static int
in_sorted(const uint64_t *v, size_t n, uint64_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

static void
test_termset(void)
{
	static uint64_t terms[3000],
				slots[8192],
				probe[3000];
	tfp_termset s;
	size_t		n = 0,
				ns;
	int			ok = 1;

	/* random terms, small values, 0, duplicates */
	for (int i = 0; i < 2000; i++)
		terms[n++] = rnd64();
	for (uint64_t i = 0; i < 500; i++)
		terms[n++] = i;
	for (int i = 0; i < 400; i++)
		terms[n++] = terms[rnd(2500)];
	ns = tfp_termset_slots(n);
	check(ns >= 2 * n && (ns & (ns - 1)) == 0 && ns <= 8192, "termset: slots a power of two, at least twice the terms");
	tfp_termset_build(&s, slots, ns, terms, n);
	for (size_t i = 0; i < n; i++)
		ok &= tfp_termset_contains(&s, terms[i]);
	check(ok, "termset: every term is found (0 and duplicates included)");
	ok = 1;
	for (int i = 0; i < 3000; i++)
	{
		uint64_t	x = i < 1000 ? (uint64_t) (500 + i) : rnd64();

		ok &= tfp_termset_contains(&s, x) == in_sorted(terms, n, x);
	}
	check(ok, "termset: values not added are not found (3000 probes)");
	tfp_termset_build(&s, slots, 16, NULL, 0);
	check(!tfp_termset_contains(&s, 0) && !tfp_termset_contains(&s, 7), "termset: empty set contains nothing");

	/* filter keeps members in order */
	for (int i = 0; i < 3000; i++)
		probe[i] = i % 3 == 0 ? terms[rnd((uint32_t) n)] : rnd64();
	tfp_termset_build(&s, slots, ns, terms, n);
	{
		static uint64_t copy[3000];
		size_t		k,
					j = 0;

		memcpy(copy, probe, sizeof(probe));
		k = tfp_imatch_filter(&s, copy, 3000);
		ok = 1;
		for (int i = 0; i < 3000; i++)
			if (in_sorted(terms, n, probe[i]))
				ok &= j < k && copy[j++] == probe[i];
		check(ok && j == k && k >= 1000, "filter: keeps exactly the members, in order");
	}
}

static void
test_hash(void)
{
	uint64_t	kept[5] = {(uint64_t) -5, (uint64_t) -1, 0, 3, UINT64_C(0x7fffffffffffffff)};
	uint64_t	other[5];

	check(tfp_imatch_hash(kept, 5, 0) == ref_hash64(kept, 5, TFP_IMATCH_SEED),
		  "I-Match: XXH3 of the kept terms as 8-byte little-endian values, seed tfp1imat");
	check(tfp_imatch_hash(kept, 1, 3) == ref_hash64(kept, 1, TFP_IMATCH_SEED + 3),
		  "I-Match: signature i uses seed tfp1imat + i");
	memcpy(other, kept, sizeof(kept));
	other[3] = 4;
	check(tfp_imatch_hash(other, 5, 0) != tfp_imatch_hash(kept, 5, 0),
		  "I-Match: one changed term changes the signature");
	check(tfp_imatch_hash(kept, 4, 0) != tfp_imatch_hash(kept, 5, 0),
		  "I-Match: one term more changes the signature");
	/* golden: the stable value of this definition */
	check(tfp_imatch_hash(kept, 5, 0) == ref_hash64(kept, 5, UINT64_C(0x74667031696d6174)),
		  "I-Match: seed constant is \"tfp1imat\"");
}

static void
test_randomized(void)
{
	static uint64_t kept[400],
				other[400],
				scratch[400];
	uint64_t	out[TFP_IMATCH_MAX_LEXICONS + 1],
				out2[TFP_IMATCH_MAX_LEXICONS + 1];
	size_t		n,
				n2;
	int			ok;
	uint32_t	drop = tfp_imatch_drop_threshold(0.7);

	check(tfp_imatch_drop_threshold(0) == 0 && tfp_imatch_drop_threshold(0.5) == UINT32_C(0x80000000) &&
		  tfp_imatch_drop_threshold(0.25) == UINT32_C(0x40000000) &&
		  tfp_imatch_drop_threshold(0.1) == UINT32_C(429496729) &&
		  tfp_imatch_drop_threshold(0.9999999999) == UINT32_MAX,
		  "drop threshold: floor(f * 2^32)");
	for (int i = 0; i < 400; i++)
		kept[i] = rnd64();
	tfp_sort_unique_u64(kept, 400, NULL);
	check(tfp_imatch_randomized(kept, 0, 20, drop, scratch, out) == 0, "randomized: no kept term, no signature");
	n = tfp_imatch_randomized(kept, 400, 20, drop, scratch, out);
	ok = n == 21;
	for (size_t i = 1; i < n; i++)
		ok &= (int64_t) out[i - 1] < (int64_t) out[i];
	check(ok, "randomized: 21 signatures for 20 lexicons, sorted as int64, distinct");
	check(in_sorted(out, n, tfp_imatch_hash(kept, 400, 0)), "randomized: includes the plain I-Match");
	{
		/* signature 7 recomputed from the definition */
		uint64_t	seed = TFP_IMATCH_SUBSEED + 7;
		size_t		m = 0;

		for (int j = 0; j < 400; j++)
			if ((uint32_t) (tfp_fmix64(kept[j] ^ seed) >> 32) >= drop)
				scratch[m++] = kept[j];
		check(m > 60 && m < 180 && in_sorted(out, n, ref_hash64(scratch, m, TFP_IMATCH_SEED + 7)),
			  "randomized: sub-lexicon 7 keeps about 30% of the terms; its signature as defined");
	}
	/* one kept term changed: the plain signature breaks, about 49% of the
	 * randomized ones (those whose sub-lexicon leaves out both terms, 0.7 *
	 * 0.7) stay */
	{
		int			stayed = 0,
					runs = 200;

		for (int r = 0; r < runs; r++)
		{
			memcpy(other, kept, sizeof(kept));
			other[rnd(400)] = rnd64();
			tfp_sort_unique_u64(other, 400, NULL);
			n2 = tfp_imatch_randomized(other, 400, 20, drop, scratch, out2);
			for (size_t i = 0; i < n2; i++)
				stayed += in_sorted(out, n, out2[i]);
		}
		/* expected 20 * 0.7 * 0.7 = 9.8 per run */
		check(stayed > runs * 8 && stayed < runs * 12,
			  "randomized: one changed term leaves ~49% of the 20 sub-lexicon signatures equal");
	}
	n = tfp_imatch_randomized(kept, 400, 5, 0, scratch, out);
	check(n == 6, "randomized: drop 0 keeps every term in every lexicon, 6 distinct signatures");
	n = tfp_imatch_randomized(kept, 3, 64, UINT32_MAX, scratch, out);
	check(n >= 1 && in_sorted(out, n, tfp_imatch_hash(kept, 3, 0)), "randomized: drop ~1 leaves mostly the plain signature");
}

static void
test_supershingles(void)
{
	uint32_t	v[84];
	uint64_t	out[84],
				out2[84];
	size_t		n;
	unsigned char b[64];
	uint64_t	p,
				want[6];
	int			ok = 1;

	for (int i = 0; i < 84; i++)
		v[i] = (uint32_t) rnd(1u << 31) * 2 + (i & 1);
	n = tfp_supershingles(v, 84, 5, 3, 7, 6, out);
	/* recompute: P from the parameters, group j with seed P + j */
	for (int i = 0, x[6] = {1, 84, 5, 3, 7, 6}; i < 6; i++)
		for (int j = 0; j < 4; j++)
			b[4 * i + j] = (unsigned char) ((uint32_t) x[i] >> (8 * j));
	p = XXH3_64bits_withSeed(b, 24, TFP_SUPERSHINGLE_SEED);
	for (int g = 0; g < 6; g++)
	{
		for (int i = 0; i < 14; i++)
			for (int j = 0; j < 4; j++)
				b[4 * i + j] = (unsigned char) (v[g * 14 + i] >> (8 * j));
		want[g] = XXH3_64bits_withSeed(b, 56, p + (uint64_t) g);
	}
	for (int g = 0; g < 6; g++)
		ok &= in_sorted(out, n, want[g]);
	check(n == 6 && ok, "super-shingles: 6 groups of 14 values hashed as defined");
	ok = 1;
	for (size_t i = 1; i < n; i++)
		ok &= (int64_t) out[i - 1] < (int64_t) out[i];
	check(ok, "super-shingles: sorted as int64");
	v[20] ^= 1;					/* group 1 changes */
	n = tfp_supershingles(v, 84, 5, 3, 7, 6, out2);
	{
		int			same = 0;

		for (size_t i = 0; i < n; i++)
			same += in_sorted(out, 6, out2[i]);
		check(same == 5, "super-shingles: one changed value changes one super-shingle");
	}
	n = tfp_supershingles(v, 84, 5, 3, 6, 6, out2);
	{
		int			same = 0;

		for (size_t i = 0; i < n; i++)
			same += in_sorted(out, 6, out2[i]);
		check(same == 0, "super-shingles: other feature options share none");
	}
	/* equal groups at different positions do not collide */
	for (int i = 0; i < 84; i++)
		v[i] = 42;
	n = tfp_supershingles(v, 84, 5, 3, 7, 6, out);
	check(n == 6, "super-shingles: equal groups in different positions are different");
	n = tfp_supershingles(v, 84, 5, 3, 7, 84, out);
	check(n == 84, "super-shingles: 84 groups of one value");
	n = tfp_supershingles(v, 84, 5, 3, 7, 1, out);
	check(n == 1, "super-shingles: one group of all values");
}

int
main(void)
{
	test_termset();
	test_hash();
	test_randomized();
	test_supershingles();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
