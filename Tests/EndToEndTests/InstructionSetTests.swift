import Foundation
import TestSupport
import XCTest

/// The binary runs on any x86-64 CPU (issue 27): only the kernels NeuralKernels dispatches at run
/// time (kernels_avx2.c and kernels_avx512.c, whose functions end in `_avx2` / `_avx512`) may use
/// instructions beyond the SSE2 baseline. Anywhere else an AVX, FMA, BMI or AVX-512 instruction
/// kills the program with SIGILL on a CPU without them, even with FACETRACK_KERNELS=generic.
/// Checks the `facetrack` built next to the tests, or FACETRACK_ISA_CHECK_BINARY (scripts/test
/// points it at the release build).
final class InstructionSetTests: XCTestCase {
    func testOnlyTheDispatchedKernelsUseInstructionsBeyondTheBaseline() throws {
        #if !arch(x86_64)
        throw XCTSkip("the check is about x86-64 instruction sets")
        #else
        let binary = ProcessInfo.processInfo.environment["FACETRACK_ISA_CHECK_BINARY"] ?? Tools.facetrack
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary), "no binary at \(binary)")
        let disassembly = try Tools.run("/usr/bin/objdump", ["-d", "--no-show-raw-insn", binary])
        XCTAssertEqual(disassembly.status, 0, disassembly.stderr)
        let offenders = InstructionScan.functionsBeyondBaseline(disassembly.stdout)
        let kernels = offenders.keys.filter(InstructionScan.isDispatchedKernel)
        let others = offenders.filter { !InstructionScan.isDispatchedKernel($0.key) }
        XCTAssertFalse(kernels.isEmpty, "the AVX2/AVX-512 kernels should be in \(binary) (is the scan blind?)")
        let listed = others.sorted { $0.key < $1.key }.prefix(20).map { "\($0.key): \($0.value)" }
        XCTAssertTrue(others.isEmpty, "\(others.count) functions outside the dispatched kernels use instructions beyond "
                      + "x86-64's baseline, e.g.\n" + listed.joined(separator: "\n"))
        #endif
    }

    func testTheScanFlagsVexBmiAndMaskInstructions() {
        let sample = """
        0000000000001000 <$s5Plain4sumSfyF>:
            1000:\tmovaps %xmm0,%xmm1
            1004:\taddps  %xmm1,%xmm0
            1008:\tlock cmpxchg %rcx,(%rdx)
            100c:\tret
        0000000000002000 <$s13NeuralRuntime4loopyyF>:
            2000:\tvmovups (%rdi),%ymm0
            2004:\tshlx   %rax,%rbx,%rcx
        0000000000003000 <nk_conv_run_avx512>:
            3000:\tkmovw  %eax,%k1
            3004:\tvfmadd231ps %zmm1,%zmm2,%zmm3
        0000000000004000 <helper>:
            4000:\trep popcnt %eax,%eax
        0000000000005000 <bitScan>:
            5000:\ttzcnt %eax,%eax
        """
        let found = InstructionScan.functionsBeyondBaseline(sample)
        XCTAssertEqual(Set(found.keys), ["$s13NeuralRuntime4loopyyF", "nk_conv_run_avx512", "helper"])
        XCTAssertEqual(found["$s13NeuralRuntime4loopyyF"], "vmovups")
        XCTAssertTrue(InstructionScan.isDispatchedKernel("nk_conv_run_avx512"))
        XCTAssertTrue(InstructionScan.isDispatchedKernel("nk_depthwise_run_avx2.cold"))
        XCTAssertFalse(InstructionScan.isDispatchedKernel("$s13NeuralRuntime4loopyyF"))
        XCTAssertFalse(InstructionScan.isDispatchedKernel("nk_conv_run_generic"))
    }
}

/// Reads `objdump -d` output: which functions hold instructions an x86-64 CPU without AVX may lack.
enum InstructionScan {
    /// General-purpose instructions of BMI1/BMI2/LZCNT/POPCNT/MOVBE (Haswell and later); every
    /// AVX, FMA, F16C and AVX-512 vector instruction is VEX/EVEX-encoded and starts with "v", and
    /// AVX-512's mask instructions start with "k". Not `tzcnt`: baseline code uses its encoding
    /// (rep bsf) on purpose where the input is never zero, and older CPUs run it as bsf.
    static let beyondBaseline: Set<String> = ["andn", "bextr", "blsi", "blsmsk", "blsr", "bzhi", "mulx", "pdep", "pext",
                                              "rorx", "sarx", "shlx", "shrx", "lzcnt", "popcnt", "movbe"]
    static let maskPrefixes = ["kmov", "kand", "kor", "kxor", "kxnor", "knot", "kshift", "ktest", "kortest", "kunpck", "kadd"]
    static let prefixes: Set<String> = ["lock", "rep", "repz", "repe", "repnz", "repne", "notrack", "bnd", "data16", "addr32"]

    /// Function name → the first instruction beyond the baseline found in it.
    static func functionsBeyondBaseline(_ disassembly: String) -> [String: String] {
        var found: [String: String] = [:]
        var function = "?"
        for line in disassembly.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasSuffix(">:"), let open = line.firstIndex(of: "<") {
                function = String(line[line.index(after: open)..<line.index(line.endIndex, offsetBy: -2)])
                continue
            }
            guard let tab = line.firstIndex(of: "\t") else { continue }
            let words = line[line.index(after: tab)...].split(separator: " ", omittingEmptySubsequences: true)
            guard let mnemonic = words.first(where: { !prefixes.contains(String($0)) }).map(String.init) else { continue }
            let vector = mnemonic.hasPrefix("v") && mnemonic != "verr" && mnemonic != "verw"
            if vector || beyondBaseline.contains(mnemonic) || maskPrefixes.contains(where: mnemonic.hasPrefix),
               found[function] == nil {
                found[function] = mnemonic
            }
        }
        return found
    }

    /// Functions of kernels_avx2.c / kernels_avx512.c (and compiler-made parts of them, `.cold`).
    static func isDispatchedKernel(_ name: String) -> Bool {
        let base = name.split(separator: ".").first.map(String.init) ?? name
        return base.hasSuffix("_avx2") || base.hasSuffix("_avx512")
    }
}
