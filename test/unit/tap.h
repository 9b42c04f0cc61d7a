/*
 * tap.h -- the few lines of TAP output the C unit tests share: each check
 * prints "ok N - what" or "not ok N - what"; main() ends with
 * printf("1..%d\n", ntest) and returns nfail ? 1 : 0.  Also a small
 * deterministic random number generator for the randomized tests.
 */
#ifndef TFP_TAP_H
#define TFP_TAP_H

#include <stdint.h>
#include <stdio.h>

static int	ntest = 0;
static int	nfail = 0;

static void
check(int ok, const char *what)
{
	ntest++;
	if (!ok)
		nfail++;
	printf("%sok %d - %s\n", ok ? "" : "not ", ntest, what);
}

/* xorshift64: a uniform value in [0, n), n > 0; tap_rng is the state */
static uint64_t tap_rng = 0x9E3779B97F4A7C15u;

static inline uint32_t
rnd(uint32_t n)
{
	tap_rng ^= tap_rng << 13;
	tap_rng ^= tap_rng >> 7;
	tap_rng ^= tap_rng << 17;
	return (uint32_t) ((tap_rng >> 11) % n);
}

#endif							/* TFP_TAP_H */
