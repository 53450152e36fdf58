import Batch
import Foundation
import TestSupport
import XCTest

final class OutputTests: XCTestCase {
    func testLayoutMirrorsTreeAndSeparatesSameStems() {
        let inputs = [BatchInput(path: "/in/a/clip.mov", relativePath: "a/clip.mov"),
                      BatchInput(path: "/in/a/clip.mp4", relativePath: "a/clip.mp4"),
                      BatchInput(path: "/in/b/photo.JPG", relativePath: "b/photo.JPG"),
                      BatchInput(path: "/in/b/talk.mkv", relativePath: "b/talk.mkv")]
        let layout = OutputLayout(folder: "/out", kinds: [.video, .csv, .mot, .tracks], inputs: inputs)
        XCTAssertEqual(layout.paths(for: inputs[0]), ["/out/a/clip.mov.mp4", "/out/a/clip.mov.csv", "/out/a/clip.mov.mot.txt",
                                                      "/out/a/clip.mov.tracks.json"])
        XCTAssertEqual(layout.path(.csv, for: inputs[1]), "/out/a/clip.mp4.csv")
        XCTAssertEqual(layout.path(.video, for: inputs[2]), "/out/b/photo.jpg", "a still keeps its format")
        XCTAssertEqual(layout.paths(for: inputs[3]).prefix(2), ["/out/b/talk.mp4", "/out/b/talk.csv"])
        XCTAssertEqual(layout.lockPath(for: inputs[3]), "/out/b/.talk.lock")
        XCTAssertEqual(OutputLayout(folder: "/out", kinds: [.csv], inputs: inputs).paths(for: inputs[3]), ["/out/b/talk.csv"])
    }

    /// Every output of every kind is one input's (issue 27, item 6): clip.mov beside clip.mov.mp4,
    /// a.mp4 beside a.landmarks.mp4 (whose CSV would be a.mp4's landmarks), and a large folder.
    func testEveryOutputNameBelongsToOneInput() {
        let names = ["clip.mov", "clip.mp4", "clip.mov.mp4", "a.mp4", "a.landmarks.mp4", "b.report.mkv", "b.mp4", "c.mot.mp4", "c.avi"]
        var inputs = names.map { BatchInput(path: "/in/" + $0, relativePath: $0) }
        inputs += (0..<5000).map { BatchInput(path: "/in/many/\($0).mp4", relativePath: "many/\($0).mp4") }
        let started = Date()
        let layout = OutputLayout(folder: "/out", kinds: OutputKind.allCases, inputs: inputs)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "linear in the inputs")
        var owner: [String: String] = [:]
        for input in inputs {
            for path in layout.paths(for: input) {
                XCTAssertNil(owner[path], "\(path) is \(owner[path] ?? "")'s and \(input.relativePath)'s")
                owner[path] = input.relativePath
            }
        }
        XCTAssertEqual(layout.path(.csv, for: inputs[0]), "/out/clip.mov.csv")
        XCTAssertEqual(layout.path(.csv, for: inputs[2]), "/out/clip.mov.mp4.csv")
        XCTAssertEqual(layout.path(.csv, for: inputs[9]), "/out/many/0.csv", "names without a clash are unchanged")
    }

    func testOutputsAreUpToDateOnlyWhenAllExistAndAreNotOlder() throws {
        let folder = try TemporaryFolder()
        let input = BatchInput(path: folder.file("clip.mp4"), relativePath: "clip.mp4")
        let layout = OutputLayout(folder: folder.file("out"), kinds: [.video, .csv], inputs: [input])
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        let old = Date(timeIntervalSinceNow: -100), now = Date()
        try Data("v".utf8).write(to: URL(fileURLWithPath: input.path))
        XCTAssertFalse(layout.isUpToDate(input))
        for path in layout.paths(for: input) { try Data("o".utf8).write(to: URL(fileURLWithPath: path)) }
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: input.path)
        XCTAssertTrue(layout.isUpToDate(input))
        try FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: input.path)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: layout.path(.csv, for: input))
        XCTAssertFalse(layout.isUpToDate(input), "the input changed after the CSV was written")
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: input.path)
        try FileManager.default.removeItem(atPath: layout.path(.video, for: input))
        XCTAssertFalse(layout.isUpToDate(input), "one output missing")
        XCTAssertFalse(layout.isUpToDate(BatchInput(path: folder.file("gone.mp4"), relativePath: "gone.mp4")))
    }

    func testOutputKindLists() throws {
        XCTAssertEqual(try OutputKind.parseList("csv, video,csv"), [.csv, .video])
        XCTAssertThrowsError(try OutputKind.parseList("video,gif"))
        XCTAssertThrowsError(try OutputKind.parseList(","))
    }

    func testLockIsExclusiveAndReleased() throws {
        let folder = try TemporaryFolder()
        let path = folder.file(".clip.lock")
        let lock = try OutputLock(path: path)
        XCTAssertThrowsError(try OutputLock(path: path)) { error in
            guard case .locked(let locked, let owner)? = error as? BatchError else { return XCTFail("\(error)") }
            XCTAssertEqual(locked, path)
            XCTAssertTrue(owner.contains("pid \(getpid())"), owner)
        }
        lock.release()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        try OutputLock(path: path).release()
    }

    func testStaleLockOfDeadProcessIsTakenOverButForeignHostIsRespected() throws {
        let folder = try TemporaryFolder()
        let path = folder.file(".clip.lock")
        let hostname = try Tools.run("hostname", []).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(hostname.isEmpty)
        let exited = try deadPID()
        try Data("\(exited) \(hostname)\n".utf8).write(to: URL(fileURLWithPath: path))
        let lock = try OutputLock(path: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "\(getpid()) \(hostname)\n")
        lock.release()

        try Data("\(exited) some-other-node\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try OutputLock(path: path), "a dead PID on another host may be alive there")
        // A lock whose content is garbage (creator died before writing) is stale after a minute.
        try Data("".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try OutputLock(path: path))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: path)
        try OutputLock(path: path).release()
    }

    /// A PID that just exited (so no process has it).
    private func deadPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
