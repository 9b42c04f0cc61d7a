/*
 * am_pages.c -- page and buffer helpers shared by textfp's index access
 * methods, "hamming" and "passage" (what they share: am_pages.h): pages,
 * the metapage, the build's first and last steps, the pending list,
 * VACUUM's marks and sweep, freed pages, and the methods' operator classes
 * and statistics functions.  Runs are written and their directories cached
 * in am_runs.c.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_opclass.h"
#include "commands/vacuum.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/indexfsm.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/catcache.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "am_pages.h"
#include "textfp.h"

/* ---- pages ---- */

void
am_init_page(Page page, uint16 page_id, uint16 flags)
{
	AmPageOpaqueData *op;

	PageInit(page, BLCKSZ, sizeof(AmPageOpaqueData));
	op = AmPageGetOpaque(page);
	op->next = InvalidBlockNumber;
	op->flags = flags;
	op->page_id = page_id;
}

/* A new page at the end of the fork, exclusively locked. */
Buffer
am_new_buffer(Relation index, ForkNumber fork)
{
#if PG_VERSION_NUM >= 160000
	return ExtendBufferedRel(BMR_REL(index), fork, NULL, EB_LOCK_FIRST);
#else
	Buffer		buf;
	bool		needLock = !RELATION_IS_LOCAL(index);

	if (needLock)
		LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBufferExtended(index, fork, P_NEW, RBM_NORMAL, NULL);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	if (needLock)
		UnlockRelationForExtension(index, ExclusiveLock);
	return buf;
#endif
}

/*
 * The locked page of buf belongs to run or chain id ("what": "run" or
 * "chain"), as the caller's copy of the metapage says: else the index is
 * damaged.  (The caller holds the merge lock, or reads a run it holds in
 * the directory cache during a merge: no merge can have reused the page.)
 */
void
am_check_owned(Relation index, Buffer buf, uint16 page_id, uint32 id, const char *what)
{
	if (!am_page_owned(BufferGetPage(buf), page_id, id))
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a damaged %s", RelationGetRelationName(index), what),
				 errdetail("Block %u is not a page of %s %u.", BufferGetBlockNumber(buf),
						   what, id)));
}

/* a copy of the pinned page of run id (a merge reads its inputs so); releases buf */
void
am_copy_owned_page(Relation index, Buffer buf, uint16 page_id, uint32 id, char *copy)
{
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	am_check_owned(index, buf, page_id, id, "run");
	memcpy(copy, BufferGetPage(buf), BLCKSZ);
	UnlockReleaseBuffer(buf);
}

/* ---- the metapage ---- */

/* the checks every method's metapage passes (its check_meta's first) */
void
am_check_meta(Relation index, Page page, const AmMethod *am)
{
	const AmMetaHead *m = (const AmMetaHead *) PageGetContents(page);

	if (AmPageGetOpaque(page)->page_id != am->page_id ||
		!(AmPageGetOpaque(page)->flags & AM_PAGE_META) ||
		m->magic != am->magic)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is not a %s index",
						RelationGetRelationName(index), am->name),
				 errdetail("Its metapage does not carry the %s magic number.", am->name)));
	if (m->format != am->format)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" has %s format %u, this textfp reads %u",
						RelationGetRelationName(index), am->name, m->format, am->format),
				 errdetail("REINDEX rebuilds it in the current format.")));
}

/* the metapage counts n of "what", which cannot be */
void
am_meta_damaged(Relation index, uint32 n, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("index \"%s\" has a damaged metapage",
					RelationGetRelationName(index)),
			 errdetail("It counts %u %s.", n, what)));
}

/* a copy of the checked metapage's data */
void
am_read_meta(Relation index, const AmMethod *am, void *meta)
{
	Buffer		buf = ReadBuffer(index, AM_METAPAGE_BLKNO);
	Page		page;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	am->check_meta(index, page);
	memcpy(meta, PageGetContents(page), am->meta_size);
	UnlockReleaseBuffer(buf);
}

void
am_init_meta_page(Page page, const AmMethod *am, const void *meta)
{
	am_init_page(page, am->page_id, AM_PAGE_META);
	memcpy(PageGetContents(page), meta, am->meta_size);
	am_page_set_end(page, (char *) PageGetContents(page) + am->meta_size);
}

/* the owners of the structures of a metapage copy (check_meta bounds its runs) */
void
am_owners(const AmMethod *am, const void *meta, AmOwners *o)
{
	uint32		nruns = *AmMetaField(const uint32, meta, am->nruns_off);
	const char *runs = AmMetaField(const char, meta, am->runs_off);

	Assert(nruns <= AM_MAX_RUNS);
	o->nruns = (int) nruns;
	for (uint32 r = 0; r < nruns; r++)
		o->ids[r] = *(const uint32 *) (runs + r * am->run_size);
	o->ids[nruns] = AmMetaField(const AmChain, meta, am->pending_off)->id;
	o->ids[nruns + 1] = AmMetaField(const AmChain, meta, am->merging_off)->id;
	o->n = (int) nruns + 2;
}

/* a page of the method that is not the metapage and that none of live owns */
bool
am_page_unowned(Page page, uint16 page_id, const AmOwners *live)
{
	AmPageOpaqueData *op = AmPageGetOpaque(page);

	if (op->page_id != page_id || (op->flags & AM_PAGE_META))
		return false;
	for (int i = 0; i < live->n; i++)
		if (op->owner == live->ids[i])
			return false;
	return true;
}

/* ---- the build ---- */

/*
 * A build's first step: the index is empty, and block 0 is taken for the
 * metapage, which am_build_end writes.
 */
void
am_build_begin(Relation index)
{
	Buffer		metabuf;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data",
			 RelationGetRelationName(index));
	metabuf = am_new_buffer(index, MAIN_FORKNUM);
	Assert(BufferGetBlockNumber(metabuf) == AM_METAPAGE_BLKNO);
	UnlockReleaseBuffer(metabuf);
}

/*
 * Its last: the metapage, then the whole index logged (the build writes
 * its pages without WAL, as GIN's does); the result, in the caller's
 * memory context.
 */
IndexBuildResult *
am_build_end(Relation index, const AmMethod *am, const void *meta, double heap_tuples,
			 double index_tuples)
{
	Buffer		metabuf = ReadBuffer(index, AM_METAPAGE_BLKNO);
	IndexBuildResult *result;

	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	am_init_meta_page(BufferGetPage(metabuf), am, meta);
	MarkBufferDirty(metabuf);
	UnlockReleaseBuffer(metabuf);

	if (RelationNeedsWAL(index))
		log_newpage_range(index, MAIN_FORKNUM, 0,
						  RelationGetNumberOfBlocks(index), true);

	result = (IndexBuildResult *) palloc(sizeof(IndexBuildResult));
	result->heap_tuples = heap_tuples;
	result->index_tuples = index_tuples;
	return result;
}

/* ambuildempty: the metapage of an empty index in the init fork */
void
am_build_empty(Relation index, const AmMethod *am, const void *meta)
{
	Buffer		buf = am_new_buffer(index, INIT_FORKNUM);

	START_CRIT_SECTION();
	am_init_meta_page(BufferGetPage(buf), am, meta);
	MarkBufferDirty(buf);
	log_newpage_buffer(buf, true);
	END_CRIT_SECTION();
	UnlockReleaseBuffer(buf);
}

/* ---- the pending list ---- */

/*
 * Before an insert starts its generic WAL record (the caller holds the
 * metapage exclusively locked): the list's tail exclusively locked, and a
 * new page when there is no tail or the tail holds per_page entries of
 * esize bytes.
 */
void
am_pending_lock(Relation index, const AmChain *pending, Size esize, uint32 per_page,
				Buffer *tailbuf, Buffer *newbuf)
{
	*tailbuf = *newbuf = InvalidBuffer;
	if (pending->tail != InvalidBlockNumber)
	{
		*tailbuf = ReadBuffer(index, pending->tail);
		LockBuffer(*tailbuf, BUFFER_LOCK_EXCLUSIVE);
		if (am_page_nentries(BufferGetPage(*tailbuf), esize) >= per_page)
			*newbuf = am_new_buffer(index, MAIN_FORKNUM);
	}
	else
		*newbuf = am_new_buffer(index, MAIN_FORKNUM);
}

/*
 * Then, in the record after the metapage (pending: the registered
 * metapage's list): the page that takes the entries, a new page
 * initialized, owned by the list and linked after its tail.
 */
Page
am_pending_target(GenericXLogState *state, uint16 page_id, AmChain *pending,
				  Buffer tailbuf, Buffer newbuf)
{
	Page		target;

	if (!BufferIsValid(newbuf))
		return GenericXLogRegisterBuffer(state, tailbuf, 0);
	target = GenericXLogRegisterBuffer(state, newbuf, GENERIC_XLOG_FULL_IMAGE);
	am_init_page(target, page_id, AM_PAGE_PENDING);
	AmPageGetOpaque(target)->owner = pending->id;
	if (BufferIsValid(tailbuf))
		AmPageGetOpaque(GenericXLogRegisterBuffer(state, tailbuf, 0))->next =
			BufferGetBlockNumber(newbuf);
	else
		pending->head = BufferGetBlockNumber(newbuf);
	pending->tail = BufferGetBlockNumber(newbuf);
	return target;
}

/* and after the record */
void
am_pending_unlock(Buffer tailbuf, Buffer newbuf)
{
	if (BufferIsValid(newbuf))
		UnlockReleaseBuffer(newbuf);
	if (BufferIsValid(tailbuf))
		UnlockReleaseBuffer(tailbuf);
}

/* ---- merges (the steps: hamming_merge.c) ---- */

/*
 * The merge lock: a heavyweight lock on the metapage's block number, held
 * by a merge and by VACUUM.  An insert's merge (vacuum false) takes it
 * only if it is free; VACUUM's merge runs under VACUUM's.
 */
static bool
merge_lock(Relation index, bool vacuum)
{
	return vacuum || ConditionalLockPage(index, AM_METAPAGE_BLKNO, ExclusiveLock);
}

static void
merge_unlock(Relation index, bool vacuum)
{
	if (!vacuum)
		UnlockPage(index, AM_METAPAGE_BLKNO, ExclusiveLock);
}

/*
 * Step 1: under the merge lock, the pending list is sealed (one metapage
 * update: the list becomes the "merging" chain, unless a crashed merge
 * left one to merge again, and inserts start a new one) and the new run's
 * id *out_id reserved; *meta gets a copy of the metapage's data.  False,
 * and no lock held, if there is nothing to merge: an insert's merge wants
 * the method's pending_limit, VACUUM's any pending entry.
 */
bool
am_merge_begin(Relation index, const AmMethod *am, bool vacuum, void *meta, uint32 *out_id)
{
	Buffer		metabuf;
	GenericXLogState *state;
	char	   *mp;
	AmChain    *pending,
			   *merging;
	uint32	   *next_id;

	if (!merge_lock(index, vacuum))
		return false;
	metabuf = ReadBuffer(index, AM_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	am->check_meta(index, BufferGetPage(metabuf));
	mp = PageGetContents(BufferGetPage(metabuf));
	pending = AmMetaField(AmChain, mp, am->pending_off);
	if (AmMetaField(AmChain, mp, am->merging_off)->head == InvalidBlockNumber &&
		(pending->n == 0 || (!vacuum && pending->n < am->pending_limit(mp))))
	{
		UnlockReleaseBuffer(metabuf);
		merge_unlock(index, vacuum);
		return false;
	}
	state = GenericXLogStart(index);
	mp = PageGetContents(GenericXLogRegisterBuffer(state, metabuf, 0));
	pending = AmMetaField(AmChain, mp, am->pending_off);
	merging = AmMetaField(AmChain, mp, am->merging_off);
	next_id = AmMetaField(uint32, mp, am->next_id_off);
	if (merging->head == InvalidBlockNumber)
	{
		*merging = *pending;
		am_chain_empty(pending, (*next_id)++);
	}
	*out_id = (*next_id)++;
	memcpy(meta, mp, am->meta_size);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(metabuf);
	return true;
}

/*
 * Step 3, publishing the new run in one metapage update (generic WAL): the
 * metapage's data in the record, where the method puts the new run in
 * place of its inputs; then am_merge_publish_end drops the sealed list.
 */
void *
am_merge_publish_begin(Relation index, GenericXLogState **state, Buffer *metabuf)
{
	*metabuf = ReadBuffer(index, AM_METAPAGE_BLKNO);
	LockBuffer(*metabuf, BUFFER_LOCK_EXCLUSIVE);
	*state = GenericXLogStart(index);
	return PageGetContents(GenericXLogRegisterBuffer(*state, *metabuf, 0));
}

void
am_merge_publish_end(const AmMethod *am, void *meta, GenericXLogState *state, Buffer metabuf)
{
	am_chain_empty(AmMetaField(AmChain, meta, am->merging_off), 0);
	(*AmMetaField(uint32, meta, am->merges_off))++;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(metabuf);
}

/*
 * Step 4's end, once the method has freed its input runs: the sealed
 * list's pages (of "meta", the copy of step 1) go to the free space map
 * too, whose upper levels are updated so that the pages are found, and
 * the merge lock is released.
 */
void
am_merge_end(Relation index, const AmMethod *am, const void *meta, bool vacuum)
{
	am_free_chain(index, am->page_id, AmMetaField(const AmChain, meta, am->merging_off));
	IndexFreeSpaceMapVacuum(index);
	merge_unlock(index, vacuum);
}

/* ---- VACUUM ---- */

/* block blk, locked (exclusively to mark entries dead), a page of run or chain id */
Buffer
am_vacuum_read(Relation index, BlockNumber blk, bool exclusive, BufferAccessStrategy strategy,
			   uint16 page_id, uint32 id, const char *what)
{
	Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, blk, RBM_NORMAL, strategy);

	LockBuffer(buf, exclusive ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE);
	am_check_owned(index, buf, page_id, id, what);
	return buf;
}

/*
 * Mark the remembered entries of the exclusively locked page dead, with
 * generic WAL, and count them in *removed: on a chain's page (am: its
 * method) by the method's pending_kill, on an entry page (am NULL) by the
 * dead map's bit.
 */
void
am_vacuum_mark(Relation index, Buffer buf, const AmMethod *am, const uint16 *dead,
			   uint32 ndead, double *removed)
{
	GenericXLogState *state;
	Page		wpage;

	if (ndead == 0)
		return;
	state = GenericXLogStart(index);
	wpage = GenericXLogRegisterBuffer(state, buf, 0);
	for (uint32 k = 0; k < ndead; k++)
	{
		if (am)
			am->pending_kill(PageGetContents(wpage) + (Size) dead[k] * am->pending_size);
		else
			am_page_deadmap(wpage)[dead[k] >> 3] |= (uint8) (1 << (dead[k] & 7));
	}
	GenericXLogFinish(state);
	*removed += ndead;
}

/*
 * VACUUM's pass over a chain (the pending list, the sealed list, a run's
 * NULL keys): the entries whose rows the callback names are marked dead
 * and counted in *removed; returns the live entries left.  Without a
 * callback (VACUUM's cleanup-only call) it only counts.
 */
uint64
am_vacuum_chain(Relation index, const AmMethod *am, const AmChain *c,
				IndexBulkDeleteCallback callback, void *cb_state,
				BufferAccessStrategy strategy, double *removed)
{
	uint16	   *dead = palloc(sizeof(uint16) * (AM_CONTENT_SIZE / am->pending_size));
	BlockNumber blk = c->head;
	uint64		live = 0;

	while (blk != InvalidBlockNumber)
	{
		Buffer		buf;
		Page		page;
		uint32		n,
					ndead = 0;

		vacuum_delay_point();
		buf = am_vacuum_read(index, blk, callback != NULL, strategy, am->page_id, c->id,
							 "chain");
		page = BufferGetPage(buf);
		n = am_page_nentries(page, am->pending_size);
		for (uint32 k = 0; k < n; k++)
		{
			ItemPointerData tid;

			if (am->pending_tid(PageGetContents(page) + (Size) k * am->pending_size, &tid))
				am_vacuum_ask(&tid, k, callback, cb_state, dead, &ndead, &live);
		}
		am_vacuum_mark(index, buf, am, dead, ndead, removed);
		blk = AmPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
	}
	pfree(dead);
	return live;
}

/*
 * VACUUM's sweep: every page that no structure of the metapage owns goes
 * to the free space map (pages of runs whose merge crashed, and pages
 * whose record in the map a crash lost).  The caller holds the merge lock.
 * New (all-zero) pages are left alone: an insert may have just extended
 * the index with one.
 */
BlockNumber
am_vacuum_free(Relation index, const AmMethod *am, BufferAccessStrategy strategy)
{
	void	   *meta = palloc(am->meta_size);
	AmOwners	live;
	BlockNumber nblocks = RelationGetNumberOfBlocks(index),
				nfree = 0;

	am_read_meta(index, am, meta);
	am_owners(am, meta, &live);
	pfree(meta);

	for (BlockNumber blk = AM_METAPAGE_BLKNO + 1; blk < nblocks; blk++)
	{
		Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, blk, RBM_NORMAL, strategy);
		bool		free;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		free = !PageIsNew(BufferGetPage(buf)) &&
			am_page_unowned(BufferGetPage(buf), am->page_id, &live);
		UnlockReleaseBuffer(buf);
		if (free)
		{
			RecordFreeIndexPage(index, blk);
			nfree++;
		}
		vacuum_delay_point();
	}
	IndexFreeSpaceMapVacuum(index);
	return nfree;
}

/* ---- freed pages ---- */

/* the pages of a chain to the free space map (the chain is no longer published) */
void
am_free_chain(Relation index, uint16 page_id, const AmChain *c)
{
	BlockNumber blk = c->head;

	while (blk != InvalidBlockNumber)
	{
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		BlockNumber next = InvalidBlockNumber;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (am_page_owned(page, page_id, c->id))
			next = AmPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
		RecordFreeIndexPage(index, blk);
		blk = next;
	}
}

/*
 * The pages of run id: those of its map, d's blocks (d NULL: a run without
 * rows, which has none), and the map's own pages, from map_head.
 */
void
am_free_run(Relation index, uint16 page_id, const AmDir *d, BlockNumber map_head, uint32 id)
{
	AmChain		map;

	for (Size i = 0; d && i < d->nblocks; i++)
		RecordFreeIndexPage(index, d->blocks[i]);
	memset(&map, 0, sizeof(map));
	map.head = map_head;
	map.id = id;
	am_free_chain(index, page_id, &map);
}

/* ---- operator classes, statistics ---- */

/*
 * amvalidate: the operator class has no operator but ops[0 .. nops) and
 * no support function (amname: its method's, in the messages).
 */
bool
am_validate(Oid opclassoid, const char *amname, const AmOperator *ops, int nops)
{
	HeapTuple	classtup;
	Form_pg_opclass classform;
	CatCList   *oprlist,
			   *proclist;
	bool		ok = true;
	char	   *name;

	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	name = pstrdup(NameStr(classform->opcname));
	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(classform->opcfamily));
	proclist = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(classform->opcfamily));
	for (int i = 0; i < oprlist->n_members; i++)
	{
		Form_pg_amop op = (Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple);
		bool		known = false;

		for (int j = 0; j < nops; j++)
			known |= (op->amopstrategy == ops[j].strategy && op->amoppurpose == ops[j].purpose);
		if (!known)
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("%s operator class \"%s\" has operator %u with invalid strategy number %d",
							amname, name, op->amopopr, op->amopstrategy)));
			ok = false;
		}
	}
	if (proclist->n_members > 0)
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("%s operator class \"%s\" has support functions, the method uses none",
						amname, name)));
		ok = false;
	}
	ReleaseCatCacheList(proclist);
	ReleaseCatCacheList(oprlist);
	ReleaseSysCache(classtup);
	return ok;
}

bool
am_is_method(Relation index, const AmMethod *am)
{
	return index->rd_indam != NULL && index->rd_indam->ambuild == am->ambuild;
}

/*
 * The metapage of a method's statistics function, <name>_index_stats(index
 * regclass): the index must be the method's, and the caller allowed to
 * read its table, not a Citus table's shell (whose index is empty); the
 * row type of the function's result in *tupdesc.
 */
void
am_stats_meta(FunctionCallInfo fcinfo, const AmMethod *am, void *meta, TupleDesc *tupdesc)
{
	Oid			indexoid = PG_GETARG_OID(0);
	Relation	index;
	Oid			heapoid;

	if (get_call_result_type(fcinfo, NULL, tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	heapoid = IndexGetRelation(indexoid, true);
	if (!OidIsValid(heapoid))
	{
		char	   *name = get_rel_name(indexoid);

		ereport(ERROR,
				(errcode(name ? ERRCODE_WRONG_OBJECT_TYPE : ERRCODE_UNDEFINED_TABLE),
				 name ? errmsg("\"%s\" is not an index", name) :
				 errmsg("relation with OID %u does not exist", indexoid),
				 errdetail("%s_index_stats() reads the metapage of a %s index.",
						   am->name, am->name)));
	}
	if (pg_class_aclcheck(heapoid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for table %s", get_rel_name(heapoid)),
				 errdetail("Reading an index's statistics needs SELECT on its table.")));
	if (textfp_citus_table_kind(heapoid) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s_index_stats() does not read indexes of the Citus %s table %s",
						am->name, textfp_citus_table_kind(heapoid), get_rel_name(heapoid)),
				 errdetail("On this node the index belongs to the table's shell; the rows and their index entries are in the shards' indexes."),
				 errhint("Run it on a worker on a shard's index: the index name with _<shard id> appended (citus_shards lists the shards).")));
	index = index_open(indexoid, AccessShareLock);
	if (!am_is_method(index, am))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("index \"%s\" is not a %s index", RelationGetRelationName(index), am->name),
				 errdetail("%s_index_stats() reads the metapage of a %s index.",
						   am->name, am->name)));
	am_read_meta(index, am, meta);
	index_close(index, AccessShareLock);
}
