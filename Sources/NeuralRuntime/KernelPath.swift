import NeuralKernels

/// Which build of the C kernels (NeuralKernels) a network runs: generic SIMD, AVX2+FMA or AVX-512.
/// The default is the best the CPU supports, or FACETRACK_KERNELS=generic|avx2|avx512 when that is
/// supported; tests build networks on every supported path and compare them.
package struct KernelPath: Sendable, Equatable, CustomStringConvertible {
    let rawValue: UInt32

    var isa: nk_isa { nk_isa(rawValue: rawValue) }

    /// Portable 4-float vectors.
    package static let generic = KernelPath(rawValue: NK_ISA_GENERIC.rawValue)
    /// AVX2 + FMA, 8-float vectors.
    package static let avx2 = KernelPath(rawValue: NK_ISA_AVX2.rawValue)
    /// AVX-512F, 16-float vectors.
    package static let avx512 = KernelPath(rawValue: NK_ISA_AVX512.rawValue)

    /// The path chosen at load time (CPU features, FACETRACK_KERNELS override).
    package static let `default` = KernelPath(rawValue: nk_default_isa().rawValue)

    /// Every path this build and CPU can run.
    package static var supported: [KernelPath] {
        [.generic, .avx2, .avx512].filter { nk_isa_supported($0.isa) != 0 }
    }

    package var description: String { String(cString: nk_isa_name(isa)) }
}
