/*
 * tfp_termset.h -- a set of 64-bit values (term or token hashes) for
 * membership tests: the I-Match lexicon, SpotSigs' antecedents and
 * stopwords.  Pure C, header only.
 */
#ifndef TFP_TERMSET_H
#define TFP_TERMSET_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * A set of 64-bit terms for membership tests: open addressing, linear
 * probing, at most half full.  The value 0 marks an empty slot, so the
 * term 0 is kept in a flag.
 */
typedef struct tfp_termset
{
	uint64_t   *slots;			/* nslots entries (caller's memory) */
	uint64_t	mask;			/* nslots - 1 */
	int			shift;			/* 64 - log2(nslots) */
	int			has_zero;
} tfp_termset;

/* Number of slots for n terms: a power of two >= 2n (at least 16). */
static inline size_t
tfp_termset_slots(size_t n)
{
	size_t		s = 16;

	while (s < 2 * n)
		s *= 2;
	return s;
}

static inline int
tfp_termset_contains(const tfp_termset *s, uint64_t t)
{
	uint64_t	i;

	if (t == 0)
		return s->has_zero;
	/* Fibonacci hashing: the high bits of t times 2^64 / phi, so that
	 * terms that are not hashes (a lexicon typed in) spread as well */
	for (i = (t * UINT64_C(0x9E3779B97F4A7C15)) >> s->shift;; i = (i + 1) & s->mask)
	{
		if (s->slots[i] == t)
			return 1;
		if (s->slots[i] == 0)
			return 0;
	}
}

/* Fill s with terms[0..n); slots has tfp_termset_slots(n) entries. */
static inline void
tfp_termset_build(tfp_termset *s, uint64_t *slots, size_t nslots,
				  const uint64_t *terms, size_t n)
{
	int			bits = 0;

	while (((size_t) 1 << bits) < nslots)
		bits++;
	s->slots = slots;
	s->mask = (uint64_t) nslots - 1;
	s->shift = 64 - bits;
	s->has_zero = 0;
	memset(slots, 0, nslots * sizeof(uint64_t));
	for (size_t j = 0; j < n; j++)
	{
		uint64_t	t = terms[j];
		uint64_t	i;

		if (t == 0)
		{
			s->has_zero = 1;
			continue;
		}
		for (i = (t * UINT64_C(0x9E3779B97F4A7C15)) >> s->shift;; i = (i + 1) & s->mask)
		{
			if (slots[i] == t)
				break;			/* a duplicate */
			if (slots[i] == 0)
			{
				slots[i] = t;
				break;
			}
		}
	}
}

#endif							/* TFP_TERMSET_H */
