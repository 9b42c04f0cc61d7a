/*
 * citus.c -- is a relation a Citus table?
 *
 * On a Citus cluster the coordinator's table of a distributed, reference
 * or Citus-local table is an empty shell: the rows live in shards (tables
 * named <table>_<shard id>) on the workers, or beside it.  A function that
 * reads a relation's heap or index directly would read the shell and
 * answer as if the table were empty: the worst kind of answer in a dedup
 * system.  Such functions ask here first, and read the table through a
 * query instead (which Citus plans across the shards) or refuse.
 *
 * textfp neither links nor needs Citus: its metadata table
 * pg_catalog.pg_dist_partition is looked up by name, and where it does not
 * exist no relation is a Citus table.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/skey.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "textfp.h"

/*
 * The kind of Citus table relid is, as Citus's metadata says: "distributed"
 * (hash-, range- or append-distributed, or a single-shard distributed
 * table), "reference", "citus local"; NULL when it is not a Citus table or
 * Citus is not installed in this database.
 */
const char *
textfp_citus_table_kind(Oid relid)
{
	Oid			meta = get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE);
	Relation	rel;
	AttrNumber	a_rel,
				a_method,
				a_repmodel,
				a_coloc;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	const char *kind = NULL;

	if (!OidIsValid(meta))
		return NULL;
	a_rel = get_attnum(meta, "logicalrelid");
	a_method = get_attnum(meta, "partmethod");
	a_repmodel = get_attnum(meta, "repmodel");
	a_coloc = get_attnum(meta, "colocationid");
	if (a_rel == InvalidAttrNumber || a_method == InvalidAttrNumber)
		return NULL;
	rel = table_open(meta, AccessShareLock);
	ScanKeyInit(&key, a_rel, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(relid));
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 1, &key);
	if (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		TupleDesc	td = RelationGetDescr(rel);
		bool		isnull;
		char		method = DatumGetChar(heap_getattr(tup, a_method, td, &isnull));
		char		repmodel = a_repmodel == InvalidAttrNumber ? 0 :
			DatumGetChar(heap_getattr(tup, a_repmodel, td, &isnull));
		int32		coloc = a_coloc == InvalidAttrNumber ? 0 :
			DatumGetInt32(heap_getattr(tup, a_coloc, td, &isnull));

		/* partmethod 'n' (none): reference ('t' replication), single-shard
		 * distributed (co-located with something) or Citus-local */
		if (method != 'n')
			kind = "distributed";
		else if (repmodel == 't')
			kind = "reference";
		else if (coloc != 0)
			kind = "distributed";
		else
			kind = "citus local";
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return kind;
}

/* textfp_citus_table(rel regclass) returns text: textfp_citus_table_kind */
PG_FUNCTION_INFO_V1(textfp_citus_table);
Datum
textfp_citus_table(PG_FUNCTION_ARGS)
{
	const char *kind = textfp_citus_table_kind(PG_GETARG_OID(0));

	if (kind == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(kind));
}
