# Shared pieces of the hamming index's TAP tests (030, 032, 033): the table
# hc of random fingerprints with planted near-duplicates, many identical
# values and NULLs; a SQL function cmp(n) that compares the index's radius and top-10 answers with a
# sequential scan's over n queries, and a pgbench script that does the same
# in one REPEATABLE READ snapshot (a mismatch divides by zero, which fails
# the transaction and pgbench).
package HammingTap;
use strict;
use warnings;
use Exporter 'import';
our @EXPORT = qw(ham_table_sql ham_cmp_sql ham_write_check);

# CREATE TABLE hc (id serial, fp simhash64): $rows random fingerprints
# (setseed($seed)), a near-duplicate (one bit flipped) of each of the first
# $near rows, $same copies of one value and $nulls NULLs
sub ham_table_sql
{
	my ($rows, $seed, $near, $same, $nulls) = @_;
	return qq{
CREATE TABLE hc (id serial PRIMARY KEY, fp simhash64);
SELECT setseed($seed);
INSERT INTO hc (fp) SELECT (((random() * 4294967296)::bigint << 32)
                            # (random() * 4294967296)::bigint)::simhash64
  FROM generate_series(1, $rows);
INSERT INTO hc (fp) SELECT (fp::bigint # (1::bigint << (id % 64)))::simhash64 FROM hc WHERE id <= $near;
INSERT INTO hc (fp) SELECT '0f0f0f0f0f0f0f0f' FROM generate_series(1, $same);
INSERT INTO hc (fp) SELECT NULL FROM generate_series(1, $nulls);
};
}

# CREATE FUNCTION cmp(n): queries are keys of rows 1..$rows of table hc
sub ham_cmp_sql
{
	my ($rows) = @_;
	return qq{
CREATE FUNCTION cmp(n int) RETURNS int LANGUAGE plpgsql AS \$\$
DECLARE r record; a text; b text; bad int := 0;
BEGIN
  FOR r IN SELECT h.fp AS q, g % 9 AS k FROM generate_series(1, n) g JOIN hc h ON h.id = 1 + (g * 97) % $rows LOOP
    SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;
    EXECUTE 'SELECT array_agg(id ORDER BY id) FROM hc WHERE simhash_dist(fp, \$1) <= \$2' INTO a USING r.q, r.k;
    RESET enable_seqscan; SET LOCAL enable_indexscan = off;
    EXECUTE 'SELECT array_agg(id ORDER BY id) FROM hc WHERE simhash_dist(fp, \$1) <= \$2' INTO b USING r.q, r.k;
    RESET enable_indexscan; RESET enable_bitmapscan;
    IF a IS DISTINCT FROM b THEN bad := bad + 1; END IF;
    SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off;
    EXECUTE 'SELECT array_agg(d) FROM (SELECT fp <-> \$1 AS d FROM hc ORDER BY fp <-> \$1 LIMIT 10) s' INTO a USING r.q;
    RESET enable_seqscan; RESET enable_sort; SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off;
    EXECUTE 'SELECT array_agg(d) FROM (SELECT fp <-> \$1 AS d FROM hc ORDER BY fp <-> \$1 LIMIT 10) s' INTO b USING r.q;
    RESET enable_indexscan; RESET enable_bitmapscan;
    IF a IS DISTINCT FROM b THEN bad := bad + 1; END IF;
  END LOOP;
  RETURN bad;
END \$\$;
};
}

# the pgbench checker: a radius search and the top $limit of a key of rows 1..$rows
sub ham_write_check
{
	my ($file, $rows, $limit) = @_;
	open(my $fh, '>', $file) or die "$file: $!";
	print $fh qq{\\set id random(1, $rows)
\\set k random(0, 8)
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT coalesce((SELECT fp::bigint FROM hc WHERE id = :id), 12345) AS q \\gset
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
SET LOCAL enable_sort = off;
SELECT coalesce(array_agg(id ORDER BY id), '{}')::text AS a FROM hc WHERE simhash_dist(fp, (:q)::bigint::simhash64) <= :k \\gset
SELECT array_agg(d)::text AS n FROM (SELECT fp <-> (:q)::bigint::simhash64 AS d FROM hc ORDER BY fp <-> (:q)::bigint::simhash64 LIMIT $limit) s \\gset
SET LOCAL enable_seqscan = on;
SET LOCAL enable_indexscan = off;
SET LOCAL enable_sort = on;
SELECT 1 / (coalesce(array_agg(id ORDER BY id), '{}')::text = ':a')::int AS same
  FROM hc WHERE simhash_dist(fp, (:q)::bigint::simhash64) <= :k;
SELECT 1 / (array_agg(d)::text = ':n')::int AS same
  FROM (SELECT fp <-> (:q)::bigint::simhash64 AS d FROM hc ORDER BY fp <-> (:q)::bigint::simhash64 LIMIT $limit) s;
COMMIT;
};
	close $fh;
}

1;
