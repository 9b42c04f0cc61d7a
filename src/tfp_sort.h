/*
 * tfp_sort.h -- insertion sort of int64 values, shared by the core's sorts
 * (small arrays and the buckets of tfp_sort_unique_u64; the few windows of a
 * pinyin DNA).  Header-only, pure C.
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

#endif							/* TFP_SORT_H */
