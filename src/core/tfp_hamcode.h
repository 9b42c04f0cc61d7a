/*
 * tfp_hamcode.h -- the entry code of the hamming index's sorted part, free
 * of PostgreSQL (so that test/unit can check it alone)
 *
 * An entry is 9 bytes: 48 bits of a permuted fingerprint (bytes 0..5, least
 * significant first) and a 24-bit TID code (bytes 6..8).  Within a run of
 * entries that starts a bucket or a page, the TIDs ascend and each is coded
 * against the block of the one before (the base, 0 at the start of the
 * run): code = (block - base) << 9 | offset.  A TID that does not fit (a
 * block more than 32767 past the base or before it, an offset above 510)
 * is preceded by an escape entry: code TFP_HAMCODE_ESC, and its 48 bits hold
 * the TID whole (block in bits 0..31, offset in bits 32..47); the entry
 * after an escape carries its TID there and its own code is 0.  Escapes and
 * fillers (code 0 entries that keep an escape and its row on one page) are
 * not rows: the page's dead map marks them, as it marks rows VACUUM removed.
 * The code is the same on every platform (bytes assembled explicitly).
 */
#ifndef TFP_HAMCODE_H
#define TFP_HAMCODE_H

#include <stdint.h>
#include <string.h>

#define TFP_HAMCODE_ENTRY		9
#define TFP_HAMCODE_OFFBITS		9
#define TFP_HAMCODE_OFFMAX		510
#define TFP_HAMCODE_GAPMAX		32767
#define TFP_HAMCODE_ESC			0xFFFFFFu
#define TFP_HAMCODE_MASK48		UINT64_C(0xFFFFFFFFFFFF)

/* the 48 bits of entry e */
static inline uint64_t
tfp_hamcode_rest(const uint8_t *e)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t	v;

	memcpy(&v, e, 8);			/* bytes 6 and 7 are the code's: masked */
	return v & TFP_HAMCODE_MASK48;
#else
	return (uint64_t) e[0] | ((uint64_t) e[1] << 8) | ((uint64_t) e[2] << 16) |
		((uint64_t) e[3] << 24) | ((uint64_t) e[4] << 32) | ((uint64_t) e[5] << 40);
#endif
}

/* the TID code of entry e */
static inline uint32_t
tfp_hamcode_code(const uint8_t *e)
{
	return (uint32_t) e[6] | ((uint32_t) e[7] << 8) | ((uint32_t) e[8] << 16);
}

static inline void
tfp_hamcode_put(uint8_t *e, uint64_t rest, uint32_t code)
{
	int			i;

	for (i = 0; i < 6; i++)
		e[i] = (uint8_t) (rest >> (8 * i));
	e[6] = (uint8_t) code;
	e[7] = (uint8_t) (code >> 8);
	e[8] = (uint8_t) (code >> 16);
}

/* the code of (block, offset) after base, or TFP_HAMCODE_ESC if it needs an escape */
static inline uint32_t
tfp_hamcode_encode(uint32_t base, uint32_t block, uint32_t offset)
{
	if (block < base || block - base > TFP_HAMCODE_GAPMAX || offset > TFP_HAMCODE_OFFMAX)
		return TFP_HAMCODE_ESC;
	return ((block - base) << TFP_HAMCODE_OFFBITS) | offset;
}

static inline uint64_t
tfp_hamcode_escape_rest(uint32_t block, uint32_t offset)
{
	return (uint64_t) block | ((uint64_t) (offset & 0xFFFF) << 32);
}

/* decoder of one run; zero it at the start of a run */
typedef struct tfp_hamdec
{
	uint32_t	base;
	int			escaped;		/* the entry before was an escape */
	uint32_t	eblock;
	uint32_t	eoffset;
} tfp_hamdec;

/*
 * Decode entry e of the run: 1 and its TID for a row (or a filler or a dead
 * row: the dead map tells), 0 for an escape.
 */
static inline int
tfp_hamcode_decode(tfp_hamdec *d, const uint8_t *e, uint32_t *block, uint32_t *offset)
{
	uint32_t	code = tfp_hamcode_code(e);

	if (code == TFP_HAMCODE_ESC)
	{
		uint64_t	r = tfp_hamcode_rest(e);

		d->escaped = 1;
		d->eblock = (uint32_t) r;
		d->eoffset = (uint32_t) (r >> 32);
		return 0;
	}
	if (d->escaped)
	{
		d->escaped = 0;
		d->base = d->eblock;
		*offset = d->eoffset;
	}
	else
	{
		d->base += code >> TFP_HAMCODE_OFFBITS;
		*offset = code & ((1u << TFP_HAMCODE_OFFBITS) - 1);
	}
	*block = d->base;
	return 1;
}

/*
 * The writer of one table: rows come in bucket order (v non-decreasing) and,
 * within a bucket, best in ascending TID order (others take escapes).
 * Entries go to put() in order; entry e is slot e % per_page of page
 * e / per_page (every page full but the last).  dir[0..nbuckets] gets the
 * first entry of each bucket, dir[nbuckets] the number of entries, once
 * tfp_hamwriter_finish has run.  A run starts at each bucket and each page
 * (base 0), and an escape never ends a page: a filler takes its slot.
 */
typedef struct tfp_hamwriter
{
	uint32_t	per_page;
	uint64_t	e;				/* entries written */
	uint32_t	base;
	uint32_t	bucket;			/* current bucket, once started */
	int			started;
	uint32_t   *dir;
	void		(*put) (void *arg, uint64_t rest, uint32_t code, int dead);
	void	   *arg;
} tfp_hamwriter;

static inline void
tfp_hamwriter_row(tfp_hamwriter *w, uint32_t v, uint64_t rest, uint32_t block, uint32_t offset)
{
	uint32_t	code;

	if (!w->started || v != w->bucket)
	{
		uint32_t	b;

		for (b = w->started ? w->bucket + 1 : 0; b <= v; b++)
			w->dir[b] = (uint32_t) w->e;
		w->bucket = v;
		w->started = 1;
		w->base = 0;
	}
	if (w->e % w->per_page == 0)
		w->base = 0;			/* this entry begins a page */
	code = tfp_hamcode_encode(w->base, block, offset);
	if (code == TFP_HAMCODE_ESC)
	{
		if (w->e % w->per_page == w->per_page - 1)
		{
			w->put(w->arg, 0, 0, 1);	/* filler */
			w->e++;
		}
		w->put(w->arg, tfp_hamcode_escape_rest(block, offset), TFP_HAMCODE_ESC, 1);
		w->e++;
		code = 0;
	}
	w->put(w->arg, rest, code, 0);
	w->e++;
	w->base = block;
}

static inline void
tfp_hamwriter_finish(tfp_hamwriter *w, uint32_t nbuckets)
{
	uint32_t	b;

	for (b = w->started ? w->bucket + 1 : 0; b <= nbuckets; b++)
		w->dir[b] = (uint32_t) w->e;
}

#endif							/* TFP_HAMCODE_H */
