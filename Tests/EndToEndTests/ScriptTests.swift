import Foundation
import TestSupport
import XCTest

/// The test scripts keep their whole log when it goes to a file (issue 27, "Also").
final class ScriptTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// scripts/test's example step, with standard output and error going to one log file: the
    /// lines written before it stay (`tee /dev/stderr` reopened the log and truncated it).
    func testExampleStepKeepsTheLogBeforeIt() throws {
        let folder = try TemporaryFolder()
        let log = folder.file("log")
        let run = try Tools.run("bash", ["-c", "{ echo 'written before the step'; scripts/check-example; echo after; } > \"$0\" 2>&1", log],
                                directory: Self.root)
        XCTAssertEqual(run.status, 0, run.stderr)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("written before the step\nface at "), text)
        XCTAssertTrue(text.hasSuffix("after\n"), text)
        XCTAssertFalse(text.contains("\u{0}"), "no hole of NUL bytes where the log was truncated")
    }
}
