/*
 * tfp_asan.h -- whether the core is built with AddressSanitizer
 * (TFP_ASAN), and the marks of memory that is not to be used
 * (TFP_ASAN_POISON) and may be used again (TFP_ASAN_UNPOISON), which do
 * nothing otherwise: for allocators that keep memory (tfp_arena.c, the
 * tests' test/unit/arena.h), whose stale buffers the sanitizer would not
 * see by itself.
 */
#ifndef TFP_ASAN_H
#define TFP_ASAN_H

#if defined(__SANITIZE_ADDRESS__)
#define TFP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFP_ASAN 1
#endif
#endif

#ifdef TFP_ASAN
#include <sanitizer/asan_interface.h>
#define TFP_ASAN_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define TFP_ASAN_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define TFP_ASAN_POISON(p, n) ((void) 0)
#define TFP_ASAN_UNPOISON(p, n) ((void) 0)
#endif

#endif							/* TFP_ASAN_H */
