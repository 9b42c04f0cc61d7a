/*
 * test_hamrun.c -- unit tests of the hamming index's merge policy
 * (src/core/tfp_hamrun.h): the pending list's bound, the choice between a
 * delta merge and a full merge, and a simulation of the experiment
 * (a build of N rows, then N inserts) that checks what the policy promises:
 * at most two runs, the delta within 1/RATIO of the main run plus one
 * pending list, the pending list within its bound, and a bounded number of
 * rows rewritten per row inserted; the merge order is a total order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_hamrun.h"

#include "tap.h"

typedef struct sim
{
	uint64_t	main_rows;
	uint64_t	delta_rows;
	uint64_t	pending;
	uint64_t	max_pending;
	uint64_t	rewritten;		/* rows written by merges */
	int			full;
	int			delta;
	int			ok;
} sim;

/* one insert, and the merge it triggers (as hamming_insert does) */
static void
sim_insert(sim *s)
{
	s->pending++;
	if (s->pending > s->max_pending)
		s->max_pending = s->pending;
	if (s->pending >= tfp_hamrun_pending_limit(s->main_rows + s->delta_rows))
	{
		if (tfp_hamrun_full(s->main_rows, s->delta_rows, s->pending))
		{
			s->main_rows += s->delta_rows + s->pending;
			s->rewritten += s->main_rows;
			s->delta_rows = 0;
			s->full++;
		}
		else
		{
			s->delta_rows += s->pending;
			s->rewritten += s->delta_rows;
			s->delta++;
		}
		s->pending = 0;
		/* what a scan reads besides the main run */
		if (s->delta_rows > s->main_rows / TFP_HAMRUN_RATIO + 1)
			s->ok = 0;
	}
}

int
main(void)
{
	uint64_t	n;
	int			i;

	/* the bound */
	check(tfp_hamrun_pending_limit(0) == TFP_HAMRUN_LIMIT_MIN &&
		  tfp_hamrun_pending_limit(UINT64_C(1) << 40) == TFP_HAMRUN_LIMIT_MAX &&
		  tfp_hamrun_pending_limit(1000000) == 1000000 / TFP_HAMRUN_LIMIT_DIV,
		  "pending bound: clamped, 1/128 of the sorted rows in between");
	{
		int			mono = 1;

		for (n = 0; n < 20000000; n += 9973)
			mono &= tfp_hamrun_pending_limit(n) <= tfp_hamrun_pending_limit(n + 9973);
		check(mono, "pending bound grows with the sorted rows");
	}
	/* the choice */
	check(tfp_hamrun_full(0, 0, 1), "no main run: a full merge");
	check(!tfp_hamrun_full(1600000, 90000, 10000) && tfp_hamrun_full(1600000, 95000, 10001),
		  "a full merge past 1/16 of the main run");

	/* the merge order */
	{
		int			ok = 1;

		for (i = 0; i < 100000; i++)
		{
			uint32_t	a[3] = {rnd(4), rnd(4), rnd(4)},
						b[3] = {rnd(4), rnd(4), rnd(4)};
			int			c = tfp_hamrun_cmp(a[0], a[1], a[2], b[0], b[1], b[2]),
						r = tfp_hamrun_cmp(b[0], b[1], b[2], a[0], a[1], a[2]);
			int			lex = a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) :
				a[1] != b[1] ? (a[1] < b[1] ? -1 : 1) :
				a[2] != b[2] ? (a[2] < b[2] ? -1 : 1) : 0;

			ok &= (c == lex && r == -lex);
		}
		check(ok, "merge order: bucket, block, offset (antisymmetric, lexicographic)");
	}

	/* the experiment: build N, insert N (the target) */
	for (n = 100000; n <= 10000000; n *= 10)
	{
		sim			s;
		uint64_t	k;
		char		what[200];

		memset(&s, 0, sizeof(s));
		s.ok = 1;
		s.main_rows = n;
		for (k = 0; k < n; k++)
			sim_insert(&s);
		snprintf(what, sizeof(what),
				 "N = %llu: %d full and %d delta merges, delta %llu rows, pending at most %llu, "
				 "%.1f rows written per row inserted",
				 (unsigned long long) n, s.full, s.delta, (unsigned long long) s.delta_rows,
				 (unsigned long long) s.max_pending, (double) s.rewritten / (double) n);
		check(s.ok && s.main_rows + s.delta_rows + s.pending == 2 * n &&
			  s.max_pending <= tfp_hamrun_pending_limit(2 * n) &&
			  s.delta_rows <= s.main_rows / TFP_HAMRUN_RATIO + 1 &&
			  (double) s.rewritten / (double) n < 2.0 * TFP_HAMRUN_RATIO, what);
	}

	/* an index created empty and filled by inserts only */
	{
		sim			s;
		uint64_t	k;
		char		what[200];

		memset(&s, 0, sizeof(s));
		s.ok = 1;
		for (k = 0; k < 1000000; k++)
			sim_insert(&s);
		snprintf(what, sizeof(what), "empty index, 1M inserts: %d full and %d delta merges, "
				 "%.1f rows written per row inserted", s.full, s.delta,
				 (double) s.rewritten / 1e6);
		check(s.ok && (double) s.rewritten / 1e6 < 2.0 * TFP_HAMRUN_RATIO + 10, what);
	}

	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
