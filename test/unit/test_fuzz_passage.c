/*
 * test_fuzz_passage.c -- the passage fingerprint's libFuzzer target
 * (test/fuzz/fuzz_passage.c) run without libFuzzer: its regression corpus
 * and 20,000 deterministic random inputs (test/fuzz/replay.h), up to about
 * 6 KB, so that texts span several batches of units and long runs of one
 * kind reach the kernels.
 */
#include "../fuzz/replay.h"
#include "../fuzz/fuzz_passage.c"

int
main(void)
{
	return fuzz_replay("passage", LLVMFuzzerTestOneInput, 2, 20000, 400);
}
