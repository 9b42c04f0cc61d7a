/*
 * tfp_arena.h -- scratch memory that keeps its blocks from one use to the
 * next: an allocator for tfp_match_env (tfp_match_side.h) when one caller
 * evaluates many pairs in a row.
 *
 * A pair of 2 KB texts takes a few hundred KB of buffers, many above the
 * size from which malloc gives whole pages of its own (or from which
 * PostgreSQL's memory contexts hand a chunk to malloc), and gives them
 * back when the pair is done: the next pair has the kernel map and zero
 * those pages again (a third of textfp_match's time, measured).  An arena
 * takes its memory in blocks from its owner, hands it out in order, takes
 * back the last allocation when it is freed (most of the core's buffers
 * are freed in the reverse order of their allocation) and leaves any
 * other freed memory in place; tfp_arena_reset() makes all of it free
 * again, keeping up to TFP_ARENA_KEEP bytes of blocks for the next use
 * and giving back the rest.  An allocation of TFP_ARENA_DIRECT bytes or
 * more (the buffers of long texts) is asked of the owner directly and
 * given back when freed, or at the reset: what an arena holds beyond one
 * use's own needs stays below TFP_ARENA_KEEP plus what the freed smaller
 * allocations leave until the reset.
 *
 * Pure C: the owner's block_alloc() returns memory or does not return (a
 * longjmp, an abort), as tfp_match_env's alloc.
 */
#ifndef TFP_ARENA_H
#define TFP_ARENA_H

#include <stddef.h>
#include <stdint.h>

#define TFP_ARENA_BLOCK ((size_t) 256 * 1024)	/* the least block */
#define TFP_ARENA_DIRECT ((size_t) 1024 * 1024)	/* from the owner at once */
#define TFP_ARENA_KEEP ((size_t) 4 * 1024 * 1024)	/* blocks kept by a reset */

typedef struct tfp_arena_block tfp_arena_block;
typedef struct tfp_arena_big tfp_arena_big;

typedef struct tfp_arena
{
	void	   *(*block_alloc) (void *owner, size_t size);
	void		(*block_free) (void *owner, void *p);
	void	   *owner;
	tfp_arena_block *first,		/* the blocks, in order */
			   *cur;			/* the one being handed out */
	tfp_arena_big *big;			/* the direct allocations not given back */
	size_t		blocks;			/* bytes of blocks held */
} tfp_arena;

/* an empty arena (no memory taken yet) */
extern void tfp_arena_init(tfp_arena *a, void *(*block_alloc) (void *owner, size_t size),
						   void (*block_free) (void *owner, void *p), void *owner);

/* tfp_match_env's three, arg being the arena: memory aligned as
 * block_alloc's (plus a multiple of 16) */
extern void *tfp_arena_alloc(void *arena, size_t size);
extern void *tfp_arena_realloc(void *arena, void *p, size_t size);
extern void tfp_arena_free(void *arena, void *p);

/* everything free again; blocks beyond TFP_ARENA_KEEP given back */
extern void tfp_arena_reset(tfp_arena *a);

/* everything given back (the arena is empty, as after init) */
extern void tfp_arena_release(tfp_arena *a);

#endif							/* TFP_ARENA_H */
