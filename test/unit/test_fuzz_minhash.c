/*
 * test_fuzz_minhash.c -- the MinHash and sorted-set libFuzzer target
 * (test/fuzz/fuzz_minhash.c) run without libFuzzer: its corpus and 10,000
 * deterministic random inputs (test/fuzz/replay.h).
 */
#include "../fuzz/replay.h"
#include "../fuzz/fuzz_minhash.c"

int
main(void)
{
	return fuzz_replay("minhash", LLVMFuzzerTestOneInput, 5, 10000, 400);
}
