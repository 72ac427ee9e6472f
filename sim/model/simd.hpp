// The engines' hot loops are built twice on x86-64 with GCC, for the baseline ISA and for AVX2
// (which brings popcnt), and the loader picks the one the CPU runs (function multi-versioning):
// the build stays portable and a modern CPU gets 8-lane loops. Results are the same bits either
// way: the loops are exact integer and exact float arithmetic.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define PTXMMA_MULTIVERSION __attribute__((target_clones("avx2", "default")))
// Loops whose every operation is an explicit fused multiply-add (std::fma): x86-64-v3 (AVX2 and
// FMA) runs them as vector FMA instructions, the baseline build calls the C library's fma, which
// is correctly rounded too. (Never the whole of PTXMMA_MULTIVERSION: with FMA available the
// compiler may contract a * b + c elsewhere, which would change results.)
#define PTXMMA_FMA_MULTIVERSION __attribute__((target_clones("arch=x86-64-v3", "default")))
// Gathers (8 register words by one vpgatherdd) are written out as AVX2 intrinsics in functions of
// target("avx2"), taken where __builtin_cpu_supports("avx2"): GCC's generic tuning never makes
// a gather of a loop, it loads the 8 words one at a time.
#define PTXMMA_AVX2_INTRINSICS 1
#include <immintrin.h>
#else
#define PTXMMA_AVX2_INTRINSICS 0
#define PTXMMA_MULTIVERSION
#define PTXMMA_FMA_MULTIVERSION
#endif
