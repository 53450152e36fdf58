import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import XCTest

/// `facetrack check` treats a manifest's clip names as names, never paths, and every control
/// character it prints or writes is escaped (issue 27, items 3 and 16).
final class CheckSafetyTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("m"), withIntermediateDirectories: true)
        try "frame,time,track_id,x,y,width,height,confidence\n0,0,1,10,10,20,20,1\n"
            .write(toFile: folder.file("m/truth.csv"), atomically: false, encoding: .utf8)
        try Clips.pattern(folder.file("m/clip.mp4"), seconds: 0.2, size: "64x48")
    }

    override func tearDown() { folder = nil }

    /// A manifest with one clip entry whose fields are `fields` (JSON text).
    private func manifest(_ fields: String) throws -> String {
        let path = folder.file("m/manifest.json")
        try "{\"clips\": [{\(fields), \"truth\": \"truth.csv\", \"options\": [\"--detector\", \"none\"], \"thresholds\": {\"recall\": 0}}]}"
            .write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// A name like `../../x/precious` would have written the run's CSV over x/precious.csv.
    func testClipNameThatIsAPathIsRefusedAndNothingOutsideIsWritten() throws {
        let precious = folder.file("precious.csv")
        try "precious data\n".write(toFile: precious, atomically: false, encoding: .utf8)
        let temporary = folder.file("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        // From the check's temporary folder (TMPDIR/facetrack-check-PID) up to the test folder.
        for name in ["../precious", "../../precious", "a/b", "..", ""] {
            let path = try manifest("\"name\": \"\(name)\", \"clip\": \"clip.mp4\"")
            let result = try Tools.run(Tools.facetrack, ["check", path], environment: ["TMPDIR": temporary])
            XCTAssertEqual(result.status, 1, "\(name): \(result.stdout) \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("manifest.json:1: clip 1 (clip.mp4): name '\(name)'"), result.stderr)
            XCTAssertEqual(try String(contentsOfFile: precious, encoding: .utf8), "precious data\n")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [], "no temporary folder left")
    }

    /// A good name still passes, and the run's private temporary folder is gone afterwards.
    func testPlainNamePassesAndLeavesNoTemporaryFolder() throws {
        let temporary = folder.file("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let path = try manifest("\"name\": \"ok\", \"clip\": \"clip.mp4\"")
        let result = try Tools.run(Tools.facetrack, ["check", path], environment: ["TMPDIR": temporary])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("PASS ok:"), result.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [])
    }

    /// Control characters in a name are refused; in an error message (a clip file whose name holds
    /// ESC) they are escaped on the terminal and in the JUnit XML, which stays well-formed.
    func testControlCharactersAreRefusedInNamesAndEscapedInOutput() throws {
        for name in ["a\\u0000b", "ab\\u001b[31m"] {
            let path = try manifest("\"name\": \"\(name)\", \"clip\": \"clip.mp4\"")
            let result = try Tools.run(Tools.facetrack, ["check", path])
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stderr.contains("holds control characters"), result.stderr)
            XCTAssertFalse(result.stderr.contains("\u{1B}"), "escaped on the terminal")
        }
        let strange = "bad\u{1B}[31m\u{7}.mp4"
        try "not a video".write(toFile: folder.file("m/" + strange), atomically: false, encoding: .utf8)
        let path = try manifest("\"name\": \"strange\", \"clip\": \"bad\\u001b[31m\\u0007.mp4\"")
        let junit = folder.file("report.xml")
        let result = try Tools.run(Tools.facetrack, ["check", path, "--junit", junit])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stdout.contains("FAIL strange: "), result.stdout)
        XCTAssertTrue(result.stdout.contains("bad\\u{1B}[31m\\u{7}.mp4: not a media file"), result.stdout)
        XCTAssertFalse(result.stdout.contains("\u{1B}"), "no raw escape reaches the terminal")
        let xml = try Data(contentsOf: URL(fileURLWithPath: junit))
        XCTAssertFalse(xml.contains(0x1B), "no raw ESC in the XML")
        let parser = XMLParser(data: xml)
        XCTAssertTrue(parser.parse(), "well-formed XML: \(String(describing: parser.parserError))")
        XCTAssertTrue(String(decoding: xml, as: UTF8.self).contains("bad\\u{1B}[31m\\u{7}.mp4"))
    }

    /// --junit or a golden file naming the manifest, a clip or a truth file is refused; the file is intact.
    func testOutputsNeverReplaceTheFilesCheckReads() throws {
        let truth = folder.file("m/truth.csv")
        let before = try String(contentsOfFile: truth, encoding: .utf8)
        let path = try manifest("\"name\": \"ok\", \"clip\": \"clip.mp4\"")
        let junit = try Tools.run(Tools.facetrack, ["check", path, "--junit", truth])
        XCTAssertEqual(junit.status, 1)
        XCTAssertTrue(junit.stderr.contains("truth.csv: output path is "), junit.stderr)
        let golden = try manifest("\"name\": \"ok\", \"clip\": \"clip.mp4\", \"golden\": \"truth.csv\"")
        let update = try Tools.run(Tools.facetrack, ["check", golden, "--update-golden"])
        XCTAssertEqual(update.status, 1)
        XCTAssertTrue(update.stdout.contains("FAIL ok: ") && update.stdout.contains("output path is the input file"), update.stdout)
        XCTAssertEqual(try String(contentsOfFile: truth, encoding: .utf8), before)
    }
}
