#!/usr/bin/env bash
# The release discipline (make release-check; test/run-tests.sh runs it):
#   1. one version everywhere: textfp.control's default_version, the
#      Makefile's EXTVERSION, META.json (X.Y.0, also under provides),
#      debian/changelog's first entry (X.Y.0) and CHANGELOG.md's first
#      heading (X.Y);
#   2. every release CHANGELOG.md lists (a heading "## X.Y — date") has its
#      install script frozen in upgrade/, and an update script leads to it
#      from the release before;
#   3. if the version in the Makefile is released, the fragments of
#      src/sql/ still make exactly its frozen install and update scripts: a
#      change of SQL objects after a release is a new version.
# Prints "ok - ..." / "not ok - ..." lines; exit status 1 if any failed.
# Run from the source tree, after make has built the scripts.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
fail=0
check() { # description, then the command
    local d=$1; shift
    if "$@"; then echo "ok - release: $d"; else echo "not ok - release: $d"; fail=1; fi
}

control=$(sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" textfp.control)
make_v=$(sed -n 's/^EXTVERSION *= *\([^ ]*\).*/\1/p' Makefile)
prev_v=$(sed -n 's/^PREVVERSION *= *\([^ ]*\).*/\1/p' Makefile)
meta_v=$(python3 -c 'import json,sys; m=json.load(open("META.json")); print(m["version"], m["provides"]["textfp"]["version"], m["provides"]["textfp"]["file"])')
deb_v=$(sed -n '1s/^textfp (\([^)-]*\).*/\1/p' debian/changelog)
log_v=$(sed -n 's/^## \([0-9][0-9.]*\) .*/\1/p' CHANGELOG.md | head -n 1)
check "textfp.control ($control) and the Makefile ($make_v) agree" [ -n "$control" -a "$control" = "$make_v" ]
check "META.json ($meta_v) is $control.0 and names textfp--$control.sql" \
    [ "$meta_v" = "$control.0 $control.0 textfp--$control.sql" ]
check "debian/changelog ($deb_v) is $control.0" [ "$deb_v" = "$control.0" ]
check "CHANGELOG.md's newest entry ($log_v) is $control" [ "$log_v" = "$control" ]

# releases, oldest first; "## X.Y — unreleased" is the version in development
mapfile -t released < <(sed -n 's/^## \([0-9][0-9.]*\) — \(frozen \)\{0,1\}[0-9]\{4\}-.*/\1/p' CHANGELOG.md | tac)
check "CHANGELOG.md lists releases (${released[*]})" [ ${#released[@]} -gt 0 ]
before=''
for v in "${released[@]}"; do
    check "release $v: its install script is frozen in upgrade/" [ -s "upgrade/textfp--$v.sql" ]
    if [ -n "$before" ]; then
        check "release $v: an update script from $before is frozen in upgrade/" [ -s "upgrade/textfp--$before--$v.sql" ]
    fi
    before=$v
done
is_released=''
for v in "${released[@]}"; do [ "$v" = "$make_v" ] && is_released=1; done
if [ -n "$is_released" ]; then
    check "$make_v is released: the fragments make exactly its frozen install script (a change of SQL objects needs a new version)" \
        cmp -s "textfp--$make_v.sql" "upgrade/textfp--$make_v.sql"
    check "$make_v is released: the update from $prev_v is exactly its frozen one" \
        cmp -s "textfp--$prev_v--$make_v.sql" "upgrade/textfp--$prev_v--$make_v.sql"
else
    check "$make_v is in development: the release before it ($prev_v) is the newest released" \
        [ "$prev_v" = "${released[-1]}" ]
fi
exit "$fail"
