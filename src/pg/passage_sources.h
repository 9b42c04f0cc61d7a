/*
 * passage_sources.h -- textfp_sources(): the query's units and seeds, the
 * hits of its seeds in the corpus (through the passage index of each table
 * or by reading it), the candidates they make (passage_hits.c), and the
 * SQL function that confirms them by alignment (passage_sources.c).
 */
#ifndef TEXTFP_PASSAGE_SOURCES_H
#define TEXTFP_PASSAGE_SOURCES_H

#include "postgres.h"

#include "utils/rel.h"

#include "align.h"
#include "passage.h"
#include "tfp_sources.h"
#include "tfp_termset.h"

/* a table of the corpus (a leaf partition, or the table itself) */
typedef struct SrcLeaf
{
	Relation	rel;
	Relation	index;			/* its passage index, NULL: read the table */
	AttrNumber	idatt,
				textatt;
	Oid			idtype;
} SrcLeaf;

typedef struct SrcQuery
{
	AlignText	text;			/* the query as UTF-8, its character map */
	tfp_passage_opts o;
	size_t		nunits;
	uint64	   *keys;			/* the units: keys, lengths (1 or 2) and byte
								 * spans */
	uint8	   *lens;
	uint32	   *starts,
			   *ends;
	tfp_pseed  *seeds;			/* its seeds (boilerplate lines dropped) */
	size_t		nseeds;
	uint32	   *seed_units;
	uint32	   *df;				/* per seed: index entries of its key */
	uint8	   *common;			/* per seed: over max_docs in the corpus */
	bool		global_df;		/* df is the corpus's (src_set_df) */
	size_t		masked;			/* seeds dropped as boilerplate */
} SrcQuery;

/* the hits of one row */
typedef struct SrcCand
{
	int			leaf;
	ItemPointerData tid;
	tfp_src_evidence ev;
	Size		first,			/* hits[first .. first + n) */
				n;
} SrcCand;

typedef struct SrcHits
{
	/* all hits, grouped by candidate once src_candidates() ran */
	int		   *leaf;
	ItemPointerData *tid;
	tfp_src_hit *hit;
	Size		n,
				cap;
	SrcCand    *cands;
	Size		ncands;
} SrcHits;

/* the query's units and seeds with options o; lexicon lines masked */
extern void src_query_prepare(SrcQuery *q, text *query, const tfp_passage_opts *o,
							  const tfp_termset *boilerplate);

/*
 * The df of the query's seeds: added up over the indexes of the corpus
 * (src_df_index, no entries read), then set as the corpus's (src_set_df,
 * with df NULL: as added up; or given, df[0..nseeds)), which decides the
 * seeds too common to look up
 */
extern void src_df_index(SrcLeaf *l, SrcQuery *q);
extern void src_set_df(SrcQuery *q, const uint32 *df, uint32 max_docs);

/*
 * The hits of the query in one table, by its index or by reading it (the
 * df added up unless set); then src_hits_finish drops the hits of the
 * seeds too common in the corpus
 */
extern void src_hits_index(SrcHits *h, int leaf, SrcLeaf *l, SrcQuery *q, uint32 max_docs);
extern void src_hits_scan(SrcHits *h, int leaf, SrcLeaf *l, SrcQuery *q);
extern void src_hits_finish(SrcHits *h, SrcQuery *q, uint32 max_docs);

/* group the hits by row, with their evidence, best first */
extern void src_candidates(SrcHits *h, const SrcQuery *q);

#endif							/* TEXTFP_PASSAGE_SOURCES_H */
