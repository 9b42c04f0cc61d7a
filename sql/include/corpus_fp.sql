-- the sample corpus (test/data/corpus.tsv) in a table named :corpus_table,
-- with a generated fingerprint of each kind (no index)
CREATE TABLE :corpus_table (
    id     int PRIMARY KEY,
    lang   text,
    source text,
    title  text,
    body   text NOT NULL,
    fp     simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
    sig    minhash GENERATED ALWAYS AS (minhash(body, 128)) STORED,
    dna    int8[] GENERATED ALWAYS AS (pinyin_dna(body)) STORED
);
CREATE TEMP TABLE corpus_tsv (id int, lang text, source text, title text, body text);
\copy corpus_tsv FROM 'test/data/corpus.tsv'
INSERT INTO :corpus_table (id, lang, source, title, body) SELECT * FROM corpus_tsv;
DROP TABLE corpus_tsv;
