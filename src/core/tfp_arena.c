/*
 * tfp_arena.c -- scratch memory that keeps its blocks (tfp_arena.h)
 *
 * Every allocation is preceded by a 16-byte header: its size rounded up to
 * 16, and its kind (from a block, or direct).  A direct allocation has a
 * link header before that, in the arena's list of them.  A block hands
 * out memory from used up; freeing the allocation that ends at used moves
 * used back to its header.  When the current block has no room, the next
 * kept block that has takes over (the blocks before it keep what they
 * hold until the reset), else a new block of at least twice the last
 * one's size.
 */
#include <string.h>

#include "tfp_arena.h"
#include "tfp_asan.h"

/* under AddressSanitizer, memory not handed out is poisoned: a use of a
 * buffer after its arena's reset (or after it was taken back) is reported */
#define POISON(p, n) TFP_ASAN_POISON(p, n)
#define UNPOISON(p, n) TFP_ASAN_UNPOISON(p, n)

#define ALIGN16(n) (((n) + 15) & ~(size_t) 15)
#define KIND_BLOCK UINT64_C(0x7466704172656e61)	/* "tfpArena" */
#define KIND_DIRECT UINT64_C(0x7466704269674121)	/* "tfpBigA!" */

struct tfp_arena_block
{
	tfp_arena_block *next;
	size_t		size,			/* bytes after this header */
				used;
	size_t		pad;			/* the header is 32 bytes: data aligned */
};

struct tfp_arena_big
{
	tfp_arena_big *next,
			   *prev;
};

typedef struct head
{
	uint64_t	size,			/* of the data, rounded up to 16 */
				kind;
} head;

#define BLOCK_DATA(b) ((char *) (b) + sizeof(tfp_arena_block))

void
tfp_arena_init(tfp_arena *a, void *(*block_alloc) (void *owner, size_t size),
			   void (*block_free) (void *owner, void *p), void *owner)
{
	memset(a, 0, sizeof(*a));
	a->block_alloc = block_alloc;
	a->block_free = block_free;
	a->owner = owner;
}

static void *
direct_alloc(tfp_arena *a, size_t size)
{
	tfp_arena_big *g;
	head	   *h;

	/* (an impossible size: the owner's allocator fails on SIZE_MAX) */
	g = a->block_alloc(a->owner, size > SIZE_MAX - sizeof(tfp_arena_big) - sizeof(head) ?
					   SIZE_MAX : sizeof(tfp_arena_big) + sizeof(head) + size);
	h = (head *) (g + 1);

	g->prev = NULL;
	g->next = a->big;
	if (a->big)
		a->big->prev = g;
	a->big = g;
	h->size = size;
	h->kind = KIND_DIRECT;
	return h + 1;
}

static void
direct_free(tfp_arena *a, head *h)
{
	tfp_arena_big *g = (tfp_arena_big *) h - 1;

	if (g->prev)
		g->prev->next = g->next;
	else
		a->big = g->next;
	if (g->next)
		g->next->prev = g->prev;
	a->block_free(a->owner, g);
}

/* a block with room for need bytes: the current one, a later kept one, or
 * a new one at the end */
static tfp_arena_block *
block_with_room(tfp_arena *a, size_t need)
{
	tfp_arena_block *b = a->cur,
			   *last = NULL;
	size_t		size;

	/* (cur is NULL only when there is no block: before the first, or
	 * after a reset that kept none) */
	for (; b; b = b->next)
	{
		if (b->size - b->used >= need)
			return a->cur = b;
		last = b;
	}
	size = last ? 2 * last->size : TFP_ARENA_BLOCK;
	if (size < need)
		size = need;
	if (size > TFP_ARENA_KEEP)
		size = need > TFP_ARENA_KEEP ? need : TFP_ARENA_KEEP;
	b = a->block_alloc(a->owner, sizeof(tfp_arena_block) + size);
	b->next = NULL;
	b->size = size;
	b->used = 0;
	POISON(BLOCK_DATA(b), size);
	if (last)
		last->next = b;
	else
		a->first = b;
	a->blocks += size;
	return a->cur = b;
}

void *
tfp_arena_alloc(void *arena, size_t size)
{
	tfp_arena  *a = (tfp_arena *) arena;
	size_t		n = ALIGN16(size > 0 ? size : 1);
	tfp_arena_block *b = a->cur;
	head	   *h;

	if (n >= TFP_ARENA_DIRECT || n < size)
		return direct_alloc(a, size);
	if (b == NULL || b->size - b->used < n + sizeof(head))
		b = block_with_room(a, n + sizeof(head));
	h = (head *) (BLOCK_DATA(b) + b->used);
	UNPOISON(h, sizeof(head) + n);
	h->size = n;
	h->kind = KIND_BLOCK;
	b->used += sizeof(head) + n;
	return h + 1;
}

/* whether h is the last allocation of the current block */
static int
is_last(const tfp_arena *a, const head *h)
{
	const tfp_arena_block *b = a->cur;

	return b != NULL && (const char *) (h + 1) + h->size == BLOCK_DATA(b) + b->used &&
		(const char *) h >= BLOCK_DATA(b);
}

void
tfp_arena_free(void *arena, void *p)
{
	tfp_arena  *a = (tfp_arena *) arena;
	head	   *h;

	if (p == NULL)
		return;
	h = (head *) p - 1;
	if (h->kind == KIND_DIRECT)
		direct_free(a, h);
	else if (is_last(a, h))
	{
		a->cur->used = (size_t) ((char *) h - BLOCK_DATA(a->cur));
		POISON(h, sizeof(head) + h->size);
	}
}

void *
tfp_arena_realloc(void *arena, void *p, size_t size)
{
	tfp_arena  *a = (tfp_arena *) arena;
	head	   *h;
	size_t		n = ALIGN16(size > 0 ? size : 1),
				old;
	void	   *q;

	if (p == NULL)
		return tfp_arena_alloc(a, size);
	h = (head *) p - 1;
	old = h->size;
	/* the last allocation of its block grows or shrinks in place */
	if (h->kind == KIND_BLOCK && n >= size && n < TFP_ARENA_DIRECT && is_last(a, h) &&
		a->cur->size - ((size_t) ((char *) p - BLOCK_DATA(a->cur))) >= n)
	{
		a->cur->used = (size_t) ((char *) p - BLOCK_DATA(a->cur)) + n;
		UNPOISON(p, n);
		if (n < old)
			POISON((char *) p + n, old - n);
		h->size = n;
		return p;
	}
	q = tfp_arena_alloc(a, size);
	memcpy(q, p, old < size ? old : size);
	tfp_arena_free(a, p);
	return q;
}

void
tfp_arena_reset(tfp_arena *a)
{
	tfp_arena_block *b = a->first,
			   *keep_last = NULL;
	size_t		kept = 0;

	while (a->big)
		direct_free(a, (head *) (a->big + 1));
	/* the first blocks, up to TFP_ARENA_KEEP bytes, stay */
	while (b && kept + b->size <= TFP_ARENA_KEEP)
	{
		b->used = 0;
		POISON(BLOCK_DATA(b), b->size);
		kept += b->size;
		keep_last = b;
		b = b->next;
	}
	if (keep_last)
		keep_last->next = NULL;
	else
		a->first = NULL;
	while (b)
	{
		tfp_arena_block *next = b->next;

		a->block_free(a->owner, b);
		b = next;
	}
	a->blocks = kept;
	a->cur = a->first;
}

void
tfp_arena_release(tfp_arena *a)
{
	tfp_arena_block *b = a->first;

	while (a->big)
		direct_free(a, (head *) (a->big + 1));
	while (b)
	{
		tfp_arena_block *next = b->next;

		a->block_free(a->owner, b);
		b = next;
	}
	a->first = a->cur = NULL;
	a->blocks = 0;
}
