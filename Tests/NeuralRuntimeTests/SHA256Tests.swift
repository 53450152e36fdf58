import Foundation
@testable import NeuralRuntime
import XCTest

/// FIPS 180-4 test vectors, and lengths around the 64-byte block and 56-byte padding boundaries
/// (checked against Python's hashlib).
final class SHA256Tests: XCTestCase {
    func testKnownVectors() {
        XCTAssertEqual(SHA256.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testBlockBoundaries() {
        let expected = [55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
                        56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
                        64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
                        65: "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"]
        for (length, digest) in expected {
            XCTAssertEqual(SHA256.hex([UInt8](repeating: 0x61, count: length)), digest, "\(length) bytes")
        }
    }
}

/// The SHA-extension path (where the CPU has it) gives the Swift path's digests, around block
/// boundaries and over a whole model file.
final class SHA256AcceleratedTests: XCTestCase {
    func testAcceleratedDigestsEqualSwift() throws {
        try XCTSkipUnless(SHA256.accelerated, "this CPU has no SHA extensions")
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096 + 17] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes.withUnsafeBytes { raw in
                XCTAssertEqual(SHA256.hex(raw, accelerated: true), SHA256.hex(raw, accelerated: false), "\(length) bytes")
            }
        }
        let path = try TestSupport.modelPath("face_detection_short_range.tflite")
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        file.withUnsafeBytes { raw in
            XCTAssertEqual(SHA256.hex(raw, accelerated: true), ModelIntegrity.known["face_detection_short_range.tflite"]?.sha256)
        }
    }
}
