#!/usr/bin/env python3
"""A second labelled set of document pairs for textfp_match() (is b a copy
of a?), built apart from tools/make_match_set.py: other Debian packages,
other site templates, other transformation code (nothing is imported from
that script or the tools it uses), so that a model fitted on one set can be
judged on the other.

Sources (none of them read by make_match_set.py):
  zh  Securing Debian Manual zh-CN (harden-doc), GIMP user manual zh_CN
      (gimp-help-zh-cn), Chinese manual pages (manpages-zh, roff)
  en  Securing Debian Manual en-US (harden-doc), Debian FAQ (debian-faq),
      Debian Developer's Reference (developers-reference), Debian Policy
      (debian-policy)
Articles: runs of consecutive paragraphs of one source file, 500-3,500
bytes; neighbours are the articles next to each other in the same file.

SPLIT by source file (a hash of its path): train (about 60%) and test; a
test pair whose id hashes to 0 mod 4 is in the slice 'untouched' (kept out of
every fit and every threshold's choice, read once when the model is final).

Site templates: 24 (12 Chinese, 12 English), written for this set: a site
name, navigation, a licence notice, a "reprinted from" line, adverts, tag and
related-post lines, a date line that changes from page to page; rendered as
plain text lines or as one of three HTML layouts.  The template's share of
the shorter text is drawn from 0 to 70% (related posts and adverts added or
dropped to reach it).

POSITIVES (label t): a and b = a after 1-4 transformations out of: template
(b in a site template; a plain, or in another site's template, or in the same
site's), homophone (Chinese: each Han character with one Mandarin reading
replaced at rate 5-50% by another character of that reading, Unihan
kMandarin), charedit (rate 1-15% of the characters (Chinese) or words
(English) replaced, deleted or doubled), punct (full-/half-width punctuation,
lines merged and split), script (opencc s2t or s2twp), sentences (10-25% of
the sentences dropped or moved).  kind: the transformations joined by '+'.
NEGATIVES (label f): the same site template around the neighbouring article
(kind 'same-template'; b's article in the template, and a in it too or
plain), the plain neighbour ('neighbour'), and the neighbour with the same
transformations ('neighbour-same').

Output: COPY text format, pair_id split kind lang label book a b tshare
hrate erate transforms (tshare: the template's share of the shorter text,
hrate/erate: homophone and edit rates, 0 when none).

    tools/make_match_set2.py > set2.tsv         [--stats] [--seed N]
    tools/make_match_set2.py --seed N --fresh-after 26002 --per-file K > fresh.tsv

--fresh-after SEED: a fresh held-out sample of the test files: none of the
(article, neighbour) pairs that the set of --seed SEED drew there, and the
pairs whose articles share no paragraph with its draws first; the split
column says how fresh the pair's article is (draw()).

Needs python3, opencc, unicode-data, harden-doc, gimp-help-zh-cn,
manpages-zh, debian-faq, developers-reference, debian-policy.
"""
import argparse
import bz2
import glob
import gzip
import hashlib
import html
import html.parser
import os
import random
import re
import subprocess
import sys

SEED = 26002
HANRE = re.compile('[\u4e00-\u9fff]')


def say(*a):
    print(*a, file=sys.stderr, flush=True)


def h32(s):
    return int(hashlib.sha256(s.encode()).hexdigest()[:8], 16)


# --------------------------------------------------------------------------
# reading the sources

class Blocks(html.parser.HTMLParser):
    """text blocks of an HTML page: paragraphs, list items, headings,
    table cells; scripts, styles and navigation skipped"""
    BLOCK = {'p', 'li', 'dd', 'dt', 'h1', 'h2', 'h3', 'h4', 'td', 'pre', 'div', 'blockquote', 'title'}
    SKIP = {'script', 'style', 'nav', 'head'}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.cur, self.skip = [], [], 0

    def flush(self):
        t = re.sub(r'\s+', ' ', ''.join(self.cur)).strip()
        if t:
            self.out.append(t)
        self.cur = []

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skip += 1
        if tag in self.BLOCK or tag == 'br':
            self.flush()

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skip:
            self.skip -= 1
        if tag in self.BLOCK:
            self.flush()

    def handle_data(self, d):
        if not self.skip:
            self.cur.append(d)


def html_paras(path):
    p = Blocks()
    with open(path, encoding='utf-8', errors='replace') as f:
        p.feed(f.read())
    p.flush()
    return p.out


def roff_paras(path):
    """paragraphs of a manual page: requests dropped, font escapes removed"""
    with gzip.open(path, 'rt', encoding='utf-8', errors='replace') as f:
        src = f.read()
    paras, cur = [], []
    table = False
    for line in src.split('\n'):
        if line.startswith(('.TS', '.TE')):
            table = line.startswith('.TS')
            continue
        if table:
            continue
        if line.startswith(('.', "'")):
            req = line[1:3]
            if req in ('SH', 'SS', 'PP', 'LP', 'TP', 'IP', 'P ', 'br', 'sp'):
                if cur:
                    paras.append(' '.join(cur))
                    cur = []
                if req in ('SH', 'SS'):
                    t = line[3:].strip().strip('"')
                    if t:
                        paras.append(t)
            continue
        t = re.sub(r'\\f(\[[^]]*\]|\(..|.)', '', line)
        t = re.sub(r'\\\((..)', ' ', t).replace('\\-', '-').replace('\\e', '\\')
        t = re.sub(r'\\[&/,|^:]', '', t).replace('\\ ', ' ').strip()
        if t:
            cur.append(t)
    if cur:
        paras.append(' '.join(cur))
    return [re.sub(r'\s+', ' ', p).strip() for p in paras if p.strip()]


def text_paras(path):
    with gzip.open(path, 'rt', encoding='utf-8', errors='replace') as f:
        src = f.read()
    return [re.sub(r'\s+', ' ', p).strip() for p in re.split(r'\n\s*\n', src) if p.strip()]


def nbytes(s):
    return len(s.encode())


def sources():
    """[(book, lang, path, paragraphs)]"""
    out = []
    for f in sorted(glob.glob('/usr/share/doc/harden-doc/html/zh-CN/*.html')):
        out.append(('harden-zh', 'zh', f, html_paras(f)))
    for f in sorted(glob.glob('/usr/share/gimp/2.0/help/zh_CN/*.html')):
        out.append(('gimp-zh', 'zh', f, html_paras(f)))
    for f in sorted(glob.glob('/usr/share/man/zh_CN/man*/*.gz')):
        out.append(('manpages-zh', 'zh', f, roff_paras(f)))
    for f in sorted(glob.glob('/usr/share/doc/harden-doc/html/en-US/*.html')):
        out.append(('harden-en', 'en', f, html_paras(f)))
    for f in sorted(glob.glob('/usr/share/doc/debian/FAQ/*.en.html')):
        out.append(('faq-en', 'en', f, html_paras(f)))
    for f in sorted(glob.glob('/usr/share/doc/developers-reference/docs/*.html')):
        out.append(('devref-en', 'en', f, html_paras(f)))
    out.append(('policy-en', 'en', '/usr/share/doc/debian-policy/policy.txt.gz',
                text_paras('/usr/share/doc/debian-policy/policy.txt.gz')))
    return out


def good_para(p, lang):
    if lang == 'zh':
        return len(HANRE.findall(p)) >= 8
    return len(re.findall(r'[A-Za-z]{2,}', p)) >= 6


def articles(paras, lang, rng):
    """runs of consecutive good paragraphs of 500-3500 bytes"""
    out, cur = [], []
    want = rng.randint(500, 2500)
    for p in paras:
        if not good_para(p, lang) or nbytes(p) > 3000:
            if cur and sum(map(nbytes, cur)) >= 500:
                out.append(cur)
            cur = []
            continue
        cur.append(p)
        if sum(map(nbytes, cur)) >= want:
            out.append(cur)
            cur = []
            want = rng.randint(500, 2500)
    if cur and sum(map(nbytes, cur)) >= 500:
        out.append(cur)
    return out


# --------------------------------------------------------------------------
# site templates

ZH_SITES = [
    ('码农札记', ['首页', '后端', '运维', '安全', '开源'], '知识共享署名-非商业性使用 4.0 国际许可协议'),
    ('极客茶馆', ['推荐', '热榜', '问答', '专栏'], '本文版权归作者所有，任何形式转载请联系作者获得授权并注明出处。'),
    ('云栖小站', ['产品', '解决方案', '文档', '社区'], '本站内容遵循 CC BY-SA 3.0 协议。'),
    ('运维之家', ['Linux', '网络', '数据库', '监控', '脚本'], '版权声明：本文为博主原创文章，转载请附上原文出处链接和本声明。'),
    ('开源中国镜像', ['资讯', '软件', '博客', '活动'], '未经许可，禁止转载。'),
    ('安全客栈', ['漏洞', '工具', '渗透', '防御'], '本文由作者投稿，观点仅代表作者本人，与本站无关。'),
    ('学习笔记网', ['编程', '系统', '考试', '资料下载'], '免责声明：本站资源来自网络，仅供学习交流。'),
    ('图像处理论坛', ['教程', '作品', '插件', '求助'], '论坛所有帖子版权归发帖人所有。'),
    ('程序员周刊', ['本期', '往期', '订阅', '投稿'], '转载须保留本段文字及原文链接。'),
    ('Debian 中文站', ['新闻', '文档', '下载', '支持'], '本页内容以 GPL 许可发布。'),
    ('技术问答社区', ['提问', '话题', '用户', '徽章'], '用户贡献内容采用 CC BY-SA 4.0 许可。'),
    ('Linux 百科', ['入门', '命令', '发行版', '硬件'], '本条目最后修订于两周前，文字可在知识共享协议下使用。'),
]
EN_SITES = [
    ('SysAdmin Notes', ['Home', 'Articles', 'Cheat sheets', 'About'], 'Content licensed under CC BY-SA 4.0.'),
    ('The Packaging Post', ['Latest', 'Guides', 'Interviews', 'Archive'], 'Copyright the authors. All rights reserved.'),
    ('OpenSource Daily', ['News', 'Reviews', 'Opinion', 'Newsletter'], 'Republished under the GNU Free Documentation License.'),
    ('Hardening Hub', ['Threats', 'Tools', 'Checklists', 'Forum'], 'Text available under the Creative Commons Attribution License.'),
    ('DevOps Digest', ['Cloud', 'Containers', 'CI/CD', 'Jobs'], 'Opinions are those of the authors alone.'),
    ('Linux Answers', ['Questions', 'Tags', 'Users', 'Unanswered'], 'User contributions licensed under CC BY-SA.'),
    ('Tech Reprints', ['Front page', 'Sections', 'Search'], 'This article is reproduced with permission.'),
    ('Debian Weekly', ['Issues', 'Contribute', 'Feeds'], 'Copyright the Debian Weekly team; verbatim copying permitted.'),
    ('Kernel Corner', ['Blog', 'Talks', 'Patches', 'Contact'], 'All code samples are MIT licensed.'),
    ('Server Side Stories', ['Stories', 'Podcast', 'Shop'], 'No part of this site may be reproduced without permission.'),
    ('The Terminal Times', ['Today', 'Popular', 'Subscribe'], 'Published under the Open Publication License.'),
    ('Admin Wiki Mirror', ['Main page', 'Random', 'Recent changes'], 'Text is available under the Creative Commons Attribution-ShareAlike License.'),
]
ZH_ADS = ['【广告】企业级云主机限时五折，新用户立享优惠。', '扫描二维码加入技术交流群，领取免费学习资料。',
          '推荐阅读：三十天精通服务器运维，点击报名。', '赞助商：高速稳定的代码托管平台，免费试用。',
          '双十一特惠：固态硬盘服务器低至每月十元。', '关注我们的公众号，每天推送一篇干货。']
EN_ADS = ['Advertisement: managed Kubernetes from $9/month.', 'Sponsored: learn Rust in 30 days, enrol now.',
          'Get our weekly newsletter in your inbox. Subscribe today!', 'Ad: the password manager trusted by 10,000 teams.',
          'Hiring? Post a job on our board for free this month.', 'Support this site: become a patron for $3.']


def site(lang, k):
    sites = ZH_SITES if lang == 'zh' else EN_SITES
    name, nav, lic = sites[k % len(sites)]
    return {'name': name, 'nav': nav, 'lic': lic, 'lang': lang, 'style': k % 4, 'k': k}


def template_lines(st, titles, rng, share, body_bytes):
    """(head, foot) lines of the site st around an article of body_bytes,
    their bytes about share / (1 - share) of the article's; the page's rng
    draws only its date: the rest is the site's (the same on its pages)"""
    zh = st['lang'] == 'zh'
    srng = random.Random('site/%d/%s/%.1f' % (st['k'], st['lang'], share))
    ads = ZH_ADS if zh else EN_ADS
    k = st['k']
    date = ('发布于 2023-%02d-%02d %02d:%02d' if zh else 'Posted 2023-%02d-%02d %02d:%02d') % (
        rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59))
    head = [st['name'] + (' - ' if not zh else ' | ') + ('首页' if zh else 'Home'),
            ' | '.join(st['nav']), date]
    reprint = ('转载自：%s（原文链接已失效）' if zh else 'Reprinted from %s with permission.') % st['name']
    tags = ('标签：' if zh else 'Tags: ') + ', '.join(st['nav'][:3])
    foot = [reprint, st['lic'], tags]
    target = share / max(1e-9, 1 - share) * body_bytes
    if share <= 0:
        return [], []
    extra = []
    i = 0
    pool = [ads[(k + j) % len(ads)] for j in range(len(ads))]
    # the site's own related posts (the same on its pages of one source
    # file; another site links other posts, in another order)
    titles = [t for t in titles if t.strip()]
    if not titles:          # a file of few articles: the site's own posts
        titles = [('%s 精选文章第 %d 篇' if zh else '%s: featured post no. %d') % (st['name'], j)
                  for j in range(1, 9)]
    random.Random('related/%d/%s' % (k, titles[0])).shuffle(titles)
    while sum(map(nbytes, head + foot + extra)) < target and i < 60:
        if i % 3 == 2:
            extra.append(pool[i // 3 % len(pool)])
        else:
            t = titles[i % len(titles)] if titles else ('相关文章' if zh else 'Related post')
            extra.append(('相关阅读：' if zh else 'Related: ') + t)
        i += 1
    # trim the fixed parts for small shares
    lines = head + foot + extra
    while len(lines) > 1 and sum(map(nbytes, lines)) > 1.3 * target:
        lines.pop(srng.randrange(len(lines)))
    cut = max(1, len(lines) // 2) if k % 3 else len(lines) - 1
    hd = lines[:cut]
    ft = lines[cut:] + [('© 2023 %s 版权所有' if zh else '© 2023 %s') % st['name']]
    if share < 0.05:
        ft = ft[-1:]
        hd = []
    return hd, ft


def render(st, title, paras, head, foot, rng):
    """the page: plain lines (style 0) or one of three HTML layouts"""
    s = st['style']
    if s == 0:
        return '\n'.join(head + [title] + paras + foot)
    e = html.escape
    ps = ''.join('<p>%s</p>\n' % e(p) for p in paras)
    hd = ''.join('<div class="h">%s</div>\n' % e(x) for x in head)
    ft = ''.join('<div class="f">%s</div>\n' % e(x) for x in foot)
    if s == 1:
        return ('<!doctype html>\n<html><head><meta charset="utf-8"><title>%s</title></head><body>\n'
                '%s<h1>%s</h1>\n%s%s</body></html>' % (e(title), hd, e(title), ps, ft))
    if s == 2:
        return ('<html>\n<body><table><tr><td class="top">%s</td></tr>\n<tr><td><h2>%s</h2>\n%s</td></tr>\n'
                '<tr><td class="bottom">%s</td></tr></table></body></html>' % (hd, e(title), ps, ft))
    return ('<!DOCTYPE html>\n<html><body>\n<header>%s</header>\n<article><h1>%s</h1>\n%s</article>\n'
            '<footer>%s</footer>\n</body></html>' % (hd, e(title), ps, ft))


# --------------------------------------------------------------------------
# transformations

class Homo:
    """characters of one Mandarin reading (Unihan kMandarin, toneless)"""

    def __init__(self, used):
        read = {}
        with bz2.open('/usr/share/unicode/Unihan_Readings.txt.bz2', 'rt', encoding='utf-8') as f:
            for line in f:
                if '\tkMandarin\t' not in line:
                    continue
                cp, _, val = line.rstrip('\n').split('\t')
                ch = chr(int(cp[2:], 16))
                rs = {self.toneless(v) for v in val.split()}
                if len(rs) == 1:
                    read[ch] = rs.pop()
        groups = {}
        for ch in sorted(used):
            if ch in read:
                groups.setdefault(read[ch], []).append(ch)
        self.alt = {}
        for r, chs in groups.items():
            for ch in chs:
                if len(chs) > 1:
                    self.alt[ch] = [x for x in chs if x != ch]

    @staticmethod
    def toneless(v):
        import unicodedata
        return ''.join(c for c in unicodedata.normalize('NFD', v) if not unicodedata.combining(c)).replace('ü', 'v')

    def apply(self, text, rate, rng):
        return ''.join(rng.choice(self.alt[c]) if c in self.alt and rng.random() < rate else c for c in text)


COMMON = '的是在了不和有大这主中人上为们地个用工时要动国产以我到他会作来分生对于学下级就年阶义发成部民可出能方进同行面说种过命度革而多子后自社加小机也经力线本电高量长党得实家定深法表着水理化争现所二起政三好十战无农使性前等反体合斗路图把结第里正新开论之物从当两些还天资事队批如应形想制心样干都向变关点育重其思与间内去因件日利相由压员气业代全组数果期导平各基或月毛然问比展那它最及外没看治提五解系林者米群头意只明四道马认次文通但条较克又公孔领军流入接席位情运器并飞原油放立题质指建区验活众很教决特此常石强极土少已根共直团统式转别造切九你取西持总料连任志观调七么山程百报更见必真保热委手改管处己将修支识病象几先老光专什六型具示复安带每东增则完风回南广劳轮科北打积车计给节做务被整联步类集号列温装即毫知轴研单色坚据速防史拉世设达尔场织历花受求传口断况采精金界品判参层止边清至万确究书术状厂须离再目海交权且儿青才证低越际八试规斯近注办布门铁需走议县兵固除般引齿千胜细影济白格效置推空配刀叶率述今选养德话查差半敌始片施响收华觉备名红续均药标记难存测士身紧液派准斤角降维板许破述技消底床田势端感往神便贺村构照容非搞亚磨族火段算适讲按值美态黄易彪服早班麦削信排台声该击素张密害侯草何树肥继右属市严径螺检左页抗苏显苦英快称坏移约巴材省黑武培著河帝仅针怎植京助升王眼她抓含苗副杂普谈围食射源例致酸旧却充足短划剂宣环落首尺波承粉践府鱼随考刻靠够满夫失包住促枝局菌杆周护岩师举曲春元超负砂封换太模贫减阳扬江析亩木言球朝医校古呢稻宋听唯输滑站另卫字鼓刚写刘微略范供阿块某功套友限项余倒卷创律雨让骨远帮初皮播优占死毒圈伟季训控激找叫云互跟裂粮粒母练塞钢顶策双留误础吸阻故寸盾晚丝女散焊功株亲院冷彻弹错散商视艺灭版烈零室轻血倍缺厘泵察绝富城冲喷壤简否柱李望盘磁雄似困巩益洲脱投送奴侧润盖挥距触星松送获兴独官混纪依未突架宽冬章湿偏纹吃执阀矿寨责熟稳夺硬价努翻奇甲预职评读背协损棉侵灰虽矛厚罗泥辟告卵箱掌氧恩爱停曾溶营终纲孟钱待尽俄缩沙退陈讨奋械载胞幼哪剥迫旋征槽倒握担仍呀鲜吧卡粗介钻逐弱脚怕盐末阴丰雾冠丙街莱贝辐肠付吉渗瑞惊顿挤秒悬姆烂森糖圣凹陶词迟蚕亿矩康遵牧遭幅园腔订香肉弟屋敏恢忘编印蜂急拿扩伤飞露核缘游振操央伍域甚迅辉异序免纸夜乡久隶缸夹念兰映沟乙吗儒杀汽磷艰晶插埃燃欢铁补咱芽永瓦倾阵碳演威附牙芽永瓦斜灌欧献顺猪洋腐请透司危括脉宜笑若尾束壮暴企菜穗楚汉愈绿拖牛份染既秋遍锻玉夏疗尖殖井费州访吹荣铜沿替滚客召旱悟刺脑措贯藏敢令隙炉壳硫煤迎铸粘探临薄旬善福纵择礼愿伏残雷延烟句纯渐耕跑泽慢栽鲁赤繁境潮横掉锥希池败船假亮谓托伙哲怀割摆贡呈劲财仪沉炼麻罪祖息车穿货销齐鼠抽画饲龙库守筑房歌寒喜哥洗蚀废纳腹乎录镜妇恶脂庄擦险赞钟摇典柄辩竹谷卖乱虚桥奥伯赶垂途额壁网截野遗静谋弄挂课镇妄盛耐援扎虑键归符庆聚绕摩忙舞遇索顾胶羊湖钉仁音迹碎伸灯避泛亡答勇频皇柳哈揭甘诺概宪浓岛袭谁洪谢炮浇斑讯懂灵蛋闭孩释乳巨徒私银伊景坦累匀霉杜乐勒隔弯绩招绍胡呼痛峰零柴簧午跳居尚丁秦稍追梁折耗碱殊岗挖氏刃剧堆赫荷胸衡勤膜篇登驻案刊秧缓凸役剪川雪链渔啦脸户洛孢勃盟买杨宗焦赛旗滤硅炭股坐蒸凝竟陷枪黎救冒暗洞犯筒您宋弧爆谬涂味津臂障褐陆啊健尊豆拔莫抵桑坡缝警挑污冰柬嘴啥饭塑寄赵喊垫丹渡耳刨虎笔稀昆浪萨茶滴浅拥穴覆伦娘吨浸袖珠雌妈紫戏塔锤震岁貌洁剖牢锋疑霸闪埔猛诉刷狠忽灾闹乔唐漏闻沈熔氯荒茎男凡抢像浆旁玻亦忠唱蒙予纷捕锁尤乘乌智淡允叛畜俘摸锈扫毕璃宝芯爷鉴秘净蒋钙肩腾枯抛轨堂拌爸循诱祝励肯酒绳穷塘燥泡袋朗喂铝软渠颗惯贸粪综墙趋彼届墨碍启逆卸航衣孙龄岭骗休借'


def charedits(text, lang, rate, rng):
    """rate of the characters (Chinese) or words (English) replaced,
    deleted or doubled"""
    if lang == 'zh':
        out = []
        for c in text:
            if HANRE.match(c) and rng.random() < rate:
                r = rng.random()
                if r < 0.6:
                    out.append(rng.choice(COMMON))
                elif r < 0.8:
                    continue
                else:
                    out.append(c + c)
            else:
                out.append(c)
        return ''.join(out)

    def w(m):
        x = m.group(0)
        if rng.random() >= rate:
            return x
        r = rng.random()
        if r < 0.5 and len(x) > 3:
            i = rng.randrange(len(x) - 1)
            return x[:i] + x[i + 1] + x[i] + x[i + 2:]
        if r < 0.75:
            return ''
        return rng.choice(['the', 'this', 'system', 'file', 'user', 'data', 'package', 'when'])
    return re.sub(r'[A-Za-z]+', w, text)


def punct(text, lang, rng):
    """full-/half-width punctuation swapped, some lines merged or split"""
    if lang == 'zh':
        tbl = str.maketrans({'，': ',', '。': '. ', '：': ':', '；': ';', '（': '(', '）': ')', '！': '!',
                             '？': '?', '“': '"', '”': '"'})
        if rng.random() < 0.5:
            text = text.translate(tbl)
        else:
            text = text.replace('，', '、' if rng.random() < 0.5 else '，')
    else:
        text = text.replace(', ', ' , ' if rng.random() < 0.3 else ';  ').replace('. ', '.  ')
    lines = text.split('\n')
    out = []
    for ln in lines:
        if out and rng.random() < 0.3:
            out[-1] = out[-1] + ('' if lang == 'zh' else ' ') + ln
        else:
            out.append(ln)
    res = []
    for ln in out:
        if len(ln) > 80 and rng.random() < 0.3:
            k = len(ln) // 2
            res.extend([ln[:k], ln[k:]])
        else:
            res.append(ln)
    return '\n'.join(res)


def sentences_shuffle(paras, lang, rng, rate):
    """rate of the sentences dropped or moved to another paragraph"""
    sp = r'(?<=[。！？；])' if lang == 'zh' else r'(?<=[.!?])\s+'
    ps = [[s for s in re.split(sp, p) if s.strip()] for p in paras]
    flat = [(i, s) for i, p in enumerate(ps) for s in p]
    keep = []
    moved = []
    for i, s in flat:
        r = rng.random()
        if r < rate / 2:
            continue
        if r < rate:
            moved.append(s)
        else:
            keep.append((i, s))
    out = [[] for _ in ps]
    for i, s in keep:
        out[i].append(s)
    for s in moved:
        out[rng.randrange(len(out))].append(s)
    j = '' if lang == 'zh' else ' '
    return [j.join(p) for p in out if p]


def opencc(texts, cfg):
    if not texts:
        return []
    sep = '\n\u2063\u2063\u2063\n'
    r = subprocess.run(['opencc', '-c', cfg], input=sep.join(texts), capture_output=True, text=True,
                       check=True).stdout
    out = r.split(sep)
    out[-1] = out[-1].rstrip('\n')
    assert len(out) == len(texts)
    return out


# --------------------------------------------------------------------------
# the set

ZH_T = ['template', 'homophone', 'charedit', 'punct', 'script', 'sentences']
EN_T = ['template', 'charedit', 'punct', 'sentences']


def plan(lang, rng):
    """a combination of 1-4 transformations and their parameters"""
    names = ZH_T if lang == 'zh' else EN_T
    n = rng.choice([1, 1, 2, 2, 3, 4]) if lang == 'zh' else rng.choice([1, 1, 2, 3])
    pick = sorted(rng.sample(names, min(n, len(names))), key=names.index)
    if lang == 'zh' and rng.random() < 0.35 and 'homophone' not in pick:
        pick = sorted(pick[:3] + ['homophone'], key=names.index)
    p = {'t': pick, 'hrate': 0.0, 'erate': 0.0, 'share': 0.0,
         'site': rng.randrange(12), 'where': rng.choice(['plain', 'other', 'same']),
         'cfg': rng.choice(['s2t.json', 's2twp.json'])}
    if 'homophone' in pick:
        p['hrate'] = rng.choice([0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5])
    if 'charedit' in pick:
        p['erate'] = rng.choice([0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.12, 0.15])
    if 'template' in pick:
        p['share'] = rng.uniform(0.0, 0.7)
    p['srate'] = rng.uniform(0.1, 0.25)
    return p


def transform(art, lang, p, rng, homo, titles, script_jobs, slot):
    """b from the article art (title, paragraphs) under plan p; script
    conversion is queued (script_jobs) and applied later"""
    title, paras = art
    paras = list(paras)
    if 'sentences' in p['t']:
        paras = sentences_shuffle(paras, lang, rng, p['srate']) or paras
    text = '\n'.join(paras)
    if 'homophone' in p['t']:
        text = homo.apply(text, p['hrate'], rng)
    if 'charedit' in p['t']:
        text = charedits(text, lang, p['erate'], rng)
    if 'punct' in p['t']:
        text = punct(text, lang, rng)
    paras = [x for x in text.split('\n') if x.strip()]
    if 'template' in p['t']:
        st = site(lang, p['site'])
        hd, ft = template_lines(st, titles, rng, p['share'], nbytes('\n'.join(paras)))
        out = render(st, title, paras, hd, ft, rng)
    else:
        out = '\n'.join([title] + paras) if rng.random() < 0.5 else '\n'.join(paras)
    if 'script' in p['t']:
        script_jobs.append((slot, out, p['cfg']))
    return out


def plain(art):
    return '\n'.join([art[0]] + list(art[1]))


def a_side(art, lang, p, rng, titles):
    """a: the article plain, or in another site's template, or in the same
    site's (when b has a template)"""
    if 'template' not in p['t'] or p['where'] == 'plain':
        return plain(art)
    k = p['site'] if p['where'] == 'same' else (p['site'] + 1 + rng.randrange(11)) % 12
    st = site(lang, k)
    hd, ft = template_lines(st, titles, rng, p['share'], nbytes('\n'.join(art[1])))
    return render(st, art[0], list(art[1]), hd, ft, rng)


def grams(paras):
    t = re.sub(r'\s+', '', ''.join(paras))
    return {t[i:i + 4] for i in range(len(t) - 3)}


def unlike(x, y):
    """do two articles share little (character 4-gram containment < 0.3)?"""
    gx, gy = grams([x[0]] + list(x[1])), grams([y[0]] + list(y[1]))
    return len(gx & gy) < 0.2 * max(1, min(len(gx), len(gy)))


def split_of(path):
    return 'train' if h32('split/' + os.path.basename(path)) % 10 < 6 else 'test'


def draw(seed, path, paras, lang, per_file, seen=None):
    """the file's articles (runs of paragraphs), the pairs drawn (article i
    and its neighbour i + 1: [(i, freshness)]) and the rng after the draw.
    seen (an earlier draw's paragraphs and (article, neighbour) pairs): its
    pairs are left out and the others taken freshest first: 'unseen' (no
    paragraph seen), 'nb-seen' (only the neighbour's), 'seen' (some of the
    article's: cut otherwise), 'same-art' (the article is one drawn before,
    newly paired and transformed)"""
    rng = random.Random('%d/%s' % (seed, path))
    arts = articles(paras, lang, rng)
    if len(arts) < 2:
        return rng, arts, []
    idx = list(range(len(arts) - 1))
    rng.shuffle(idx)
    if seen is None:
        return rng, arts, sorted((i, None) for i in idx[:per_file])
    paras_seen, pairs_seen = seen
    arts_seen = {x for pair in pairs_seen for x in pair}
    level = lambda i: (3 if tuple(arts[i]) in arts_seen else
                       2 if not paras_seen.isdisjoint(arts[i]) else
                       1 if not paras_seen.isdisjoint(arts[i + 1]) else 0)
    idx = sorted((i for i in idx if (tuple(arts[i]), tuple(arts[i + 1])) not in pairs_seen), key=level)
    return rng, arts, sorted((i, ('unseen', 'nb-seen', 'seen', 'same-art')[level(i)])
                             for i in idx[:per_file])


def drawn_test(src, seed, per_file):
    """the paragraphs and (article, neighbour) pairs that build(seed,
    per_file) draws from the test files (pairs dropped as near-copies too)"""
    paras_seen, pairs_seen = set(), set()
    for book, lang, path, paras in src:
        if split_of(path) == 'test':
            _, arts, picks = draw(seed, path, paras, lang, per_file)
            for i, _ in picks:
                paras_seen.update(arts[i] + arts[i + 1])
                pairs_seen.add((tuple(arts[i]), tuple(arts[i + 1])))
    return paras_seen, pairs_seen


def build(seed, per_file, fresh_after=None):
    """fresh_after: (seed, per_file) of an earlier set: the test files only,
    none of its pairs, the freshest pairs first (draw()); a row's split is
    then its freshness"""
    src = sources()
    say('sources: %d files' % len(src))
    seen = None
    if fresh_after is not None:
        seen = drawn_test(src, *fresh_after)
        say('seed %d drew %d paragraphs, %d pairs of articles from the test files'
            % (fresh_after[0], len(seen[0]), len(seen[1])))
    used = set()
    for b, lang, path, paras in src:
        if lang == 'zh':
            for p in paras:
                used.update(HANRE.findall(p))
    homo = Homo(used)
    rows = []
    jobs = []
    for book, lang, path, paras in src:
        split = split_of(path)
        if fresh_after is not None and split != 'test':
            continue
        rng, arts, picks = draw(seed, path, paras, lang, per_file, seen)
        if len(arts) < 2:
            continue
        all_titles = [p[0][:24] for p in arts]
        arts = [(a[0][:60], a[1:] if len(a) > 2 else a) for a in arts]
        for i, fresh in picks:
            a, nb = arts[i], arts[i + 1]
            if not unlike(a, nb):
                continue            # a near-copy of its neighbour: no clean negative
            # related posts: titles of other articles of the file, not of these two
            titles = [t for j, t in enumerate(all_titles) if abs(j - i) > 2] or ['']
            p = plan(lang, rng)
            kind = '+'.join(p['t'])
            fname = os.path.relpath(path, '/usr/share')

            def add(kind, label, x, y, share, hr, er, tr):
                rows.append([fresh or split, kind, lang, label, book, x, y, '%.3f' % share, '%.2f' % hr,
                             '%.2f' % er, tr, fname, i])
                return len(rows) - 1
            ax = a_side(a, lang, p, rng, titles)
            r = len(rows)
            bx = transform(a, lang, p, rng, homo, titles, jobs, (r, 6))
            add(kind, 't', ax, bx, p['share'], p['hrate'], p['erate'], kind)
            # negatives: the neighbour with the same transformations
            r = len(rows)
            nx = transform(nb, lang, p, rng, homo, titles, jobs, (r, 6))
            add('neighbour-same', 'f', ax, nx, p['share'], p['hrate'], p['erate'], kind)
            # the plain neighbour
            add('neighbour', 'f', plain(a), plain(nb), 0.0, 0.0, 0.0, '')
            # the same site template around a and its neighbour
            st = site(lang, rng.randrange(12))
            share = rng.uniform(0.3, 0.7) if rng.random() < 0.8 else rng.uniform(0.05, 0.3)
            sa = nbytes('\n'.join(a[1]))
            sn = nbytes('\n'.join(nb[1]))
            hd, ft = template_lines(st, titles, rng, share, min(sa, sn))
            hd2, ft2 = template_lines(st, titles, rng, share, min(sa, sn))
            # the page-varying line (the date) differs; the rest is the site's
            pa = render(st, a[0], list(a[1]), hd, ft, rng)
            pb = render(st, nb[0], list(nb[1]), hd2, ft2, rng)
            add('same-template', 'f', pa, pb, share, 0.0, 0.0, 'template')
    for cfg in ('s2t.json', 's2twp.json'):
        js = [(slot, t) for slot, t, c in jobs if c == cfg]
        for (slot, _), out in zip(js, opencc([t for _, t in js], cfg)):
            rows[slot[0]][slot[1]] = out
    return rows


def escape(s):
    return (str(s).replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n')
            .replace('\r', '\\r'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, default=SEED)
    ap.add_argument('--per-file', type=int, default=6)
    ap.add_argument('--stats', action='store_true')
    ap.add_argument('--fresh-after', type=int, metavar='SEED',
                    help='a fresh sample of the test files: none of the pairs of articles that '
                    '--seed SEED (default --per-file) drew there, the freshest first; the split '
                    'column says how fresh (unseen, nb-seen, seen, same-art)')
    a = ap.parse_args()
    fresh = None if a.fresh_after is None else (a.fresh_after, ap.get_default('per_file'))
    rows = build(a.seed, a.per_file, fresh)
    out = []
    for n, r in enumerate(rows, 1):
        pid = 200000 + n
        split = r[0]
        if not fresh and split == 'test' and h32('pair/%s/%d/%s/%s' % (r[11], r[12], r[1], r[3])) % 4 == 0:
            split = 'untouched'
        out.append([pid, split] + r[1:11])
    if a.stats:
        from collections import Counter
        c = Counter((x[1], x[2].split('+')[0] if x[4] == 't' else x[2], x[4]) for x in out)
        for k in sorted(c):
            print('%-10s %-16s %s %5d' % (k + (c[k],)))
        print('pairs', len(out), 'copies', sum(x[4] == 't' for x in out))
        return
    w = sys.stdout.write
    for x in out:
        w('\t'.join(escape(v) for v in x) + '\n')


if __name__ == '__main__':
    main()
