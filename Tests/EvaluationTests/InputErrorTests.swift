import Evaluation
import Foundation
import XCTest

/// Bad truth, prediction and manifest files: one clear line naming file and line, never a crash.
final class InputErrorTests: XCTestCase {
    private let header = "frame,time,track_id,x,y,width,height,confidence,left_eye_x,left_eye_y,right_eye_x,right_eye_y"

    private func parseError(_ text: String, requireIDs: Bool = false) -> String {
        do {
            _ = try TrackTable.parse(text, path: "t.csv", requireIDs: requireIDs)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testReadsWriterOutputAndEmptyFrames() throws {
        let table = try TrackTable.parse(header + "\n0,0.0,1,1.5,2,30,40,0.9,5,6,7,8\n1,0.04,,,,,,,,,,\n2,0.08,,3,4,5,6,0.5,,,,\n",
                                         path: "t.csv")
        XCTAssertEqual(table.frames, [0, 1, 2])
        XCTAssertEqual(table.rows.count, 2)
        XCTAssertEqual(table.rows[0].leftEye?.x, 5)
        XCTAssertEqual(table.rows[0].box.width, 30)
        XCTAssertNil(table.rows[1].trackID)
        XCTAssertNil(table.rows[1].leftEye)
        XCTAssertEqual(table.rows[1].line, 4)
    }

    func testEmptyFile() {
        XCTAssertEqual(parseError(""), "t.csv: empty file (expected a CSV header row)")
        XCTAssertEqual(parseError("\n\n"), "t.csv: empty file (expected a CSV header row)")
    }

    func testMissingColumns() {
        XCTAssertEqual(parseError("frame,track_id,x,y,confidence\n0,1,2,3,1\n"), "t.csv:1: missing columns width, height")
    }

    func testWrongTypes() {
        XCTAssertEqual(parseError(header + "\n0,0,1,abc,2,30,40,0.9,,,,\n"), "t.csv:2:4: x 'abc' is not a number")
        XCTAssertEqual(parseError(header + "\n0,0,1,1,2,30,40,0.9,,,,\n0.5,0,1,1,2,30,40,0.9,,,,\n"),
                       "t.csv:3:1: frame '0.5' is not a whole number")
        XCTAssertEqual(parseError(header + "\n0,0,x1,1,2,30,40,0.9,,,,\n"), "t.csv:2:3: track_id 'x1' is not a whole number")
        XCTAssertEqual(parseError(header + "\n0,0,1,nan,2,30,40,0.9,,,,\n"), "t.csv:2:4: x 'nan' is not a number")
        XCTAssertEqual(parseError(header + "\n-1,0,1,1,2,30,40,0.9,,,,\n"), "t.csv:2:1: frame '-1' is out of range (0 to 1e10)")
    }

    func testNegativeSizes() {
        XCTAssertEqual(parseError(header + "\n0,0,1,1,2,-30,40,0.9,,,,\n"), "t.csv:2:6: width '-30' is out of range (0 to 1e6 pixels)")
    }

    func testPartialBoxAndFieldCount() {
        XCTAssertEqual(parseError(header + "\n0,0,1,1,2,,40,0.9,,,,\n"), "t.csv:2: x, y, width and height must all be given")
        XCTAssertEqual(parseError(header + "\n0,0,1,1,2,3\n"), "t.csv:2: 6 fields, the header has 12")
    }

    func testDuplicateTrackInOneFrameAndConflictingTimes() {
        XCTAssertEqual(parseError(header + "\n0,0,1,1,2,3,4,1,,,,\n0,0,1,5,2,3,4,1,,,,\n"), "t.csv:3: track_id 1 appears twice in frame 0")
        XCTAssertEqual(parseError(header + "\n0,0,1,1,2,3,4,1,,,,\n0,0.5,2,5,2,3,4,1,,,,\n"), "t.csv:3: frame 0 has time 0.5, an earlier row says 0.0")
    }

    func testTruthNeedsTrackIDs() {
        XCTAssertEqual(parseError(header + "\n0,0,,1,2,30,40,1,,,,\n", requireIDs: true),
                       "t.csv:2: track_id is empty (truth rows need one)")
    }

    func testMissingFileNamesIt() {
        XCTAssertThrowsError(try TrackTable.load(path: "/nonexistent/truth.csv")) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/truth.csv: cannot read"), "\(error)")
        }
    }

    func testGarbageBytesDoNotCrash() {
        var bytes = [UInt8](repeating: 0, count: 300)
        for i in bytes.indices { bytes[i] = UInt8((i * 73 + 11) % 256) }
        let text = header + "\n" + String(decoding: bytes, as: UTF8.self)
        XCTAssertNotEqual(parseError(text), "no error")
    }
}
