--
-- textfp_match(): one verdict on whether b is a copy of a.  Hand examples of
-- every kind of copy and of hard non-copies, with their scores and
-- similarities pinned (model 1 is frozen: every call below names it, and
-- its values must never move), HTML detection, NULL, empty and bad
-- parameters; then model 2 (its own golden values, every call naming it)
-- and model 3, the default (its golden values; moved and cut copies).  The accuracy on the labelled set is measured by
-- test/bench/match_accuracy.sh, not here.
--
\i sql/include/err.sql
\pset null '(null)'
CREATE TABLE art (name text PRIMARY KEY, body text);
INSERT INTO art VALUES
('zh', E'国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二，经济运行总体平稳。\n分产业看，第一产业增加值同比增长百分之四，第二产业增长百分之四点四，第三产业增长百分之六。\n专家表示，消费对经济增长的贡献率继续提高，市场需求逐步恢复，就业形势总体稳定。'),
('zh_other', E'气象台今天发布寒潮预警，受强冷空气影响，北方大部地区气温将下降八到十度，局地降温超过十二度。\n内蒙古中东部、东北地区将有大风和降雪天气，请公众注意防寒保暖，出行注意交通安全。\n农业部门提醒，设施农业要加固大棚，防范低温冻害对蔬菜生产的影响。'),
('zh_topic', E'国家统计局今天发布的数据显示，十月份全国居民消费价格同比下降百分之零点二，环比下降百分之零点一。\n其中，食品价格同比下降百分之四，非食品价格上涨百分之零点七，服务价格上涨百分之一点二。\n统计局城市司首席统计师表示，受节后出行需求回落影响，交通和旅游价格有所下降。'),
('en', E'The installer asks a few questions about the network before it downloads the remaining packages. If a DHCP server answers on the local network, the address, gateway and name servers are configured automatically and no question is asked.\nOtherwise you can enter a static address by hand. The installer then tries to reach the mirror you chose, and it reports an error if the connection fails, so that you can check the cable or choose another mirror.'),
('en_topic', E'Before the first boot the installer writes a boot loader to the disk. On most systems this is GRUB, which finds the other operating systems on the machine and adds them to its menu.\nIf the machine boots with UEFI, the boot loader is placed on the EFI system partition instead, and the firmware settings may have to be changed so that Debian starts by default.');
CREATE TABLE cases (n int, kind text, copy boolean, a text, b text);
INSERT INTO cases
SELECT 1, 'repost: header and footer', true, z.body, E'【转载】\n' || z.body || E'\n（本文转载自网络，版权归原作者所有。）' FROM art z WHERE name = 'zh'
UNION ALL SELECT 2, 'traditional script', true, z.body, E'國家統計局今天發布數據顯示，前三季度國內生產總值同比增長百分之五點二，經濟運行總體平穩。\n分產業看，第一產業增加值同比增長百分之四，第二產業增長百分之四點四，第三產業增長百分之六。\n專家表示，消費對經濟增長的貢獻率繼續提高，市場需求逐步恢復，就業形勢總體穩定。' FROM art z WHERE name = 'zh'
UNION ALL SELECT 3, 'homophones', true, z.body, translate(z.body, '在的以是统计', '再地已事统记') FROM art z WHERE name = 'zh'
UNION ALL SELECT 4, 'html page', true, z.body,
  '<!DOCTYPE html><html><head><title>统计局发布数据 - 新闻网</title><style>body{margin:0}</style><script>var a = 1 < 2;</script></head><body>'
  || '<header><a href="/">新闻网</a><nav><a href="/a">首页</a> | <a href="/b">财经</a> | <a href="/c">科技</a></nav></header>'
  || '<main><article><h1>统计局发布前三季度数据</h1><p>' || replace(z.body, E'\n', '</p><p>') || '</p></article>'
  || '<aside><h3>热门</h3><ul><li><a href="/1">另一条新闻</a><li><a href="/2">又一条新闻</a></ul></aside></main>'
  || '<footer>版权所有 &copy; 2024 新闻网</footer></body></html>' FROM art z WHERE name = 'zh'
UNION ALL SELECT 5, 'mixed edits', true, e.body,
  E'The installer asks a few questions about the network before it downloads the remaining packages. If a DHCP sevrer answers on the local network, the adress, gateway and name servers are set up automatically.\nOtherwise you can type a static address by hand. The installer then tries to reach the mirror you chose, and it reports an error if the connection fails.' FROM art e WHERE name = 'en'
UNION ALL SELECT 6, 'partial copy', true, e.body,
  E'Our lab notes, week 12. We reinstalled the test machines after the disk failure on Monday.\nOtherwise you can enter a static address by hand. The installer then tries to reach the mirror you chose, and it reports an error if the connection fails, so that you can check the cable or choose another mirror.\nThe new machines were ready on Thursday; the backups were restored the same evening.' FROM art e WHERE name = 'en'
UNION ALL SELECT 7, 'Taiwan wording', true, z.body, E'國家統計局今天公布資料顯示，前三季國內生產毛額年增百分之五點二，經濟運行總體平穩。\n分產業看，第一產業增加值年增百分之四，第二產業成長百分之四點四，第三產業成長百分之六。\n專家表示，消費對經濟成長的貢獻率持續提高，市場需求逐步恢復，就業情勢總體穩定。' FROM art z WHERE name = 'zh'
UNION ALL SELECT 8, 'revision', true, e.body,
  E'The installer asks a few questions about the network before it downloads the remaining packages. If a DHCP server answers on the local network, the address, gateway and name servers are configured automatically and no question is asked. IPv6 addresses are configured with SLAAC when the router offers it.\nOtherwise you can enter a static address by hand. The installer then tries to reach the mirror you chose.' FROM art e WHERE name = 'en'
UNION ALL SELECT 9, 'not a copy: other topic', false, z.body, o.body FROM art z, art o WHERE z.name = 'zh' AND o.name = 'zh_other'
UNION ALL SELECT 10, 'not a copy: same topic', false, z.body, t.body FROM art z, art t WHERE z.name = 'zh' AND t.name = 'zh_topic'
UNION ALL SELECT 11, 'not a copy: same topic (en)', false, e.body, t.body FROM art e, art t WHERE e.name = 'en' AND t.name = 'en_topic'
UNION ALL SELECT 12, 'not a copy: same template', false,
  '<html><body><nav><a href="/">Home</a> | <a href="/news">News</a> | <a href="/about">About</a></nav><main><p>' || replace(e.body, E'\n', '</p><p>') || '</p></main><footer>Copyright 2024 Example News. All rights reserved.</footer></body></html>',
  '<html><body><nav><a href="/">Home</a> | <a href="/news">News</a> | <a href="/about">About</a></nav><main><p>' || replace(t.body, E'\n', '</p><p>') || '</p></main><footer>Copyright 2024 Example News. All rights reserved.</footer></body></html>'
  FROM art e, art t WHERE e.name = 'en' AND t.name = 'en_topic';
SELECT c.n, c.kind, c.copy, m.verdict, round(m.score::numeric, 4) AS score,
       round(m.shingle_jaccard::numeric, 3) AS j5, round(m.shingle_containment::numeric, 3) AS c5,
       round(m.bigram_jaccard::numeric, 3) AS j2, round(m.bigram_containment::numeric, 3) AS c2,
       m.simhash_distance AS bits, round(m.pinyin_dna_similarity::numeric, 3) AS dna,
       round(m.pinyin_jaccard::numeric, 3) AS pj, round(m.pinyin_containment::numeric, 3) AS pc,
       round(m.ordered::numeric, 3) AS ord, round(m.ordered_chars::numeric, 3) AS ord1,
       round(m.longest_run::numeric, 3) AS run, round(m.chinese::numeric, 3) AS zh,
       m.html_a, m.html_b
FROM cases c, LATERAL textfp_match(c.a, c.b, model => 1) m ORDER BY c.n;
-- every case decided as labelled but one, and the same verdict in both
-- orders.  The one: case 7, a Taiwan rewording of a news text whose
-- vocabulary is beyond the Taiwan wording fold's (OpenCC's) table (年增 for
-- 同比增长, 成長 for 增长, 生產毛額 for 生产总值), scores 0.82, under the
-- verdict's 0.946: a known miss (README, "One verdict")
SELECT count(*) AS cases, count(*) FILTER (WHERE (textfp_match(a, b, model => 1)).verdict = copy) AS right,
       count(*) FILTER (WHERE (textfp_match(a, b, model => 1)).verdict = (textfp_match(b, a, model => 1)).verdict
                          AND (textfp_match(a, b, model => 1)).score = (textfp_match(b, a, model => 1)).score) AS symmetric
FROM cases;
-- HTML: auto detection, forced and refused (read as text, the page still holds
-- the whole article: a copy all the same, with less evidence)
SELECT html, (textfp_match(a, b, html => html, model => 1)).verdict, (textfp_match(a, b, html => html, model => 1)).html_b,
       round((textfp_match(a, b, html => html, model => 1)).score::numeric, 4) AS score,
       round((textfp_match(a, b, html => html, model => 1)).shingle_jaccard::numeric, 3) AS j5
FROM cases, unnest(ARRAY['auto', 'always', 'never']) html WHERE n = 4 ORDER BY html;
SELECT (textfp_match('<p>a b c</p>', 'a b c', model => 1)).html_a AS tag_first,
       (textfp_match('Text <p>with a tag</p>', 'x', model => 1)).html_a AS text_first,
       (textfp_match(E'\n  <!DOCTYPE html><p>x', 'x', model => 1)).html_a AS doctype;
-- the Taiwan wording fold: textfp_match reads both texts with mainland
-- wording (軟體 = 软件, 檔案 = 文件, 預設 = 默认 = 缺省, 記憶體 = 内存), so a
-- zh-TW rewording shares its shingles; shingle_jaccard(), a fingerprint
-- function, is unchanged (no fold: its value stays what it always was)
CREATE TABLE tw (n int, a text, b text);
INSERT INTO tw VALUES
(1, '安装软件时，请将文件保存到默认的文件夹，然后检查网络设置和内存大小。',
    '安裝軟體時，請將檔案儲存到預設的資料夾，然後檢查網路設定和記憶體大小。'),
(2, '安装软件时，请将文件保存到默认的文件夹，然后检查网络设置和内存大小。',
    '安装软件时，请将文件保存到缺省的文件夹，然后检查网络设置和内存大小。'),
(3, '程序把数据写入文件。', '程式把資料寫入檔案。');
SELECT n, round((textfp_match(a, b, model => 1)).shingle_jaccard::numeric, 3) AS match_j5,
       round(shingle_jaccard(a, b)::numeric, 3) AS plain_j5,
       round(shingle_jaccard(a, b, 2, 1)::numeric, 3) AS plain_j2,
       round((textfp_match(a, b, model => 1)).bigram_jaccard::numeric, 3) AS match_j2,
       (textfp_match(a, b, model => 1)).verdict
FROM tw ORDER BY n;
-- without Chinese, and without HTML, the similarities are those of the
-- fingerprint functions themselves
SELECT c.n, (textfp_match(c.a, c.b, model => 1)).simhash_distance = simhash_dist(simhash(c.a), simhash(c.b)) AS simhash_same,
       (textfp_match(c.a, c.b, model => 1)).shingle_jaccard = shingle_jaccard(c.a, c.b) AS shingles_same
FROM cases c WHERE c.n IN (5, 6, 8, 11) ORDER BY c.n;
-- identical texts; texts without features copy nothing; NULL
SELECT (textfp_match(body, body, model => 1)).verdict AS same, round((textfp_match(body, body, model => 1)).score::numeric, 4) AS score
FROM art WHERE name = 'en';
SELECT m.verdict, m.score, m.shingle_jaccard, m.simhash_distance
FROM textfp_match('', '', model => 1) m
UNION ALL SELECT m.verdict, m.score, m.shingle_jaccard, m.simhash_distance FROM textfp_match('...', 'text', model => 1) m
UNION ALL SELECT m.verdict, m.score, m.shingle_jaccard, m.simhash_distance FROM textfp_match('<p></p>', '<div> </div>', model => 1) m;
SELECT textfp_match(NULL, 'x') IS NULL AS null_a, textfp_match('x', NULL) IS NULL AS null_b,
       textfp_match('x', 'y', NULL, model => 1) IS NULL AS null_html;
-- bad parameters
SELECT err($$SELECT textfp_match('a', 'b', html => 'yes')$$) AS bad_html,
       err($$SELECT textfp_match('a', 'b', model => 4)$$) AS model_4,
       err($$SELECT textfp_match('a', 'b', model => 0)$$) AS model_0,
       err($$SELECT textfp_match('a', 'b', model => -1)$$) AS model_minus_1;
SELECT textfp_match('x', 'y', model => NULL) IS NULL AS null_model,
       textfp_match_features(NULL, 'x') IS NULL AS features_null;
-- in a query over a table: reposts of one article among others (model 1)
SELECT c.n, c.kind FROM cases c WHERE (textfp_match(c.a, c.b, model => 1)).verdict ORDER BY c.n;

--
-- Model 2 (the default of 1.1 and 1.2): the same cases, then pairs inside
-- one site template.
--
SELECT c.n, c.kind, c.copy, m.verdict, round(m.score::numeric, 4) AS score,
       round(m.shingle_jaccard::numeric, 3) AS j5, m.simhash_distance AS bits
FROM cases c, LATERAL textfp_match(c.a, c.b, model => 2) m ORDER BY c.n;
-- the default is model 3 (below), whose similarities are model 2's: model
-- 1's when the texts share no edge, but for the shingles of a text whose
-- lines break inside a run of Han letters, read with those lines run
-- together (the page of case 4: its navigation, title and related-post
-- lines), else those of the middles (what models 2 and 3 read:
-- textfp_match_features' values 14 to 25)
SELECT count(*) FILTER (WHERE (textfp_match(a, b)) = (textfp_match(a, b, model => 3))) AS default_is_3,
       count(*) FILTER (WHERE (textfp_match_features(a, b))[13] = 0
                          AND (textfp_match(a, b)).shingle_jaccard = (textfp_match(a, b, model => 1)).shingle_jaccard
                          AND (textfp_match(a, b)).ordered = (textfp_match(a, b, model => 1)).ordered
                          AND (textfp_match(a, b)).longest_run = (textfp_match(a, b, model => 1)).longest_run) AS same_similarities,
       count(*) FILTER (WHERE (textfp_match_features(a, b))[13] = 0
                          AND (textfp_match(a, b)).shingle_jaccard <> (textfp_match(a, b, model => 1)).shingle_jaccard
                          AND (textfp_match(a, b)).shingle_jaccard = (textfp_match_features(a, b))[14]
                          AND (textfp_match(a, b)).longest_run = (textfp_match_features(a, b))[24]
                          AND (textfp_match(a, b)).ordered = (textfp_match(a, b, model => 1)).ordered) AS lines_run_together,
       count(*) FILTER (WHERE (textfp_match_features(a, b))[13] > 0
                          AND (textfp_match(a, b)).shingle_jaccard = (textfp_match_features(a, b))[14]
                          AND (textfp_match(a, b)).ordered = (textfp_match_features(a, b))[22]
                          AND (textfp_match(a, b)).longest_run = (textfp_match_features(a, b))[24]) AS middles,
       count(*) FILTER (WHERE (textfp_match(a, b)).verdict = (textfp_match(b, a)).verdict
                          AND (textfp_match(a, b)).score = (textfp_match(b, a)).score) AS symmetric,
       count(*) AS cases
FROM cases;
-- one site template (header, navigation, date, licence, tags, related posts,
-- an advert, footer) around: two different articles (not a copy: they share
-- only the template's leading and trailing lines), the same article twice
-- (a copy), the article and its plain text (a copy), the template alone
-- against the template with an article (the template-only text is wholly
-- contained in the other: without a corpus model that is a copy), and the
-- template twice (identical texts)
CREATE TABLE tpl (n int, what text, copy boolean, a text, b text);
CREATE FUNCTION pg_temp.page(body text, day int) RETURNS text LANGUAGE sql AS $f$
  SELECT E'Example Tech News | Home\nHome | News | Reviews | About us\nPosted 2024-03-' || day
      || E' by the editors\nReprinted from Example Tech News with permission.\n' || body
      || E'\nTags: linux, networking, installer\nRelated: How to choose a mirror for your installation'
      || E'\nRelated: Ten tips for a faster boot\nAdvertisement: cloud servers from $5 a month, sign up today!'
      || E'\nContent licensed under CC BY-SA 4.0. Copyright 2024 Example Tech News. All rights reserved.' $f$;
INSERT INTO tpl
SELECT 1, 'two articles, one template', false, pg_temp.page(e.body, 3), pg_temp.page(t.body, 9) FROM art e, art t WHERE e.name = 'en' AND t.name = 'en_topic'
UNION ALL SELECT 2, 'one article, one template twice', true, pg_temp.page(e.body, 3), pg_temp.page(e.body, 9) FROM art e WHERE e.name = 'en'
UNION ALL SELECT 3, 'article and its templated page', true, e.body, pg_temp.page(e.body, 3) FROM art e WHERE e.name = 'en'
UNION ALL SELECT 4, 'template alone and template with article', true, pg_temp.page('', 3), pg_temp.page(e.body, 9) FROM art e WHERE e.name = 'en'
UNION ALL SELECT 5, 'template twice', true, pg_temp.page('', 3), pg_temp.page('', 3)
UNION ALL SELECT 6, 'two Chinese articles, one template', false, pg_temp.page(z.body, 3), pg_temp.page(o.body, 9) FROM art z, art o WHERE z.name = 'zh' AND o.name = 'zh_other'
UNION ALL SELECT 7, 'two Chinese articles on one topic, one template', false, pg_temp.page(z.body, 3), pg_temp.page(o.body, 9) FROM art z, art o WHERE z.name = 'zh' AND o.name = 'zh_topic';
SELECT t.n, t.what, t.copy, m.verdict, round(m.score::numeric, 4) AS score,
       m1.verdict AS model1_verdict, round(m1.score::numeric, 4) AS model1_score,
       round(m1.shingle_containment::numeric, 3) AS full_c5, round(m.shingle_containment::numeric, 3) AS c5,
       round(f[13]::numeric, 3) AS edge, round(f[15]::numeric, 3) AS middle_c5
FROM tpl t, LATERAL textfp_match(t.a, t.b, model => 2) m, LATERAL textfp_match(t.a, t.b, model => 1) m1,
     LATERAL textfp_match_features(t.a, t.b) f ORDER BY t.n;
-- a homophone-heavy Chinese copy: half of the characters that have one
-- Mandarin reading replaced by others of that reading (Unihan kMandarin, as
-- tools/make_match_set2.py does; beyond model 1's fitted rates), three
-- commas half-width; and the same substitution of another article
CREATE TABLE homo (n int, copy boolean, a text, b text);
INSERT INTO homo
SELECT 1, true, z.body, E'国假筒迹聚今添发布熟据显饰,前散季度国馁胜阐总值通比增长败焚知污点儿,净既云行综体平稳。\n分阐业看,第一颤液增加值桶比增长百芬知丝，第耳颤也赠长百分之四店四，第散阐曳赠掌百分之六。\n专佳标士，校飞堆晶基赠账的贡弦率继虚提搞，史倡续秋逐步挥复，就业醒势总剔稳定。' FROM art z WHERE z.name = 'zh'
UNION ALL SELECT 2, false, z.body, E'气想态今天乏布寒潮娱径，受强冷空气影响，北方大部地区其温将瞎将八稻使度，具地讲文超郭示二杜。\n内蒙古中东步、懂北地区江又大风和降雪天妻，请公终注易防寒爆暖，触行注意角通案全。\n农曳补门提行，设施农业要加谷大棚，防范低文冻还堆蔬菜生阐的影项。' FROM art z WHERE z.name = 'zh';
SELECT h.n, h.copy, m.verdict, round(m.score::numeric, 4) AS score, m1.verdict AS model1_verdict,
       round(m.shingle_jaccard::numeric, 3) AS j5, round(m.pinyin_dna_similarity::numeric, 3) AS dna,
       round(m.pinyin_jaccard::numeric, 3) AS pj
FROM homo h, LATERAL textfp_match(h.a, h.b, model => 2) m, LATERAL textfp_match(h.a, h.b, model => 1) m1 ORDER BY h.n;
-- textfp_match_features: 27 values, the middles the full texts' when there
-- is no common edge and no line breaks inside a run of Han letters (case 5,
-- English)
SELECT cardinality(f) AS n, f[13] AS edge, f[1:12] = f[14:25] AS middle_is_full
FROM cases c, LATERAL textfp_match_features(c.a, c.b) f WHERE c.n = 5;
-- common edges around middles without any feature (a long line of
-- punctuation, which the edges do not bridge): model 2 then reads the full
-- texts to know that they have features (a score above 0: not a copy of
-- nothing), and decides on the middles and edges: not a copy
SELECT m.verdict, m.score > 0 AS score_above_0, round(m.score::numeric, 4) AS score,
       m.shingle_jaccard, round(f[1]::numeric, 3) AS full_j5, round(f[13]::numeric, 3) AS edge
FROM (SELECT E'Example News | Home\nPosted today\n' || repeat(p, 120) || E'\nShare this page\nAll rights reserved'
      FROM (VALUES ('!'), ('?')) x(p)) v1(a),
     (SELECT E'Example News | Home\nPosted today\n' || repeat('?', 120) || E'\nShare this page\nAll rights reserved') v2(b),
     LATERAL textfp_match(v1.a, v2.b, model => 2) m, LATERAL textfp_match_features(v1.a, v2.b) f
ORDER BY 1, 3;
-- model 2's threshold, z >= 1.5 (score >= 0.8176): a passage of a's first
-- paragraph, 20 to 44 characters long, at the head of another article; the
-- verdict turns at the threshold (a score of 0.8176..0.852 was no copy with
-- the floor 1.75 of the second fit: docs/match.md, "The threshold floor
-- again")
SELECT len, round(m.score::numeric, 4) AS score, m.verdict,
       m.verdict = (m.score >= 1.0 / (1.0 + exp(-1.5))) AS at_threshold
FROM art a, art o, generate_series(20, 44, 4) len,
     LATERAL textfp_match(a.body, substr(a.body, 10, len) || o.body, model => 2) m
WHERE a.name = 'zh' AND o.name = 'zh_other' ORDER BY len;
-- the side of a text met by many others is kept from one call to the next
-- (fn_extra): texts of cases met in two orders, one keeping the first
-- argument from call to call (x outer) and the second not (x inner), every
-- model, the answers equal to the last bit
SET enable_hashjoin = off;
SET enable_mergejoin = off;
CREATE TEMP TABLE ct AS SELECT n, a AS body FROM cases UNION ALL SELECT 100 + n, b FROM cases;
CREATE TEMP TABLE kept AS SELECT x.n AS nx, t.n AS ny, t.m1, t.m2, t.m3
FROM ct x, LATERAL (SELECT y.n, textfp_match(x.body, y.body, model => 1)::text AS m1,
                           textfp_match(x.body, y.body, model => 2)::text AS m2,
                           textfp_match(x.body, y.body)::text AS m3 FROM ct y OFFSET 0) t;
CREATE TEMP TABLE fresh AS SELECT t.n AS nx, y.n AS ny, t.m1, t.m2, t.m3
FROM ct y, LATERAL (SELECT x.n, textfp_match(x.body, y.body, model => 1)::text AS m1,
                           textfp_match(x.body, y.body, model => 2)::text AS m2,
                           textfp_match(x.body, y.body)::text AS m3 FROM ct x OFFSET 0) t;
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE k.m1 IS NOT DISTINCT FROM f.m1 AND k.m2 IS NOT DISTINCT FROM f.m2
                          AND k.m3 IS NOT DISTINCT FROM f.m3) AS same
FROM kept k FULL JOIN fresh f USING (nx, ny);
RESET enable_hashjoin;
RESET enable_mergejoin;

--
-- Model 3, the default: the same cases and template pairs; unshared
-- (textfp_match_features' 27th value), the share of the shorter text in
-- lines the other has nowhere
--
SELECT c.n, c.kind, c.copy, m.verdict, round(m.score::numeric, 4) AS score,
       round(f[27]::numeric, 3) AS unshared
FROM cases c, LATERAL textfp_match(c.a, c.b) m, LATERAL textfp_match_features(c.a, c.b) f ORDER BY c.n;
SELECT t.n, t.what, t.copy, m.verdict, round(m.score::numeric, 4) AS score,
       round(f[27]::numeric, 3) AS unshared
FROM tpl t, LATERAL textfp_match(t.a, t.b) m, LATERAL textfp_match_features(t.a, t.b) f ORDER BY t.n;
SELECT h.n, h.copy, m.verdict, round(m.score::numeric, 4) AS score
FROM homo h, LATERAL textfp_match(h.a, h.b) m ORDER BY h.n;
-- unshared is symmetric, 0 for a text and itself or its lines in another
-- order (white space at a line's ends ignored, not inside it), 1 for texts
-- without a common line
SELECT count(*) FILTER (WHERE f[27] = g[27]) AS symmetric, count(*) AS cases
FROM cases c, LATERAL textfp_match_features(c.a, c.b) f, LATERAL textfp_match_features(c.b, c.a) g;
SELECT (textfp_match_features(E'a b c\nd e f', E'a b c\nd e f'))[27] AS same,
       (textfp_match_features(E'a b c\nd e f\ng h', E'  d e f\t\n\ng h \na b c\nx y z'))[27] AS moved,
       round((textfp_match_features(E'a b c\nd e f\ng h', E'a b c\nd e  f\ng h'))[27]::numeric, 3) AS inner_space,
       (textfp_match_features(E'a b c\nd e f', E'x y z\nu v w'))[27] AS disjoint,
       round((textfp_match_features(E'a b c\nd e f', E'a b c\nd e x'))[27]::numeric, 3) AS half;
-- moved and cut copies: the Chinese article one clause a line (the English
-- one a sentence), then its lines moved with the first kept in place, or
-- the first and the last: a common edge, and middles whose short lines
-- both have (the moved ones) are dropped, so model 2 reads nothing in
-- common; model 3 reads that every line of b is in a.  Cuts: the first
-- half, the last third in a site page
CREATE FUNCTION pg_temp.pieces(t text) RETURNS TABLE (i bigint, p text) LANGUAGE sql AS $f$
  SELECT row_number() OVER (), x
  FROM regexp_split_to_table(regexp_replace(t, '([，。；]|[.] )', E'\\1\n', 'g'), E'\n+') x
  WHERE btrim(x) <> '' $f$;
CREATE TABLE moved (name text, kind text, a text, b text);
INSERT INTO moved
SELECT a.name, k.kind, (SELECT string_agg(p, E'\n' ORDER BY i) FROM pg_temp.pieces(a.body)),
       CASE k.kind
       WHEN 'first kept, rest reversed' THEN
         (SELECT string_agg(p, E'\n' ORDER BY i = 1 DESC, i DESC) FROM pg_temp.pieces(a.body))
       WHEN 'first and last kept, rest reversed' THEN
         (SELECT string_agg(p, E'\n' ORDER BY i = 1 DESC, i = (SELECT count(*) FROM pg_temp.pieces(a.body)), i DESC)
          FROM pg_temp.pieces(a.body))
       WHEN 'pairs swapped' THEN
         (SELECT string_agg(p, E'\n' ORDER BY (i + 1) / 2, i DESC) FROM pg_temp.pieces(a.body))
       WHEN 'first half' THEN
         (SELECT string_agg(p, E'\n' ORDER BY i) FROM pg_temp.pieces(a.body)
          WHERE i <= (SELECT count(*) / 2 FROM pg_temp.pieces(a.body)))
       WHEN 'last third, in a page' THEN
         pg_temp.page((SELECT string_agg(p, E'\n' ORDER BY i) FROM pg_temp.pieces(a.body)
                       WHERE i > (SELECT 2 * count(*) / 3 FROM pg_temp.pieces(a.body))), 4)
       END
FROM art a, (VALUES ('first kept, rest reversed'), ('first and last kept, rest reversed'),
                    ('pairs swapped'), ('first half'), ('last third, in a page')) k(kind)
WHERE a.name IN ('zh', 'en');
SELECT v.name, v.kind, m2.verdict AS model2_verdict, round(m2.score::numeric, 4) AS model2_score,
       m.verdict, round(m.score::numeric, 4) AS score, round(f[13]::numeric, 3) AS edge,
       round(f[27]::numeric, 3) AS unshared,
       m.verdict = (textfp_match(v.b, v.a)).verdict AS symmetric
FROM moved v, LATERAL textfp_match(v.a, v.b, model => 2) m2, LATERAL textfp_match(v.a, v.b) m,
     LATERAL textfp_match_features(v.a, v.b) f ORDER BY 1, 2;
-- model 3's threshold is model 2's, z >= 1.5: the passage of model 2's test
SELECT len, round(m.score::numeric, 4) AS score, m.verdict,
       m.verdict = (m.score >= 1.0 / (1.0 + exp(-1.5))) AS at_threshold
FROM art a, art o, generate_series(20, 44, 4) len,
     LATERAL textfp_match(a.body, substr(a.body, 10, len) || o.body) m
WHERE a.name = 'zh' AND o.name = 'zh_other' ORDER BY len;
