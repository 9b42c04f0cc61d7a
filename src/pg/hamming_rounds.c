/*
 * hamming_rounds.c -- the rounds of a scan of the "hamming" index (multi-
 * index hashing) and the full scans of its runs
 *
 * Rounds.  Let the index have m tables (4 or 2), table t covering the part
 * t of P(x) (a 16-bit chunk with m = 4, 32 bits with m = 2), and let c_t be
 * the distance between the parts t of a row x and of the query q.  The
 * tables are probed in rounds K = m*s + t (s = 0, 1, ...; t = 0..m-1):
 * round K visits, in table t, every bucket that may hold a row with c_t = s
 * (m = 4: the buckets whose chunk is exactly s bits from q's; m = 2: the
 * buckets of the part's first chunk within s bits of q's).  A row x is first
 * met in the round min_t (m*c_t + t) =: key(x), and a round keeps only the
 * rows with key(x) = K, so no row is met twice.
 *
 * Bound.  After rounds 0..K every row x with d(x, q) <= K has been met.
 * Proof: let x not be met, so m*c_t + t > K = m*s + j for every t.  For
 * t <= j this gives c_t >= s + 1; for t > j it gives m*c_t > m*s - (t - j)
 * >= m*s - (m - 1), so c_t >= s.  Hence d(x, q) = sum c_t >= (j + 1)(s + 1)
 * + (m - 1 - j)*s = m*s + j + 1 = K + 1.
 *
 * So a row at distance d may be returned as soon as round d is done, and
 * rows come out in increasing distance while rounds go on lazily (an
 * ORDER BY fp <-> q LIMIT 10 stops after the rounds that cover its 10th
 * distance).  A radius-r search needs rounds 0..r.  When the rounds a run
 * is expected to need from here cost more than reading a whole table
 * (rounds_cost_more), the scan reads its table 0 once instead and keeps the
 * rows not met yet (key(x) > K), which completes every distance at once in
 * that run.  The index has up to HAM_MAX_RUNS runs (hamming_merge.c): each
 * round runs in each run not read whole, and the bound holds in each, so
 * after round K every row within K bits has been met in every run.  A
 * round's probes visit their pages pipelined (run_probes), or, in a run
 * whose table has fewer pages than the round has probes (a small delta
 * run: one or two rows per bucket), in bucket order, each page once
 * (run_probes_in_order).
 */
#include "postgres.h"

#include "access/relscan.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "hamming.h"
#include "hamming_scan.h"
#include "simhash_index.h"
#include "textfp.h"
#include "tfp_core.h"

/* cost of one probe (a page visit), in row checks */
#define HAM_PROBE_COST	50
/* cost of visiting one bucket of a page already read, in row checks */
#define HAM_BUCKET_COST	4

/* the bit counts of the four 16-bit lanes of x, one per lane (SWAR) */
static inline uint64
lane_counts(uint64 x)
{
	x = x - ((x >> 1) & UINT64CONST(0x5555555555555555));
	x = (x & UINT64CONST(0x3333333333333333)) + ((x >> 2) & UINT64CONST(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64CONST(0x0f0f0f0f0f0f0f0f);
	return (x + (x >> 8)) & UINT64CONST(0x00ff00ff00ff00ff);
}

/*
 * key(x) = min_t (4 * c_t + t), the round in which x is met, from the lane
 * counts c_t of x = p ^ q (4 tables)
 */
static inline int
lanes_key4(uint64 lanes)
{
	uint64		k = lanes * 4 + UINT64CONST(0x0003000200010000);
	int			a = (int) (k & 0xFFFF),
				b = (int) ((k >> 16) & 0xFFFF),
				c = (int) ((k >> 32) & 0xFFFF),
				d = (int) (k >> 48);

	a = Min(a, b);
	c = Min(c, d);
	return Min(a, c);
}

/* key(x) = min(2 * (c_0 + c_1), 2 * (c_2 + c_3) + 1) (2 tables) */
static inline int
lanes_key2(uint64 lanes)
{
	int			a = (int) ((lanes & 0xFFFF) + ((lanes >> 16) & 0xFFFF)),
				b = (int) (((lanes >> 32) & 0xFFFF) + (lanes >> 48));

	return Min(2 * a, 2 * b + 1);
}

/* the bit count of x (SWAR: no popcnt instruction is assumed) */
static inline int
swar_popcount(uint64 x)
{
	x = x - ((x >> 1) & UINT64CONST(0x5555555555555555));
	x = (x & UINT64CONST(0x3333333333333333)) + ((x >> 2) & UINT64CONST(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64CONST(0x0f0f0f0f0f0f0f0f);
	return (int) ((x * UINT64CONST(0x0101010101010101)) >> 56);
}

/*
 * Entries [from, to) of a page of table t, a run of bucket v that starts
 * the bucket or the page: keep the rows met in round K (key == K).  The distance is
 * first taken from the entry's 48 bits and the run's chunk, which drops
 * the rows outside the window (most of them) cheaply.
 */
static void
keep_entries(HamScanOpaque *so, Page page, uint32 from, uint32 to,
			 uint32 v, int t, int K)
{
	const uint8 *ent = ham_page_entries(page);
	const uint8 *deadmap = am_page_deadmap(page);
	int			nt = (int) so->meta.ntables;
	int			lane = ham_lane(nt, t);
	uint64		qrest = ham_rest(so->q, lane);
	int			dv = swar_popcount((uint64) (v ^ ham_chunk(so->q, lane)));
	tfp_hamdec	dec = {0};
	uint32		k;

	for (k = from; k < to; k++)
	{
		const uint8 *e = ham_entry(ent, k);
		uint32		blk,
					off;
		uint64		rest,
					p,
					lanes;
		int			key,
					d;

		if (!tfp_hamcode_decode(&dec, e, &blk, &off))
			continue;
		rest = tfp_hamcode_rest(e);
		d = swar_popcount(rest ^ qrest) + dv;
		if (d > so->cap || am_is_dead(deadmap, k))
			continue;			/* outside the window (row_kept's first test) */
		p = ham_unrest(rest, v, lane);
		lanes = lane_counts(p ^ so->q);
		key = nt == 4 ? lanes_key4(lanes) : lanes_key2(lanes);
		if (key != K)
			continue;
		if (row_kept(so, d, p))
		{
			ItemPointerData tid;

			ItemPointerSet(&tid, blk, (OffsetNumber) off);
			ham_list_add(so, d, p, &tid);
		}
	}
}

/*
 * Visit the bucket [lo, hi) of table t, whose chunk is v, in round K.
 * pinned: the page of entry lo, already pinned by the caller (or invalid);
 * this function releases it.
 */
static void
visit_bucket(IndexScanDesc scan, int r, int t, uint32 v, uint32 lo, uint32 hi,
			 int K, Buffer pinned)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	HamDir	   *d = so->dirs[r];
	uint32		e = lo;

	while (e < hi)
	{
		uint32		first = e % HAM_ENTRIES_PER_PAGE;
		uint32		last = Min(HAM_ENTRIES_PER_PAGE, first + (hi - e));
		Buffer		buf;

		if (BufferIsValid(pinned))
		{
			buf = pinned;
			pinned = InvalidBuffer;
		}
		else
			buf = ham_read_entry_page(scan->indexRelation, d, t, e / HAM_ENTRIES_PER_PAGE);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		if (!ham_page_owned(BufferGetPage(buf), d->base.id))
			so->stale = true;
		if (!so->stale)
			keep_entries(so, BufferGetPage(buf), first, last, v, t, K);
		UnlockReleaseBuffer(buf);
		e += last - first;
	}
	if (BufferIsValid(pinned))
		ReleaseBuffer(pinned);
}

/*
 * The full scan of run r: its table 0 page by page, each page read once,
 * keeping every row not met in rounds 0..K; the directory gives each
 * entry's chunk.  One loop per page (not a call per bucket: a small run
 * has one or two entries per bucket, and the calls cost more than the
 * entries): at each bucket's first entry the bucket's chunk distance is
 * taken and the TID decoder restarts, as the code restarts there.
 */
static pg_noinline void
full_scan(IndexScanDesc scan, int r, int K)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	HamDir	   *d = so->dirs[r];
	const uint32 *dir = d->dir[0];
	uint32		nent = d->nentries[0];
	uint32		npages = ham_entry_pages(nent);
	int			nt = (int) so->meta.ntables;
	uint64		qrest = ham_rest(so->q, 0);
	uint32		qv = ham_chunk(so->q, 0);
	int			cap = so->cap;
	uint32		pg,
				v = 0;

	for (pg = 0; pg < npages; pg++)
	{
		uint32		base = pg * HAM_ENTRIES_PER_PAGE;
		uint32		n = (uint32) Min((uint64) HAM_ENTRIES_PER_PAGE, (uint64) nent - base);
		uint32		k,
					next;
		int			dv;
		tfp_hamdec	dec;
		Buffer		buf = ham_read_entry_page(scan->indexRelation, d, 0, pg);
		Page		page;
		const uint8 *ent,
				   *deadmap;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!ham_page_owned(page, d->base.id))
		{
			so->stale = true;
			UnlockReleaseBuffer(buf);
			return;
		}
		ent = ham_page_entries(page);
		deadmap = am_page_deadmap(page);
		for (k = 0; k < n;)
		{
			/* a bucket (or the page) starts */
			next = ham_next_run(dir, &v, base + k, base + n) - base;
			dv = swar_popcount((uint64) (v ^ qv));
			memset(&dec, 0, sizeof(dec));
			for (; k < next; k++)
			{
				const uint8 *e = ham_entry(ent, k);
				uint32		blk,
							off;
				uint64		rest,
							p,
							lanes;
				int			dist,
							key;
				ItemPointerData tid;

				if (!tfp_hamcode_decode(&dec, e, &blk, &off))
					continue;
				rest = tfp_hamcode_rest(e);
				dist = swar_popcount(rest ^ qrest) + dv;
				if (dist > cap || am_is_dead(deadmap, k))
					continue;	/* outside the window (row_kept's first test) */
				p = ham_unrest(rest, v, 0);
				lanes = lane_counts(p ^ so->q);
				key = nt == 4 ? lanes_key4(lanes) : lanes_key2(lanes);
				if (key <= K || !row_kept(so, dist, p))
					continue;
				ItemPointerSet(&tid, blk, (OffsetNumber) off);
				ham_list_add(so, dist, p, &tid);
			}
		}
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * One round's probes, pipelined: the directory slot of probe i + 2L is
 * prefetched, probe i visited, and the page of probe i + L pinned and its
 * entries prefetched (in this order: they share a ring slot), so that the
 * memory latencies of successive probes overlap.
 */
#define HAM_LOOKAHEAD	8

typedef struct HamProbe
{
	uint32		v;
	uint32		lo;
	uint32		hi;
	Buffer		buf;
} HamProbe;

static pg_noinline void
run_probes(IndexScanDesc scan, int r, int t, const uint32 *vals, int nv, int K)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	HamDir	   *d = so->dirs[r];
	const uint32 *dir = d->dir[t];
	HamProbe	ring[HAM_LOOKAHEAD];
	int			i;

	for (i = 0; i < nv + HAM_LOOKAHEAD; i++)
	{
		if (i + 2 * HAM_LOOKAHEAD < nv)
			__builtin_prefetch(&dir[vals[i + 2 * HAM_LOOKAHEAD]]);
		if (i >= HAM_LOOKAHEAD && i - HAM_LOOKAHEAD < nv)
		{
			HamProbe   *pr = &ring[(i - HAM_LOOKAHEAD) % HAM_LOOKAHEAD];

			if (pr->lo < pr->hi)
				visit_bucket(scan, r, t, pr->v, pr->lo, pr->hi, K, pr->buf);
			if ((i & 63) == 0)
				CHECK_FOR_INTERRUPTS();
		}
		if (i < nv)
		{
			HamProbe   *pr = &ring[i % HAM_LOOKAHEAD];

			pr->v = vals[i];
			pr->lo = dir[pr->v];
			pr->hi = dir[pr->v + 1];
			pr->buf = InvalidBuffer;
			if (pr->lo < pr->hi)
			{
				uint32		first = pr->lo % HAM_ENTRIES_PER_PAGE;
				uint32		last = Min(HAM_ENTRIES_PER_PAGE, first + (pr->hi - pr->lo));
				char	   *a,
						   *b;

				pr->buf = ham_read_entry_page(scan->indexRelation, d, t,
											  pr->lo / HAM_ENTRIES_PER_PAGE);
				a = (char *) ham_entry(ham_page_entries(BufferGetPage(pr->buf)), first);
				b = (char *) ham_entry(ham_page_entries(BufferGetPage(pr->buf)), last);
				for (; a < b; a += 64)
					__builtin_prefetch(a);
			}
		}
	}
}

/*
 * One round's probes in a run whose table has fewer pages than the round
 * has probes (a delta run: one or two entries per bucket): the buckets in
 * increasing order, so that the probes that fall on one page visit it
 * under one pin and lock, and each page is visited at most once.
 */
static pg_noinline void
run_probes_in_order(IndexScanDesc scan, int r, int t, const uint32 *vals, int nv, int K)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	HamDir	   *d = so->dirs[r];
	const uint32 *dir = d->dir[t];
	uint64	   *map = so->bucketmap;
	Buffer		buf = InvalidBuffer;
	uint32		bufpage = 0;
	uint32		w;
	int			i;

	if (map == NULL)
		so->bucketmap = map = MemoryContextAllocZero(so->cxt, HAM_BUCKETS / 8);
	for (i = 0; i < nv; i++)
		map[vals[i] >> 6] |= UINT64CONST(1) << (vals[i] & 63);
	for (w = 0; w < HAM_BUCKETS / 64 && !so->stale; w++)
	{
		uint64		word = map[w];

		while (word != 0 && !so->stale)
		{
			uint32		v = w * 64 + pg_rightmost_one_pos64(word);
			uint32		e = dir[v],
						hi = dir[v + 1];

			word &= word - 1;
			while (e < hi && !so->stale)
			{
				uint32		pageno = e / HAM_ENTRIES_PER_PAGE;
				uint32		first = e % HAM_ENTRIES_PER_PAGE;
				uint32		last = Min(HAM_ENTRIES_PER_PAGE, first + (hi - e));

				if (!BufferIsValid(buf) || pageno != bufpage)
				{
					if (BufferIsValid(buf))
						UnlockReleaseBuffer(buf);
					buf = ham_read_entry_page(scan->indexRelation, d, t, pageno);
					bufpage = pageno;
					LockBuffer(buf, BUFFER_LOCK_SHARE);
					if (!ham_page_owned(BufferGetPage(buf), d->base.id))
						so->stale = true;
				}
				if (!so->stale)
					keep_entries(so, BufferGetPage(buf), first, last, v, t, K);
				e += last - first;
			}
		}
	}
	if (BufferIsValid(buf))
		UnlockReleaseBuffer(buf);
	memset(map, 0, HAM_BUCKETS / 8);
	CHECK_FOR_INTERRUPTS();
}

static uint64
binomial16(int s)
{
	uint64		c = 1;
	int			i;

	if (s > 16)
		return 0;
	for (i = 0; i < s; i++)
		c = c * (16 - i) / (i + 1);
	return c;
}

/* the buckets of every 16-bit mask of popcount s around qv (Gosper's hack) */
static int
masks_of_weight(uint32 qv, int s, uint32 *vals, int nv)
{
	uint32		mask;

	if (s > 16)
		return nv;
	mask = (s == 0) ? 0 : (1u << s) - 1;
	for (;;)
	{
		vals[nv++] = qv ^ mask;
		if (s == 0)
			break;
		else
		{
			uint32		u = mask & -mask;
			uint32		w = mask + u;

			mask = w + (((w ^ mask) / u) >> 2);
			if (mask >= HAM_BUCKETS)
				break;
		}
	}
	return nv;
}

/*
 * The cost of round K in a run of nt tables and n entries per table, in
 * row checks: a page visit per probe, or per page when the probes
 * outnumber the pages (run_probes_in_order), a bucket visit per probe and
 * the bucket's entries.
 */
static double
round_cost(int nt, int K, double n)
{
	double		pages = (double) ham_entry_pages((uint64) n);
	int			s = K / nt;
	double		probes = 0;
	int			i;

	if (nt == 4)
		probes = (double) binomial16(s);
	else
		for (i = 0; i <= s; i++)
			probes += (double) binomial16(i);
	return Min(probes, pages) * HAM_PROBE_COST + probes * (HAM_BUCKET_COST + n / HAM_BUCKETS);
}

/* the distance within which "count" of n uniformly random rows would lie */
int
ham_random_radius(double n, double count)
{
	int			d = 0;

	while (d < HAM_MAXDIST && n * simhash_radius_selectivity(d) < count)
		d++;
	return d;
}

/*
 * Whether run r should be read whole before round K: when the rounds from
 * K on that the scan expects cost more than reading its table 0.  The scan
 * expects the rounds up to the radius bound, or for an ORDER BY up to the
 * distance within which 10 uniformly random rows would lie (a top 10 of
 * random data; nearer rows only end the rounds sooner), and at least the
 * rest of the current s (a scan that goes on past them).
 */
static bool
rounds_cost_more(HamScanOpaque *so, int r, int K)
{
	int			nt = (int) so->meta.ntables;
	double		n = (double) so->dirs[r]->nentries[0];
	double		cost = 0;
	int			last = so->cap;

	if (so->first >= 0)
		last = Min(last, ham_random_radius((double) ham_total_rows(&so->meta), 10.0));
	last = Max(last, K + nt - 1 - K % nt);
	for (; K <= last && cost <= n; K++)
		cost += round_cost(nt, K, n);
	return cost > n;
}

/*
 * Run the next round in every run whose rows have not all been met, or the
 * full scan of a run where a round costs more.  The bound of the rounds
 * holds run by run, so after round K every row within K bits has been met
 * in every run.
 */
void
ham_advance(IndexScanDesc scan)
{
	HamScanOpaque *so = (HamScanOpaque *) scan->opaque;
	int			nt = (int) so->meta.ntables;
	int			K = so->K + 1;
	int			s = K / nt;
	int			t = K % nt;
	uint32		qv = ham_chunk(so->q, ham_lane(nt, t));
	int			i,
				nv = -1;
	uint32		r;
	bool		all_full = true;

	for (r = 0; r < so->meta.nruns; r++)
	{
		if (so->rfull[r])
			continue;
		/*
		 * The expected rounds decide before the first round for the main
		 * run only: a delta run is small, and a query with near rows ends
		 * after a few cheap rounds that reading the delta whole would cost
		 * more than.  Every run decides again before each new s.
		 */
		if ((K == 0 && r == 0 && rounds_cost_more(so, r, K)) ||
			(t == 0 && s > 0 && rounds_cost_more(so, r, K)))
		{
			/* every row not met in rounds 0..K-1 */
			full_scan(scan, r, so->K);
			so->rfull[r] = true;
		}
		else
		{
			if (nv < 0)
			{
				if (so->vals == NULL)
					so->vals = MemoryContextAlloc(so->cxt, sizeof(uint32) * HAM_BUCKETS);
				nv = 0;
				if (nt == 4)
					nv = masks_of_weight(qv, s, so->vals, nv);
				else
					for (i = 0; i <= s; i++)
						nv = masks_of_weight(qv, i, so->vals, nv);
			}
			if (nv > (int) ham_entry_pages(so->dirs[r]->nentries[t]))
				run_probes_in_order(scan, r, t, so->vals, nv, K);
			else if (nv > 0)
				run_probes(scan, r, t, so->vals, nv, K);
			all_full = false;
		}
		if (so->stale)
			return;
	}
	so->K = K;
	if (all_full || K >= HAM_MAXDIST)
		so->full = true;
}
