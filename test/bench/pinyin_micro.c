/*
 * pinyin_micro.c -- C micro-benchmark of the pure pinyin core next to
 * OpenSSL's MD5, on 200 consecutive 2,000-byte slices of a Chinese text
 * (stdin).  Best of 30 rounds, microseconds per slice, with the AVX-512
 * kernels where the CPU has them and with the portable code only.  Run by
 * test/bench/pinyin_micro.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/md5.h>

#include "tfp_cpu.h"
#include "tfp_pinyin.h"

#define SLICE 2000
#define SLICES 200

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

int
main(void)
{
	static char buf[SLICE * SLICES],
				l[SLICE];
	int64_t    *out = malloc(sizeof(int64_t) * (SLICE + 1));
	tfp_dna_opts o = {32, 50, 4, 1};
	unsigned char d[16];
	size_t		tot = 0;

	if (fread(buf, 1, sizeof(buf), stdin) != sizeof(buf))
		return 1;
	tot += tfp_pinyin_letters("\xe4\xb8\xad", 3, l);	/* build tables */
	for (int simd = 1; simd >= 0; simd--)
	{
		double		bm = 1e9,
					bl = 1e9,
					bw = 1e9;

		tfp_simd_enabled = simd;
		for (int rep = 0; rep < 30; rep++)
		{
			double		t0 = now(),
						t1;
			size_t		n;

			for (int i = 0; i < SLICES; i++)
				MD5((unsigned char *) buf + i * SLICE, SLICE, d);
			t1 = now();
			if (t1 - t0 < bm)
				bm = t1 - t0;
			t0 = now();
			for (int i = 0; i < SLICES; i++)
				tot += tfp_pinyin_letters(buf + i * SLICE, SLICE, l);
			t1 = now();
			if (t1 - t0 < bl)
				bl = t1 - t0;
			/* windows of every slice (letters converted before timing) */
			t0 = 0;
			for (int i = 0; i < SLICES; i++)
			{
				double		ts;

				n = tfp_pinyin_letters(buf + i * SLICE, SLICE, l);
				ts = now();
				tot += tfp_dna_windows(l, n, &o, out);
				t0 += now() - ts;
			}
			if (t0 < bw)
				bw = t0;
		}
		printf("%s: per 2,000-byte slice (best of 30): md5 %.2f us, letters %.2f us, "
			   "windows %.2f us (check %zu %d)\n",
			   simd ? (tfp_cpu_avx512() ? "AVX-512 kernels" : "no AVX-512 here, portable") : "portable code  ",
			   bm / SLICES * 1e6, bl / SLICES * 1e6, bw / SLICES * 1e6, tot % 7, d[0] % 2);
	}
	free(out);
	return 0;
}
