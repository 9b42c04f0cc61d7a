/*
 * arena.h -- the memory of the core's tfp_match_env for the tests and the
 * fuzz target without PostgreSQL: every block kept until arena_reset()
 * (a memory context's part); arena_blocks counts them.
 */
#ifndef TFP_TEST_ARENA_H
#define TFP_TEST_ARENA_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct arena_block
{
	struct arena_block *next;
	size_t		size;
	max_align_t data[];
} arena_block;

static arena_block *arena = NULL;
static size_t arena_blocks = 0;

static void *
arena_alloc(void *arg, size_t size)
{
	arena_block *b = malloc(sizeof(arena_block) + (size ? size : 1));

	(void) arg;
	if (!b)
		abort();
	b->next = arena;
	b->size = size;
	arena = b;
	arena_blocks++;
	return b->data;
}

static void *
arena_realloc(void *arg, void *p, size_t size)
{
	arena_block *old = (arena_block *) ((char *) p - offsetof(arena_block, data));
	void	   *n = arena_alloc(arg, size);

	memcpy(n, p, old->size < size ? old->size : size);
	return n;
}

static void
arena_reset(void)
{
	while (arena)
	{
		arena_block *n = arena->next;

		free(arena);
		arena = n;
	}
	arena_blocks = 0;
}

#endif							/* TFP_TEST_ARENA_H */
