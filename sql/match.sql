--
-- textfp_match(): one verdict on whether b is a copy of a.  Hand examples of
-- every kind of copy and of hard non-copies, with their scores and
-- similarities pinned (model 1 is frozen), HTML detection, NULL, empty and
-- bad parameters.  The accuracy on the labelled set is measured by
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
FROM cases c, LATERAL textfp_match(c.a, c.b) m ORDER BY c.n;
-- every case decided as labelled but one, and the same verdict in both
-- orders.  The one: case 7, a Taiwan rewording of a news text whose
-- vocabulary is beyond the Taiwan wording fold's (OpenCC's) table (年增 for
-- 同比增长, 成長 for 增长, 生產毛額 for 生产总值), scores 0.82, under the
-- verdict's 0.946: a known miss (README, "One verdict")
SELECT count(*) AS cases, count(*) FILTER (WHERE (textfp_match(a, b)).verdict = copy) AS right,
       count(*) FILTER (WHERE (textfp_match(a, b)).verdict = (textfp_match(b, a)).verdict
                          AND (textfp_match(a, b)).score = (textfp_match(b, a)).score) AS symmetric
FROM cases;
-- HTML: auto detection, forced and refused (read as text, the page still holds
-- the whole article: a copy all the same, with less evidence)
SELECT html, (textfp_match(a, b, html => html)).verdict, (textfp_match(a, b, html => html)).html_b,
       round((textfp_match(a, b, html => html)).score::numeric, 4) AS score,
       round((textfp_match(a, b, html => html)).shingle_jaccard::numeric, 3) AS j5
FROM cases, unnest(ARRAY['auto', 'always', 'never']) html WHERE n = 4 ORDER BY html;
SELECT (textfp_match('<p>a b c</p>', 'a b c')).html_a AS tag_first,
       (textfp_match('Text <p>with a tag</p>', 'x')).html_a AS text_first,
       (textfp_match(E'\n  <!DOCTYPE html><p>x', 'x')).html_a AS doctype;
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
SELECT n, round((textfp_match(a, b)).shingle_jaccard::numeric, 3) AS match_j5,
       round(shingle_jaccard(a, b)::numeric, 3) AS plain_j5,
       round(shingle_jaccard(a, b, 2, 1)::numeric, 3) AS plain_j2,
       round((textfp_match(a, b)).bigram_jaccard::numeric, 3) AS match_j2,
       (textfp_match(a, b)).verdict
FROM tw ORDER BY n;
-- without Chinese, and without HTML, the similarities are those of the
-- fingerprint functions themselves
SELECT c.n, (textfp_match(c.a, c.b)).simhash_distance = simhash_dist(simhash(c.a), simhash(c.b)) AS simhash_same,
       (textfp_match(c.a, c.b)).shingle_jaccard = shingle_jaccard(c.a, c.b) AS shingles_same
FROM cases c WHERE c.n IN (5, 6, 8, 11) ORDER BY c.n;
-- identical texts; texts without features copy nothing; NULL
SELECT (textfp_match(body, body)).verdict AS same, round((textfp_match(body, body)).score::numeric, 4) AS score
FROM art WHERE name = 'en';
SELECT m.verdict, m.score, m.shingle_jaccard, m.simhash_distance
FROM textfp_match('', '') m
UNION ALL SELECT m.verdict, m.score, m.shingle_jaccard, m.simhash_distance FROM textfp_match('...', 'text') m
UNION ALL SELECT m.verdict, m.score, m.shingle_jaccard, m.simhash_distance FROM textfp_match('<p></p>', '<div> </div>') m;
SELECT textfp_match(NULL, 'x') IS NULL AS null_a, textfp_match('x', NULL) IS NULL AS null_b,
       textfp_match('x', 'y', NULL) IS NULL AS null_html;
-- bad parameters
SELECT err($$SELECT textfp_match('a', 'b', html => 'yes')$$) AS bad_html,
       err($$SELECT textfp_match('a', 'b', model => 2)$$) AS model_2,
       err($$SELECT textfp_match('a', 'b', model => 0)$$) AS model_0;
-- in a query over a table: reposts of one article among others
SELECT c.n, c.kind FROM cases c WHERE (textfp_match(c.a, c.b)).verdict ORDER BY c.n;
