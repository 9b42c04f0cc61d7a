--
-- The literal form in a fresh session, without shared_preload_libraries:
-- simhash_dist's support function loads textfp.so during planning and its
-- set_rel_pathlist hook adds the index path (Linux: /proc/self/maps)
--
CREATE TABLE hf (id int, fp simhash64);
INSERT INTO hf SELECT g, ((g::bigint * 2654435761) # (g::bigint << 40))::simhash64
  FROM generate_series(1, 5000) g;
CREATE INDEX hf_gin ON hf USING gin (fp);
ANALYZE hf;
\c
SELECT pg_read_file('/proc/self/maps') ~ '/textfp\.so' AS textfp_loaded;
SET plan_cache_mode = force_generic_plan;
PREPARE q(bigint, int) AS SELECT id FROM hf WHERE simhash_dist(fp, $1::simhash64) <= $2 ORDER BY id;
SELECT pg_read_file('/proc/self/maps') ~ '/textfp\.so' AS textfp_loaded;
EXPLAIN (COSTS OFF) EXECUTE q(1234567, 3);
SELECT pg_read_file('/proc/self/maps') ~ '/textfp\.so' AS textfp_loaded;
EXECUTE q((1000::bigint * 2654435761) # (1000::bigint << 40) # 5, 3);
EXECUTE q((1000::bigint * 2654435761) # (1000::bigint << 40) # 5, 1);
DROP TABLE hf;
