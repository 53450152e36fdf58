// AVX-512F: 16-float vectors, 8x32 tiles in 16 of the 32 vector registers.
#if defined(__x86_64__)
#include <immintrin.h>
#pragma clang attribute push(__attribute__((target("avx512f,avx2,fma"))), apply_to = function)
#define NK_SUFFIX avx512
#define VW 16
#define NK_HAS_FMA 1
#define NK_MASKED 512
#define MR NK_MR_AVX512
#include "kernels.inc"
#pragma clang attribute pop
#endif
