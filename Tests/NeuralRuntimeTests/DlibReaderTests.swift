import Foundation
@testable import NeuralRuntime
import XCTest

/// The dlib reader on damaged copies of the face-recognition model: one-line errors naming the
/// file, never a trap. (Its outputs against dlib's are checked in IdentityTests.)
final class DlibReaderTests: XCTestCase {
    private static let bytes = Result {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try TestSupport.modelPath("dlib_face_recognition_resnet_model_v1.dat"))))
    }

    private func error(_ bytes: [UInt8]) -> String? {
        do {
            _ = try DlibReader.faceRecognitionResNet(bytes: bytes, name: "face.dat")
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testReadsTheWholeFile() throws {
        let model = try DlibReader.faceRecognitionResNet(bytes: Self.bytes.get(), name: "face.dat")
        XCTAssertEqual(model.inputRows, 150)
        XCTAssertEqual(model.inputColumns, 150)
        XCTAssertEqual(model.inputMeans[0], 122.782, accuracy: 1e-3)
        XCTAssertEqual(model.inputMeans[1], 117.001, accuracy: 1e-3)
        XCTAssertEqual(model.inputMeans[2], 104.298, accuracy: 1e-3)
    }

    func testTruncatedFilesFailWithOneLine() throws {
        let bytes = try Self.bytes.get()
        // Cut in the header, in the version list, inside a tensor, and one byte short.
        for length in [0, 10, 200, 400, bytes.count / 2, bytes.count - 1] {
            let message = try XCTUnwrap(error(Array(bytes[..<length])), "\(length) bytes")
            XCTAssertTrue(message.hasPrefix("model face.dat is not a valid model file: "), message)
            XCTAssertFalse(message.contains("\n"), message)
        }
        XCTAssertTrue(error(Array(bytes[..<(bytes.count / 2)]))?.contains("file ends inside a tensor") == true)
    }

    func testDamagedBytesFailWithOneLine() throws {
        let bytes = try Self.bytes.get()
        // The first layer record's name "con_4" follows the input layer's "input_rgb_image_sized".
        let marker = Array("con_4".utf8)
        let at = try XCTUnwrap((0..<(bytes.count - 5)).first { Array(bytes[$0..<($0 + 5)]) == marker })
        var renamed = bytes
        renamed[at + 4] = UInt8(ascii: "9")
        XCTAssertEqual(error(renamed)?.contains("layer 0 ('con_9'): expected a convolution layer"), true, error(renamed) ?? "")

        var extra = bytes
        extra.append(0)
        XCTAssertEqual(error(extra)?.hasSuffix("1 bytes after the last layer at byte \(bytes.count)"), true, error(extra) ?? "")

        // A control byte claiming a 15-byte integer, and a huge tensor size.
        var badInteger = bytes
        badInteger[0] = 0x0F
        XCTAssertEqual(error(badInteger)?.contains("bad integer control byte 15 at byte 0"), true)
        var hugeTensor = bytes
        let tensorStart = at + 5  // con_4's parameter tensor: version 2, then four sizes
        hugeTensor.replaceSubrange(tensorStart..<(tensorStart + 4), with: [0x01, 0x02, 0x08, 0xFF])
        XCTAssertNotNil(error(hugeTensor))
    }
}
