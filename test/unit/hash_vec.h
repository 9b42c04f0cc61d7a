/*
 * hash_vec.h -- a growable array of 64-bit feature hashes and the
 * tfp_extract_features sink that appends to it (C unit tests and fuzz
 * targets).  Start from {0}; free(v.h) when done.
 */
#ifndef TFP_HASH_VEC_H
#define TFP_HASH_VEC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
	uint64_t   *h;
	size_t		n,
				cap;
} vec;

static void
vsink(void *a, const uint64_t *h, size_t n)
{
	vec		   *v = a;

	if (v->n + n > v->cap)
	{
		v->cap = (v->n + n) * 2 + 16;
		v->h = realloc(v->h, v->cap * sizeof(uint64_t));
	}
	if (n)
		memcpy(v->h + v->n, h, n * sizeof(uint64_t));
	v->n += n;
}

#endif							/* TFP_HASH_VEC_H */
