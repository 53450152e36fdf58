import Foundation
import TestSupport
import XCTest
@testable import NeuralRuntime

/// Shared helpers: model lookup, fixture reading, deterministic inputs, tolerant comparison.
enum TestSupport {
    /// The path of an installed model (`InstalledModels`: $FACETRACK_MODELS, else the first
    /// `models` folder above the test file).
    static func modelPath(_ file: String) throws -> String {
        try InstalledModels.path(file)
    }

    /// A float32 little-endian fixture from Tests/NeuralRuntimeTests/Fixtures.
    static func fixture(_ name: String) throws -> [Float] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "bin", subdirectory: "Fixtures") else {
            throw FixtureError(name: name)
        }
        let data = try Data(contentsOf: url)
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4,
                                                                                                     as: UInt32.self))) }
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        let name: String
        var description: String { "fixture \(name).bin missing: run scripts/reference/tflite_fixtures.py" }
    }

    /// The input patterns of scripts/reference/tflite_fixtures.py (exact integer arithmetic).
    static func pattern(_ name: String, height: Int, width: Int, channels: Int) -> [Float] {
        (0..<(height * width * channels)).map { i in
            if name == "noise" {
                let hashed = (UInt64(i) &* 2_654_435_761 &+ 12345) & 0xFFFF_FFFF
                return Float(Double(hashed >> 8) / Double(1 << 24) * 2 - 1)
            }
            let c = i % channels, x = (i / channels) % width, y = i / (channels * width)
            return Float(Double((x * 7 + y * 13 + c * 29) % 256) / 127.5 - 1)
        }
    }

    /// `count` deterministic values in [-scale, scale], different for each `seed`.
    static func values(_ count: Int, seed: Int, scale: Float) -> [Float] {
        (0..<count).map { Float((($0 &* 7919 &+ seed &* 104_729) % 211) - 105) / 105 * scale }
    }

    /// Asserts |a - b| <= tolerance * max(1, |b|) element-wise.
    static func assertClose(_ actual: UnsafeBufferPointer<Float>, _ expected: [Float], tolerance: Float = 1e-4,
                            _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.count, expected.count, "\(label): element count", file: file, line: line)
        var worst: Float = 0, worstIndex = 0
        for i in 0..<min(actual.count, expected.count) {
            let error = abs(actual[i] - expected[i]) / max(1, abs(expected[i]))
            if !(error <= worst) { worst = error; worstIndex = i }
        }
        XCTAssertLessThanOrEqual(worst, tolerance,
                                 "\(label): worst relative error \(worst) at \(worstIndex) "
                                     + "(got \(actual[worstIndex]), expected \(expected[worstIndex]))",
                                 file: file, line: line)
    }
}
