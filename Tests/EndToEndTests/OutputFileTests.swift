import Foundation
import TestSupport
import XCTest

/// Where outputs land in awkward places: devices, FIFOs, symlinks, long names, clashes, leftovers
/// of killed runs, a full disk (issue 16).
final class OutputFileTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var clip: String!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        clip = folder.file("clip.mp4")
        try Clips.pattern(clip, seconds: 0.4, size: "160x120")
    }

    private func process(_ arguments: [String], environment: [String: String]? = nil) throws -> Tools.Result {
        try Tools.run(Tools.facetrack, ["process", clip, "--detector", "none", "--quiet"] + arguments, environment: environment)
    }

    /// A PID that is certainly not running (a child that has exited).
    private func deadPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    func testCharacterDeviceIsWrittenIntoNotReplaced() throws {
        // A character device of our own (as root) or /dev/null: either way it must stay a device.
        let device = folder.file("null")
        let target = mknod(device, S_IFCHR | 0o666, 259) == 0 ? device : "/dev/null"
        let result = try process(["--csv", target])
        XCTAssertEqual(result.status, 0, result.stderr)
        var info = stat()
        XCTAssertEqual(lstat(target, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "\(target) is still a character device")
        XCTAssertFalse(folder.contents().contains { $0.contains(".partial-") }, "\(folder.contents())")
    }

    func testFIFOIsWrittenStraightThrough() throws {
        let fifo = folder.file("pipe")
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "cat \"$0\" > \"$1\"", fifo, folder.file("read.csv")]
        try reader.run()
        let result = try process(["--csv", fifo])
        reader.waitUntilExit()
        XCTAssertEqual(result.status, 0, result.stderr)
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "still a FIFO")
        XCTAssertTrue(try String(contentsOfFile: folder.file("read.csv"), encoding: .utf8).hasPrefix("frame,"))
    }

    func testSymlinkIsWrittenThroughToItsTarget() throws {
        let target = folder.file("real.csv")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let link = folder.file("link.csv")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.csv")
        let result = try process(["--csv", link])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "real.csv", "the link stays a link")
        XCTAssertTrue(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("frame,"), "the target holds the CSV")
    }

    func testLongOutputNameWithinTheLimit() throws {
        let name = String(repeating: "n", count: 250) + ".csv"  // 254 bytes: valid, but not with a prefix and suffix added
        let result = try process(["--csv", folder.file(name)])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file(name)))
        XCTAssertFalse(folder.contents().contains { $0.contains(".partial-") })
    }

    func testTwoOutputsNamingOneFileAreRefusedBeforeAnyFrame() throws {
        let csv = folder.file("same.csv")
        try FileManager.default.createSymbolicLink(atPath: folder.file("alias.csv"), withDestinationPath: "same.csv")
        for (first, second) in [("--csv", "--mot"), ("--csv", "--landmarks"), ("--csv", "--tracks-summary"), ("-o", "--csv")] {
            let before = folder.contents()
            let path = first == "-o" ? folder.file("same.mp4") : csv
            let other = first == "-o" ? folder.file("same.mp4") : folder.file("alias.csv")
            let result = try process([first, path, second, other])
            XCTAssertEqual(result.status, 1, "\(first) \(second): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("name the same file"), result.stderr)
            XCTAssertFalse(result.stderr.contains("frames"), "refused before reading: \(result.stderr)")
            XCTAssertEqual(folder.contents(), before, "nothing written")
        }
    }

    func testStalePartialOfADeadProcessIsRemoved() throws {
        let stale = folder.file(".out.csv.partial-\(try deadPID())")
        try Data("half".utf8).write(to: URL(fileURLWithPath: stale))
        let live = folder.file(".out.csv.partial-1")  // PID 1 runs: not ours to remove
        try Data("live".utf8).write(to: URL(fileURLWithPath: live))
        let result = try process(["--csv", folder.file("out.csv")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "stale temporary file removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: live), "a live process's file is kept")
    }

    func testBatchSweepsStalePartialsUnderItsOutputFolder() throws {
        let out = folder.file("out/sub")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let stale = (out as NSString).appendingPathComponent(".other.mp4.partial-\(try deadPID())")
        try Data("half".utf8).write(to: URL(fileURLWithPath: stale))
        let result = try Tools.run(Tools.facetrack, ["batch", clip, "--out", folder.file("out"), "--outputs", "csv",
                                                     "--detector", "none", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "stale temporary file of a killed batch removed")
    }

    func testNoTemporaryDirectoryLeftInTMPDIR() throws {
        let tmp = folder.file("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp
        let result = try process(["--csv", folder.file("a.csv"), "--mot", folder.file("a.txt"),
                                  "--tracks-summary", folder.file("a.json")], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp), [], "nothing left in TMPDIR")
    }

    func testFullDiskLeavesNoTemporaryFiles() throws {
        // Needs a small tmpfs (root); skipped elsewhere.
        let mountPoint = folder.file("full")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mount = try Tools.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint])
        guard mount.status == 0 else { throw XCTSkip("cannot mount a tmpfs here: \(mount.stderr)") }
        defer { _ = try? Tools.run("/bin/umount", [mountPoint]) }
        try Data(count: 60_000).write(to: URL(fileURLWithPath: mountPoint + "/fill"))
        for outputs in [["--csv", mountPoint + "/a.csv", "--landmarks", mountPoint + "/l.csv"],
                        ["-o", mountPoint + "/o.mp4", "--csv", mountPoint + "/a.csv", "--tracks-summary", mountPoint + "/t.json"]] {
            let result = try process(outputs)
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mountPoint), ["fill"], "\(outputs)")
        }
    }
}
