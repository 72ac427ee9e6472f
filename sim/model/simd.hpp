// The engines' hot loops are built twice on x86-64 with GCC, for the baseline ISA and for AVX2
// (which brings popcnt), and the loader picks the one the CPU runs (function multi-versioning):
// the build stays portable and a modern CPU gets 8-lane loops. Results are the same bits either
// way: the loops are exact integer and exact float arithmetic.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define PTXMMA_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#define PTXMMA_MULTIVERSION
#endif
