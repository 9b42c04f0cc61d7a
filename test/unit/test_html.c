/*
 * test_html.c -- unit tests of html_text()'s core (tfp_html.c,
 * tfp_html_tree.c, tfp_html_select.c): character references (every named reference of the
 * table, longest match, legacy names, numeric rules), the tokenizer and the
 * element rules on hand-written documents, boilerplate rules, HTML
 * detection, failing allocations, and inputs that would be quadratic or
 * deep for a naive parser.
 */
#include <stdio.h>
#include <string.h>

#include "tfp_core.h"
#include "tfp_html.h"
#include "tap.h"
#include "html_run.h"

/* does html_text(in) with options b, m, alt equal want? */
static void
expect(const char *in, int b, int m, int alt, const char *want)
{
	size_t		n;
	char	   *out = html_run(in, strlen(in), b, m, alt, &n);
	char		what[300];
	int			ok = out && n == strlen(want) && memcmp(out, want, n) == 0;

	snprintf(what, sizeof(what), "html_text(%.60s%s, %d%d%d)", in, strlen(in) > 60 ? "..." : "", b, m, alt);
	for (char *p = what; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	check(ok, what);
	if (!ok)
		printf("#   got  [%s]\n#   want [%s]\n", out ? out : "(failed)", want);
	free(out);
}

static void
test_charrefs(void)
{
	uint32_t	cp[2];
	int			ncp,
				bad = 0;
	char		buf[64];

	/* every name of the table decodes to its code points */
	for (int i = 0; i < TFP_HTML_ENTITY_COUNT; i++)
	{
		const tfp_html_entity_def *e = &tfp_html_entities[i];
		size_t		r;

		memcpy(buf, e->name, e->len);
		buf[e->len] = ' ';
		r = tfp_html_charref(buf, e->len + 1, 0, cp, &ncp);
		if (r != e->len || cp[0] != e->cp1 || (ncp == 2) != (e->cp2 != 0) ||
			(ncp == 2 && cp[1] != e->cp2))
			bad++;
		if (i > 0 && strcmp(tfp_html_entities[i - 1].name, e->name) >= 0)
			bad++;
	}
	check(bad == 0, "every named reference decodes, the table is sorted");
	check(tfp_html_charref("notin;", 6, 0, cp, &ncp) == 6 && cp[0] == 0x2209, "&notin; is one name");
	check(tfp_html_charref("notit;", 6, 0, cp, &ncp) == 3 && cp[0] == 0xAC, "&notit; is &not + it; (longest match)");
	check(tfp_html_charref("notit;", 6, 1, cp, &ncp) == 0, "&notit in an attribute is text");
	check(tfp_html_charref("amp=1", 5, 1, cp, &ncp) == 0, "&amp= in an attribute is text");
	check(tfp_html_charref("amp=1", 5, 0, cp, &ncp) == 3 && cp[0] == '&', "&amp= in text is &");
	check(tfp_html_charref("amp;=1", 6, 1, cp, &ncp) == 4, "&amp;= in an attribute is &");
	check(tfp_html_charref("nGt;", 4, 0, cp, &ncp) == 4 && ncp == 2 && cp[0] == 0x226B && cp[1] == 0x20D2,
		  "&nGt; is two code points");
	check(tfp_html_charref("xyz;", 4, 0, cp, &ncp) == 0, "unknown name: text");
	check(tfp_html_charref("Amp;", 4, 0, cp, &ncp) == 0, "names are case-sensitive (&Amp;)");
	check(tfp_html_charref("#65;", 4, 0, cp, &ncp) == 4 && cp[0] == 'A', "&#65;");
	check(tfp_html_charref("#x4E2D", 6, 0, cp, &ncp) == 6 && cp[0] == 0x4E2D, "&#x4E2D without ;");
	check(tfp_html_charref("#X4e2d;", 7, 0, cp, &ncp) == 7 && cp[0] == 0x4E2D, "&#X4e2d;");
	check(tfp_html_charref("#0;", 3, 0, cp, &ncp) == 3 && cp[0] == 0xFFFD, "&#0; is U+FFFD");
	check(tfp_html_charref("#xD800;", 7, 0, cp, &ncp) == 7 && cp[0] == 0xFFFD, "surrogate is U+FFFD");
	check(tfp_html_charref("#x110000;", 9, 0, cp, &ncp) == 9 && cp[0] == 0xFFFD, "past U+10FFFF is U+FFFD");
	check(tfp_html_charref("#99999999999999999999;", 22, 0, cp, &ncp) == 22 && cp[0] == 0xFFFD,
		  "a huge number is U+FFFD");
	check(tfp_html_charref("#128;", 5, 0, cp, &ncp) == 5 && cp[0] == 0x20AC, "&#128; is the euro sign (Windows-1252)");
	check(tfp_html_charref("#x9F;", 5, 0, cp, &ncp) == 5 && cp[0] == 0x178, "&#x9F; is Y diaeresis");
	check(tfp_html_charref("#x81;", 5, 0, cp, &ncp) == 5 && cp[0] == 0x81, "&#x81; is kept (undefined in Windows-1252)");
	check(tfp_html_charref("#;", 2, 0, cp, &ncp) == 0 && tfp_html_charref("#x;", 3, 0, cp, &ncp) == 0,
		  "&#; and &#x; are text");
	check(tfp_html_charref("", 0, 0, cp, &ncp) == 0, "nothing after &");
}

static void
test_documents(void)
{
	/* entities and text */
	expect("a &amp; b &lt;c&gt; &copy 2024 &euro;&#8364;&#x20ac;", 1, 1, 0, "a & b <c> \xc2\xa9 2024 \xe2\x82\xac\xe2\x82\xac\xe2\x82\xac");
	expect("x &nbsp;&nbsp; y&nbsp;z", 1, 1, 0, "x y z");
	expect("1 < 2 && 3 > 2 & a <3", 1, 1, 0, "1 < 2 && 3 > 2 & a <3");
	expect("", 1, 1, 0, "");
	expect("   \n\t ", 1, 1, 0, "");
	/* scripts, styles, comments, doctype */
	expect("<!DOCTYPE html><html><head><title>T</title><style>p{color:red}</style>"
		   "<script>if (a<b) document.write('</p>x');</script></head>"
		   "<body><!-- a comment <p>no</p> --><p>Hello</p></body></html>", 1, 1, 0, "Hello");
	expect("<script><!-- document.write('<script>x</script>'); --></script>after", 1, 1, 0, "after");
	expect("<script>a <!-- b </script>c", 1, 1, 0, "c");
	expect("<!-->x<!--->y<!-- a --!>z", 1, 1, 0, "xyz");
	expect("<?xml version='1.0'?><p>a</p></ x>b<!bogus>c", 1, 1, 0, "a\nbc");
	expect("<title>T &amp; X</title><p>body", 0, 0, 0, "T & X\nbody");
	expect("<title>T &amp; X</title><p>body", 1, 1, 0, "body");
	expect("<textarea>\n  raw <b>x</b> &amp;</textarea>", 0, 0, 0, "  raw <b>x</b> &");
	expect("<textarea>x</textarea>y", 1, 1, 0, "y");
	expect("<xmp><b>bold</b>\n  kept</xmp>", 1, 1, 0, "<b>bold</b>\n  kept");
	expect("<p>a<plaintext><b>&amp;</b>", 1, 1, 0, "a\n<b>&amp;</b>");
	expect("<noscript><p>enable js</p></noscript><iframe><p>x</p></iframe><p>y", 1, 1, 0, "y");
	expect("<template><p>t</p></template><p>u", 0, 0, 0, "u");
	/* blocks, line breaks, white space */
	expect("<p>one\n two</p><p>three<br>four<br><br>five</p>", 1, 1, 0, "one two\nthree\nfour\nfive");
	expect("<div>a<div>b</div>c</div>", 1, 1, 0, "a\nb\nc");
	expect("<p>a <b>b</b><i>c</i> d</p>", 1, 1, 0, "a bc d");
	expect("<p>\xe4\xb8\xad\xe6\x96\x87\n\xe6\x96\x87\xe6\x9c\xac English\ntext\xef\xbc\x8c\n\xe5\xa5\xbd</p>", 1, 1, 0,
		   "\xe4\xb8\xad\xe6\x96\x87\xe6\x96\x87\xe6\x9c\xac English text\xef\xbc\x8c\xe5\xa5\xbd");
	expect("<p>\xe4\xb8\xad \xe6\x96\x87</p>", 1, 1, 0, "\xe4\xb8\xad \xe6\x96\x87");
	expect("<pre>\n  code\n    indented  \n</pre><p>x", 1, 1, 0, "  code\n    indented\nx");
	expect("<pre>a<br>b</pre>", 1, 1, 0, "a\nb");
	expect("a\r\nb\rc", 1, 1, 0, "a b c");
	/* lists and tables, implied ends */
	expect("<ul><li>one<li>two<ul><li>two.one</ul><li>three</ul>", 1, 1, 0, "one\ntwo\ntwo.one\nthree");
	expect("<dl><dt>term<dd>definition<dt>t2<dd>d2</dl>", 1, 1, 0, "term\ndefinition\nt2\nd2");
	expect("<table><tr><td>a<td>b<tr><th>c</th><td><p>d</p><p>e</p></table>", 1, 1, 0, "a\tb\nc\td\ne");
	expect("<p>a<div>b</div>c</p>", 1, 1, 0, "a\nb\nc");
	expect("<h1>Title<h2>Sub</h2>", 1, 1, 0, "Title\nSub");
	expect("<select><option>one<option>two</select>", 0, 0, 0, "one\ntwo");
	/* broken markup */
	expect("<p>unclosed <b>bold <i>both</p>after", 1, 1, 0, "unclosed bold both\nafter");
	expect("<div><span>x</div></span>y", 1, 1, 0, "x\ny");
	expect("</p>a</div>b", 1, 1, 0, "ab");
	expect("<P CLASS=x>Upper</P><BR><DIV>Case</DIV>", 1, 1, 0, "Upper\nCase");
	expect("<p title='a > b' data-x=\"c > d\" e=f>g</p>", 1, 1, 0, "g");
	expect("<p>cut <a href=\"x", 1, 1, 0, "cut");
	expect("<p>cut <a", 1, 1, 0, "cut");
	expect("a<", 1, 1, 0, "a<");
	expect("a</", 1, 1, 0, "a</");
	expect("<unknown-tag hidden>x</unknown-tag>y<custom>z</custom>", 1, 1, 0, "yz");
	expect("<unknown-tag hidden>x</unknown-tag>y", 0, 0, 0, "xy");
	/* svg, math, CDATA */
	expect("<svg><title>icon</title><text>t</text></svg>after", 1, 1, 0, "after");
	expect("<svg><title>icon</title></svg>after", 0, 0, 0, "iconafter");
	expect("<math><mi>x</mi><![CDATA[<y>]]></math>", 1, 1, 0, "x<y>");
	expect("<![CDATA[hidden]]>shown", 1, 1, 0, "shown");
	expect("<svg><p>breaks out</p>", 1, 1, 0, "breaks out");
	expect("<svg/><p>after self-closing svg", 1, 1, 0, "after self-closing svg");
	/* images */
	expect("<p>a <img src=x alt=\"picture &amp; more\"> b</p>", 1, 1, 1, "a picture & more b");
	expect("<p>a <img src=x alt=\"picture\"> b</p>", 1, 1, 0, "a b");
}

static void
test_boilerplate(void)
{
	const char *page =
		"<html><head><title>Site - Article</title></head><body>"
		"<header><a href=/>MySite</a><nav><a href=/a>Home</a> | <a href=/b>News</a></nav></header>"
		"<div class=\"ad-slot\">Buy now, best prices anywhere!</div>"
		"<article><header><h1>The article title</h1></header>"
		"<p>First paragraph of the article, long enough to be content.</p>"
		"<aside>Pull quote</aside>"
		"<p>Second paragraph with <a href=/c>a link</a> inside it, still content.</p>"
		"<footer>Tags: x, y</footer></article>"
		"<div class=related><h3>Related</h3><ul><li><a href=/1>Other story one</a>"
		"<li><a href=/2>Other story two</a></ul></div>"
		"<form action=/s><input name=q><button>Search</button> Search the site</form>"
		"<footer>Copyright 2024 MySite</footer></body></html>";

	expect(page, 1, 1, 0,
		   "The article title\n"
		   "First paragraph of the article, long enough to be content.\n"
		   "Second paragraph with a link inside it, still content.");
	expect(page, 0, 0, 0,
		   "Site - Article\nMySite\nHome | News\nBuy now, best prices anywhere!\n"
		   "The article title\n"
		   "First paragraph of the article, long enough to be content.\nPull quote\n"
		   "Second paragraph with a link inside it, still content.\nTags: x, y\n"
		   "Related\nOther story one\nOther story two\nSearch Search the site\nCopyright 2024 MySite");
	/* without main content: link lists and short neighbours go */
	expect("<div><a href=/>Home</a> <a href=/x>About</a></div><div>Menu</div>"
		   "<p>A long paragraph of running text that is the content of the page.</p>"
		   "<p>Short one.</p><p>Another long paragraph of running text, also content.</p>"
		   "<div>More:</div><ul><li><a href=/1>link one</a><li><a href=/2>link two</a></ul>", 1, 0, 0,
		   "Menu\nA long paragraph of running text that is the content of the page.\nShort one.\n"
		   "Another long paragraph of running text, also content.\nMore:");
	/* only short paragraphs: all kept */
	expect("<p>Step one.</p><p>Step two.</p><p><a href=x>see also</a></p>", 1, 1, 0, "Step one.\nStep two.");
	/* hidden parts */
	expect("<p>a<span hidden>b</span><span aria-hidden=\"TRUE\">c</span>"
		   "<span style=\"DISPLAY : none\">d</span><span style='visibility:hidden'>e</span>f</p>",
		   1, 1, 0, "af");
	expect("<div role=navigation>n</div><div role=\"banner x\">b</div><div role=main2>m</div>x",
		   1, 1, 0, "m\nx");
	/* class and id words */
	expect("<div id=sidebar>s</div><div class=\"nav-menu\">n</div><div class=\"main-content nav\">c</div>"
		   "<div class=shadow>d</div><div class=adsbygoogle>e</div><body class=nav>", 1, 1, 0, "s\nc\nd");
	/* a form around the whole page is kept */
	expect("<form id=aspnetForm><p>The whole page is inside a form, as ASP.NET pages are.</p></form>",
		   1, 1, 0, "The whole page is inside a form, as ASP.NET pages are.");
	/* main over article; the largest article */
	expect("<p>outside text that is long enough</p><main><p>inside main</p></main>", 1, 1, 0, "inside main");
	expect("<article><p>small</p></article><article><p>the larger article here</p></article><p>x</p>",
		   1, 1, 0, "the larger article here");
	expect("<main><p>tiny</p></main><p>a very long text outside of the main element, which is tiny</p>",
		   1, 1, 0, "tiny\na very long text outside of the main element, which is tiny");
	/* a header outside sections is the page banner; inside, content */
	expect("<header>banner</header><section><header>section head</header><p>body</p></section>",
		   1, 1, 0, "section head\nbody");
}

static void
test_detection(void)
{
	check(tfp_html_looks_like("<!DOCTYPE html><p>x", 19), "doctype is HTML");
	check(tfp_html_looks_like("\xef\xbb\xbf  <html lang=en>", 20), "BOM, spaces, <html ...> is HTML");
	check(tfp_html_looks_like("<P>x", 4), "<P> is HTML");
	check(tfp_html_looks_like("<!-- x -->", 10), "a comment first is HTML");
	check(tfp_html_looks_like("<?xml version=\"1.0\"?>", 21), "an XML declaration is HTML");
	check(tfp_html_looks_like("<div/>", 6), "<div/> is HTML");
	check(!tfp_html_looks_like("a <p> b", 7), "text first is not HTML");
	check(!tfp_html_looks_like("<foo>x", 6), "an unknown element first is not HTML");
	check(!tfp_html_looks_like("<p", 2), "a cut tag is not HTML");
	check(!tfp_html_looks_like("<3 you", 6), "<3 is not HTML");
	check(!tfp_html_looks_like("", 0), "empty is not HTML");
}

static void
test_limits(void)
{
	size_t		n = 400000,
				len;
	char	   *in = malloc(n * 8 + 64),
			   *out;
	int			ok;

	/* deep nesting: flattened past the stack, text kept, no crash */
	for (size_t i = 0; i < n; i++)
		memcpy(in + 5 * i, "<div>", 5);
	memcpy(in + 5 * n, "deep", 4);
	out = html_run(in, 5 * n + 4, 1, 1, 0, &len);
	check(out && len == 4 && memcmp(out, "deep", 4) == 0, "400,000 nested divs");
	free(out);
	/* unmatched end tags of unknown elements: no quadratic search */
	for (size_t i = 0; i < n; i++)
		memcpy(in + 8 * i, i < 600 ? "<x-a>ab " : "</x-b>  ", 8);
	out = html_run(in, 8 * n, 1, 1, 0, &len);
	check(out != NULL, "600 open unknown elements, 399,400 unmatched end tags");
	free(out);
	/* many unclosed p, li and a */
	for (size_t i = 0; i < n; i++)
		memcpy(in + 8 * i, (i % 3) == 0 ? "<p>x    " : (i % 3) == 1 ? "<li>y   " : "<a>z    ", 8);
	out = html_run(in, 8 * n, 1, 1, 0, &len);
	check(out != NULL && len > 0, "unclosed p, li, a");
	free(out);
	/* allocation failures at every point: -1, no crash (ASan: no leak) */
	ok = 1;
	for (long k = 0; k < 40; k++)
	{
		const char *doc = "<p>some text &amp; more</p><div class=x id=y style=z role=main>"
			"<p>paragraph two</p><p>three</p></div>";

		html_alloc_budget = k;
		out = html_run(doc, strlen(doc), 1, 1, 0, &len);
		html_alloc_budget = -1;
		if (out == NULL && k >= 39)
			ok = 0;
		free(out);
	}
	check(ok, "failing allocations are reported, never a crash");
	free(in);
}

int
main(void)
{
	test_charrefs();
	test_documents();
	test_boilerplate();
	test_detection();
	test_limits();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
