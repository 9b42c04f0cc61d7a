--
-- simhash(text): golden values.  These are the stability contract: the same
-- text must give the same fingerprint on every platform, encoding, locale and
-- release.  A change to any value here is a broken contract, not a test to
-- update.  (simhash_encoding checks the same texts in other encodings.)
--
\i sql/include/golden_texts.sql

SELECT id, note, simhash(body) FROM golden ORDER BY id;

-- the relations the folds promise
SELECT simhash(body) FROM golden WHERE id IN (1, 2) GROUP BY 1 HAVING count(*) = 2;  -- trad = simp
SELECT (SELECT simhash(body) FROM golden WHERE id = 4) = (SELECT simhash(body) FROM golden WHERE id = 5) AS case_folded,
       (SELECT simhash(body) FROM golden WHERE id = 10) = (SELECT simhash(body) FROM golden WHERE id = 11) AS composed_eq_decomposed,
       (SELECT simhash(body) FROM golden WHERE id = 12) = (SELECT simhash(body) FROM golden WHERE id = 13) AS width_folded;
SELECT simhash_dist((SELECT simhash(body) FROM golden WHERE id = 1),
                    (SELECT simhash(body) FROM golden WHERE id = 3)) <= 10 AS one_char_edit_is_close;
-- texts without features give zero; NULL gives NULL
SELECT id, simhash(body) FROM golden WHERE id IN (9, 17, 18, 19, 38) ORDER BY id;
SELECT simhash(NULL::text) IS NULL AS strict;

-- parameters: golden values for other settings
SELECT id, simhash(body, ngram => 1) AS ngram1, simhash(body, ngram => 3) AS ngram3,
       simhash(body, shingle => 2) AS shingle2, simhash(body, ngram => 4, shingle => 3) AS n4s3
FROM golden WHERE id IN (1, 6, 7, 14, 16, 36) ORDER BY id;
-- each fold switched off
SELECT simhash(body, fold_han => false) = simhash(body) AS han_off_same_for_simplified
FROM golden WHERE id = 1;
SELECT simhash(body, fold_han => false) AS trad_unfolded, simhash(body) AS trad_folded
FROM golden WHERE id = 2;
SELECT simhash(body, fold_case => false) AS upper_unfolded FROM golden WHERE id = 5;
SELECT simhash(body, fold_width => false) AS wide_unfolded FROM golden WHERE id = 12;
SELECT simhash('Straße', fold_case => false) <> simhash('STRASSE', fold_case => false) AS no_fold_differs,
       simhash('Straße'::text) = simhash('STRASSE'::text) AS full_case_folding;
DROP TABLE golden;
