#ifndef NEURAL_KERNELS_H
#define NEURAL_KERNELS_H
// Hot float32 NHWC kernels of NeuralRuntime in C, built once per instruction set (generic,
// AVX2+FMA, AVX-512) and chosen at load time from the CPU's features.
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Instruction-set paths. Values are stable (tests and FACETRACK_KERNELS use them).
typedef enum {
    NK_ISA_GENERIC = 0,
    NK_ISA_AVX2 = 1,
    NK_ISA_AVX512 = 2,
} nk_isa;

/// Whether this build and this CPU can run `isa`.
int nk_isa_supported(nk_isa isa);
/// The path to use: FACETRACK_KERNELS=generic|avx2|avx512 when set and supported, else the best supported.
nk_isa nk_default_isa(void);
/// Lower-case name of `isa` ("generic", "avx2", "avx512").
const char *nk_isa_name(nk_isa isa);

/// Outputs of at least this many bytes are written with streaming stores (default 24 MiB, beyond
/// what the last-level cache keeps for the next layer). Tests lower it to cover that path.
void nk_set_stream_threshold(size_t bytes);

/// A convolution over NHWC float32 (regular, not depthwise), output = clamp(conv + bias, lo, hi).
typedef struct {
    int batch, in_h, in_w, in_c;
    int out_h, out_w, out_c;
    int kernel_h, kernel_w;
    int stride_h, stride_w, dilation_h, dilation_w;
    int pad_top, pad_left;
    float lower, upper;
    /// Rows the input / output tensor keeps (0: every row): a ring of rows, row r stored at r % ring,
    /// for the blocks `RowStripChain` runs one row at a time (batch 1). A convolution with an output
    /// ring is called for whole output rows.
    int in_ring, out_ring;
} nk_conv;

/// Floats `nk_conv_pack` writes for `isa`.
size_t nk_conv_packed_count(nk_isa isa, const nk_conv *conv);
/// Packs `filter` ([out_c][kernel_h][kernel_w][in_c]) and `bias` (out_c floats or NULL) into the
/// micro-kernel's panel layout for `isa`.
void nk_conv_pack(nk_isa isa, const nk_conv *conv, const float *filter, const float *bias, float *packed);
/// Output pixels (row-major over batch, out_h, out_w) the work splits on; `nk_conv_run` ranges
/// should start on multiples of this.
int nk_conv_pixel_block(nk_isa isa);
/// Computes output pixels [pixel_begin, pixel_end). `zero` holds at least kernel_w * in_c zero floats
/// (stands in for taps and kernel rows in the padding). Fused epilogue, per output value:
/// v = conv + bias (+ residual[same index] when `residual` is not NULL), clamped to [lower, upper],
/// then v < 0 ? v * slope[channel] : v when `slope` is not NULL (PReLU; out_c rounded up to 32 floats).
void nk_conv_run(nk_isa isa, const nk_conv *conv, const float *packed, const float *input, float *output,
                 const float *zero, const float *residual, const float *slope, size_t pixel_begin,
                 size_t pixel_end);

/// Transposed convolution whose stride equals its kernel, without padding (out = in x stride): every
/// output pixel takes one tap. Floats `nk_deconv_pack` writes for `isa`:
size_t nk_deconv_packed_count(nk_isa isa, const nk_conv *conv);
/// Packs `filter` ([out_c][kernel_h][kernel_w][in_c]) per tap into the micro-kernel's panels.
void nk_deconv_pack(nk_isa isa, const nk_conv *conv, const float *filter, float *packed);
/// Computes the output rows of input rows [row_begin, row_end) (over batch and in_h):
/// clamp(sum + bias); `bias` holds out_c floats zero-padded to a multiple of 32.
void nk_deconv_run(nk_isa isa, const nk_conv *conv, const float *packed, const float *bias, const float *input,
                   float *output, size_t row_begin, size_t row_end);

/// A depthwise convolution (multiplier 1) over NHWC float32.
typedef nk_conv nk_depthwise;

/// Floats `nk_depthwise_pack` writes.
size_t nk_depthwise_packed_count(nk_isa isa, const nk_depthwise *conv);
/// Packs `filter` ([kernel_h][kernel_w][channels]) and `bias` into [bias][taps] padded channel rows.
void nk_depthwise_pack(nk_isa isa, const nk_depthwise *conv, const float *filter, const float *bias, float *packed);
/// Computes output rows [row_begin, row_end) (rows over batch and out_h). `zero` holds at least
/// in_w * in_c + 64 zero floats. Reads up to 15 floats past the end of the input rows (padded storage).
void nk_depthwise_run(nk_isa isa, const nk_depthwise *conv, const float *packed, const float *input, float *output,
                      const float *zero, size_t row_begin, size_t row_end);

/// Worker threads that split one inference step: the caller and the workers claim parts until
/// none is left; `nk_pool_run` returns when all parts are done. Which thread runs a part never
/// changes the results (parts write disjoint outputs). `thread` says which thread runs the part (0 the
/// caller, 1...workers the workers; never two parts at once on one thread), for per-thread scratch memory.
typedef struct nk_pool nk_pool;
typedef void (*nk_task)(void *context, int part, int parts, int thread);
/// A pool of `workers` threads (NULL when out of memory).
nk_pool *nk_pool_create(int workers);
/// Threads actually started.
int nk_pool_workers(const nk_pool *pool);
/// Runs task(context, part, parts) for every part in 0..<parts; not reentrant (one caller at a time).
void nk_pool_run(nk_pool *pool, nk_task task, void *context, int parts);
/// Stops and joins the workers.
void nk_pool_destroy(nk_pool *pool);

/// SHA-256's 64 round constants.
extern const unsigned int nk_sha256_round_constants[64];
/// Whether this build and CPU have the SHA extensions (with SSSE3 and SSE4.1) for `nk_sha256_blocks`.
int nk_sha256_supported(void);
/// SHA-256 compression of `blocks` 64-byte blocks at `data` into `state` (eight words, a to h), with
/// the SHA extensions; call only when `nk_sha256_supported()`. Used to check model files' hashes.
void nk_sha256_blocks(unsigned int state[8], const unsigned char *data, size_t blocks);

#ifdef __cplusplus
}
#endif
#endif
