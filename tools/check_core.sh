#!/bin/sh
# check_core.sh CC FILE... -- the line between src/core/ (pure C) and the
# PostgreSQL layer: fails if a file names a PostgreSQL header, or if a .c
# file does not compile (syntax only) with no PostgreSQL include directory
# on the path.  Run by `make` (target core-check) before the library is
# built, and tried on a planted header by test/run-tests.sh.
cc=$1; shift
status=0
pg='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]((postgres|postgres_ext|fmgr|funcapi|miscadmin|pg_config|c)\.h|(access|catalog|commands|common|executor|lib|libpq|mb|nodes|optimizer|parser|port|replication|storage|tcop|utils)/)'
bad=$(grep -lE "$pg" "$@")
if [ -n "$bad" ]; then
    echo "core-check: a file of src/core/ names a PostgreSQL header: $bad" >&2
    status=1
fi
here=$(dirname "$0")/..
for f in "$@"; do
    case $f in *.c) ;; *) continue ;; esac
    "$cc" -std=gnu11 -fsyntax-only -I"$here/src/core" -I"$here/src/core/generated" "$f" ||
        { echo "core-check: $f does not compile without PostgreSQL" >&2; status=1; }
done
exit $status
