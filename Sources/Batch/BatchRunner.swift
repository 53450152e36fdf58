import Foundation
import Pipeline
import Synchronization

/// Runs a job template over many inputs on a pool of worker threads, in input order: each input
/// is skipped when its outputs are up to date, locked, processed and recorded.
///
/// Workers are threads, not Dispatch work items: each blocks in its job until the file is done,
/// and the jobs' own stages need the Dispatch pool's threads meanwhile.
package final class BatchRunner: Sendable {
    /// Called as each input finishes (from its worker thread), with the input's position.
    package typealias Finished = @Sendable (_ index: Int, _ record: ResultRecord) -> Void

    private let inputs: [BatchInput]
    private let layout: OutputLayout
    private let template: FaceTrackJob
    private let force: Bool
    private let stop = StopSignal()
    private let state = Mutex<(next: Int, records: [ResultRecord?])>((0, []))

    /// A runner for `inputs` (a shard's), writing where `layout` says, each input with `template`'s
    /// settings. `force` redoes inputs whose outputs are up to date.
    package init(inputs: [BatchInput], layout: OutputLayout, template: FaceTrackJob, force: Bool = false) {
        self.inputs = inputs
        self.layout = layout
        self.template = template
        self.force = force
        state.withLock { $0.records = Array(repeating: nil, count: inputs.count) }
    }

    /// No new input is started after this; the ones in progress finish. Thread-safe.
    package func requestStop() { stop.stop() }

    /// True after `requestStop()`.
    package var stopped: Bool { stop.isStopped }

    /// Processes every input on `jobs` threads and returns the records in input order
    /// (`nil`: not started because of a stop request).
    package func run(jobs: Int, finished: Finished? = nil) -> [ResultRecord?] {
        let group = DispatchGroup()
        for _ in 0..<min(max(1, jobs), max(1, inputs.count)) {
            group.enter()
            let thread = Thread { [self] in
                while let index = take() {
                    let record = process(inputs[index])
                    state.withLock { $0.records[index] = record }
                    finished?(index, record)
                }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        return state.withLock { $0.records }
    }

    private func take() -> Int? {
        state.withLock { state in
            guard !stop.isStopped, state.next < inputs.count else { return nil }
            state.next += 1
            return state.next - 1
        }
    }

    /// The job for one input: the template with this input and its outputs.
    package func job(for input: BatchInput) -> FaceTrackJob {
        var job = template
        job.input = input.path
        for kind in layout.kinds {
            let path = layout.path(kind, for: input)
            switch kind {
            case .video: job.outputs.video = path
            case .csv: job.outputs.csv = path
            case .mot: job.outputs.mot = path
            case .tracks: job.outputs.tracksSummary = path
            case .landmarks: job.outputs.landmarks = path
            case .report: job.outputs.report = path
            }
        }
        return job
    }

    /// One input: skip, lock, process, unlock.
    private func process(_ input: BatchInput) -> ResultRecord {
        guard input.exists else { return ResultRecord(path: input.path, status: .failed, error: "\(input.path): no such file") }
        if !force && layout.isUpToDate(input) { return ResultRecord(path: input.path, status: .skipped) }
        let started = Date()
        do {
            let folder = (layout.path(.csv, for: input) as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let lock = try OutputLock(path: layout.lockPath(for: input))
            defer { lock.release() }
            // Another batch may have finished it while we waited for the lock.
            if !force && layout.isUpToDate(input) { return ResultRecord(path: input.path, status: .skipped) }
            let summary = try job(for: input).run()
            // The last frame's time plus one frame's length.
            let duration = summary.lastTime.map { summary.frames > 1 ? $0 * Double(summary.frames) / Double(summary.frames - 1) : $0 }
            var record = ResultRecord(path: input.path, status: .done, frames: summary.frames, faces: summary.faces,
                                      tracks: summary.tracks, seconds: Date().timeIntervalSince(started), error: summary.readError,
                                      duration: duration, report: layout.kinds.contains(.report) ? layout.path(.report, for: input) : nil)
            record.stats = summary.statistics
            return record
        } catch {
            return ResultRecord(path: input.path, status: .failed, seconds: Date().timeIntervalSince(started), error: "\(error)")
        }
    }
}
