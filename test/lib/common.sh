# shellcheck shell=bash
# Shared functions of the textfp test/demo/bench harness.  Source it from bash:
#
#   . "$(dirname "$0")/../lib/common.sh"
#   tfp_setup_cluster          # deps + build + private install + cluster
#   psql -c 'CREATE EXTENSION textfp'   # PGHOST/PGPORT/PGUSER/PGDATABASE set
#
# Nothing system-wide is modified except Debian packages (installed with
# apt-get, only when running as root and only if missing).  The extension is
# installed into a private copy of the server installation under $TFP_TMP,
# and the throwaway cluster runs from that copy.
#
# Settings (environment):
#   TFP_ROOT            source tree to build/test (default: this repository)
#   TFP_PG_MAJOR        PostgreSQL major version of the Debian packages (default 15,
#                       Debian 12's; 13 on Debian 11, 17 on Debian 13: see test/run-pg.sh)
#   PG_CONFIG           pg_config to use (default:
#                       /usr/lib/postgresql/$TFP_PG_MAJOR/bin/pg_config)
#   TFP_PG_CONF         extra lines appended to postgresql.conf
#   TFP_PORT            port of the cluster (default: first free from 54321)
#   TFP_TMPDIR          parent of the temporary directory (default: /tmp)
#   TEXTFP_KEEP_TMP=1   keep the temporary directory (KEEP_TMP=1 works too)
#   TFP_EXTRA_PACKAGES  more Debian packages to require (space separated)
#   TFP_DRY_RUN_DEPS=1  only print which packages would be installed
#   TFP_MAKE_JOBS       parallel make jobs (default: nproc)
#   TFP_NO_BITCODE=1    build no LLVM bitcode (set by the default test run)
#   COPT, PROFILE       passed to make as usual for PGXS (e.g. COPT=-Werror)

# the copies of source trees (tfp_tar_create, tfp_copy_tree)
# shellcheck source-path=SCRIPTDIR source=roots.sh
. "$(dirname "${BASH_SOURCE[0]}")/roots.sh"

# Debian packages the harness needs.  Scripts may append before calling
# tfp_install_deps, e.g.  TFP_DEB_PACKAGES+=" opencc nodejs"
# (C.UTF-8 is built into Debian 12's libc-bin; no locales package needed.)
TFP_PG_MAJOR=${TFP_PG_MAJOR:-15}
TFP_DEB_PACKAGES="postgresql-$TFP_PG_MAJOR postgresql-server-dev-$TFP_PG_MAJOR libxxhash-dev libipc-run-perl make gcc libc6-dev perl python3"
TFP_DEB_PACKAGES+=" python3-html5lib"   # test/t/110_align_html.pl: HTML5 parser
# Packages only some TAP tests need; test/run-tests.sh adds them when it runs
# TAP tests (and test/run-pg.sh --prepare installs them in its root):
# pg_cron schedules the arrivals check (080_arrivals), chromium renders
# textfp_report's page (090_report_render), and the Citus build of the
# Citus tests (140-142, ../shared/citus/build.sh) needs the last four.
# Chromium on PostgreSQL 15 only (the --full run on 13 and 17 leaves it
# out: the page does not depend on the server's version, and its download
# is most of a root's making), or where TFP_CHROMIUM=1 asks for it; Citus's
# build dependencies on PostgreSQL 15 too, where the Citus tests run (on 16
# and 17, which Citus 13.2 also supports, where TEXTFP_CITUS=1 asks for
# them: test/README.md, Citus).
TFP_TAP_PACKAGES="postgresql-$TFP_PG_MAJOR-cron"
if [ "$TFP_PG_MAJOR" = 15 ] || [ "${TFP_CHROMIUM:-}" = 1 ]; then TFP_TAP_PACKAGES+=" chromium"; fi
if [ "$TFP_PG_MAJOR" = 15 ] || [ "${TEXTFP_CITUS:-}" = 1 ]; then
    TFP_TAP_PACKAGES+=" patch libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev libicu-dev"
fi
# Installed where the release has them; tests that need them skip otherwise
# (sqlsmith: TAP 120_sqlsmith_smoke).
TFP_OPTIONAL_PACKAGES=${TFP_OPTIONAL_PACKAGES-sqlsmith}

TFP_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TFP_ROOT=${TFP_ROOT:-$(cd "$TFP_LIB_DIR/../.." && pwd)}
TFP_ROOT=$(cd "$TFP_ROOT" && pwd)
TFP_PG_OSUSER=${TFP_PG_OSUSER:-postgres}   # OS user running the server as root
TFP_DBUSER=postgres                        # database superuser name
TFP_TMP=${TFP_TMP:-}
TFP_CLUSTER_STARTED=
TFP_CLEANED=

# each step says when it began (wall clock, and seconds since the harness started)
tfp_log()  { printf '== %s  [%s +%ss]\n' "$*" "$(date +%T)" "$SECONDS"; }
tfp_warn() { printf 'WARNING: %s\n' "$*" >&2; }
tfp_err()  { printf 'ERROR: %s\n' "$*" >&2; }
tfp_is_root() { [ "$(id -u)" = 0 ]; }

# Print a file (or its last N lines) with a header, for CI logs.
tfp_show() { # file [max_lines]
    [ -s "$1" ] || return 0
    local n=${2:-300} total
    total=$(wc -l < "$1")
    printf -- '---- %s' "$1"
    if [ "$total" -gt "$n" ]; then printf ' (last %s of %s lines)' "$n" "$total"; fi
    printf ' ----\n'
    tail -n "$n" "$1"
    printf -- '---- end of %s ----\n' "$1"
}

# ---------------------------------------------------------------- packages

# Echo the Debian packages of $TFP_DEB_PACKAGES (+ $TFP_EXTRA_PACKAGES) that
# are not installed.  Echo nothing if dpkg-query is absent (not Debian).
tfp_missing_packages() {
    command -v dpkg-query >/dev/null 2>&1 || return 0
    local p missing=()
    # shellcheck disable=SC2086
    for p in $TFP_DEB_PACKAGES ${TFP_EXTRA_PACKAGES:-}; do
        if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
            missing+=("$p")
        fi
    done
    echo "${missing[*]}"
}

# Resolve PG_CONFIG: env, else Debian's versioned one, else pg_config on PATH.
tfp_resolve_pg_config() {
    if [ -z "${PG_CONFIG:-}" ]; then
        if [ -x "/usr/lib/postgresql/$TFP_PG_MAJOR/bin/pg_config" ]; then
            PG_CONFIG=/usr/lib/postgresql/$TFP_PG_MAJOR/bin/pg_config
        else
            PG_CONFIG=$(command -v pg_config || true)
        fi
    fi
    export PG_CONFIG
    [ -n "$PG_CONFIG" ] && [ -x "$PG_CONFIG" ]
}

# Check that the tools exist; print what is missing.  Returns 1 if any.
tfp_check_tools() {
    local miss=() c bindir pkglibdir
    for c in make perl; do command -v "$c" >/dev/null 2>&1 || miss+=("$c"); done
    command -v "${CC:-gcc}" >/dev/null 2>&1 || command -v cc >/dev/null 2>&1 || miss+=("C compiler (gcc)")
    if tfp_resolve_pg_config; then
        bindir=$("$PG_CONFIG" --bindir); pkglibdir=$("$PG_CONFIG" --pkglibdir)
        for c in postgres initdb pg_ctl psql; do
            [ -x "$bindir/$c" ] || miss+=("$bindir/$c (postgresql-$TFP_PG_MAJOR)")
        done
        [ -f "$("$PG_CONFIG" --pgxs)" ] || miss+=("PGXS (postgresql-server-dev-$TFP_PG_MAJOR)")
        [ -x "$pkglibdir/pgxs/src/test/regress/pg_regress" ] || miss+=("pg_regress (postgresql-server-dev-$TFP_PG_MAJOR)")
    else
        miss+=("pg_config (postgresql-server-dev-$TFP_PG_MAJOR)")
    fi
    printf '#include <xxhash.h>\n' | "${CC:-gcc}" -E -x c - >/dev/null 2>&1 || miss+=("xxhash.h (libxxhash-dev)")
    if compgen -G "$TFP_ROOT/test/t/*.pl" >/dev/null && [ -z "${TEXTFP_SKIP_TAP:-}" ]; then
        command -v prove >/dev/null 2>&1 || miss+=("prove (perl)")
        perl -MIPC::Run -e 1 >/dev/null 2>&1 || miss+=("IPC::Run (libipc-run-perl)")
    fi
    if [ ${#miss[@]} -gt 0 ]; then
        tfp_err "missing: ${miss[*]}"
        return 1
    fi
}

# As root: apt-get install whatever is missing.  Otherwise: report.
tfp_install_deps() {
    local missing
    missing=$(tfp_missing_packages)
    if [ -n "$missing" ]; then
        if [ -n "${TFP_DRY_RUN_DEPS:-}" ]; then
            tfp_log "dry run: would run: apt-get update && apt-get install $missing"
        elif tfp_is_root; then
            tfp_log "installing Debian packages: $missing"
            local log=${TFP_TMP:-/tmp}/apt-get.$$.log
            # shellcheck disable=SC2086
            if ! { DEBIAN_FRONTEND=noninteractive apt-get -q update &&
                   DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends \
                       install $missing; } </dev/null >"$log" 2>&1 3>&- 4>&-; then
                tfp_show "$log" 100
                rm -f "$log"
                tfp_err "apt-get install failed"
                return 1
            fi
            rm -f "$log"
        else
            tfp_warn "Debian packages not installed: $missing"
            tfp_warn "install them with:  sudo apt-get install $missing"
        fi
    fi
    tfp_install_optional
    tfp_check_tools || {
        tfp_is_root || tfp_err "(not root: nothing was installed; run as root or install the packages above)"
        return 1
    }
    if tfp_is_root && ! id -u "$TFP_PG_OSUSER" >/dev/null 2>&1; then
        tfp_err "running as root but OS user '$TFP_PG_OSUSER' does not exist (set TFP_PG_OSUSER)"
        return 1
    fi
}

# As root: apt-get install what is missing of $TFP_OPTIONAL_PACKAGES, one by
# one; one that cannot be installed is only reported.
tfp_install_optional() {
    local p missing
    missing=$(TFP_DEB_PACKAGES=$TFP_OPTIONAL_PACKAGES TFP_EXTRA_PACKAGES='' tfp_missing_packages)
    [ -n "$missing" ] && tfp_is_root && [ -z "${TFP_DRY_RUN_DEPS:-}" ] || return 0
    local updated=
    for p in $missing; do
        until DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends install "$p" \
                </dev/null >/dev/null 2>&1 3>&- 4>&-; do
            # the package lists may be missing or old: update them once
            if [ -z "$updated" ]; then
                updated=1
                DEBIAN_FRONTEND=noninteractive apt-get -q update </dev/null >/dev/null 2>&1 3>&- 4>&- && continue
            fi
            tfp_warn "optional package $p could not be installed (tests that need it are skipped)"
            break
        done
    done
}

# ---------------------------------------------------------------- build

# TFP_NO_BITCODE=1: no LLVM bitcode (the JIT's inlining copies of the code:
# about a third of the compile time); the fast default test run sets it.
tfp_make() { make -C "$TFP_ROOT" -j"${TFP_MAKE_JOBS:-$(nproc 2>/dev/null || echo 2)}" \
                  PG_CONFIG="$PG_CONFIG" ${TFP_NO_BITCODE:+with_llvm=no} "$@"; }

# Extension name: $TFP_EXTENSION or the name of the one *.control file.
tfp_extension() {
    if [ -z "${TFP_EXTENSION:-}" ]; then
        local f
        f=$(cd "$TFP_ROOT" && ls ./*.control 2>/dev/null | head -n 1)
        f=${f##*/}; TFP_EXTENSION=${f%.control}
    fi
    echo "$TFP_EXTENSION"
}

tfp_build() {
    tfp_log "build ($PG_CONFIG)"
    tfp_make -s
}

# ---------------------------------------------------------------- temp dir

tfp_make_tmp() {
    [ -n "$TFP_TMP" ] && [ -d "$TFP_TMP" ] && return 0
    TFP_TMP=$(mktemp -d "${TFP_TMPDIR:-/tmp}/textfp-test.XXXXXX") || return 1
    chmod 755 "$TFP_TMP"     # the server's OS user must traverse it
    mkdir -p "$TFP_TMP/log"
    export TFP_TMP
}

# Run a command as the server's OS user (when root), from inside $TFP_TMP so
# that an unreadable cwd (e.g. /root/...) does not matter.
tfp_as_pg() {
    if tfp_is_root; then
        (cd "$TFP_TMP" && runuser -u "$TFP_PG_OSUSER" -- "$@")
    else
        "$@"
    fi
}
tfp_chown_pg() { if tfp_is_root; then chown -R "$TFP_PG_OSUSER:" "$@"; fi; }

# ---------------------------------------------------------------- install

# Copy the server installation (bindir, pkglibdir, sharedir, keeping their
# absolute layout) to $TFP_TMP/inst and install the extension there with
# DESTDIR.  PostgreSQL locates sharedir/pkglibdir relative to its binary, so
# the copied binaries use the copied directories.  Sets TFP_INST, TFP_BINDIR.
tfp_private_install() {
    local real_bindir real_pkglibdir real_sharedir d rel_ok=1
    real_bindir=$("$PG_CONFIG" --bindir)
    real_pkglibdir=$("$PG_CONFIG" --pkglibdir)
    real_sharedir=$("$PG_CONFIG" --sharedir)
    TFP_INST=$TFP_TMP/inst
    tfp_log "private install into $TFP_INST"
    for d in "$real_bindir" "$real_pkglibdir" "$real_sharedir"; do
        [ -e "$TFP_INST$d" ] && continue
        mkdir -p "$TFP_INST$(dirname "$d")"
        cp -a "$d" "$TFP_INST$d" || return 1
    done
    [ "$("$TFP_INST$real_bindir/pg_config" --sharedir)" = "$TFP_INST$real_sharedir" ] || rel_ok=
    [ "$("$TFP_INST$real_bindir/pg_config" --pkglibdir)" = "$TFP_INST$real_pkglibdir" ] || rel_ok=
    if [ -n "$rel_ok" ]; then
        TFP_BINDIR=$TFP_INST$real_bindir
        tfp_make -s install DESTDIR="$TFP_INST" >"$TFP_TMP/log/install.log" 2>&1 ||
            { tfp_show "$TFP_TMP/log/install.log"; return 1; }
    elif tfp_is_root; then
        tfp_warn "this PostgreSQL build is not relocatable: installing $(tfp_extension) SYSTEM-WIDE"
        TFP_INST=
        TFP_BINDIR=$real_bindir
        tfp_make -s install >"$TFP_TMP/log/install.log" 2>&1 ||
            { tfp_show "$TFP_TMP/log/install.log"; return 1; }
    else
        tfp_err "this PostgreSQL build is not relocatable; run as root (installs system-wide)"
        return 1
    fi
    TFP_PG_REGRESS=$real_pkglibdir/pgxs/src/test/regress/pg_regress
    export TFP_INST TFP_BINDIR TFP_PG_REGRESS
    tfp_wrap_server
}

# TFP_SERVER_WRAPPER (test/harden/: sanitizers, valgrind): a script run in
# place of the private copy's server binary, which becomes bin/postgres.real
# (the script execs it).  Never done to a system-wide installation.
tfp_wrap_server() {
    [ -n "${TFP_SERVER_WRAPPER:-}" ] || return 0
    [ -n "${TFP_INST:-}" ] || { tfp_err "TFP_SERVER_WRAPPER needs a private install"; return 1; }
    local bin=$TFP_BINDIR/postgres
    [ -e "$bin.real" ] || mv "$bin" "$bin.real" || return 1
    install -m 755 "$TFP_SERVER_WRAPPER" "$bin" || return 1
    tfp_log "server binary wrapped by $TFP_SERVER_WRAPPER"
}

# ---------------------------------------------------------------- cluster

tfp_port_free() {
    local p=$1 d
    for d in /tmp /var/run/postgresql /run/postgresql; do
        [ -e "$d/.s.PGSQL.$p" ] && return 1
    done
    # something listening on TCP?  (connect succeeds => busy)
    if timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$p" 2>/dev/null; then return 1; fi
    return 0
}

tfp_free_port() {
    local p=${TFP_PORT_BASE:-54321}
    while [ "$p" -lt $(( ${TFP_PORT_BASE:-54321} + 200 )) ]; do
        if tfp_port_free "$p"; then echo "$p"; return 0; fi
        p=$((p + 1))
    done
    return 1
}

# initdb + start.  Exports PGHOST PGPORT PGUSER PGDATABASE.
# TFP_CLUSTER_NAME (default empty) names a further cluster of the same
# install: its data, socket dir and logs get the name as a suffix.
tfp_start_cluster() {
    local n=${TFP_CLUSTER_NAME:-}
    TFP_PGDATA=$TFP_TMP/data$n
    TFP_SOCKDIR=$TFP_TMP/sock$n
    mkdir -p "$TFP_PGDATA" "$TFP_SOCKDIR" "$TFP_TMP/log"
    chmod 700 "$TFP_PGDATA"
    tfp_chown_pg "$TFP_PGDATA" "$TFP_SOCKDIR" "$TFP_TMP/log"
    TFP_PORT=${TFP_PORT:-$(tfp_free_port)} || { tfp_err "no free port"; return 1; }
    tfp_log "cluster: initdb + start (port $TFP_PORT, socket dir $TFP_SOCKDIR)"
    if ! tfp_as_pg "$TFP_BINDIR/initdb" -D "$TFP_PGDATA" -E UTF8 --locale=C.UTF-8 \
            --no-sync -U "$TFP_DBUSER" -A trust >"$TFP_TMP/log/initdb$n.log" 2>&1; then
        tfp_show "$TFP_TMP/log/initdb$n.log"; tfp_err "initdb failed"; return 1
    fi
    cat >>"$TFP_PGDATA/postgresql.conf" <<EOF

# --- textfp test harness ---
listen_addresses = ''
port = $TFP_PORT
unix_socket_directories = '$TFP_SOCKDIR'
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 256MB
max_connections = 40
max_worker_processes = 16
max_parallel_workers = 16
log_min_messages = warning
log_checkpoints = off
log_line_prefix = '%m [%p] %q%u@%d '
${TFP_PG_CONF:-}
EOF
    # fds 3 and 4 closed: the postmaster must not hold the caller's output open
    if ! tfp_as_pg "$TFP_BINDIR/pg_ctl" -D "$TFP_PGDATA" -l "$TFP_TMP/log/postgres$n.log" \
            -w -t 120 start >"$TFP_TMP/log/pg_ctl$n.log" 2>&1 3>&- 4>&-; then
        tfp_show "$TFP_TMP/log/pg_ctl$n.log"; tfp_show "$TFP_TMP/log/postgres$n.log" 100
        tfp_err "could not start the cluster"; return 1
    fi
    TFP_CLUSTER_STARTED=1
    export PGHOST=$TFP_SOCKDIR PGPORT=$TFP_PORT PGUSER=$TFP_DBUSER PGDATABASE=postgres
    export TFP_PGDATA TFP_SOCKDIR TFP_PORT
    unset PGSERVICE PGPASSWORD PGHOSTADDR PGOPTIONS PGCLIENTENCODING
}

tfp_psql() { "$TFP_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

# Check that the running server uses the private tree: its SHAREDIR, that
# the extension is available, and that its .so maps from the private pkglibdir.
tfp_verify_install() {
    local ext sharedir avail module maps
    ext=$(tfp_extension)
    sharedir=$(tfp_psql -At -d postgres -c "SELECT setting FROM pg_config WHERE name = 'SHAREDIR'") || return 1
    if [ -n "${TFP_INST:-}" ] && [[ $sharedir != "$TFP_INST"/* ]]; then
        tfp_err "server SHAREDIR is $sharedir, not inside the private install $TFP_INST"
        return 1
    fi
    avail=$(tfp_psql -At -d postgres -c "SELECT count(*) FROM pg_available_extensions WHERE name = '$ext'")
    [ "$avail" = 1 ] || { tfp_err "extension $ext not available to the server (sharedir $sharedir)"; return 1; }
    module=$(sed -n "s/^[[:space:]]*module_pathname[[:space:]]*=[[:space:]]*'\(.*\)'.*/\1/p" \
                 "$TFP_ROOT/$ext.control" 2>/dev/null)
    [ -n "$module" ] || return 0
    # LOAD the module, then look where the backend mapped it from (Linux).
    maps=$(tfp_psql -At -d postgres -c "LOAD '$module'" \
               -c "SELECT pg_read_file('/proc/self/maps')" 2>&1) || {
        tfp_warn "could not LOAD '$module': $maps"; return 0; }
    maps=$(printf '%s\n' "$maps" | grep -o "/[^ ]*/${module##*/}\.so" | sort -u)
    if [ -n "${TFP_INST:-}" ] && [ -n "$maps" ] && [[ $maps != "$TFP_INST"/* ]]; then
        tfp_err "server loaded $maps, not the private copy"; return 1
    fi
    tfp_log "verified: sharedir $sharedir; ${maps:-$module} loads"
}

tfp_stop_cluster() {
    [ -n "$TFP_CLUSTER_STARTED" ] || return 0
    TFP_CLUSTER_STARTED=
    if ! tfp_as_pg "$TFP_BINDIR/pg_ctl" -D "$TFP_PGDATA" -m immediate -w stop >/dev/null 2>&1; then
        local pid
        pid=$(head -n 1 "$TFP_PGDATA/postmaster.pid" 2>/dev/null || true)
        [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
    fi
    return 0
}

# Copy logs to $TFP_ROOT/tmp_check/log (git-ignored) so they survive cleanup.
tfp_save_logs() {
    [ -n "$TFP_TMP" ] && [ -d "$TFP_TMP/log" ] || return 0
    local dest=${TFP_LOG_DIR:-$TFP_ROOT/tmp_check/log}
    mkdir -p "$dest" 2>/dev/null && [ -w "$dest" ] || return 0
    cp -r "$TFP_TMP/log/." "$dest/" 2>/dev/null || true
}

# Stop the cluster, save logs, remove the temp dir (unless TEXTFP_KEEP_TMP).
tfp_cleanup() {
    [ -n "$TFP_CLEANED" ] && return 0
    TFP_CLEANED=1
    tfp_stop_cluster
    # further clusters (TFP_CLUSTER_NAME) left running by an interrupted run
    local d
    for d in "${TFP_TMP:-/nonexistent}"/data?*; do
        [ -f "$d/postmaster.pid" ] || continue
        tfp_as_pg "$TFP_BINDIR/pg_ctl" -D "$d" -m immediate -w stop >/dev/null 2>&1 ||
            kill -9 "$(head -n 1 "$d/postmaster.pid")" 2>/dev/null
    done
    tfp_save_logs
    [ -n "$TFP_TMP" ] && [ -d "$TFP_TMP" ] || return 0
    if [ -n "${TEXTFP_KEEP_TMP:-}${TFP_KEEP_TMP:-}${KEEP_TMP:-}" ]; then
        echo "kept temporary directory: $TFP_TMP"
    else
        rm -rf "$TFP_TMP"
    fi
}

# Everything a script needs to talk to a throwaway server with the extension
# built from $TFP_ROOT installed: deps, build, private install, cluster,
# verification, and an EXIT trap that cleans up.  Callers that want their own
# EXIT trap must call tfp_cleanup from it.
tfp_setup_cluster() {
    trap tfp_cleanup EXIT
    trap 'exit 130' INT TERM
    tfp_install_deps || return 1
    tfp_build || { tfp_err "build failed"; return 1; }
    tfp_make_tmp || return 1
    tfp_private_install || return 1
    tfp_start_cluster || return 1
    tfp_verify_install || return 1
    export PATH="$TFP_BINDIR:$PATH"
}

# ---------------------------------------------------------------- benchmarks

# A benchmark's cluster: tfp_setup_cluster with the settings every benchmark
# shares (large WAL, no checkpoints mid-run, no parallel workers, no JIT) and
# the caller's memory settings (postgresql.conf lines), textfp created in
# database postgres, and the machine named in the log.
tfp_bench_cluster() { # "setting = value" lines
    TFP_PG_CONF="$1
max_wal_size = 8GB
checkpoint_timeout = 30min
max_parallel_workers_per_gather = 0
jit = off" tfp_setup_cluster || return 1
    tfp_psql -d postgres -c 'CREATE EXTENSION textfp' || return 1
    echo "== machine: $(nproc) cores (shared with other jobs), $(uname -m); PostgreSQL $(tfp_psql -Atc 'SHOW server_version')"
}

# Table p<N> of a labelled set of pairs (tools/make_match_set*.py: pair_id
# split kind lang label book a b, the columns after b ignored).
tfp_load_pair_set() { # N SET.tsv
    mkdir -p "$TFP_TMP/f"; cut -f1-8 "$2" > "$TFP_TMP/f/set$1.tsv"; tfp_chown_pg "$TFP_TMP/f"
    tfp_psql -c "CREATE TABLE p$1 (pair_id int PRIMARY KEY, split text, kind text, lang text, label text, book text, a text, b text)" \
             -c "\\copy p$1 FROM '$TFP_TMP/f/set$1.tsv'"
}

# SQL in a new session under psql's \timing: prints "ms|output", ms the sum
# of every statement's time (sum) or the last statement's (last: the ones
# before it set up).
tfp_timed() { # sum|last sql
    local mode=$1
    tfp_psql -d postgres -At <<SQL | awk -v mode="$mode" '/^Time:/ { ms = (mode == "sum" ? ms + $2 : $2); next } { out = out (out == "" ? "" : " ") $0 } END { printf "%s|%s\n", ms, out }'
\timing on
$2
SQL
}
