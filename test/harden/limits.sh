#!/usr/bin/env bash
# Limits at full size: TAP test/t/130_limits.pl with TEXTFP_LIMITS=full
# (CI runs it small): a text of 1,000,000,000 bytes through every text
# function (a right answer or a clear error, and the backend's peak memory),
# 1,000,000 identical fingerprints in one index of every class, arrays of a
# million entries, k = 4096, and statement_timeout mid-flight in every index
# scan, batch function and text function.  Needs about 10 GB of free memory
# for the 1 GB text (the text itself, its UTF-8 copy and a function's
# working arrays).
#
# Usage: test/harden/limits.sh   (as root).  Results in docs/hardening.md.
set -uo pipefail
export TEXTFP_LIMITS=full
exec "$(dirname "$0")/../run-tests.sh" test/t/130_limits.pl
