/*
 * termset_cache.h -- the hash set of a lexicon argument (a varlena value
 * holding sorted int64 terms: imatch_lexicon, textfp_boilerplate), built
 * once per call site and kept in fn_extra
 */
#ifndef TEXTFP_TERMSET_CACHE_H
#define TEXTFP_TERMSET_CACHE_H

#include "postgres.h"

#include "fmgr.h"

#include "tfp_termset.h"

/* what the cache needs to know of a lexicon type */
typedef struct textfp_lexicon_kind
{
	Size		hdrsz;			/* bytes of the header */
	/* the content hash and the number of terms, from the header */
	uint64		(*ident) (const void *hdr, int32 *nterms);
	/* the checked terms of the whole (detoasted) value; errors if corrupt */
	const int64 *(*terms) (const void *value, int32 *nterms);
} textfp_lexicon_kind;

/*
 * The start of a call site's cache (a caller may extend it: cache_size, and
 * fill its own fields when *loaded says the set was just built).
 */
typedef struct textfp_termset_cache
{
	Oid			toastrelid;		/* where the value was stored out of line */
	Oid			valueid;		/* (both InvalidOid if it was not) */
	uint64		id;				/* content hash */
	int32		nterms;
	tfp_termset set;
} textfp_termset_cache;

extern textfp_termset_cache *textfp_lexicon_set(FunctionCallInfo fcinfo, int argno,
												const textfp_lexicon_kind *kind,
												Size cache_size, bool *loaded);

/* the set of a textfp_boilerplate argument (boilerplate.c) */
extern const textfp_termset_cache *textfp_boilerplate_arg(FunctionCallInfo fcinfo, int argno);

#endif							/* TEXTFP_TERMSET_CACHE_H */
