import FaceCore
import MediaIO

/// Serial stage: encodes frames in order, copies audio packets, and writes the container
/// (`VideoWriter`). The stage lives on one queue (`QueueBound<EncodeStage>`); its methods run
/// there, one at a time. The render lanes take the writer's `framePool`, which has its own lock.
final class EncodeStage {
    private let state: RunState
    private let clock: StageClock
    private let next: FrameHandoff
    private let writer: VideoWriter

    init(writer: VideoWriter, state: RunState, clock: StageClock, next: @escaping FrameHandoff) {
        self.writer = writer
        self.state = state
        self.clock = clock
        self.next = next
    }

    func accept(_ job: FrameJob) {
        state.attempt { try encode(job) }
        next(job)
    }

    /// Copies an audio packet into the output, in reading order.
    func acceptAudio(_ packet: Packet) {
        state.attempt { try measured { try writer.copyAudio(packet) } }
    }

    /// Adds the audio packets skipped as damaged to `summary`.
    func summarize(into summary: inout ProcessingSummary) {
        summary.damagedPackets += writer.damagedAudioPackets
    }

    /// Deletes the unfinished output (the run failed).
    func discard() { writer.discard() }

    /// Flushes the encoder and closes the container under its final name.
    func finish() throws {
        try measured { try writer.finish() }
    }

    /// Encodes the job's picture with its source timestamp.
    private func encode(_ job: FrameJob) throws {
        try measured { try writer.write(job.output ?? job.frame, pts: job.pts) }
        if let output = job.output { writer.framePool.recycle(output) }
    }

    /// Runs `work`, its CPU time going to encode and the part spent in the muxer to mux.
    private func measured(_ work: () throws -> Void) rethrows {
        let start = CPUClock.threadSeconds(), muxedBefore = writer.muxSeconds
        defer {
            let muxing = writer.muxSeconds - muxedBefore
            clock.add(.encode, CPUClock.threadSeconds() - start - muxing)
            clock.add(.mux, muxing)
        }
        try work()
    }
}
