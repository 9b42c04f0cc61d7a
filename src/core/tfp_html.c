/*
 * tfp_html.c -- html_text(), version 1: the tokenizer, in the spirit of the
 * HTML Standard's (definition in tfp_html.h); it hands text and tags to
 * tfp_html_tree.c, which keeps the stack of open elements and the
 * paragraphs, and tfp_html_select.c chooses the paragraphs of the text.
 * One pass over the input: time is linear in it.
 */
#include <string.h>

#include "tfp_core.h"
#include "tfp_html_int.h"

/* text in[from..to): characters (CR LF and CR become LF), with character
 * references if refs */
void
tfp_html_emit_text(html_ctx *c, size_t from, size_t to, int refs)
{
	size_t		i = from;

	while (i < to && !c->failed)
	{
		unsigned char ch = (unsigned char) c->in[i];
		uint32_t	cp[2];
		int			ncp;
		size_t		n;

		tick_at(c, i);
		if (ch == '&' && refs &&
			(n = tfp_html_charref(c->in + i + 1, to - i - 1, 0, cp, &ncp)) > 0)
		{
			tfp_html_text_cp(c, cp[0]);
			if (ncp == 2)
				tfp_html_text_cp(c, cp[1]);
			i += 1 + n;
		}
		else if (ch == '\r')
		{
			tfp_html_text_cp(c, '\n');
			i += (i + 1 < to && c->in[i + 1] == '\n') ? 2 : 1;
		}
		else if (ch < 0x80)
		{
			tfp_html_text_cp(c, ch);
			i++;
		}
		else
		{
			i += tfp_utf8_decode((const unsigned char *) c->in + i, to - i, &cp[0]);
			tfp_html_text_cp(c, cp[0]);
		}
	}
}

/* the position after a bogus comment whose content starts at k */
static size_t
bogus_comment(html_ctx *c, size_t k)
{
	const char *g = k < c->len ? memchr(c->in + k, '>', c->len - k) : NULL;

	return g ? (size_t) (g - c->in) + 1 : c->len;
}

/* the position after a comment whose content starts at k (after "<!--") */
static size_t
comment(html_ctx *c, size_t k)
{
	const char *in = c->in;

	if (k < c->len && in[k] == '>')
		return k + 1;			/* <!--> */
	if (k + 1 < c->len && in[k] == '-' && in[k + 1] == '>')
		return k + 2;			/* <!---> */
	for (size_t j = k; j + 2 < c->len; j++)
	{
		tick_at(c, j);
		if (in[j] != '-' || in[j + 1] != '-')
			continue;
		if (in[j + 2] == '>')
			return j + 3;
		if (in[j + 2] == '!' && j + 3 < c->len && in[j + 3] == '>')
			return j + 4;
	}
	return c->len;
}

/* is in[k..) the name (lower case, ASCII case-insensitive) followed by
 * white space, '/' or '>'? */
static int
name_at(html_ctx *c, size_t k, const char *name, size_t nl)
{
	if (k + nl >= c->len)
		return 0;
	for (size_t j = 0; j < nl; j++)
		if (lower(c->in[k + j]) != name[j])
			return 0;
	return is_ws(c->in[k + nl]) || c->in[k + nl] == '/' || c->in[k + nl] == '>';
}

/*
 * The end of raw text or RCDATA from i: the position of the "</name" that
 * ends it, or len.  In a script, "<!--" starts an escaped part where
 * "<script" starts a double-escaped one, in which "</script" only returns
 * to the escaped part; "-->" ends either (the HTML Standard's script data
 * states).
 */
static size_t
raw_end(html_ctx *c, size_t i, const char *name, size_t nl, int script)
{
	const char *in = c->in;
	int			state = 0,
				dashes = 0;

	for (; i < c->len; i++)
	{
		char		ch = in[i];

		tick_at(c, i);
		if (ch == '-')
		{
			dashes++;
			continue;
		}
		if (ch == '>' && state && dashes >= 2)
			state = 0;
		dashes = 0;
		if (ch != '<')
			continue;
		if (i + 1 < c->len && in[i + 1] == '/' && name_at(c, i + 2, name, nl))
		{
			if (state == 2)
			{
				state = 1;
				continue;
			}
			return i;
		}
		if (!script)
			continue;
		if (state == 0 && i + 3 < c->len && in[i + 1] == '!' && in[i + 2] == '-' && in[i + 3] == '-')
		{
			state = 1;
			dashes = 2;
			i += 3;
		}
		else if (state == 1 && name_at(c, i + 1, "script", 6))
			state = 2;
	}
	return c->len;
}

/* a LF (or CR LF, CR) at pos is skipped (after <pre>, <listing>, <textarea>) */
size_t
tfp_html_skip_lf(html_ctx *c, size_t pos, size_t end)
{
	if (pos < end && c->in[pos] == '\n')
		return pos + 1;
	if (pos < end && c->in[pos] == '\r')
		return (pos + 1 < end && c->in[pos + 1] == '\n') ? pos + 2 : pos + 1;
	return pos;
}

/* an attribute value in[v..v+n) decoded into the scratch buffer */
static void
keep_value(html_ctx *c, html_attrs *at, int which, size_t v, size_t n)
{
	size_t		i = v,
				start;

	if (at->set[which])
		return;					/* the first of duplicates counts */
	if (!tfp_html_reserve(c, (void **) &c->scratch, &c->scap, c->slen + n + 8, 1))
		return;
	start = c->slen;
	while (i < v + n)
	{
		uint32_t	cp[2];
		int			ncp;
		size_t		r;

		tick_at(c, i);
		if (c->in[i] == '&' &&
			(r = tfp_html_charref(c->in + i + 1, v + n - i - 1, 1, cp, &ncp)) > 0)
		{
			/* a reference is never shorter than its UTF-8 (1.2x at most for
			 * a name: room for 8 more bytes covers the worst single one) */
			if (!tfp_html_reserve(c, (void **) &c->scratch, &c->scap, c->slen + (v + n - i) + 16, 1))
				return;
			for (int k = 0; k < ncp; k++)
				c->slen += (size_t) tfp_utf8_encode(cp[k], (unsigned char *) c->scratch + c->slen);
			i += 1 + r;
		}
		else
			c->scratch[c->slen++] = c->in[i++];
	}
	at->set[which] = 1;
	at->off[which] = start;
	at->len[which] = c->slen - start;
}


/*
 * A tag whose name starts at k (a letter); end: an end tag.  Returns the
 * position after it (and after the content of a raw-text element), or len
 * if the input ends inside it (the tag is then dropped).
 */
static size_t
tag(html_ctx *c, size_t k, int end)
{
	const char *in = c->in;
	char		name[11];
	size_t		nl = 0,
				i = k;
	uint32_t	h = 2166136261u;
	html_attrs	at;
	int			selfclose = 0,
				t;

	memset(&at, 0, sizeof(at));
	c->slen = 0;
	while (i < c->len && !is_ws(in[i]) && in[i] != '/' && in[i] != '>')
	{
		char		ch = lower(in[i]);

		tick_at(c, i);
		if (nl < sizeof(name))
			name[nl] = ch;
		nl++;
		h = (h ^ (unsigned char) ch) * 16777619u;
		i++;
	}
	/* attributes */
	for (;;)
	{
		size_t		an,
					al,
					vn = 0,
					vl = 0;
		int			has_value = 0;

		while (i < c->len && (is_ws(in[i]) || in[i] == '/'))
		{
			selfclose = in[i] == '/';
			i++;
		}
		if (i >= c->len)
			return c->len;
		if (in[i] == '>')
		{
			i++;
			break;
		}
		selfclose = 0;
		an = i++;				/* a name may start with '=' */
		while (i < c->len && !is_ws(in[i]) && in[i] != '/' && in[i] != '>' && in[i] != '=')
		{
			tick_at(c, i);
			i++;
		}
		al = i - an;
		while (i < c->len && is_ws(in[i]))
			i++;
		if (i < c->len && in[i] == '=')
		{
			i++;
			while (i < c->len && is_ws(in[i]))
				i++;
			if (i >= c->len)
				return c->len;
			has_value = 1;
			if (in[i] == '"' || in[i] == '\'')
			{
				const char *q = memchr(in + i + 1, in[i], c->len - i - 1);

				if (q == NULL)
					return c->len;
				vn = i + 1;
				vl = (size_t) (q - in) - vn;
				i = (size_t) (q - in) + 1;
			}
			else
			{
				vn = i;
				while (i < c->len && !is_ws(in[i]) && in[i] != '>')
				{
					tick_at(c, i);
					i++;
				}
				vl = i - vn;
			}
		}
		if (end || al > 11)
			continue;
		{
			char		an_l[12];

			for (size_t j = 0; j < al; j++)
				an_l[j] = lower(in[an + j]);
#define IS(s) (al == sizeof(s) - 1 && memcmp(an_l, s, al) == 0)
			if (IS("href"))
				at.href = 1;
			else if (IS("hidden"))
				at.hidden = 1;
			else if (IS("aria-hidden") && has_value)
			{
				char		w[16];
				size_t		l;

				l = tfp_html_first_token(in + vn, vl, w);
				at.aria_hidden |= (l == 4 && memcmp(w, "true", 4) == 0);
			}
			else if (IS("role"))
				keep_value(c, &at, A_ROLE, vn, vl);
			else if (IS("class"))
				keep_value(c, &at, A_CLASS, vn, vl);
			else if (IS("id"))
				keep_value(c, &at, A_ID, vn, vl);
			else if (IS("style"))
				keep_value(c, &at, A_STYLE, vn, vl);
			else if (IS("alt"))
				keep_value(c, &at, A_ALT, vn, vl);
#undef IS
		}
	}
	t = nl <= 10 ? tfp_html_tag_lookup(name, nl) : -1;
	if (end)
	{
		tfp_html_end_tag(c, t, (uint16_t) (h ^ (h >> 16)));
		return i;
	}
	return tfp_html_start_tag(c, t, (uint16_t) (h ^ (h >> 16)), &at, selfclose, i);
}

/* the content of a raw-text or RCDATA element from pos; returns the
 * position of its end tag (parsed as any other), or len */
size_t
tfp_html_raw_content(html_ctx *c, int t, size_t pos)
{
	int			id = tid(t);
	size_t		end = raw_end(c, pos, tfp_html_tags[t].name, strlen(tfp_html_tags[t].name), id == T_SCRIPT);

	if (id == T_TEXTAREA)
		pos = tfp_html_skip_lf(c, pos, end);
	if (!(tfp_html_tags[t].flags & F_HIDE) || id == T_TITLE)
		tfp_html_emit_text(c, pos, end, (tfp_html_tags[t].flags & F_RCDATA) != 0);
	return end;
}

/* markup at a '<' (position i): the position after it, or 0 if the '<' is
 * text */
static size_t
markup(html_ctx *c, size_t i)
{
	const char *in = c->in;
	size_t		len = c->len;

	if (i + 1 >= len)
		return 0;
	if (is_alpha(in[i + 1]))
		return tag(c, i + 1, 0);
	if (in[i + 1] == '/')
	{
		if (i + 2 >= len)
			return 0;
		if (is_alpha(in[i + 2]))
			return tag(c, i + 2, 1);
		if (in[i + 2] == '>')
			return i + 3;
		return bogus_comment(c, i + 2);
	}
	if (in[i + 1] == '?')
		return bogus_comment(c, i + 1);
	if (in[i + 1] != '!')
		return 0;
	if (i + 3 < len && in[i + 2] == '-' && in[i + 3] == '-')
		return comment(c, i + 4);
	if (cur(c)->foreign && len - i >= 9 && memcmp(in + i + 2, "[CDATA[", 7) == 0)
	{
		size_t		j;

		for (j = i + 9; j + 2 < len; j++)
		{
			tick_at(c, j);
			if (in[j] == ']' && in[j + 1] == ']' && in[j + 2] == '>')
				break;
		}
		if (j + 2 >= len)
			j = len;
		tfp_html_emit_text(c, i + 9, j, 0);
		return j < len ? j + 3 : len;
	}
	return bogus_comment(c, i + 2);
}

static void *
alloc_zero(const tfp_html_alloc *a, size_t n)
{
	void	   *p = a->grow(a->ctx, NULL, n);

	if (p)
		memset(p, 0, n);
	return p;
}

int
tfp_html_text(const char *in, size_t len, const tfp_html_opts *opts,
			  const tfp_html_alloc *a, void (*tick) (void),
			  char **out, size_t *outlen)
{
	html_ctx   *c = alloc_zero(a, sizeof(html_ctx));
	size_t		i = 0;
	int			failed;

	if (c == NULL)
		return -1;
	c->in = in;
	c->len = len;
	c->o = opts;
	c->a = a;
	c->tick = tick;
	c->ix_head = tfp_html_tag_lookup("head", 4);
	c->root.tag = -1;
	c->root.form = c->root.article = c->root.row = c->root.cell = -1;
	c->root.p_at = c->root.li_at = c->root.dd_at = c->root.a_at = -1;
	c->root.cell_at = c->root.tr_at = -1;
	tfp_html_reserve(c, (void **) &c->buf, &c->bcap, (len < 131072 ? len / 2 : 65536) + 16, 1);
	while (i < len && !c->failed)
	{
		unsigned char ch = (unsigned char) in[i];
		size_t		j;

		tick_at(c, i);
		if (ch == '<')
		{
			if ((j = markup(c, i)) > 0)
			{
				i = j;
				continue;
			}
			tfp_html_text_cp(c, '<');
			i++;
			continue;
		}
		/* a run of text up to the next '<' */
		j = i + 1;
		while (j < len && in[j] != '<')
			j++;
		tfp_html_emit_text(c, i, j, 1);
		i = j;
	}
	tfp_html_break_block(c);
	failed = c->failed;
	if (!failed)
	{
		*outlen = tfp_html_select(c->buf, c->blocks, c->nblocks, opts);
		*out = c->buf;
	}
	else if (a->release && c->buf)
		a->release(a->ctx, c->buf);
	if (a->release)
	{
		if (c->blocks)
			a->release(a->ctx, c->blocks);
		if (c->scratch)
			a->release(a->ctx, c->scratch);
		a->release(a->ctx, c);
	}
	return failed ? -1 : 0;
}

int
tfp_html_looks_like(const char *s, size_t len)
{
	size_t		i = 0,
				n = 0;
	char		name[11];

	for (;;)
	{
		if (i < len && is_ws(s[i]))
			i++;
		else if (i + 2 < len && (unsigned char) s[i] == 0xEF &&
				 (unsigned char) s[i + 1] == 0xBB && (unsigned char) s[i + 2] == 0xBF)
			i += 3;
		else
			break;
	}
	if (i + 1 >= len || s[i] != '<')
		return 0;
	i++;
	if (len - i >= 3 && memcmp(s + i, "!--", 3) == 0)
		return 1;
	if (len - i >= 8)
	{
		char		w[8];

		for (int k = 0; k < 8; k++)
			w[k] = lower(s[i + k]);
		if (memcmp(w, "!doctype", 8) == 0)
			return 1;
	}
	if (len - i >= 4 && s[i] == '?' && lower(s[i + 1]) == 'x' && lower(s[i + 2]) == 'm' &&
		lower(s[i + 3]) == 'l')
		return 1;
	while (i < len && is_alnum_c(s[i]) && n < sizeof(name))
		name[n++] = lower(s[i++]);
	if (n == 0 || i >= len || !(is_ws(s[i]) || s[i] == '/' || s[i] == '>'))
		return 0;
	return tfp_html_tag_lookup(name, n) >= 0;
}

