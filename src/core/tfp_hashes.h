/*
 * tfp_hashes.h -- XXH3 of sequences of 32- and 64-bit values written as
 * little-endian integers, the byte order every textfp definition uses, on
 * any host: the signatures built from other hashes (I-Match, spot
 * signatures, sentences, super-shingles).  Pure C, header only.
 */
#ifndef TFP_HASHES_H
#define TFP_HASHES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TFP_HOST_LE 1
#else
#define TFP_HOST_LE 0
#endif

static inline void
tfp_put_le64(unsigned char *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char) (v >> (8 * i));
}

static inline void
tfp_put_le32(unsigned char *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char) (v >> (8 * i));
}

/*
 * Feed v[0..n), values of width bytes (4 or 8), to a streaming XXH3 state as
 * little-endian integers.
 */
static inline void
tfp_xxh3_update_le(XXH3_state_t *st, const void *v, size_t n, int width)
{
#if TFP_HOST_LE
	XXH3_64bits_update(st, v, n * (size_t) width);
#else
	unsigned char buf[256];
	size_t		i = 0,
				per = sizeof(buf) / (size_t) width;

	while (i < n)
	{
		size_t		m = n - i < per ? n - i : per;

		for (size_t j = 0; j < m; j++)
		{
			if (width == 8)
				tfp_put_le64(buf + 8 * j, ((const uint64_t *) v)[i + j]);
			else
				tfp_put_le32(buf + 4 * j, ((const uint32_t *) v)[i + j]);
		}
		XXH3_64bits_update(st, buf, (size_t) width * m);
		i += m;
	}
#endif
}

static inline void
tfp_xxh3_update_u64(XXH3_state_t *st, const uint64_t *v, size_t n)
{
	tfp_xxh3_update_le(st, v, n, 8);
}

/* XXH3_64bits_withSeed of n values of width bytes as little-endian ones */
static inline uint64_t
tfp_xxh3_le(const void *v, size_t n, int width, uint64_t seed)
{
#if TFP_HOST_LE
	return XXH3_64bits_withSeed(v, n * (size_t) width, seed);
#else
	XXH3_state_t st;

	/* a state on the stack must be zeroed before a seeded reset
	 * (xxhash.h, XXH3_INITSTATE) */
	memset(&st, 0, sizeof(st));
	XXH3_64bits_reset_withSeed(&st, seed);
	tfp_xxh3_update_le(&st, v, n, width);
	return XXH3_64bits_digest(&st);
#endif
}

static inline uint64_t
tfp_xxh3_u64(const uint64_t *v, size_t n, uint64_t seed)
{
	return tfp_xxh3_le(v, n, 8, seed);
}

static inline uint64_t
tfp_xxh3_u32(const uint32_t *v, size_t n, uint64_t seed)
{
	return tfp_xxh3_le(v, n, 4, seed);
}

#endif							/* TFP_HASHES_H */
