/*
 * sentences.c -- longest_sentences(): the hashes of a text's k longest
 * normalized sentences (the core is tfp_sentences.c)
 */
#include "postgres.h"

#include "textfp.h"
#include "tfp_sentences.h"

/* longest_sentences(body text, k int4) returns int8[] */
PG_FUNCTION_INFO_V1(longest_sentences);
Datum
longest_sentences(PG_FUNCTION_ARGS)
{
	int32		k = PG_GETARG_INT32(1);
	uint64		out[TFP_SENTENCE_MAX_K];
	const char *s;
	size_t		len,
				n;

	if (k < 1 || k > TFP_SENTENCE_MAX_K)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be between 1 and %d, not %d", TFP_SENTENCE_MAX_K, k),
				 errdetail("k is the number of sentences kept, the longest ones.")));
	s = textfp_text_utf8(PG_GETARG_TEXT_PP(0), &len);
	n = tfp_sentences_topk(s, len, k, textfp_interrupt_tick, out);
	PG_RETURN_ARRAYTYPE_P(textfp_int8_array((const int64 *) out, (int) n));
}
