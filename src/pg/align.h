/*
 * align.h -- the alignment's texts in the server encoding: a text as the
 * UTF-8 the core reads, with what maps byte offsets back to characters of
 * the original (align.c), shared by textfp_align() and textfp_sources()
 */
#ifndef TEXTFP_ALIGN_PG_H
#define TEXTFP_ALIGN_PG_H

#include "postgres.h"

#include "tfp_align.h"

/* A text argument as UTF-8, with what maps its byte offsets to characters. */
typedef struct AlignText
{
	const char *utf8;
	size_t		len;
	bool		bytes;			/* SQL_ASCII: a character is a byte */
	uint32	   *starts;			/* NULL: a character is a code point of the
								 * copy; else starts[c] = first byte of
								 * character c in the copy (nchars + 1) */
	uint32		nchars;
} AlignText;

/* memory from the current context, interrupts checked */
extern const tfp_align_env textfp_align_env;

/* the UTF-8 copy of a text and its character map */
extern void textfp_align_text(text *t, AlignText *at);

/* the passages' character offsets on one side (0: a, 1: b) for the
 * server's text */
extern void textfp_align_map_chars(const AlignText *at, tfp_align_result *r, int side);

#endif							/* TEXTFP_ALIGN_PG_H */
