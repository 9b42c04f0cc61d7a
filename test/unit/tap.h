/*
 * tap.h -- the few lines of TAP output the C unit tests share: each check
 * prints "ok N - what" or "not ok N - what"; main() ends with
 * printf("1..%d\n", ntest) and returns nfail ? 1 : 0.
 */
#ifndef TFP_TAP_H
#define TFP_TAP_H

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

#endif							/* TFP_TAP_H */
