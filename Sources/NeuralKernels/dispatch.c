// Chooses the kernels' instruction-set path from the CPU's features (cpuid and the OS's saved
// register state), with FACETRACK_KERNELS=generic|avx2|avx512 to force a supported one.
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#if defined(__x86_64__)
/// XCR0: which register states the OS saves on context switches.
static unsigned long long nk_xcr0(void) {
    unsigned int eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}

static int nk_cpu_has(nk_isa isa) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, fma = (c >> 12) & 1;
    if (!osxsave || !avx || !fma) return 0;
    const unsigned long long xcr0 = nk_xcr0();
    if ((xcr0 & 0x6) != 0x6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    const int avx2 = (b >> 5) & 1, avx512f = (b >> 16) & 1;
    if (isa == NK_ISA_AVX2) return avx2;
    if (isa == NK_ISA_AVX512) return avx2 && avx512f && (xcr0 & 0xE6) == 0xE6;
    return 0;
}
#endif

size_t nk_stream_bytes = (size_t)24 << 20;

void nk_set_stream_threshold(size_t bytes) { nk_stream_bytes = bytes; }

int nk_isa_supported(nk_isa isa) {
    switch (isa) {
    case NK_ISA_GENERIC: return 1;
#if defined(__x86_64__)
    case NK_ISA_AVX2:
    case NK_ISA_AVX512: return nk_cpu_has(isa);
#endif
    default: return 0;
    }
}

const char *nk_isa_name(nk_isa isa) {
    switch (isa) {
    case NK_ISA_AVX2: return "avx2";
    case NK_ISA_AVX512: return "avx512";
    default: return "generic";
    }
}

nk_isa nk_default_isa(void) {
    const char *forced = getenv("FACETRACK_KERNELS");
    if (forced) {
        for (int isa = NK_ISA_GENERIC; isa <= NK_ISA_AVX512; isa++)
            if (strcmp(forced, nk_isa_name((nk_isa)isa)) == 0 && nk_isa_supported((nk_isa)isa)) return (nk_isa)isa;
    }
    if (nk_isa_supported(NK_ISA_AVX512)) return NK_ISA_AVX512;
    if (nk_isa_supported(NK_ISA_AVX2)) return NK_ISA_AVX2;
    return NK_ISA_GENERIC;
}

#if defined(__x86_64__)
#define NK_SWITCH(isa, call_suffix_expr)                                                                    \
    switch (isa) {                                                                                          \
    case NK_ISA_AVX512: call_suffix_expr(avx512);                                                           \
    case NK_ISA_AVX2: call_suffix_expr(avx2);                                                               \
    default: call_suffix_expr(generic);                                                                     \
    }
#else
#define NK_SWITCH(isa, call_suffix_expr) call_suffix_expr(generic);
#endif

size_t nk_conv_packed_count(nk_isa isa, const nk_conv *conv) {
#define CALL(s) return nk_conv_packed_count_##s(conv)
    NK_SWITCH(isa, CALL)
#undef CALL
}

void nk_conv_pack(nk_isa isa, const nk_conv *conv, const float *filter, const float *bias, float *packed) {
#define CALL(s) nk_conv_pack_##s(conv, filter, bias, packed); return
    NK_SWITCH(isa, CALL)
#undef CALL
}

int nk_conv_pixel_block(nk_isa isa) {
    switch (isa) {
    case NK_ISA_AVX512: return NK_MR_AVX512;
    case NK_ISA_AVX2: return NK_MR_AVX2 * NK_MR3_AVX2 / 2;  // whole tiles of either height
    default: return NK_MR_GENERIC;
    }
}

void nk_conv_run(nk_isa isa, const nk_conv *conv, const float *packed, const float *input, float *output,
                 const float *zero, const float *residual, const float *slope, size_t pixel_begin, size_t pixel_end) {
#define CALL(s) nk_conv_run_##s(conv, packed, input, output, zero, residual, slope, pixel_begin, pixel_end); return
    NK_SWITCH(isa, CALL)
#undef CALL
}

size_t nk_deconv_packed_count(nk_isa isa, const nk_conv *conv) {
#define CALL(s) return nk_deconv_packed_count_##s(conv)
    NK_SWITCH(isa, CALL)
#undef CALL
}

void nk_deconv_pack(nk_isa isa, const nk_conv *conv, const float *filter, float *packed) {
#define CALL(s) nk_deconv_pack_##s(conv, filter, packed); return
    NK_SWITCH(isa, CALL)
#undef CALL
}

void nk_deconv_run(nk_isa isa, const nk_conv *conv, const float *packed, const float *bias, const float *input,
                   float *output, size_t row_begin, size_t row_end) {
#define CALL(s) nk_deconv_run_##s(conv, packed, bias, input, output, row_begin, row_end); return
    NK_SWITCH(isa, CALL)
#undef CALL
}

size_t nk_depthwise_packed_count(nk_isa isa, const nk_depthwise *conv) {
    (void)isa;
    return NK_DEPTHWISE_PADDED(conv->in_c) * (1 + (size_t)conv->kernel_h * conv->kernel_w);
}

void nk_depthwise_pack(nk_isa isa, const nk_depthwise *conv, const float *filter, const float *bias, float *packed) {
    (void)isa;
    const size_t cp = NK_DEPTHWISE_PADDED(conv->in_c), taps = (size_t)conv->kernel_h * conv->kernel_w;
    for (size_t c = 0; c < cp; c++) packed[c] = bias && c < (size_t)conv->in_c ? bias[c] : 0.0f;
    for (size_t t = 0; t < taps; t++)
        for (size_t c = 0; c < cp; c++)
            packed[cp + t * cp + c] = c < (size_t)conv->in_c ? filter[t * conv->in_c + c] : 0.0f;
}

void nk_depthwise_run(nk_isa isa, const nk_depthwise *conv, const float *packed, const float *input, float *output,
                      const float *zero, size_t row_begin, size_t row_end) {
#define CALL(s) nk_depthwise_run_##s(conv, packed, input, output, zero, row_begin, row_end); return
    NK_SWITCH(isa, CALL)
#undef CALL
}
