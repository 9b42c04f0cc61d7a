/*
 * hamming_run.c -- writing a run of the "hamming" index (the build's and a
 * merge's), and freeing one (layout in hamming.h)
 *
 * A run is written page by page: per table, its entry pages (tfp_hamwriter
 * codes the rows, which come in bucket order), then its directory pages;
 * then its NULL keys (a chain) and last its map (a chain of block numbers,
 * per table the entry pages then the directory pages).  Every page carries
 * the run's id as its owner.  How pages are taken, written and logged is
 * am_pages.c's (AmOut), as for the passage index.
 */
#include "postgres.h"

#include "hamming.h"

void
ham_out_init(HamOut *o, Relation index, uint32 id, bool wal, const HamMetaData *live)
{
	memset(o, 0, sizeof(*o));
	am_out_init(&o->am, index, &ham_method, id, wal, live, TFP_HAMCODE_ENTRY,
				HAM_ENTRIES_PER_PAGE);
	o->dir = palloc(sizeof(uint32) * HAM_DIR_LEN);
}

/* tfp_hamwriter's output: append an entry, a full page is closed and a new one begun */
static void
out_put(void *arg, uint64_t rest, uint32_t code, int dead)
{
	HamOut	   *o = (HamOut *) arg;

	if (o->e >= PG_UINT32_MAX - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many entries for a hamming index"),
				 errdetail("A table of a hamming index holds at most 4294967294 entries.")));
	tfp_hamcode_put(am_out_entry(&o->am, dead != 0), rest, code);
	o->e++;
}

/* table t of nt begins: rows follow in bucket order */
void
ham_out_table_begin(HamOut *o, int nt, int t)
{
	o->e = 0;
	memset(&o->hw, 0, sizeof(o->hw));
	o->hw.per_page = HAM_ENTRIES_PER_PAGE;
	o->hw.dir = o->dir;
	o->hw.put = out_put;
	o->hw.arg = o;
}

/* a row of bucket v (its chunk) with the other 48 bits "rest" */
void
ham_out_row(HamOut *o, uint32 v, uint64 rest, ItemPointer tid)
{
	tfp_hamwriter_row(&o->hw, v, rest, ItemPointerGetBlockNumberNoCheck(tid),
					  ItemPointerGetOffsetNumberNoCheck(tid));
}

/* the table's last entry page and its directory pages; returns its entries */
uint32
ham_out_table_end(HamOut *o)
{
	tfp_hamwriter_finish(&o->hw, HAM_BUCKETS);
	am_out_flush(&o->am);
	Assert(o->hw.e == o->e);
	am_out_dir(&o->am, o->dir, HAM_DIR_LEN);
	return (uint32) o->e;
}

/* a chain of pages (flags: its kind) holding the given entries */
void
ham_out_chain(HamOut *o, uint16 flags, const HamPendingEntry *items, Size n,
			  AmChain *chain)
{
	chain->n = n;
	chain->id = o->am.id;
	chain->head = am_out_chain(&o->am, flags, items, n, sizeof(HamPendingEntry),
							   HAM_PENDING_PER_PAGE, &chain->tail);
}

/* the map of the run: the pages written so far, in a chain of map pages */
void
ham_out_map(HamOut *o, HamRun *run)
{
	run->nmap = (uint32) o->am.nmap;
	run->map_head = am_out_map(&o->am);
}

/* the pages of a run (its map, directory and entry pages, NULL keys); d NULL: no rows */
void
ham_free_run(Relation index, HamDir *d, const HamRun *run)
{
	am_free_run(index, HAM_PAGE_ID, (AmDir *) d, run->map_head, run->id);
	am_free_chain(index, HAM_PAGE_ID, &run->nulls);
}
