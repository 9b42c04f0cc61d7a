--
-- Soft input errors (PostgreSQL 16 and later): pg_input_is_valid() and
-- pg_input_error_info() test literals of every textfp type that has text
-- input without raising an error, and report the error a cast would raise.
-- Before 16 those functions do not exist, and the test says so instead
-- (two expected files: textfp_soft_errors.out for 16+, _1.out for 13-15).
--
SELECT current_setting('server_version_num')::int >= 160000 AS soft \gset
\if :soft
SELECT t, v, pg_input_is_valid(v, t) AS valid
FROM (VALUES ('simhash64', '0123456789abcdef'), ('simhash64', '0123456789ABCDEF'),
             ('simhash64', 'xyz'), ('simhash64', '0123456789abcde'),
             ('simhash64', '0123456789abcdef0'), ('simhash64', '01234567 9abcdef'),
             ('simhash64', ''),
             ('simhash64_ball', '0123456789abcdef/3'), ('simhash64_ball', '0123456789abcdef/-1'),
             ('simhash64_ball', '0123456789abcdef/65'), ('simhash64_ball', '0123456789abcdef'),
             ('simhash64_ball', 'zz/3'),
             ('minhash', 'v1 k=8 ngram=5 shingle=3 fold=7 0c0e5de8050883ab86a4aeea3c895a5e020254974e76d3a20adaf317613f75d7'),
             ('minhash', 'v1 k=8 ngram=5 shingle=3 fold=7 0c0e'),
             ('minhash', 'v2 k=8 ngram=5 shingle=3 fold=7 0c0e5de8050883ab86a4aeea3c895a5e020254974e76d3a20adaf317613f75d7'),
             ('minhash', 'v1 k=0 ngram=5 shingle=3 fold=7 '),
             ('minhash', 'hello')) x(t, v);
SELECT 'simhash64' AS t, * FROM pg_input_error_info('xyz', 'simhash64')
UNION ALL
SELECT 'simhash64_ball', * FROM pg_input_error_info('0123456789abcdef/65', 'simhash64_ball')
UNION ALL
SELECT 'minhash', * FROM pg_input_error_info('v1 k=8 ngram=5 shingle=3 fold=7 0c0e', 'minhash')
UNION ALL
SELECT 'minhash', * FROM pg_input_error_info('v1 k=0 ngram=5 shingle=3 fold=7 ', 'minhash');
-- the hard error of a cast is unchanged
SELECT 'xyz'::simhash64;
\else
\echo soft input errors (pg_input_is_valid) need PostgreSQL 16 or later
SELECT 'xyz'::simhash64;
\endif
