// AVX2 + FMA (x86-64 CPUs since 2013): 8-float vectors, 6x16 tiles in 12 accumulators, and 4x24
// tiles (also 12) for 24-channel outputs; 16 YMM registers hold either with its weights.
#if defined(__x86_64__)
#include <immintrin.h>
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#define NK_SUFFIX avx2
#define VW 8
#define NK_HAS_FMA 1
#define NK_MASKED 256
#define MR NK_MR_AVX2
#define MR3 NK_MR3_AVX2
#include "kernels.inc"
#pragma clang attribute pop
#endif
