/*
 * tfp_cpu.c -- run-time detection of the instruction sets of tfp_cpu.h
 *
 * Pure C.  CPUID tells what the processor implements; XGETBV tells whether
 * the operating system saves the AVX-512 registers (opmask, the upper halves
 * of ZMM0-15 and ZMM16-31) on a context switch, without which the
 * instructions must not be used.
 */
#include "tfp_cpu.h"

#if TFP_HAVE_X86_KERNELS
#include <cpuid.h>
#include <stdint.h>
#endif

int			tfp_simd_enabled = 1;

#if TFP_HAVE_X86_KERNELS
static int
detect_avx512(void)
{
	unsigned	a,
				b,
				c,
				d;
	uint32_t	xcr0_lo,
				xcr0_hi;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	/* OSXSAVE (XGETBV usable), POPCNT */
	if (!(c & (1u << 27)) || !(c & (1u << 23)))
		return 0;
	__asm__ volatile ("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
	(void) xcr0_hi;
	/* SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM state enabled by the OS */
	if ((xcr0_lo & 0xE6) != 0xE6)
		return 0;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	/* BMI1 (3), BMI2 (8), AVX512F (16), AVX512DQ (17), AVX512BW (30), AVX512VL (31) */
	if ((b & ((1u << 3) | (1u << 8) | (1u << 16) | (1u << 17) | (1u << 30) | (1u << 31))) !=
		((1u << 3) | (1u << 8) | (1u << 16) | (1u << 17) | (1u << 30) | (1u << 31)))
		return 0;
	/* AVX512_VBMI2 (ECX 6) */
	if (!(c & (1u << 6)))
		return 0;
	/* LZCNT (ABM: extended leaf, ECX 5) */
	if (!__get_cpuid(0x80000001, &a, &b, &c, &d) || !(c & (1u << 5)))
		return 0;
	return 1;
}
#endif

int
tfp_cpu_avx512(void)
{
#if TFP_HAVE_X86_KERNELS
	static int	known = -1;

	if (known < 0)
		known = detect_avx512();
	return known;
#else
	return 0;
#endif
}
