--
-- A new user's first calls: every function that takes text, called on
-- untyped string literals, is a function call (never a cast to a type of the
-- same name) and answers as the call with explicitly typed text.
--
SELECT simhash('hello world');
SELECT simhash('hello world') = simhash('hello world'::text) AS simhash_call,
       simhash('你好，世界', ngram => 2) = simhash(text '你好，世界', ngram => 2) AS named_args,
       simhash('0123456789abcdef') = simhash('0123456789abcdef'::text) AS hex_looking_text,
       simhash('0123456789abcdef') <> '0123456789abcdef'::simhash64 AS not_a_cast;
-- with a reference from the aggregate (its argument an untyped VALUES column)
SELECT simhash('hello world', r) = simhash('hello world'::text, r) AS with_reference
FROM (SELECT simhash_reference(b) AS r
      FROM (VALUES ('hello world'), ('goodbye moon'), ('near duplicate text')) v(b)) s;
SELECT minhash('hello world', 8);
SELECT minhash('hello world', 8) = minhash('hello world'::text, 8) AS minhash_call,
       shingles('the quick brown fox jumps') = shingles('the quick brown fox jumps'::text) AS shingles_call,
       shingle_jaccard('the quick brown fox jumps', 'the quick brown fox leaps') =
           shingle_jaccard('the quick brown fox jumps'::text, 'the quick brown fox leaps'::text) AS jaccard_call;
SELECT pinyin('你好世界'), pinyin_initials('你好世界');
SELECT pinyin_dna('床前明月光，疑是地上霜。举头望明月，低头思故乡。') =
       pinyin_dna('床前明月光，疑是地上霜。举头望明月，低头思故乡。'::text) AS pinyin_dna_call;
SELECT spotsigs('the cat sat on the mat') = spotsigs('the cat sat on the mat'::text) AS spotsigs_call,
       longest_sentences('One. Two three.') = longest_sentences('One. Two three.'::text) AS sentences_call,
       imatch_terms('the quick fox') = imatch_terms('the quick fox'::text) AS imatch_terms_call,
       imatch('the quick fox', imatch_build_lexicon(imatch_terms('quick fox'))) =
           imatch('the quick fox'::text, imatch_build_lexicon(imatch_terms('quick fox'::text))) AS imatch_call;
-- The cause of the trap, checked for every object of the extension: no type
-- shares its name with a function callable with a single argument.
SELECT t.typname AS type_named_like_a_function
FROM pg_type t
JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
JOIN pg_proc p ON p.proname = t.typname AND p.pronamespace = t.typnamespace
WHERE p.pronargs - p.pronargdefaults <= 1;
-- a one-argument call of a function whose name is also a type is still a
-- cast: minhash needs k, so minhash('text') reports the type's input syntax
SELECT minhash('hello world');
