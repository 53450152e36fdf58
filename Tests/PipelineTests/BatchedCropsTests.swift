import FaceCore
import Foundation
import MediaIO
@testable import Pipeline
import Synchronization
import TestSupport
import XCTest

/// Wraps a detector, logs how many pictures each call got, and hands several pictures on either
/// together (`batches`) or one at a time.
private final class CallLoggingDetector: FaceDetector {
    let inner: FaceDetector
    let batches: Bool
    let log: CallLog
    var name: String { inner.name }

    init(_ inner: FaceDetector, batches: Bool, log: CallLog) {
        self.inner = inner
        self.batches = batches
        self.log = log
    }

    func detect(in image: BGRAImage) throws -> [FaceObservation] {
        log.calls.withLock { $0.append(1) }
        return try inner.detect(in: image)
    }

    func detect(in images: [BGRAImage]) throws -> [[FaceObservation]] {
        log.calls.withLock { $0.append(images.count) }
        return batches ? try inner.detect(in: images) : try images.map { try inner.detect(in: $0) }
    }
}

/// The pictures per detector call, from every lane.
private final class CallLog: Sendable {
    let calls = Mutex<[Int]>([])
}

/// An output that keeps every row written.
private final class KeptRows: FrameOutput {
    var rows: [String] = []
    func write(frame: Int, time: Double, faces: [TrackedFace]) throws {
        for face in faces {
            let b = face.observation.bounds
            rows.append("\(frame) \(face.trackID ?? -1) \(b.x) \(b.y) \(b.width) \(b.height) \(face.observation.confidence)")
        }
    }
    func finish() throws {}
}

/// A frame's crops go to the detector in one call (CenterFace runs them as one batch: its weights
/// read once per frame), and the run's faces are exactly those of one crop at a time.
final class BatchedCropsTests: XCTestCase {
    private var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    private func run(batches: Bool) throws -> (rows: [String], calls: [Int], summary: ProcessingSummary) {
        _ = try InstalledModels.path("centerface.onnx")  // a clear error without the models
        let clip = repository + "/samples/crossing.mp4"
        let job = FaceTrackJob(input: clip, threads: 2)
        let rows = KeptRows(), log = CallLog()
        var builder = PipelineBuilder(job: job, input: try VideoReader(path: clip, threads: 2), outputs: [rows])
        let make = builder.makeDetector
        builder.makeDetector = { try make().map { CallLoggingDetector($0, batches: batches, log: log) } }
        var pipeline = try builder.build()
        let summary = try pipeline.run().summary
        return (rows.rows, log.calls.withLock { $0 }, summary)
    }

    func testAFramesCropsRunAsOneCallWithTheFacesOfOneAtATime() throws {
        setenv(ModelLocator.environmentVariable, try (InstalledModels.path("centerface.onnx") as NSString).deletingLastPathComponent, 0)
        let together = try run(batches: true)
        let alone = try run(batches: false)
        let crops = together.summary.detectionPasses.crops
        XCTAssertGreaterThan(crops, 50, "crossing's two faces are followed by crops")
        // Both faces are tracked on most frames: their two crops go in one call, and every crop
        // went in a call of two or more (a frame with one crop calls with one picture).
        let grouped = together.calls.filter { $0 > 1 }
        XCTAssertGreaterThan(grouped.count, crops / 4, "\(together.calls)")
        XCTAssertLessThanOrEqual(grouped.reduce(0, +), crops)
        XCTAssertEqual(together.rows, alone.rows, "a batch finds what each crop finds alone")
        XCTAssertEqual(together.summary.detectionPasses, alone.summary.detectionPasses)
        XCTAssertGreaterThan(together.rows.count, 150)
    }
}
