/*
 * tfp_sort.h -- sets of 64-bit values (shingle hashes, pinyin DNAs) kept as
 * sorted, duplicate-free arrays in the order of the values as signed int64
 * (as SQL shows int8): sorting and intersecting them (tfp_sort.c), and the
 * insertion sort for small arrays.  Pure C.
 */
#ifndef TFP_SORT_H
#define TFP_SORT_H

#include <stddef.h>
#include <stdint.h>

static inline void
tfp_insertion_sort_i64(int64_t *a, size_t n)
{
	for (size_t i = 1; i < n; i++)
	{
		int64_t		v = a[i];
		size_t		j = i;

		while (j > 0 && a[j - 1] > v)
		{
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

/*
 * Sort (in the order of the values as signed int64, as SQL shows int8) and
 * deduplicate n 64-bit values in place (shingle sets, pinyin DNAs); returns
 * the new count.  scratch, if not NULL, has room for n values and allows a
 * bucket sort (faster from 64 values on); with NULL the sort is in place.
 */
extern size_t tfp_sort_unique_u64(uint64_t *v, size_t n, uint64_t *scratch);

/*
 * The same for values known to lie in [0, 2^width), width <= 63, spread over
 * that range (pinyin window DNAs): with scratch (room for n values) the
 * bucket sort on their top bits is worth it at any n.
 */
extern size_t tfp_sort_unique_below_u64(uint64_t *v, size_t n,
										uint64_t *scratch, int width);
/* |A n B| of two arrays sorted as above, without duplicates. */
extern size_t tfp_intersect_count_u64(const uint64_t *a, size_t na,
									  const uint64_t *b, size_t nb);

#endif							/* TFP_SORT_H */
