/*
 * tfp_cpu.h -- which optional instruction sets the running CPU offers
 *
 * Pure C.  Some kernels of the core have a version for x86-64 CPUs with
 * AVX-512 (F, BW, VL, DQ, VBMI2) and BMI1/BMI2/LZCNT/POPCNT, compiled with
 * function target attributes and chosen at run time, next to the portable
 * C version.  Both give the same results, bit for bit (test/unit checks it
 * on every run where the CPU has the instructions); the portable version is
 * the definition.
 */
#ifndef TFP_CPU_H
#define TFP_CPU_H

/* 1 if this build has the AVX-512 kernels (x86-64, GCC or Clang) */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TFP_HAVE_X86_KERNELS 1
#define TFP_TARGET_AVX512 \
	__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi2,bmi,bmi2,lzcnt,popcnt")))
#else
#define TFP_HAVE_X86_KERNELS 0
#endif

/*
 * 1 if the CPU and the operating system support every instruction set the
 * AVX-512 kernels use (checked once, by CPUID and XGETBV), else 0.
 */
extern int	tfp_cpu_avx512(void);

/*
 * 1 (default): kernels use the AVX-512 versions where tfp_cpu_avx512();
 * 0: only the portable versions (for tests and comparisons).
 */
extern int	tfp_simd_enabled;

static inline int
tfp_use_avx512(void)
{
	return TFP_HAVE_X86_KERNELS && tfp_simd_enabled && tfp_cpu_avx512();
}

#endif							/* TFP_CPU_H */
