/*
 * test_fuzz_pinyin.c -- the pinyin core's libFuzzer target
 * (test/fuzz/fuzz_pinyin.c) run without libFuzzer: its regression corpus and
 * 20,000 deterministic random inputs (test/fuzz/replay.h), some long enough
 * for windows of hundreds of letters.
 */
#include "../fuzz/replay.h"
#include "../fuzz/fuzz_pinyin.c"

int
main(void)
{
	return fuzz_replay("pinyin", LLVMFuzzerTestOneInput, 5, 20000, 3000);
}
