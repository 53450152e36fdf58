import Foundation
import TestSupport
import XCTest

/// `facetrack batch` and `merge-results` run as a user runs them, on tiny clips without detection.
final class BatchCommandTests: XCTestCase {
    private func facetrack(_ arguments: [String]) throws -> Tools.Result {
        try Tools.run(Tools.facetrack, arguments)
    }

    /// Tiny clips at `names` (relative to `folder`), 0.2 s each.
    private func makeClips(_ folder: TemporaryFolder, _ names: [String]) throws {
        for name in names {
            let path = folder.file(name)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-t", "0.2", "-c:v", "libx264",
                              "-preset", "ultrafast", "-pix_fmt", "yuv420p", path])
        }
    }

    /// Records of a results file, by file name: (status, frames, error).
    private func records(_ path: String) throws -> [String: (status: String, frames: Int, error: String?)] {
        var result: [String: (String, Int, String?)] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let path = try XCTUnwrap(object["path"] as? String)
            XCTAssertNil(result[(path as NSString).lastPathComponent], "one record per input")
            result[(path as NSString).lastPathComponent] = (try XCTUnwrap(object["status"] as? String),
                                                            try XCTUnwrap(object["frames"] as? Int), object["error"] as? String)
        }
        return result
    }

    /// Every file below `path`, relative, sorted (hidden ones included).
    private func tree(_ path: String) -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
            .filter { name in var d: ObjCBool = false; FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &d); return !d.boolValue }
            .sorted()
    }

    /// A folder tree is mirrored; a rerun skips everything; a touched input is redone; --force redoes all.
    func testFolderMirrorsTreeAndResumes() throws {
        let folder = try TemporaryFolder()
        try makeClips(folder, ["in/a.mp4", "in/sub/b.mov", "in/sub/deep/c.mkv"])
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", folder.file("in/sub/still.png")])
        let out = folder.file("out"), results = folder.file("r.jsonl")
        let first = try facetrack(["batch", folder.file("in"), "--out", out, "--results", results, "--detector", "none", "--jobs", "2"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(tree(out), ["a.csv", "a.mp4", "sub/b.csv", "sub/b.mp4", "sub/deep/c.csv", "sub/deep/c.mp4",
                                   "sub/still.csv", "sub/still.png"])
        XCTAssertTrue(first.stderr.contains("4 files: 4 done, 0 skipped, 0 failed; 7 frames in "), first.stderr)
        let done = try records(results)
        XCTAssertEqual(done.mapValues(\.status), ["a.mp4": "done", "b.mov": "done", "c.mkv": "done", "still.png": "done"])
        XCTAssertEqual(done["a.mp4"]?.frames, 2)
        XCTAssertEqual(try Tools.videoFrameTimes(folder.file("out/sub/b.mp4")).count, 2)

        // Each rerun gets its own results file (--results appends: one file would hold every run's records).
        let second = try facetrack(["batch", folder.file("in"), "--out", out, "--results", results + "2", "--detector", "none"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(Set(try records(results + "2").values.map(\.status)), ["skipped"])

        // Touch one input: only it is redone.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: folder.file("in/a.mp4"))
        _ = try facetrack(["batch", folder.file("in"), "--out", out, "--results", results + "3", "--detector", "none", "--quiet"])
        XCTAssertEqual(try records(results + "3").filter { $0.value.status == "done" }.map(\.key), ["a.mp4"])

        let forced = try facetrack(["batch", folder.file("in"), "--out", out, "--results", results + "4", "--detector", "none",
                                    "--force", "--outputs", "csv", "--quiet"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertEqual(forced.stderr, "", "--quiet prints nothing when all goes well")
        XCTAssertEqual(Set(try records(results + "4").values.map(\.status)), ["done"])
    }

    /// An empty folder is an error (exit 1), not a silent success.
    func testEmptyFolderFails() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        let result = try facetrack(["batch", folder.file("in"), "--out", folder.file("out")])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no input files found"), result.stderr)
    }

    /// Missing listed files and unreadable files are reported and recorded; the good ones are done; exit 1.
    func testListWithMissingAndBrokenFilesContinues() throws {
        let folder = try TemporaryFolder()
        try makeClips(folder, ["v/good.mp4", "v/also.mp4"])
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: folder.file("v/junk.mp4")))
        let good = try Data(contentsOf: URL(fileURLWithPath: folder.file("v/good.mp4")))
        try good.prefix(good.count / 3).write(to: URL(fileURLWithPath: folder.file("v/cut.mp4")))
        let list = folder.file("list.txt")
        try Data([folder.file("v/good.mp4"), folder.file("v/missing.mp4"), folder.file("v/junk.mp4"),
                  folder.file("v/cut.mp4"), folder.file("v/also.mp4"), folder.file("v/./good.mp4")]
            .joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: list))
        let results = folder.file("r.jsonl")
        let result = try facetrack(["batch", "--list", list, "--out", folder.file("out"), "--results", results,
                                    "--detector", "none", "--outputs", "csv"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let byName = try records(results)
        XCTAssertEqual(byName.count, 5, "the repeated path is taken once")
        XCTAssertEqual(byName["good.mp4"]?.status, "done")
        XCTAssertEqual(byName["also.mp4"]?.status, "done")
        XCTAssertEqual(byName["missing.mp4"]?.status, "failed")
        XCTAssertEqual(byName["junk.mp4"]?.status, "failed")
        XCTAssertTrue(byName["missing.mp4"]?.error?.contains("no such file") ?? false)
        XCTAssertTrue(result.stderr.contains("failed: \(folder.file("v/junk.mp4"))") || result.stderr.contains("junk.mp4"), result.stderr)
        XCTAssertTrue(result.stderr.contains("1 repeated inputs taken once"), result.stderr)
        // A file cut short either fails or is done with a warning; never a crash.
        XCTAssertNotNil(byName["cut.mp4"])
        XCTAssertFalse(tree(folder.file("out")).contains { $0.hasPrefix(".") || $0.contains("/.") }, "no temporary or lock files left")
    }

    /// Bad command lines are usage errors (exit 2) before anything runs.
    func testUsageErrors() throws {
        let folder = try TemporaryFolder()
        try makeClips(folder, ["a.mp4"])
        let base = ["batch", folder.file("a.mp4"), "--out", folder.file("out")]
        for extra in [["--shard", "3/2"], ["--shard", "x"], ["--shard", "2/2"], ["--shard", "auto"], ["--outputs", "gif"],
                      ["--jobs", "0"], ["-o", "x.mp4"], ["--csv", "x.csv"], ["--landmarks", "x.csv"],
                      ["--detector", "nonsense"], ["--attributes", "frown"], ["--bogus"]] {
            let result = try facetrack(base + extra)
            XCTAssertEqual(result.status, 2, "\(extra): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("facetrack: error: "), result.stderr)
        }
        XCTAssertEqual(try facetrack(["batch", "--out", folder.file("out")]).status, 2)
        let same = try facetrack(["batch", folder.path, "--out", folder.path + "/."])
        XCTAssertEqual(same.status, 2)
        XCTAssertTrue(same.stderr.contains("is an input folder"), same.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("out/a.csv")))
    }

    /// Every `process` option passes to each file, attributes included (they were once refused).
    func testProcessOptionsPassToEachFile() throws {
        let folder = try TemporaryFolder()
        try makeClips(folder, ["a.mp4"])
        let out = folder.file("out")
        let result = try facetrack(["batch", folder.file("a.mp4"), "--out", out, "--outputs", "csv,landmarks", "--detector",
                                    "none", "--attributes", "smile,angle", "--max-age", "5", "--overlay", "all", "--crf", "30",
                                    "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(tree(out), ["a.csv", "a.landmarks.csv"])
        let help = try facetrack(["batch", "--help"])
        for option in ["--attributes", "--min-hits", "--anonymize", "--input-size", "--codec"] {
            XCTAssertTrue(help.stdout.contains(option), "batch help lists \(option)")
        }
    }

    /// Two shards cover every input exactly once; merge-results combines them.
    func testShardsSplitAndMerge() throws {
        let folder = try TemporaryFolder()
        let names = ["a.mp4", "b.mp4", "c.mp4", "d.mp4", "e.mp4"]
        try makeClips(folder, names.map { "in/" + $0 })
        var seen: [String] = []
        for index in 0..<2 {
            let results = folder.file("shard-\(index).jsonl")
            let result = try facetrack(["batch", folder.file("in"), "--out", folder.file("out"), "--shard", "\(index)/2",
                                        "--results", results, "--detector", "none", "--outputs", "csv"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains("shard \(index)/2: \(index == 0 ? 3 : 2) of 5 inputs"), result.stderr)
            seen += try records(results).keys
        }
        XCTAssertEqual(seen.sorted(), names)
        // The same split every time (sorted list, round-robin).
        XCTAssertEqual(Set(try records(folder.file("shard-1.jsonl")).keys), ["b.mp4", "d.mp4"])

        let merged = folder.file("merged.jsonl")
        let text = try facetrack(["merge-results", folder.file("shard-0.jsonl"), folder.file("shard-1.jsonl"), "-o", merged])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("5 files: 5 done, 0 skipped, 0 failed\n10 frames"), text.stdout)
        XCTAssertEqual(try records(merged).count, 5)
        let json = try facetrack(["merge-results", "--json", folder.file("shard-0.jsonl"), folder.file("shard-1.jsonl")])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["done"] as? Int, 5)
        XCTAssertEqual(object["frames"] as? Int, 10)
        XCTAssertEqual(try facetrack(["merge-results", folder.file("none.jsonl")]).status, 1)
    }

    /// An output folder inside the input folder is left out of the scan, so reruns do not grow.
    func testOutputFolderInsideInputIsNotScanned() throws {
        let folder = try TemporaryFolder()
        try makeClips(folder, ["in/a.mp4"])
        for _ in 0..<2 {
            let result = try facetrack(["batch", folder.file("in"), "--out", folder.file("in/faces"), "--detector", "none"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains("1 files:"), result.stderr)
        }
        XCTAssertEqual(tree(folder.file("in")), ["a.mp4", "faces/a.csv", "faces/a.mp4"])
    }

    /// A live lock makes that input fail (named), a stale one is taken over; two batches at once on
    /// one output folder each leave complete outputs and no temporary files.
    func testLocksAndConcurrentBatches() throws {
        let folder = try TemporaryFolder()
        let names = ["a.mp4", "b.mp4", "c.mp4", "d.mp4"]
        try makeClips(folder, names.map { "in/" + $0 })
        let out = folder.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let host = try Tools.run("hostname", []).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try Data("\(getpid()) \(host)\n".utf8).write(to: URL(fileURLWithPath: folder.file("out/.a.lock")))
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        try Data("\(dead.processIdentifier) \(host)\n".utf8).write(to: URL(fileURLWithPath: folder.file("out/.b.lock")))
        let results = folder.file("r.jsonl")
        let locked = try facetrack(["batch", folder.file("in"), "--out", out, "--results", results, "--detector", "none",
                                    "--outputs", "csv"])
        XCTAssertEqual(locked.status, 1, locked.stderr)
        XCTAssertTrue(locked.stderr.contains("locked by pid \(getpid())"), locked.stderr)
        let byName = try records(results)
        XCTAssertEqual(byName["a.mp4"]?.status, "failed")
        XCTAssertEqual(byName["b.mp4"]?.status, "done", "the stale lock was taken over")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("out/.a.lock")), "a live lock is left alone")
        try FileManager.default.removeItem(atPath: folder.file("out/.a.lock"))

        // Two batches at the same time, redoing everything.
        let group = DispatchGroup()
        nonisolated(unsafe) var statuses: [Int32] = [0, 0]
        let input = folder.file("in")
        for index in 0..<2 {
            DispatchQueue.global().async(group: group) {
                statuses[index] = (try? Tools.run(Tools.facetrack, ["batch", input, "--out", out, "--force",
                                                                    "--detector", "none", "--jobs", "2", "--quiet"]))?.status ?? -1
            }
        }
        group.wait()
        XCTAssertTrue(statuses.allSatisfy { $0 == 0 || $0 == 1 }, "\(statuses)")
        XCTAssertEqual(tree(out), names.flatMap { name in ["csv", "mp4"].map { (name as NSString).deletingPathExtension + "." + $0 } }.sorted())
        for name in names {
            let stem = (name as NSString).deletingPathExtension
            XCTAssertEqual(try Tools.videoFrameTimes(folder.file("out/\(stem).mp4")).count, 2, "\(name) complete")
        }
    }

    /// Ctrl-C starts no new file, lets the running one finish, and exits 130 with complete outputs.
    func testInterruptStopsStartingFiles() throws {
        let folder = try TemporaryFolder()
        let names = (0..<10).map { "in/c\($0).mp4" }
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        for name in names {
            try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "1", "-c:v", "libx264",
                              "-preset", "ultrafast", "-pix_fmt", "yuv420p", folder.file(name)])
        }
        let results = folder.file("r.jsonl")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.facetrack)
        process.arguments = ["batch", folder.file("in"), "--out", folder.file("out"), "--results", results,
                             "--detector", "none", "--jobs", "1"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Interrupt once the first file is recorded (bounded wait).
        let deadline = Date(timeIntervalSinceNow: 20)
        while Date() < deadline, ((try? String(contentsOfFile: results, encoding: .utf8)) ?? "").isEmpty {
            usleep(5_000)
        }
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, stderr)
        XCTAssertTrue(stderr.contains("not started (interrupted)"), stderr)
        let finished = try records(results)
        XCTAssertGreaterThanOrEqual(finished.count, 1)
        XCTAssertLessThan(finished.count, names.count)
        XCTAssertEqual(Set(finished.values.map(\.status)), ["done"])
        for name in finished.keys {
            let stem = (name as NSString).deletingPathExtension
            XCTAssertEqual(try Tools.videoFrameTimes(folder.file("out/\(stem).mp4")).count, 25, "\(name) is complete")
        }
        XCTAssertEqual(tree(folder.file("out")).count, 2 * finished.count, "no partial outputs")
    }
}
