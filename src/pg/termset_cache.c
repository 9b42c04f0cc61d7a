/*
 * termset_cache.c -- the hash set of a lexicon argument, built once per call
 * site (termset_cache.h)
 */
#include "postgres.h"

#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif
#include "access/detoast.h"
#include "utils/memutils.h"

#include "termset_cache.h"

/*
 * A lexicon stored out of line is known by its TOAST pointer (values there
 * never change, and the statement's snapshot keeps the value), so the next
 * calls of a call site read nothing; any other is known by the content
 * hash and term count in its header.
 */
textfp_termset_cache *
textfp_lexicon_set(FunctionCallInfo fcinfo, int argno, const textfp_lexicon_kind *kind,
				   Size cache_size, bool *loaded)
{
	Datum		d = PG_GETARG_DATUM(argno);
	struct varlena *v = (struct varlena *) DatumGetPointer(d);
	textfp_termset_cache *c = (textfp_termset_cache *) fcinfo->flinfo->fn_extra;
	Oid			toastrelid = InvalidOid,
				valueid = InvalidOid;
	const void *value;
	const int64 *terms;
	int32		n;
	uint64	   *slots;
	size_t		nslots;

	*loaded = false;
	if (VARATT_IS_EXTERNAL_ONDISK(v))
	{
		struct varatt_external ve;

		VARATT_EXTERNAL_GET_POINTER(ve, v);
		toastrelid = ve.va_toastrelid;
		valueid = ve.va_valueid;
		if (c != NULL && c->valueid == valueid && c->toastrelid == toastrelid)
			return c;
	}
	else if (c != NULL && c->valueid == InvalidOid)
	{
		uint64		id = kind->ident(PG_DETOAST_DATUM_SLICE(d, 0, kind->hdrsz), &n);

		if (c->id == id && c->nterms == n)
			return c;
	}
	value = PG_DETOAST_DATUM(d);
	terms = kind->terms(value, &n);
	if (c == NULL)
		c = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, cache_size);
	else if (c->set.slots != NULL)
		pfree(c->set.slots);
	c->set.slots = NULL;
	nslots = tfp_termset_slots((size_t) n);
	slots = MemoryContextAllocHuge(fcinfo->flinfo->fn_mcxt, nslots * sizeof(uint64));
	tfp_termset_build(&c->set, slots, nslots, (const uint64_t *) terms, (size_t) n);
	c->toastrelid = toastrelid;
	c->valueid = valueid;
	c->id = kind->ident(value, &c->nterms);
	fcinfo->flinfo->fn_extra = c;
	*loaded = true;
	return c;
}
