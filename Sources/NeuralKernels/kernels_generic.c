// The portable path: 4-float vectors (SSE2 on any x86-64, NEON on arm64).
#define NK_SUFFIX generic
#define VW 4
#define NK_HAS_FMA 0
#define NK_MASKED 0
#define MR NK_MR_GENERIC
#include "kernels.inc"
