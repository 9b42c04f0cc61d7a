#!/usr/bin/env bash
# For tools/explore_match3.py: the share of the shorter text of every pair
# of labelled sets (by bytes of its lines) in lines that occur nowhere in the
# other text, wherever they lie: 0 when every line of the shorter text is in
# the other (a copy reordered or cut, or a page of nothing but a shared
# template), 1 when none is.  Pages (a text starting with "<") are read
# through html_text() first; lines are trimmed, empty ones dropped.  A
# prototype of an order-free input for a model 3 (issue 34), computed in
# SQL, not a function of the extension.
#
#   test/bench/match_lines_shared.sh SET.tsv OUT.tsv [SET.tsv OUT.tsv ...]
#
# SET.tsv: pairs as tools/make_match_set*.py write them; OUT.tsv: pair_id, d.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
[ $# -ge 2 ] && [ $(($# % 2)) = 0 ] || { echo "usage: $0 SET.tsv OUT.tsv [...]" >&2; exit 2; }
tfp_setup_cluster
tfp_psql -c 'CREATE EXTENSION textfp'
tfp_psql <<'SQL'
CREATE FUNCTION lines_of(t text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(btrim(x)), '{}')
  FROM unnest(string_to_array(CASE WHEN t ~ '^\s*<' THEN html_text(t) ELSE t END, E'\n')) x
  WHERE btrim(x) <> '' $$;
CREATE FUNCTION lines_differ(a text, b text) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$
  WITH l AS (SELECT lines_of(a) la, lines_of(b) lb),
  s AS (SELECT CASE WHEN octet_length(array_to_string(la, '')) <= octet_length(array_to_string(lb, ''))
                    THEN la ELSE lb END AS s,
               CASE WHEN octet_length(array_to_string(la, '')) <= octet_length(array_to_string(lb, ''))
                    THEN lb ELSE la END AS o FROM l)
  SELECT coalesce(coalesce(sum(octet_length(x)) FILTER (WHERE NOT (x = ANY (o))), 0)::float8
                  / nullif(sum(octet_length(x)), 0), 1)
  FROM s, unnest(s.s) x $$;
SQL
n=0
while [ $# -ge 2 ]; do
    n=$((n + 1))
    set_in=$(readlink -f "$1"); out=$(readlink -f "$2"); shift 2
    tfp_log "lines shared of $set_in"
    tfp_load_pair_set "$n" "$set_in"
    tfp_psql -c "\\copy (SELECT pair_id, lines_differ(a, b) FROM p$n ORDER BY pair_id) TO '$out'"
done
