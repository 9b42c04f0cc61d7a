/*
 * test_fuzz_match.c -- textfp_match()'s libFuzzer target
 * (test/fuzz/fuzz_match.c) run without libFuzzer: its regression corpus and
 * 5,000 deterministic random inputs (test/fuzz/replay.h), one fragment in
 * three a Taiwan or mainland phrase of the wording fold's table.
 */
#define REPLAY_TWFOLD 1
#include "../fuzz/replay.h"
#include "../fuzz/fuzz_match.c"

int
main(void)
{
	return fuzz_replay("match", LLVMFuzzerTestOneInput, 2, 5000, 300);
}
