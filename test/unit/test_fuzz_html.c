/*
 * test_fuzz_html.c -- the html_text() libFuzzer target (test/fuzz/fuzz_html.c)
 * run without libFuzzer: its corpus and 20,000 deterministic random inputs
 * (test/fuzz/replay.h), which mix HTML fragments into the text.
 */
#define REPLAY_HTML 1
#include "../fuzz/replay.h"
#include "../fuzz/fuzz_html.c"

int
main(void)
{
	return fuzz_replay("html", LLVMFuzzerTestOneInput, 1, 20000, 400);
}
