import FaceCore
import XCTest
@testable import Rendering

final class LabelTests: XCTestCase {
    private let labelsOnly = OverlayRenderer(configuration: OverlayConfiguration(kinds: [.labels]))
    private let plate: [UInt8] = [16, 16, 16, 255]
    private let white: [UInt8] = [255, 255, 255, 255]

    private func text(trackID: Int?, confidence: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FaceLabel.capacity) { buffer in
            let count = FaceLabel.format(trackID: trackID, confidence: confidence, into: buffer)
            return String(decoding: buffer[..<count], as: UTF8.self)
        }
    }

    func testLabelText() {
        XCTAssertEqual(text(trackID: 3, confidence: 0.923), "#3 0.92")
        XCTAssertEqual(text(trackID: 120, confidence: 0.999), "#120 1.00")
        XCTAssertEqual(text(trackID: nil, confidence: 0.05), "0.05")
        XCTAssertEqual(text(trackID: 7, confidence: .nan), "#7 ?")
        XCTAssertEqual(text(trackID: -4, confidence: 2), "#-4 1.00")
        XCTAssertEqual(text(trackID: Int.min, confidence: 0), "#-9223372036854775808 0.00")
    }

    func testDigitGlyphRendersItsBitPattern() {
        // "#1 0.50" on a 360-line frame (font scale 1): the plate's bottom touches the box top at y = 100.
        let image = TestFrames.gray(360, 360)
        labelsOnly.render([TestFrames.face(Rect(x: 100, y: 100, width: 100, height: 100), confidence: 0.5,
                                           trackID: 1)], on: image)
        let one = ["..#..",
                   ".##..",
                   "..#..",
                   "..#..",
                   "..#..",
                   "..#..",
                   ".###."]
        // Plate from (100, 91), text from (101, 92); the '1' is the second character, 6 px further.
        for (row, bits) in one.enumerated() {
            for (column, bit) in bits.enumerated() {
                XCTAssertEqual(TestFrames.pixel(image, 107 + column, 92 + row), bit == "#" ? white : plate,
                               "row \(row) column \(column)")
            }
        }
        XCTAssertEqual(TestFrames.pixel(image, 100, 91), plate)
        XCTAssertEqual(TestFrames.pixel(image, 100 + 43 - 1, 99), plate)
        XCTAssertEqual(TestFrames.pixel(image, 100 + 43, 95), TestFrames.grayPixel())
        XCTAssertEqual(TestFrames.pixel(image, 100, 90), TestFrames.grayPixel())
        XCTAssertEqual(TestFrames.pixel(image, 100, 100), TestFrames.grayPixel(), "the box itself is untouched")
    }

    func testFontScaleFollowsFrameSize() {
        XCTAssertEqual(FaceLabel.scale(width: 640, height: 360), 1)
        XCTAssertEqual(FaceLabel.scale(width: 1280, height: 720), 2)
        XCTAssertEqual(FaceLabel.scale(width: 1920, height: 1080), 3)
        XCTAssertEqual(FaceLabel.scale(width: 3840, height: 2160), 6)
        XCTAssertEqual(FaceLabel.scale(width: 64, height: 48), 1)
        // At scale 3 each font pixel is a 3 x 3 square: the top of the '#' (bits .#.#.) starts 3 px in.
        let image = TestFrames.gray(1920, 1080)
        labelsOnly.render([TestFrames.face(Rect(x: 500, y: 500, width: 150, height: 150))], on: image)
        let top = 500 - 9 * 3 + 3, left = 500 + 3
        for dx in 0..<15 {
            let expected = (3..<6).contains(dx) || (9..<12).contains(dx) ? white : plate
            XCTAssertEqual(TestFrames.pixel(image, left + dx, top), expected, "dx \(dx)")
            XCTAssertEqual(TestFrames.pixel(image, left + dx, top + 2), expected, "dx \(dx)")
        }
    }

    func testLabelsStayInsideTheFrameAtTheEdges() {
        let image = TestFrames.gray(360, 200)
        // At the top edge the label moves into the box; at the right edge it moves left.
        labelsOnly.render([TestFrames.face(Rect(x: 10, y: 2, width: 60, height: 60), trackID: 12),
                           TestFrames.face(Rect(x: 340, y: 100, width: 60, height: 60), trackID: nil)], on: image)
        XCTAssertEqual(TestFrames.pixel(image, 10, 2), plate)
        XCTAssertEqual(TestFrames.pixel(image, 10, 1), TestFrames.grayPixel())
        // "0.90" is 4 characters: plate 25 px wide, so it starts at 360 - 25.
        XCTAssertEqual(TestFrames.pixel(image, 359, 91), plate)
        XCTAssertEqual(TestFrames.pixel(image, 335, 91), plate)
        XCTAssertEqual(TestFrames.pixel(image, 334, 91), TestFrames.grayPixel())
        XCTAssertTrue(TestFrames.paddingIsClean(image))

        // A frame narrower than the label: clipped, nothing written outside.
        let narrow = TestFrames.gray(20, 30)
        labelsOnly.render([TestFrames.face(Rect(x: 5, y: 15, width: 10, height: 10), trackID: 123_456)], on: narrow)
        XCTAssertEqual(TestFrames.pixel(narrow, 19, 14), plate)
        XCTAssertTrue(TestFrames.paddingIsClean(narrow))
    }

    func testUnknownCharactersDrawAsQuestionMark() {
        for row in 0..<BitmapFont.glyphHeight {
            XCTAssertEqual(BitmapFont.bits(of: UInt8(ascii: "~"), row: row), BitmapFont.bits(of: UInt8(ascii: "?"), row: row))
        }
        XCTAssertEqual(BitmapFont.characters.count * BitmapFont.glyphHeight, BitmapFont.bitRows.count)
        XCTAssertTrue(BitmapFont.bitRows.allSatisfy { $0 < 32 }, "five bits per row")
    }
}
