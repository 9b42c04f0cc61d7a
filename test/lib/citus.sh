# shellcheck shell=bash
# Shared by test/bench/citus*.sh: a Citus cluster on this machine, a
# coordinator (the harness's cluster, $TFP_PORT) and two workers
# ($TFP_PORT + 1, + 2) on 127.0.0.1, with Citus 13.2 built by
# ../shared/citus/build.sh into the private server copy (reused from its
# work directory after the first build) and textfp created on all three.
# Source after common.sh; tfp_citus_cluster builds textfp and its private
# installation first.
# CITUS_CONF: more postgresql.conf lines for every node; TEXTFP_CITUS_WORKDIR:
# another work directory for the build.  The nodes stop on exit.
# build.sh's stamp names its own path: the copy test/run-tests.sh keeps at a
# fixed path per OS user (TFP_CITUS_SRC), when it holds the same files, is
# used, so that a build in this user's work directory (one per user: never
# one another user made) is reused from one run to the next
CITUS_SRC=${TFP_CITUS_SRC:-/var/tmp/textfp-citus-src-$(id -un)}
if [ -z "${TEXTFP_CITUS_BUILD:-}" ] && [ -x "$CITUS_SRC/build.sh" ] &&
    cmp -s "$CITUS_SRC/citus-13.2.2.tar.gz" "$TFP_ROOT/../shared/citus/citus-13.2.2.tar.gz" &&
    cmp -s "$CITUS_SRC/pg-minor-compat.patch" "$TFP_ROOT/../shared/citus/pg-minor-compat.patch"; then
    TEXTFP_CITUS_BUILD=$CITUS_SRC/build.sh
fi
CITUS_BUILD=${TEXTFP_CITUS_BUILD:-$TFP_ROOT/../shared/citus/build.sh}
TFP_CITUS_WORKERS=()

tfp_citus_cleanup() {
    local w
    for w in "${TFP_CITUS_WORKERS[@]}"; do
        tfp_as_pg "$TFP_BINDIR/pg_ctl" -D "$w" -m immediate -w stop >/dev/null 2>&1
    done
    tfp_cleanup
}

tfp_citus_cluster() {
    local major start conf i w
    trap tfp_citus_cleanup EXIT
    tfp_install_deps || return 1
    tfp_build || return 1
    tfp_make_tmp || return 1
    tfp_private_install || return 1
    major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
    start=$(date +%s)
    "$CITUS_BUILD" --pg-config "$PG_CONFIG" --destdir "$TFP_INST" \
        --workdir "${TEXTFP_CITUS_WORKDIR:-/tmp/textfp-citus-$major-$(id -un)}" || return 1
    tfp_log "citus ready in $(( $(date +%s) - start )) s"
    conf="shared_preload_libraries = 'citus'
listen_addresses = '127.0.0.1'
max_connections = 200
shared_buffers = 256MB
max_parallel_workers_per_gather = 0
jit = off
${CITUS_CONF:-}"
    TFP_PG_CONF=$conf tfp_start_cluster || return 1
    for i in 1 2; do
        w=$TFP_TMP/worker$i
        mkdir -p "$w" && chmod 700 "$w" && tfp_chown_pg "$w"
        tfp_as_pg "$TFP_BINDIR/initdb" -D "$w" -E UTF8 --locale=C.UTF-8 --no-sync -U "$TFP_DBUSER" -A trust \
            >"$TFP_TMP/log/initdb_w$i.log" 2>&1 || return 1
        printf '%s\nport = %s\nunix_socket_directories = %s\nfsync = off\n' \
            "$conf" $((TFP_PORT + i)) "'$TFP_SOCKDIR'" >>"$w/postgresql.conf"
        tfp_as_pg "$TFP_BINDIR/pg_ctl" -D "$w" -l "$TFP_TMP/log/worker$i.log" -w start >/dev/null 3>&- 4>&- || return 1
        TFP_CITUS_WORKERS+=("$w")
        tfp_psql -p $((TFP_PORT + i)) -c 'CREATE EXTENSION citus' || return 1
    done
    tfp_psql <<SQL
CREATE EXTENSION citus;
SELECT citus_set_coordinator_host('127.0.0.1', $TFP_PORT);
SELECT citus_add_node('127.0.0.1', $((TFP_PORT + 1)));
SELECT citus_add_node('127.0.0.1', $((TFP_PORT + 2)));
CREATE EXTENSION textfp;
SQL
}
