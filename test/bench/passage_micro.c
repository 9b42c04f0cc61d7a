/*
 * The passage fingerprint's core beside OpenSSL's MD5, per byte, on 2 KB
 * pieces of a file: best of 15 rounds of CPU time, the two alternating.
 *   passage_micro FILE LABEL        (built by test/bench/passage_speed.sh)
 */
#include <openssl/md5.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tfp_passage.h"

static void
count(void *arg, const tfp_pseed *s, size_t n)
{
	(void) s;
	*(size_t *) arg += n;
}

static double
cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	FILE	   *f = argc > 2 ? fopen(argv[1], "rb") : NULL;
	long		n;
	char	   *b;
	tfp_passage_opts o = {TFP_PASSAGE_DEFAULT_K, TFP_PASSAGE_DEFAULT_W, 1};
	size_t		seeds = 0;
	unsigned char d[16];
	double		bp = 1e9,
				bm = 1e9;

	if (!f)
		return 2;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc(n);
	if (!b || fread(b, 1, n, f) != (size_t) n)
		return 2;
	n -= n % 2048;
	for (int r = 0; r < 15; r++)
	{
		double		t0 = cpu(),
					t1,
					t2;

		for (long off = 0; off < n; off += 2048)
			tfp_passage_seeds(b + off, 2048, &o, count, &seeds, NULL, NULL);
		t1 = cpu();
		for (long off = 0; off < n; off += 2048)
			MD5((unsigned char *) b + off, 2048, d);
		t2 = cpu();
		if (t1 - t0 < bp)
			bp = t1 - t0;
		if (t2 - t1 < bm)
			bm = t2 - t1;
	}
	printf("%s: passage_fp core %.0f MB/s, MD5 %.0f MB/s, %.2f x MD5 (%ld bytes)\n",
		   argv[2], n / bp / 1e6, n / bm / 1e6, bm / bp, n);
	return d[0] & 0;
}
