import FaceCore
@testable import Pipeline
import TestSupport
import XCTest

final class TrackCSVWriterTests: XCTestCase {
    func testRowFormatAndEmptyFields() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("tracks.csv")
        let writer = try TrackCSVWriter(path: path)
        var face = FaceObservation(bounds: Rect(x: 10, y: 20.126, width: 30.5, height: 40), confidence: 0.87654)
        face.leftEye = Point(x: 15, y: 25)
        face.rightEye = Point(x: 35.556, y: 25)
        face.hasSmile = true
        face.roll = -0.001
        try writer.write(frame: 3, time: 0.1, faces: [TrackedFace(observation: face, trackID: 7, source: .predicted)])
        try writer.write(frame: 4, time: 0.2, faces: [TrackedFace(observation: face, trackID: nil)])
        var inShot = TrackedFace(observation: face, trackID: 7)
        inShot.shot = 2
        try writer.write(frame: 5, time: 0.3, faces: [inShot])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "renamed into place only by finish()")
        try writer.finish()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines[0].split(separator: ",").count, 21)
        XCTAssertTrue(lines[0].hasSuffix(",source,shot"), "the shot column last")
        XCTAssertEqual(lines[1], "3,0.100000,7,10.00,20.13,30.50,40.00,0.8765,15.00,25.00,35.56,25.00,,,1,,,0.00,,predicted,")
        XCTAssertEqual(lines[2], "4,0.200000,,10.00,20.13,30.50,40.00,0.8765,15.00,25.00,35.56,25.00,,,1,,,0.00,,detected,")
        XCTAssertEqual(lines[3], "5,0.300000,7,10.00,20.13,30.50,40.00,0.8765,15.00,25.00,35.56,25.00,,,1,,,0.00,,detected,2")
        XCTAssertEqual(lines[4], "")
        XCTAssertEqual(folder.contents(), ["tracks.csv"])
    }

    func testImageColumnIsQuotedWhenNeeded() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("faces.csv")
        let writer = try TrackCSVWriter(path: path, includesImage: true)
        let face = TrackedFace(observation: FaceObservation(bounds: Rect(x: 1, y: 2, width: 3, height: 4), confidence: 1), trackID: nil)
        try writer.write(frame: 0, time: 0, faces: [face], image: "a, \"b\".jpg")
        try writer.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("image,frame,time,"))
        XCTAssertTrue(text.contains("\n\"a, \"\"b\"\".jpg\",0,0.000000,,1.00,"), text)
    }

    func testUnfinishedWriterLeavesNothing() throws {
        let folder = try TemporaryFolder()
        do {
            let writer = try TrackCSVWriter(path: folder.file("x.csv"))
            try writer.write(frame: 0, time: 0, faces: [])
        }
        XCTAssertEqual(folder.contents(), [])
    }
}

final class ReordererTests: XCTestCase {
    func testEmitsInIndexOrderWhateverTheArrivalOrder() {
        let lock = NSLock()
        nonisolated(unsafe) var seen: [Int] = []
        let reorderer = Reorderer<Int> { value in lock.lock(); seen.append(value); lock.unlock() }
        DispatchQueue.concurrentPerform(iterations: 500) { i in
            let index = (i * 7919) % 500  // a permutation of 0..<500
            reorderer.submit(index, index: index)
        }
        XCTAssertEqual(seen, Array(0..<500))
    }
}
