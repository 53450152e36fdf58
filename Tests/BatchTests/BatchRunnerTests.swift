import Batch
import Detection
import Foundation
import Pipeline
import Synchronization
import TestSupport
import XCTest

/// The worker pool without the binary: jobs from a template, outputs where the layout says, skips and failures.
final class BatchRunnerTests: XCTestCase {
    private func clip(_ folder: TemporaryFolder, _ name: String, frames: Int) throws -> BatchInput {
        let path = folder.file(name)
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-frames:v", "\(frames)",
                          "-pix_fmt", "yuv420p", path])
        return BatchInput(path: path, relativePath: name)
    }

    func testEachInputGetsTheTemplateWithItsOwnOutputs() throws {
        let folder = try TemporaryFolder()
        let inputs = [try clip(folder, "a.mp4", frames: 3), try clip(folder, "b.mkv", frames: 5),
                      BatchInput(path: folder.file("gone.mp4"), relativePath: "gone.mp4", exists: false)]
        let layout = OutputLayout(folder: folder.file("out"), kinds: [.csv, .tracks, .landmarks], inputs: inputs)
        var template = FaceTrackJob(input: "", detection: DetectionSettings(detector: .none), threads: 1)
        template.encoder.crf = 30
        let runner = BatchRunner(inputs: inputs, layout: layout, template: template)

        let job = runner.job(for: inputs[1])
        XCTAssertEqual(job.input, inputs[1].path)
        XCTAssertEqual(job.outputs, JobOutputs(csv: folder.file("out/b.csv"), tracksSummary: folder.file("out/b.tracks.json"),
                                               landmarks: folder.file("out/b.landmarks.csv")))
        XCTAssertEqual(job.encoder.crf, 30, "every other setting comes from the template")

        let seen = Mutex<[Int]>([])
        let records = runner.run(jobs: 2) { index, _ in seen.withLock { $0.append(index) } }
        XCTAssertEqual(records.map { $0?.status }, [.done, .done, .failed])
        XCTAssertEqual(records.map { $0?.frames }, [3, 5, 0])
        XCTAssertEqual(seen.withLock { $0.sorted() }, [0, 1, 2])
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("out/a.tracks.json")))

        let again = BatchRunner(inputs: Array(inputs.prefix(2)), layout: layout, template: template).run(jobs: 1)
        XCTAssertEqual(again.map { $0?.status }, [.skipped, .skipped], "outputs are up to date")
    }

    func testStopStartsNoNewInput() throws {
        let folder = try TemporaryFolder()
        let inputs = [try clip(folder, "a.mp4", frames: 2), try clip(folder, "b.mp4", frames: 2)]
        let layout = OutputLayout(folder: folder.file("out"), kinds: [.csv], inputs: inputs)
        let runner = BatchRunner(inputs: inputs, layout: layout,
                                 template: FaceTrackJob(input: "", detection: DetectionSettings(detector: .none), threads: 1))
        runner.requestStop()
        XCTAssertEqual(runner.run(jobs: 1).map { $0?.status }, [nil, nil])
        XCTAssertTrue(runner.stopped)
    }
}
