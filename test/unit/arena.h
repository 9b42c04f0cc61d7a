/*
 * arena.h -- the memory of the core's tfp_match_env for the tests and the
 * fuzz target without PostgreSQL: every block kept until arena_reset()
 * (a memory context's part); arena_blocks counts them.  arena_free() (an
 * env's free, which may also be NULL) and arena_realloc() give a block
 * back: arena_live counts the blocks not given back, a block given back
 * twice aborts, and its bytes are poisoned (under AddressSanitizer: any
 * use of it is reported; otherwise overwritten) until arena_reset().
 */
#ifndef TFP_TEST_ARENA_H
#define TFP_TEST_ARENA_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_asan.h"

#ifdef TFP_ASAN
#define ARENA_POISON(p, n) TFP_ASAN_POISON(p, n)
#define ARENA_UNPOISON(p, n) TFP_ASAN_UNPOISON(p, n)
#else
#define ARENA_POISON(p, n) memset(p, 0xA5, n)
#define ARENA_UNPOISON(p, n) ((void) 0)
#endif

typedef struct arena_block
{
	struct arena_block *next;
	size_t		size;
	int			given_back;
	max_align_t data[];
} arena_block;

static arena_block *arena = NULL;
static size_t arena_blocks = 0;
static long arena_live = 0;

static void *
arena_alloc(void *arg, size_t size)
{
	arena_block *b = malloc(sizeof(arena_block) + (size ? size : 1));

	(void) arg;
	if (!b)
		abort();
	b->next = arena;
	b->size = size;
	b->given_back = 0;
	arena = b;
	arena_blocks++;
	arena_live++;
	return b->data;
}

static inline void
arena_free(void *arg, void *p)
{
	arena_block *b = (arena_block *) ((char *) p - offsetof(arena_block, data));

	(void) arg;
	if (b->given_back)
		abort();				/* given back twice */
	b->given_back = 1;
	arena_live--;
	ARENA_POISON(b->data, b->size);
}

static void *
arena_realloc(void *arg, void *p, size_t size)
{
	arena_block *old = (arena_block *) ((char *) p - offsetof(arena_block, data));
	void	   *n = arena_alloc(arg, size);

	memcpy(n, p, old->size < size ? old->size : size);
	arena_free(arg, p);
	return n;
}

static void
arena_reset(void)
{
	while (arena)
	{
		arena_block *n = arena->next;

		ARENA_UNPOISON(arena->data, arena->size);
		free(arena);
		arena = n;
	}
	arena_blocks = 0;
	arena_live = 0;
}

#endif							/* TFP_TEST_ARENA_H */
