/*
 * test_fuzz_align.c -- the passage alignment's libFuzzer target
 * (test/fuzz/fuzz_align.c) run without libFuzzer: its regression corpus
 * and 10,000 deterministic random inputs (test/fuzz/replay.h).
 */
#include "../fuzz/replay.h"
#include "../fuzz/fuzz_align.c"

int
main(void)
{
	return fuzz_replay("align", LLVMFuzzerTestOneInput, 6, 10000, 400);
}
