/*
 * test_fuzz_twfold.c -- the Taiwan wording fold's libFuzzer target
 * (test/fuzz/fuzz_twfold.c) run without libFuzzer: its regression corpus and
 * 20,000 deterministic random inputs (test/fuzz/replay.h), one fragment in
 * three a Taiwan or mainland phrase of the fold's table.
 */
#define REPLAY_TWFOLD 1
#include "../fuzz/replay.h"
#include "../fuzz/fuzz_twfold.c"

int
main(void)
{
	return fuzz_replay("twfold", LLVMFuzzerTestOneInput, 1, 20000, 400);
}
