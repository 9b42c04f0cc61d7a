/*
 * tfp_unicode_inline.h -- inline versions of tfp_cp_class() and
 * tfp_cp_fold(), for the feature extractor's inner loop
 *
 * Pure C, no PostgreSQL headers.  tfp_unicode.c defines the extern functions
 * of tfp_unicode.h as calls of these, so there is one implementation.
 */
#ifndef TFP_UNICODE_INLINE_H
#define TFP_UNICODE_INLINE_H

#include <stdint.h>
#include <string.h>

#include "tfp_unicode.h"

#define TFP_UNICODE_DATA_DECLS_ONLY
#include "tfp_unicode_data.c"

/* two-stage lookup of cp (< the table's LIMIT) */
#define TFP_LOOKUP(stage1, stage2, shift, cp) \
	(stage2)[((uint32_t) (stage1)[(cp) >> (shift)] << (shift)) | \
			 ((cp) & ((1u << (shift)) - 1))]

static inline int
tfp_cp_class_inline(uint32_t cp)
{
	if (cp >= TFP_CLASS_LIMIT)
		return TFP_CC_SEP;
	return TFP_LOOKUP(tfp_class_stage1, tfp_class_stage2, TFP_CLASS_SHIFT, cp);
}

static inline int
tfp_cp_fold_inline(uint32_t cp, unsigned flags, uint32_t *out)
{
	uint32_t	rec,
				ent,
				len;
	unsigned	idx;

	if (cp < 0x80)
	{
		/* ASCII: only A-Z change, under TFP_FOLD_CASE (the generator checks) */
		if ((flags & TFP_FOLD_CASE) && cp - 'A' < 26u)
			cp += 'a' - 'A';
		out[0] = cp;
		return 1;
	}
	if (cp >= TFP_FOLD_LIMIT)
		idx = 0;
	else
		idx = TFP_LOOKUP(tfp_fold_stage1, tfp_fold_stage2, TFP_FOLD_SHIFT, cp);
	if (idx == 0)
	{
		/* unchanged under all flags */
		out[0] = cp;
		return 1;
	}

	/* record: (first result << 3) | mask of the flags that matter */
	rec = tfp_fold_rec[idx];
	ent = tfp_fold_seq[(rec >> 3) + tfp_fold_sel[rec & 7][flags & 7]];
	len = ent & 31;
	if (len == 1)
	{
		/* single code point cp + delta, delta zigzag-encoded in ent >> 5 */
		uint32_t	z = ent >> 5;

		out[0] = cp + ((z >> 1) ^ (0u - (z & 1)));
		return 1;
	}
	if (len == 0)
	{
		/* unchanged under these flags */
		out[0] = cp;
		return 1;
	}
	memcpy(out, tfp_fold_pool + (ent >> 5), len * sizeof(uint32_t));
	return (int) len;
}

#endif							/* TFP_UNICODE_INLINE_H */
