/*
 * tfp_pinyin_dna.c -- Daguan's pinyin "DNA" of a text (see tfp_pinyin.h)
 *
 * Pure C99, no PostgreSQL headers.
 *
 * Input: the initials string of a text (tfp_pinyin_letters), one letter per
 * Han syllable.  Steps, with the choices the source article leaves open:
 *
 * 1. Letters -> 21 buckets (tfp_dna_bucket): the 23 possible first letters
 *    of a syllable, with a/e/o (zero initial) merged.
 *
 * 2. Windows of `window` letters.  Content-defined (the default): window
 *    starts are the anchors chosen by winnowing (Schleimer, Wilkerson, Aiken
 *    2003) over the hashes of the letter 5-grams: in every run of 2*step-1
 *    consecutive 5-gram hashes the position of the smallest (rightmost on
 *    ties) is an anchor.  An anchor depends only on the 2*step+3 letters
 *    around it, so text inserted or removed elsewhere (at the start, say)
 *    moves windows but does not change them; anchors are on average `step`
 *    letters apart and never more than 2*step-1, so no text is skipped.
 *    Fixed mode: starts 0, step, 2*step, ... (for comparison: one letter
 *    inserted at the start changes every window).  Only windows lying wholly
 *    inside the text count; a text with letters but no whole window gets one
 *    window over all of its letters.
 *
 * 3. Reference distribution and normalization: a window of n letters is
 *    compared with n draws from the reference distribution p (the bucket
 *    shares in real Chinese text, tfp_pinyin_ref.c): bucket b's count c is
 *    mapped to its mid-p quantile q = P(X < c) + P(X = c) / 2, X ~
 *    Binomial(n, p_b).  This both subtracts the reference (q = 1/2 means "as
 *    expected") and normalizes the letters' very different scales (counts
 *    of a rare letter and of a frequent one become comparable).
 *
 * 4. Quantization and clamping: digit = floor(levels * q), clamped to
 *    levels - 1, so each digit 0 .. levels-1 is about equally likely under
 *    the reference (the most informative use of the digits).  In practice
 *    digit >= j iff c >= t_j, with thresholds t_j computed once per
 *    (window, levels) and cached.
 *
 * 5. Packing: the 21 digits, bucket order (a/e/o, b, c, d, f, ..., z), as a
 *    base-`levels` number, first bucket most significant.  levels <= 8 gives
 *    at most 8^21 - 1 = 2^63 - 1: always a non-negative int8.
 *
 * The document's DNA is the sorted set of its windows' DNAs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_pinyin.h"
#include "tfp_pinyin_dna_int.h"
#include "tfp_sort.h"

#define KGRAM TFP_DNA_KGRAM

/*
 * letter -> bucket; i, u, v start no syllable and go to NONE, an extra
 * count slot that nothing reads (so counting needs no branch).  Indexed by
 * the letter's byte; other bytes never occur in a letter string.
 */
#define NONE	TFP_DNA_NONE
#define SLOTS	(TFP_DNA_BUCKETS + 1)
const unsigned char tfp_dna_slot_of_byte[256] = {
	['a'] = 0, ['b'] = 1, ['c'] = 2, ['d'] = 3, ['e'] = 0, ['f'] = 4,
	['g'] = 5, ['h'] = 6, ['i'] = NONE, ['j'] = 7, ['k'] = 8, ['l'] = 9,
	['m'] = 10, ['n'] = 11, ['o'] = 0, ['p'] = 12, ['q'] = 13, ['r'] = 14,
	['s'] = 15, ['t'] = 16, ['u'] = NONE, ['v'] = NONE, ['w'] = 17,
	['x'] = 18, ['y'] = 19, ['z'] = 20
};

#define tfp_dna_slot(c) tfp_dna_slot_of_byte[(unsigned char) (c)]

int
tfp_dna_bucket(char letter)
{
	if (letter < 'a' || letter > 'z' || tfp_dna_slot(letter) == NONE)
		return -1;
	return tfp_dna_slot(letter);
}

const char *
tfp_dna_check(const tfp_dna_opts *o)
{
	if (o->window < TFP_DNA_MIN_WINDOW || o->window > TFP_DNA_MAX_WINDOW)
		return "window";
	if (o->overlap < 0 || o->overlap > TFP_DNA_MAX_OVERLAP)
		return "overlap";
	if (o->levels < TFP_DNA_MIN_LEVELS || o->levels > TFP_DNA_MAX_LEVELS)
		return "levels";
	return NULL;
}

int
tfp_dna_step(const tfp_dna_opts *o)
{
	int			s = o->window * (100 - o->overlap) / 100;

	return s < 1 ? 1 : s;
}

size_t
tfp_dna_max_windows(size_t n, const tfp_dna_opts *o)
{
	return n / (size_t) tfp_dna_step(o) + n + 1;
}

/*
 * Longest letter string counted as one window: a window, or a whole text
 * whose content-defined anchors all start too late for a whole window.  The
 * first anchor lies within the first 2*step-1 5-gram positions, so that
 * happens only when n < window + 2*step - 2 (or n < 2*step + 3 when the
 * text has fewer 5-grams than one winnowing run), and step <= window: n <
 * 3 * window.
 */
#define MAX_COUNTED (3 * TFP_DNA_MAX_WINDOW)
#define UP_COLS TFP_DNA_MAX_WINDOW

/*
 * Thresholds of a window of n letters: digit of bucket b >= j iff count >=
 * t[b][j-1], j = 1 .. levels-1.
 */
typedef struct dna_thresholds
{
	int			n;
	int			levels;
	uint32_t	t[TFP_DNA_BUCKETS][TFP_DNA_MAX_LEVELS - 1];
	/* by count: the digit times its place value, levels^(20 - b), so a
	 * DNA is the sum over the buckets (the same number as Horner's rule) */
	uint64_t	place[TFP_DNA_BUCKETS][MAX_COUNTED + 1];
	/* windows (n <= TFP_DNA_MAX_WINDOW) only: a letter of slot b entering
	 * a window where b counts c adds up[b][c] = place[b][c + 1] -
	 * place[b][c] to its DNA; the NONE slot's row is zero */
	uint64_t	up[SLOTS][UP_COLS];
	uint64_t	v0;				/* DNA of the empty window */
	int			width;			/* every DNA < 2^width (levels^21 <= 2^width) */
	/* n <= TFP_DNA_SIMD_MAX_WINDOW: the thresholds for the AVX-512 kernel */
	tfp_dna_simd_thr simd;
} dna_thresholds;

static void
compute_thresholds(dna_thresholds *th, int n, int levels)
{
	th->n = n;
	th->levels = levels;
	for (int b = 0; b < TFP_DNA_BUCKETS; b++)
	{
		double		p = tfp_dna_reference[b];
		double		lp = log(p),
					lq = log1p(-p);
		double		below = 0.0;	/* P(X < c) */
		int			j = 1;
		uint64_t	pv = 1;

		/* walk c = 0 .. n; pmf from logs (no underflow trouble) */
		for (int c = 0; c <= n && j < levels; c++)
		{
			double		pmf = exp(lgamma(n + 1.0) - lgamma(c + 1.0) -
								  lgamma(n - c + 1.0) + c * lp + (n - c) * lq);
			double		mid = below + pmf / 2;

			while (j < levels && mid * levels >= j)
				th->t[b][j++ - 1] = (uint32_t) c;
			below += pmf;
		}
		while (j < levels)		/* never reached: unreachable count */
			th->t[b][j++ - 1] = (uint32_t) n + 1;
		for (int e = b + 1; e < TFP_DNA_BUCKETS; e++)
			pv *= (uint64_t) levels;	/* levels^(20 - b) */
		for (int c = 0, d = 0; c <= n; c++)
		{
			while (d < levels - 1 && (uint32_t) c >= th->t[b][d])
				d++;
			th->place[b][c] = (uint64_t) d * pv;
		}
	}
	th->v0 = 0;
	for (int b = 0; b < TFP_DNA_BUCKETS; b++)
		th->v0 += th->place[b][0];
	{
		uint64_t	max = 1;

		for (int b = 0; b < TFP_DNA_BUCKETS; b++)
			max *= (uint64_t) levels;	/* levels^21 <= 2^63 */
		for (th->width = 0; th->width < 63 && ((max - 1) >> th->width) != 0; th->width++)
			;
	}
	if (n <= TFP_DNA_SIMD_MAX_WINDOW)
	{
		th->simd.levels = levels;
		for (int j = 0; j < levels - 1; j++)
		{
			memset(th->simd.thr[j], 255, sizeof(th->simd.thr[j]));
			for (int b = 0; b < TFP_DNA_BUCKETS; b++)
				th->simd.thr[j][TFP_DNA_LANE0 + b] =
					(uint8_t) (th->t[b][j] > 255 ? 255 : th->t[b][j]);
		}
	}
	if (n <= TFP_DNA_MAX_WINDOW)
	{
		memset(th->up[NONE], 0, sizeof(th->up[NONE]));
		for (int b = 0; b < TFP_DNA_BUCKETS; b++)
			for (int c = 0; c < n; c++)
				th->up[b][c] = th->place[b][c + 1] - th->place[b][c];
	}
}

/* two cached tables: the last window length, the last short text */
static dna_thresholds cache[2];

static const dna_thresholds *
thresholds(int n, int levels, int slot)
{
	dna_thresholds *c = &cache[slot];

	if (c->n != n || c->levels != levels)
		compute_thresholds(c, n, levels);
	return c;
}

static int64_t
pack(const uint32_t *counts, const dna_thresholds *th)
{
	uint64_t	v = 0;

	for (int b = 0; b < TFP_DNA_BUCKETS; b++)
		v += th->place[b][counts[b]];
	return (int64_t) v;
}

int64_t
tfp_dna_pack(const uint32_t *counts, int window, int levels)
{
	return pack(counts, thresholds(window, levels, 0));
}

/* counts of the buckets of l[0..n) */
static void
count(const char *l, size_t n, uint32_t *counts)
{
	memset(counts, 0, SLOTS * sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		counts[tfp_dna_slot(l[i])]++;
}

/*
 * A window of w letters moving along the text (windows come in increasing
 * order of start), its counts and its DNA kept up to date letter by letter:
 * the DNA is a sum over the buckets (pack()), so it changes by up[][] as a
 * letter enters and back as one leaves (mod 2^64; the sum itself is below
 * 2^63 at every step, the same number pack() gives).  O(distance moved).
 *
 * A slot's count c is kept as the offset of up[slot][c] from up[0][0], so
 * a letter costs one table read, one add and one store.
 */
typedef struct dna_window
{
	const dna_thresholds *th;	/* of the window length */
	size_t		start;			/* (size_t) -1: not placed yet */
	uint64_t	v;				/* the DNA */
	size_t		at[SLOTS];		/* slot b counts c: at[b] = b * UP_COLS + c */
} dna_window;

/* move the window to [a, a + w) and return its DNA */
static inline int64_t
window_at(dna_window *restrict win, const char *restrict l, size_t a, size_t w)
{
	const uint64_t *up = &win->th->up[0][0];
	size_t	   *restrict at = win->at;
	uint64_t	v = win->v;

	if (win->start == (size_t) -1 || a >= win->start + w)
	{
		for (int b = 0; b < SLOTS; b++)
			at[b] = (size_t) b * UP_COLS;
		v = win->th->v0;
		for (size_t i = a; i < a + w; i++)
			v += up[at[tfp_dna_slot(l[i])]++];
	}
	else
	{
		for (size_t i = win->start; i < a; i++)
			v -= up[--at[tfp_dna_slot(l[i])]];
		for (size_t i = win->start + w; i < a + w; i++)
			v += up[at[tfp_dna_slot(l[i])]++];
	}
	win->start = a;
	win->v = v;
	return (int64_t) v;
}

/*
 * The content-defined windows: winnowing over the hashes of the letter
 * 5-grams (hash i covers l[i .. i+4], i < nh), runs of wn = 2*step-1 hashes;
 * the DNA of [a, a + w) for each distinct anchor a with a + w <= n, written
 * to out in the order of the anchors.  Returns how many.  Windows of at most
 * TFP_DNA_SIMD_MAX_WINDOW letters go to the AVX-512 kernel where the CPU has
 * it (the same DNAs); the rest of this comment is about the portable code.
 *
 * The rightmost minimum of the run ending at i, kept as (mh, mpos) while i
 * advances.  Proof that each step keeps it exact: the run ending at i is the
 * previous run, less its first hash, plus h[i].  If h[i] <= mh, every hash
 * of the new run is >= mh >= h[i] and i is its rightmost position, so i is
 * the rightmost minimum.  Otherwise, if mpos is still inside the run, the
 * hashes of the new run are those of a subset of the previous run (where
 * none is smaller than mh, none equal to it right of mpos) plus h[i] > mh,
 * so mpos stays.  Otherwise the run is scanned (rightmost on ties).  New
 * minima and expiries come about once per 1/wn positions each on random
 * hashes, so the scans cost O(1) per position on average, and the common
 * step is a hash, two comparisons and a store into the ring of recent hashes.
 */
#define RING 2048				/* >= 2 * TFP_DNA_MAX_WINDOW - 1, a power of 2 */

/*
 * Rightmost minimum of the hashes of positions [start, start + wn) in the
 * ring: each hash with its offset in one key, hash << 11 | (2047 - offset),
 * so the minimum key is the smallest hash at the largest offset, found
 * without a branch (hashes take 44 bits, offsets < wn <= 2047).
 */
static inline size_t
rescan(const uint64_t *ring, size_t start, size_t wn, uint64_t *mh)
{
	uint64_t	best = UINT64_MAX;

	for (size_t o = 0; o < wn; o++)
	{
		uint64_t	k = (ring[(start + o) & (RING - 1)] << 11) | (2047 - o);

		best = k < best ? k : best;
	}
	*mh = best >> 11;
	return start + (2047 - (size_t) (best & 2047));
}

static size_t
winnow(const char *restrict l, size_t n, size_t nh, size_t wn, size_t w,
	   const dna_thresholds *th, int64_t *restrict out)
{
	/* static: large for the stack; no state survives a call */
	static uint64_t ring[RING];
	dna_window	win = {th, (size_t) -1, 0, {0}};
	const uint64_t mask = (UINT64_C(1) << (5 * KGRAM)) - 1;
	uint64_t	g = 0,
				mh = UINT64_MAX;
	size_t		nout = 0,
				mpos = 0,
				last = (size_t) -1,
				first_out = (wn < nh ? wn : nh) - 1,
				i;

#if TFP_HAVE_X86_KERNELS
	if (w <= TFP_DNA_SIMD_MAX_WINDOW && tfp_use_avx512())
		return tfp_dna_winnow_avx512(l, n, nh, wn, w, &th->simd, out);
#endif
#define NEXT_HASH(i) \
	(g = (g << 5) | (uint64_t) (l[(i) + KGRAM - 1] & 31), \
	 ((g & mask) * TFP_DNA_HASH_MUL) >> TFP_DNA_HASH_SHIFT)

	for (i = 0; i < KGRAM - 1; i++)
		g = (g << 5) | (uint64_t) (l[i] & 31);
	/* the first run: no minimum can expire yet */
	for (i = 0; i < first_out; i++)
	{
		uint64_t	h = NEXT_HASH(i);

		ring[i & (RING - 1)] = h;
		if (h <= mh)
			mh = h, mpos = i;
	}
	while (i < nh)
	{
		size_t		end = nh - i > TFP_PY_TICK ? i + TFP_PY_TICK : nh;

		if (tfp_pinyin_tick && i > first_out)
			tfp_pinyin_tick();
		for (; i < end; i++)
		{
			uint64_t	h = NEXT_HASH(i);

			ring[i & (RING - 1)] = h;
			if (h <= mh)
				mh = h, mpos = i;
			else if (mpos + wn <= i)
				mpos = rescan(ring, i + 1 - wn, wn, &mh);	/* it left the run */
			if (mpos != last)
			{
				last = mpos;
				if (mpos + w <= n)
					out[nout++] = window_at(&win, l, mpos, w);
			}
		}
	}
#undef NEXT_HASH
	return nout;
}

/* the DNAs of the windows at fixed offsets 0, step, 2 step, ... */
static size_t
fixed_windows(const char *l, size_t n, size_t w, size_t step,
			  const dna_thresholds *th, int64_t *out)
{
	dna_window	win = {th, (size_t) -1, 0, {0}};
	size_t		nout = 0;

#if TFP_HAVE_X86_KERNELS
	if (w <= TFP_DNA_SIMD_MAX_WINDOW && tfp_use_avx512())
		return tfp_dna_fixed_avx512(l, n, step, w, &th->simd, out);
#endif
	for (size_t a = 0; a + w <= n; a += step)
	{
		if ((a / step & 1023) == 1023 && tfp_pinyin_tick)
			tfp_pinyin_tick();
		out[nout++] = window_at(&win, l, a, w);
	}
	return nout;
}

size_t
tfp_dna_windows(const char *l, size_t n, const tfp_dna_opts *o, int64_t *out)
{
	size_t		nout = 0,
				w = (size_t) o->window,
				step = (size_t) tfp_dna_step(o);
	uint32_t	counts[SLOTS];
	const dna_thresholds *th;

	if (n == 0)
		return 0;
	if (n < w)
	{
		count(l, n, counts);
		out[0] = pack(counts, thresholds((int) n, o->levels, 1));
		return 1;
	}
	th = thresholds(o->window, o->levels, 0);
	if (!o->content_defined || n < KGRAM)
		nout = fixed_windows(l, n, w, step, th, out);
	else
	{
		size_t		wn = 2 * step - 1;
		size_t		nh = n - KGRAM + 1;

		nout = winnow(l, n, nh, wn, w, th, out);
		if (nout == 0)
		{
			count(l, n, counts);
			out[nout++] = pack(counts, thresholds((int) n, o->levels, 1));
		}
	}
#if TFP_HAVE_X86_KERNELS
	if (nout <= 64 && tfp_use_avx512())
		return tfp_dna_sort_small_avx512((uint64_t *) out, nout);
#endif
	/* out holds tfp_dna_max_windows(n) values: the rest is the sort's
	 * scratch when there is room (there nearly always is) */
	return tfp_sort_unique_below_u64((uint64_t *) out, nout,
									 tfp_dna_max_windows(n, o) - nout >= nout ?
									 (uint64_t *) out + nout : NULL,
									 th->width);
}
