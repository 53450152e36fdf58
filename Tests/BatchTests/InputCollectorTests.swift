import Batch
import Foundation
import TestSupport
import XCTest

final class InputCollectorTests: XCTestCase {
    private func touch(_ path: String, _ text: String = "x") throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Recursive, by extension in any case; hidden entries, other extensions and the output folder skipped.
    func testScansFoldersRecursivelyByExtension() throws {
        let folder = try TemporaryFolder()
        let root = InputCollector.resolve(folder.path)
        for name in ["a.mp4", "b.MOV", "notes.txt", "sub/c.mkv", "sub/deeper/d.jpg", ".hidden.mp4", ".cache/e.mp4",
                     "out/a.mp4", "sub/.a.mp4.partial-12"] {
            try touch(folder.file(name))
        }
        let collection = try InputCollector(excluded: [folder.file("out")]).collect([folder.path])
        XCTAssertEqual(collection.inputs.map(\.relativePath), ["a.mp4", "b.MOV", "sub/c.mkv", "sub/deeper/d.jpg"])
        XCTAssertEqual(collection.inputs.first?.path, root + "/a.mp4")
        XCTAssertEqual(collection.root, root)
        XCTAssertTrue(collection.inputs.allSatisfy(\.exists))
    }

    func testEmptyFolderGivesNoInputs() throws {
        let folder = try TemporaryFolder()
        try touch(folder.file("readme.txt"))
        XCTAssertEqual(try InputCollector().collect([folder.path]).inputs, [])
    }

    /// The same file through a link, a list and a folder is taken once; missing listed files stay, marked.
    func testDeduplicatesByRealPathAndKeepsMissingFiles() throws {
        let folder = try TemporaryFolder()
        try touch(folder.file("v/a.mp4"))
        try touch(folder.file("v/b.mp4"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("v/link.mp4"), withDestinationPath: "a.mp4")
        let list = folder.file("list.txt")
        try touch(list, "# inputs\n\(folder.file("v/a.mp4"))\n\n  \(folder.file("v/../v/b.mp4"))  \n\(folder.file("v/gone.mp4"))\n")
        let collection = try InputCollector().collect([folder.file("v"), folder.file("v/a.mp4")], listFiles: [list])
        XCTAssertEqual(collection.inputs.map(\.relativePath), ["a.mp4", "b.mp4", "gone.mp4"])
        XCTAssertEqual(collection.inputs.map(\.exists), [true, true, false])
        XCTAssertEqual(collection.duplicates, 4)
    }

    func testExpandsGlobPatterns() throws {
        let folder = try TemporaryFolder()
        for name in ["x1.mov", "x2.mov", "y.mov", "x3.mp4"] { try touch(folder.file(name)) }
        let collection = try InputCollector().collect([folder.file("x*.mov")])
        XCTAssertEqual(collection.inputs.map(\.relativePath), ["x1.mov", "x2.mov"])
        let none = try InputCollector().collect([folder.file("z*.mov")])
        XCTAssertEqual(none.inputs.map(\.exists), [false], "a pattern matching nothing is reported, not dropped")
    }

    /// Outputs mirror the tree from the deepest folder holding every input.
    func testRelativePathsStartAtTheCommonFolder() throws {
        let folder = try TemporaryFolder()
        try touch(folder.file("trip/day1/a.mp4"))
        try touch(folder.file("trip/day2/b.mp4"))
        let collection = try InputCollector().collect([folder.file("trip/day1/a.mp4"), folder.file("trip/day2")])
        XCTAssertEqual(collection.inputs.map(\.relativePath), ["day1/a.mp4", "day2/b.mp4"])
    }

    func testUnreadableListIsAnError() throws {
        let folder = try TemporaryFolder()
        XCTAssertThrowsError(try InputCollector().collect([], listFiles: [folder.file("none.txt")])) { error in
            XCTAssertEqual(error as? BatchError, .unreadableList(folder.file("none.txt"), reason: "no such file"))
        }
    }
}
