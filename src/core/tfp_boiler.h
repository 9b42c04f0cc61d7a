/*
 * tfp_boiler.h -- boilerplate lines learned from a corpus (in the manner of
 * CCNet's line deduplication, Wenzek et al. 2020): the normalized hash of
 * each line of a text, and a text without the lines whose hash is in a set.
 * Pure C, no PostgreSQL headers.
 *
 * DEFINITION (version 1; frozen: lexicons are stored, so the definition
 * below never changes -- a new definition gets a new version number)
 *
 *  Lines: a text is cut after each LF, after each CR not followed by LF,
 *  and at its end; a line's break (LF, CR LF or CR) belongs to it.  A text
 *  ending with a break has no empty last line; the empty text has none.
 *
 *  Normal form of a line: its code points (UTF-8; an invalid byte reads as
 *  U+FFFD), each folded by tfp_cp_fold() with TFP_FOLD_WIDTH | TFP_FOLD_CASE
 *  | TFP_FOLD_HAN (full-width and compatibility forms, case, traditional
 *  script), keeping only the folded code points whose tfp_cp_class() is
 *  TFP_CC_WORD or TFP_CC_HAN (letters and digits: punctuation, symbols,
 *  white space, combining marks -- so accents -- and ignorables dropped),
 *  with the ASCII digits 1-9 written as 0 (so "2023" and "1999" are one
 *  line; full-width digits are ASCII ones after the width fold).
 *
 *  Hash of a line: XXH3_64bits_withSeed of its normal form written as
 *  4-byte little-endian code points, seed TFP_BOILER_SEED.  A line whose
 *  normal form is empty (a blank line, a rule of dashes) has no hash: it is
 *  never boilerplate, and stripping keeps it.
 *
 *  Stripping a text with a set of hashes: the text's lines in order, without
 *  the lines (with their breaks) whose hash is in the set; every other line
 *  is kept byte for byte.
 */
#ifndef TFP_BOILER_H
#define TFP_BOILER_H

#include <stddef.h>
#include <stdint.h>

#include "tfp_termset.h"

#define TFP_BOILER_VERSION	1
#define TFP_BOILER_SEED		UINT64_C(0x7466703162706c74)	/* "tfp1bplt" */

/* how often (in bytes read) the scans call their tick */
#define TFP_BOILER_TICK		(1 << 16)

/*
 * Called for each line of a text: the line is s[start, end), its break
 * s[end, next); has_hash says whether it has a hash (non-empty normal form).
 */
typedef void (*tfp_boiler_line_fn) (void *arg, size_t start, size_t end,
									size_t next, int has_hash, uint64_t hash);

/*
 * The hash of one line s[0..len) (no break inside): returns 1 and sets
 * *hash, or returns 0 if its normal form is empty.  tick, if not NULL, is
 * called every TFP_BOILER_TICK bytes.
 */
extern int	tfp_boiler_line_hash(const char *s, size_t len, uint64_t *hash,
								 void (*tick) (void));

/* Call fn for each line of s[0..len), in order. */
extern void tfp_boiler_lines(const char *s, size_t len, tfp_boiler_line_fn fn,
							 void *arg, void (*tick) (void));

/*
 * s[0..len) without the lines whose hash is in set, written to out (room
 * for len bytes); returns the output's length.  *removed, if not NULL,
 * receives the number of lines left out.
 */
extern size_t tfp_boiler_strip(const char *s, size_t len, const tfp_termset *set,
							   char *out, size_t *removed, void (*tick) (void));

#endif							/* TFP_BOILER_H */
