/*
 * test_fuzz_features.c -- the feature extractor's libFuzzer target
 * (test/fuzz/fuzz_features.c) run without libFuzzer: its regression corpus
 * and 100,000 deterministic random inputs (test/fuzz/replay.h).
 */
#include "../fuzz/replay.h"
#include "../fuzz/fuzz_features.c"

int
main(void)
{
	return fuzz_replay("features", LLVMFuzzerTestOneInput, 3, 100000, 400);
}
