/*
 * passage.h -- the passage_fingerprint type (a text's winnowed k-gram hashes with
 * their positions and context bytes, src/core/tfp_passage.h), shared by its
 * functions (passage.c), the "passage" index access method (passage_am*.c)
 * and the source query (passage_sources.c).
 *
 * On disk (a varlena, 8-byte aligned):
 *   header     PassageFp: version, k, w, flags, units, n
 *   hash[n]    uint64, in order of unit
 *   unit[n]    uint32, strictly increasing
 *   left[n]    uint8
 *   right[n]   uint8
 * 16 + 14 n bytes.
 */
#ifndef TEXTFP_PASSAGE_H
#define TEXTFP_PASSAGE_H

#include "postgres.h"
#include "fmgr.h"

#include "tfp_passage.h"

#define PASSAGE_FP_VERSION	1
#define PASSAGE_FP_READING	0x01

typedef struct PassageFp
{
	int32		vl_len_;
	uint8		version;
	uint8		k;
	uint8		w;
	uint8		flags;
	uint32		units;			/* units of the text */
	uint32		n;				/* seeds */
	/* uint64 hash[n]; uint32 unit[n]; uint8 left[n]; uint8 right[n]; */
} PassageFp;

#define PASSAGE_FP_HDRSZ	MAXALIGN(sizeof(PassageFp))
#define PASSAGE_FP_SIZE(n)	(PASSAGE_FP_HDRSZ + (Size) (n) * 14)
/* seeds of one value: at most the units it may count */
#define PASSAGE_FP_MAX_SEEDS	TFP_PASSAGE_MAX_UNITS

static inline uint64 *
passage_fp_hash(PassageFp *fp)
{
	return (uint64 *) ((char *) fp + PASSAGE_FP_HDRSZ);
}

static inline uint32 *
passage_fp_unit(PassageFp *fp)
{
	return (uint32 *) ((char *) fp + PASSAGE_FP_HDRSZ + (Size) fp->n * 8);
}

static inline uint8 *
passage_fp_left(PassageFp *fp)
{
	return (uint8 *) ((char *) fp + PASSAGE_FP_HDRSZ + (Size) fp->n * 12);
}

static inline uint8 *
passage_fp_right(PassageFp *fp)
{
	return (uint8 *) ((char *) fp + PASSAGE_FP_HDRSZ + (Size) fp->n * 13);
}

#define DatumGetPassageFp(X)		((PassageFp *) PG_DETOAST_DATUM(X))
#define PG_GETARG_PASSAGE_FP(n)		DatumGetPassageFp(PG_GETARG_DATUM(n))

/* the options of a value */
static inline tfp_passage_opts
passage_fp_opts(const PassageFp *fp)
{
	tfp_passage_opts o;

	o.k = fp->k;
	o.w = fp->w;
	o.reading = (fp->flags & PASSAGE_FP_READING) != 0;
	return o;
}

/* Options from SQL arguments, checked (22023 on bad values). */
extern void passage_check_opts(tfp_passage_opts *o, int32 k, int32 w, bool reading);

/*
 * The seeds of a text (any server encoding), palloc'd (*n, *units); 54000
 * beyond TFP_PASSAGE_MAX_UNITS units.  Cancellable.
 */
extern tfp_pseed *passage_text_seeds(text *t, const tfp_passage_opts *o, size_t *n,
									 uint64 *units);

/* the same from UTF-8 */
extern tfp_pseed *passage_utf8_seeds(const char *s, size_t len, const tfp_passage_opts *o,
									 size_t *n, uint64 *units);

/* a passage_fp value of seeds s[0..n) */
extern PassageFp *passage_fp_make(const tfp_passage_opts *o, const tfp_pseed *s, size_t n,
								  uint64 units);

/* the seeds of a value (palloc'd) */
extern tfp_pseed *passage_fp_seeds_of(PassageFp *fp);

/* 22023 unless a value has the options o (what is the value, e.g. "the
 * query") */
extern void passage_check_same(const tfp_passage_opts *have, const tfp_passage_opts *want,
							   const char *what);

/* the fingerprint and min_shared of a passage_query composite */
extern PassageFp *passage_query_fp(HeapTupleHeader q, int32 *min_shared);

#endif							/* TEXTFP_PASSAGE_H */
