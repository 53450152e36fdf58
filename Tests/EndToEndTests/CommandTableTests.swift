import Foundation
import TestSupport
import XCTest

/// The commands come from one table: the usage lists each, each has a `--help` (also when other
/// arguments come first, before `--`), and an unknown command names them all.
final class CommandTableTests: XCTestCase {
    private let names = ["process", "detect", "eval", "check", "batch", "merge-results", "report", "find", "render",
                         "apply-edits", "split-plan", "stitch"]

    func testUsageHelpAndUnknownCommandNameTheSameCommands() throws {
        let usage = try Tools.run(Tools.facetrack, ["--help"])
        XCTAssertEqual(usage.status, 0)
        let listed = usage.stdout.components(separatedBy: "COMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
            .split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(listed, names)
        for name in names {
            let help = try Tools.run(Tools.facetrack, [name, "--help"])
            XCTAssertEqual(help.status, 0, name)
            XCTAssertTrue(help.stdout.hasPrefix("USAGE: facetrack \(name)"), help.stdout)
        }
        let unknown = try Tools.run(Tools.facetrack, ["procss", "clip.mp4"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("unknown command 'procss' (commands: \(names.joined(separator: ", "));"),
                      unknown.stderr)
    }

    func testHelpAnywhereBeforeDoubleDashWinsOverOtherArguments() throws {
        for name in ["batch", "eval", "report", "detect"] {
            let help = try Tools.run(Tools.facetrack, [name, "--no-such-option", "-h"])
            XCTAssertEqual(help.status, 0, "\(name): \(help.stderr)")
            XCTAssertTrue(help.stdout.hasPrefix("USAGE: facetrack \(name)"), help.stdout)
        }
        let file = try Tools.run(Tools.facetrack, ["detect", "--", "--help"])
        XCTAssertNotEqual(file.status, 0, "after --, --help is an image name")
        XCTAssertTrue(file.stderr.contains("--help"), file.stderr)
    }
}
