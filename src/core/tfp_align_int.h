/*
 * tfp_align_int.h -- internals of the passage alignment shared by
 * tfp_align.c (units, seeds, anchors, chaining, the result) and
 * tfp_align_pick.c (candidate passages and the one-to-one choice).  Not
 * part of the core's API (tfp_align.h).  Pure C.
 */
#ifndef TFP_ALIGN_INT_H
#define TFP_ALIGN_INT_H

#include <stdint.h>
#include <string.h>

#include "tfp_align.h"

#define TICK_STEPS	65536
#define MAX_ALLOCS	40

typedef struct utext
{
	uint32_t	n;				/* units */
	uint64_t   *h;				/* unit hashes */
	uint32_t   *bs,				/* byte span [bs, be) of each unit */
			   *be;
	uint32_t   *w;				/* n + 1: w[i] = length of units [0, i) */
	uint8_t    *wl;				/* units in the seed at i (0: none) */
	uint8_t    *occ;			/* unit is in a passage taken */
} utext;

typedef struct cand
{
	uint32_t	first,			/* anchors pool[first .. first + n) */
				n;
	uint32_t	a0,				/* units [a0, a1) of a, [b0, b1) of b */
				a1,
				b0,
				b1;
	uint32_t	matched;
} cand;

typedef struct state
{
	const tfp_align_opts *o;
	const tfp_align_env *env;
	void	   *allocs[MAX_ALLOCS];
	int			nallocs;
	uint64_t	work,
				next_tick;
	utext		A,
				B;
	/* anchors: a unit, b unit, chaining score, predecessor */
	uint32_t	m;
	uint32_t   *aa,
			   *ab;
	int32_t    *f,
			   *prev;
	uint32_t   *pool;			/* anchors of the candidates */
	cand	   *cands;
	uint32_t	ncands,
				capcands;
	uint32_t   *heap;			/* candidates queued (capcands room) */
	uint32_t	nheap;
	int			nomem;			/* an allocation failed while choosing */
} state;

/* memory from env->alloc, released by tfp_align() (NULL: failed), or
 * earlier by tfp_align_release(); tfp_align_grow() moves the first `used`
 * bytes of p (from tfp_align_take, or NULL) to a new block of `size` */
extern void *tfp_align_take(state *st, size_t n, size_t size);
extern void tfp_align_release(state *st, void *p);
extern void *tfp_align_grow(state *st, void *p, size_t used, size_t size);

/* tfp_align_pick.c: the chains of the anchors (after chaining) as
 * candidate passages, taken one to one; *out (from tfp_align_take) the
 * passages taken, unordered */
extern int	tfp_align_choose(state *st, cand **out, uint32_t *nout);

static inline void
work(state *st, uint64_t steps)
{
	st->work += steps;
	if (st->work >= st->next_tick)
	{
		st->next_tick = st->work + TICK_STEPS;
		if (st->env->tick)
			st->env->tick();
	}
}

/* length of units [i, i + n) */
static inline uint32_t
ulen(const utext *t, uint32_t i, uint32_t n)
{
	return t->w[i + n] - t->w[i];
}

#endif							/* TFP_ALIGN_INT_H */
