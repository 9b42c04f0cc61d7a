/*
 * clusters.c -- connected components of a graph of id pairs:
 * textfp_clusters(pairs_query) over any query's (id_a, id_b) rows, and
 * simhash_clusters() over simhash_pairs' pairs, computed in one go.
 *
 * Each distinct id is a node (a hash table maps it to a dense number); each
 * pair joins two nodes in the union-find of tfp_pairs.c, whose roots keep
 * the smallest id of their component.  A row comes out for every id that
 * occurs in some pair (a pair (x, x) counts: x forms a cluster of one
 * unless joined to others), with its component's smallest id as
 * cluster_id and representative, and the component's size; in the order
 * of the ids.  Pairs with a NULL id are skipped.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "pairs.h"
#include "tfp_pairs.h"
#include "tfp_sort.h"

PG_FUNCTION_INFO_V1(textfp_clusters);
PG_FUNCTION_INFO_V1(simhash_clusters_query);
PG_FUNCTION_INFO_V1(simhash_clusters_rel);

typedef struct IdEntry
{
	int64		id;
	uint32		node;
	char		status;
} IdEntry;

#define SH_PREFIX		idmap
#define SH_ELEMENT_TYPE	IdEntry
#define SH_KEY_TYPE		int64
#define SH_KEY			id
#define SH_HASH_KEY(tb, key)	((uint32) (((uint64) (key) * UINT64CONST(0x9E3779B97F4A7C15)) >> 32))
#define SH_EQUAL(tb, a, b)		((a) == (b))
#define SH_SCOPE		static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

/*
 * Bytes per node, for the maintenance_work_mem bound: the hash entry (16,
 * at most half full after growing: 32), the union-find (16), the id (8)
 * and the sort of the ids for the output (16).
 */
#define NODE_BYTES	72

typedef struct Clusters
{
	MemoryContext cxt;
	idmap_hash *map;
	tfp_uf		uf;
	int64	   *ids;			/* the id of each node */
	uint32		n,
				cap;
	size_t		maxnodes;
	uint64		pairs,
				next_notice;
	Oid			ta,				/* types of a pair query's id columns */
				tb;
	const char *fn;
} Clusters;

static void
clusters_begin(Clusters *c, FunctionCallInfo fcinfo)
{
	memset(c, 0, sizeof(*c));
	c->cxt = AllocSetContextCreate(CurrentMemoryContext, "textfp clusters",
								   ALLOCSET_DEFAULT_SIZES);
	c->map = idmap_create(c->cxt, 1024, NULL);
	c->maxnodes = Min((Size) maintenance_work_mem * 1024 / NODE_BYTES, PG_UINT32_MAX - 1);
	c->fn = get_func_name(fcinfo->flinfo->fn_oid);
	c->next_notice = 1 << 20;
}

static uint32
node_of(Clusters *c, int64 id)
{
	bool		found;
	IdEntry    *e = idmap_insert(c->map, id, &found);

	if (found)
		return e->node;
	if (c->n == c->cap)
	{
		size_t		cap = Max((size_t) c->cap * 2, 1024);

		if (c->n >= c->maxnodes)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s: more than %zu distinct ids do not fit in maintenance_work_mem",
							c->fn, c->maxnodes),
					 errdetail("Each id takes about %d bytes; maintenance_work_mem is %d kB.",
							   NODE_BYTES, maintenance_work_mem),
					 errhint("Raise maintenance_work_mem.")));
		cap = Min(cap, c->maxnodes);
		if (c->cap == 0)
		{
			c->uf.parent = MemoryContextAllocHuge(c->cxt, cap * sizeof(uint32));
			c->uf.size = MemoryContextAllocHuge(c->cxt, cap * sizeof(uint32));
			c->uf.minkey = MemoryContextAllocHuge(c->cxt, cap * sizeof(int64));
			c->ids = MemoryContextAllocHuge(c->cxt, cap * sizeof(int64));
		}
		else
		{
			c->uf.parent = repalloc_huge(c->uf.parent, cap * sizeof(uint32));
			c->uf.size = repalloc_huge(c->uf.size, cap * sizeof(uint32));
			c->uf.minkey = repalloc_huge(c->uf.minkey, cap * sizeof(int64));
			c->ids = repalloc_huge(c->ids, cap * sizeof(int64));
		}
		c->cap = (uint32) cap;
	}
	e->node = c->n;
	c->ids[c->n] = id;
	tfp_uf_make(&c->uf, c->n, id);
	return c->n++;
}

/* a PairSink: join the components of a and b */
static void
clusters_add(void *arg, int64 a, int64 b, int dist)
{
	Clusters   *c = arg;
	uint32		na = node_of(c, a),
				nb = node_of(c, b);

	tfp_uf_union(&c->uf, na, nb);
	if ((++c->pairs & 0xFFFF) == 0)
		CHECK_FOR_INTERRUPTS();
}

/* one row per id, in the order of the ids */
static Datum
clusters_output(Clusters *c, FunctionCallInfo fcinfo)
{
	TupleDesc	desc;
	Tuplestorestate *ts = textfp_srf_materialize(fcinfo, &desc);
	uint64	   *sorted = MemoryContextAllocHuge(c->cxt, Max(c->n, 1) * sizeof(uint64)),
			   *scratch = MemoryContextAllocHuge(c->cxt, Max(c->n, 1) * sizeof(uint64));

	if (textfp_progress)
		ereport(NOTICE, (errmsg("%s: %llu pairs, %u ids", c->fn,
								(unsigned long long) c->pairs, c->n)));
	/* no pairs: no ids, and c->ids was never allocated (memcpy from NULL is undefined) */
	if (c->n > 0)
		memcpy(sorted, c->ids, c->n * sizeof(int64));
	/* ids are distinct: the sort keeps them all */
	tfp_sort_unique_u64(sorted, c->n, scratch);
	for (uint32 i = 0; i < c->n; i++)
	{
		IdEntry    *e = idmap_lookup(c->map, (int64) sorted[i]);
		uint32		root = tfp_uf_find(&c->uf, e->node);
		Datum		v[4];
		bool		nulls[4] = {false, false, false, false};

		v[0] = Int64GetDatum((int64) sorted[i]);
		v[1] = Int64GetDatum(c->uf.minkey[root]);
		v[2] = Int64GetDatum((int64) c->uf.size[root]);
		v[3] = v[1];
		tuplestore_putvalues(ts, desc, v, nulls);
		if ((i & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	MemoryContextDelete(c->cxt);
	return (Datum) 0;
}

/* The pairs of a query: its first two columns, integers; the rest ignored. */
static void
pairs_check(void *arg, TupleDesc td)
{
	Clusters   *c = arg;

	if (td->natts < 2)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s: the query must return at least two columns (id_a, id_b), not %d",
						c->fn, td->natts)));
	c->ta = getBaseType(TupleDescAttr(td, 0)->atttypid);
	c->tb = getBaseType(TupleDescAttr(td, 1)->atttypid);
	if (!textfp_is_int_type(c->ta) || !textfp_is_int_type(c->tb))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s: the query's first two columns must be of integer types, not %s and %s",
						c->fn, format_type_be(TupleDescAttr(td, 0)->atttypid),
						format_type_be(TupleDescAttr(td, 1)->atttypid)),
				 errdetail("They are the ids of a pair; smallint, integer and bigint are accepted.")));
}

static void
pairs_row(void *arg, Datum a, bool na, Datum b, bool nb)
{
	Clusters   *c = arg;

	if (!na && !nb)
		clusters_add(c, textfp_int_datum(a, c->ta), textfp_int_datum(b, c->tb), 0);
	if (textfp_progress && c->pairs >= c->next_notice)
	{
		ereport(NOTICE, (errmsg("%s: read %llu pairs, %u ids", c->fn,
								(unsigned long long) c->pairs, c->n)));
		c->next_notice = c->pairs * 2;
	}
}

Datum
textfp_clusters(PG_FUNCTION_ARGS)
{
	Clusters	c;

	clusters_begin(&c, fcinfo);
	textfp_query_rows(text_to_cstring(PG_GETARG_TEXT_PP(0)), pairs_check, pairs_row, &c);
	return clusters_output(&c, fcinfo);
}

Datum
simhash_clusters_query(PG_FUNCTION_ARGS)
{
	Clusters	c;

	clusters_begin(&c, fcinfo);
	textfp_pairs_search(fcinfo, false, PG_GETARG_INT32(1), clusters_add, &c);
	return clusters_output(&c, fcinfo);
}

Datum
simhash_clusters_rel(PG_FUNCTION_ARGS)
{
	Clusters	c;

	clusters_begin(&c, fcinfo);
	textfp_pairs_search(fcinfo, true, PG_GETARG_INT32(3), clusters_add, &c);
	return clusters_output(&c, fcinfo);
}
