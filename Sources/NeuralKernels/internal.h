#ifndef NEURAL_KERNELS_INTERNAL_H
#define NEURAL_KERNELS_INTERNAL_H
#include "NeuralKernels.h"

/// Depthwise weights and bias are padded to 16 channels on every path, so one packing serves all.
#define NK_DEPTHWISE_PADDED(c) (((size_t)(c) + 15) / 16 * 16)

#define NK_DECLARE(suffix)                                                                                  \
    size_t nk_conv_packed_count_##suffix(const nk_conv *);                                               \
    void nk_conv_pack_##suffix(const nk_conv *, const float *, const float *, float *);                   \
    void nk_conv_run_##suffix(const nk_conv *, const float *, const float *, float *, const float *,         \
                              const float *, const float *, size_t, size_t);                              \
    size_t nk_deconv_packed_count_##suffix(const nk_conv *);                                             \
    void nk_deconv_pack_##suffix(const nk_conv *, const float *, float *);                                  \
    void nk_deconv_run_##suffix(const nk_conv *, const float *, const float *, const float *, float *, size_t,  \
                                size_t);                                                                     \
    void nk_depthwise_run_##suffix(const nk_depthwise *, const float *, const float *, float *, const float *, \
                                   size_t, size_t);

NK_DECLARE(generic)
#if defined(__x86_64__)
NK_DECLARE(avx2)
NK_DECLARE(avx512)
#endif

/// Output tensors at least this large are written with streaming stores (they would not stay in the
/// last-level cache for the next layer anyway; skipping the read-for-ownership saves bandwidth).
extern size_t nk_stream_bytes;
#define NK_STREAM_BYTES nk_stream_bytes
#if defined(__x86_64__)
#define NK_STREAM_FENCE() __builtin_ia32_sfence()
#else
#define NK_STREAM_FENCE() ((void)0)
#endif

/// Pixels per micro-kernel tile on each path.
#define NK_MR_GENERIC 6
#define NK_MR_AVX2 6
/// AVX2's 3-vector (24-channel) tiles.
#define NK_MR3_AVX2 4
#define NK_MR_AVX512 8
#endif
