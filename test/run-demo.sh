#!/usr/bin/env bash
# Build textfp, start a throwaway cluster with it installed privately, and run
# test/demo/demo.sql in a fresh database textfp_demo (psql runs from the
# repository root, with -v datadir=<absolute path of test/data>).
# Env: TEXTFP_KEEP_TMP=1 and the settings listed in test/lib/common.sh.
set -uo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

demo=$TFP_ROOT/test/demo/demo.sql
[ -f "$demo" ] || { tfp_err "no $demo"; exit 1; }
tfp_setup_cluster || exit 1
tfp_psql -d postgres -c 'CREATE DATABASE textfp_demo' || exit 1
tfp_log "running test/demo/demo.sql"
cd "$TFP_ROOT" || exit 1
tfp_psql -d textfp_demo -v datadir="$TFP_ROOT/test/data" -f test/demo/demo.sql
rc=$?
[ "$rc" -eq 0 ] || tfp_err "demo failed (psql status $rc)"
exit "$rc"
