import FaceCore
import Foundation
@testable import Report
import TestSupport
import XCTest

/// The tracks CSV reader: required columns, BOM and CRLF, quoting, errors naming file, line and column.
final class TracksCSVTests: XCTestCase {
    static let header = "frame,time,track_id,x,y,width,height,confidence,has_smile,left_eye_closed,right_eye_closed,roll,yaw,source"

    private func rows(_ text: String, path: String = "t.csv") throws -> FaceRows {
        var csv = try CSVReader(bytes: Array(text.utf8), path: path)
        return try FaceRows(reading: &csv)
    }

    func testReadsRowsWithBOMAndCRLF() throws {
        let text = "\u{FEFF}" + Self.header + "\r\n0,0.000000,1,10,20,30,40,0.9,1,0,0,,12.5,detected\r\n"
            + "1,0.040000,1,11,20,30,40,0.5,,,,,,predicted\r\n2,0.080000,,,,,,,,,,,,\r\n"
        let table = try rows(text)
        XCTAssertEqual(table.rows.count, 2, "the frame-only row lists a frame, not a face")
        XCTAssertEqual(table.lastFrame, 2)
        XCTAssertEqual(table.rows[0], FaceRow(frame: 0, time: 0, trackID: 1, box: Rect(x: 10, y: 20, width: 30, height: 40),
                                              confidence: 0.9, predicted: false, smiling: true, eyesClosed: false, yaw: 12.5))
        XCTAssertTrue(table.rows[1].predicted)
        XCTAssertNil(table.rows[1].smiling)
        XCTAssertFalse(table.hasPersonColumn)
    }

    func testTruthRowsMarkedIgnoreAreNotSightings() throws {
        let text = Self.header + "\n0,0,1,10,20,30,40,1,,,,,,detected\n1,0.04,1,10,20,30,40,1,,,,,,ignore\n"
        let table = try rows(text)
        XCTAssertEqual(table.rows.map(\.frame), [0])
        XCTAssertEqual(table.lastFrame, 1, "the frame still counts")
    }

    func testQuotedPersonColumnAtTheEnd() throws {
        let text = Self.header + ",person\n0,0,1,1,1,5,5,1,,,,,,detected,\"Hopper, Grace\"\n0,0,2,9,9,5,5,1,,,,,,detected,\"Say \"\"hi\"\"\"\n"
        let table = try rows(text)
        XCTAssertTrue(table.hasPersonColumn)
        XCTAssertEqual(table.rows.map(\.person), ["Hopper, Grace", "Say \"hi\""])
    }

    func testMissingColumnsNameTheFileAndEveryColumn() {
        XCTAssertThrowsError(try rows("frame,time,x,y,w,h\n0,0,1,1,1,1\n", path: "dir/bad.csv")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("dir/bad.csv: missing columns track_id, width, height, confidence"), text)
            XCTAssertFalse(text.contains("\n"))
        }
        XCTAssertThrowsError(try rows("", path: "empty.csv")) { XCTAssertTrue("\($0)".hasPrefix("empty.csv: empty file")) }
    }

    func testBadValueNamesLineAndColumn() {
        let text = Self.header + "\n0,0,1,1,1,5,5,1,,,,,,detected\n1,0.04,1,1,one,5,5,1,,,,,,detected\n"
        XCTAssertThrowsError(try rows(text)) { XCTAssertEqual("\($0)", "t.csv: line 3, column 5: y 'one' is not a number") }
        XCTAssertThrowsError(try rows(Self.header + "\nx,0,1,1,1,5,5,1,,,,,,detected\n")) {
            XCTAssertEqual("\($0)", "t.csv: line 2, column 1: frame 'x' is not a whole number")
        }
    }

    func testUnreadableFileIsOneLine() {
        XCTAssertThrowsError(try FaceRows(path: "/nonexistent/tracks.csv")) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/tracks.csv: cannot read"), "\(error)")
        }
    }

    /// The committed truth files are tracks CSVs too (every frame listed, IDs, source `truth`).
    func testReadsACommittedTruthFile() throws {
        let path = Self.samples + "/cut-aba.truth.csv"
        let table = try FaceRows(path: path)
        XCTAssertGreaterThan(table.rows.count, 50)
        XCTAssertEqual(Set(table.rows.compactMap(\.trackID)), [1, 2])
    }

    static var samples: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("samples").path
    }
}
