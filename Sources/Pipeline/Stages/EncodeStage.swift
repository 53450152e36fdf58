import FaceCore
import Foundation
import MediaIO
import Synchronization

/// Serial stage: encodes frames in order, copies audio packets, and writes the container
/// (`VideoWriter`). Everything but `framePool` runs on `queue`.
///
/// `@unchecked Sendable`: the writer is used on `queue` only; the frame pool has its own lock.
final class EncodeStage: FrameStage, @unchecked Sendable {
    /// The serial queue of the encoder and muxer.
    let queue = DispatchQueue(label: "facetrack.encode")
    private let state: RunState
    private let next: FrameStage
    private let writer: VideoWriter
    /// Writable frames in the encoder's format, for pictures that cannot go as decoded.
    var framePool: OutputFramePool { writer.framePool }
    /// Audio packets skipped because they were damaged (read after `finish()`).
    var damagedAudioPackets: Int { writer.damagedAudioPackets }

    init(path: String, input: String, encoderSettings: EncoderSettings, threads: Int, reader: VideoReader,
         state: RunState, next: FrameStage) throws {
        self.state = state
        self.next = next
        writer = try VideoWriter(path: path, inputs: [input], settings: encoderSettings, threads: threads, source: reader)
    }

    func accept(_ job: FrameJob) {
        queue.async { [self] in
            state.attempt { try encode(job) }
            next.accept(job)
        }
    }

    /// Copies an audio packet into the output, in reading order.
    func acceptCopied(_ packet: Packet) {
        queue.async { [self] in
            state.attempt { try measured { try writer.copyAudio(packet) } }
        }
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
            state.clock.add(.encode, CPUClock.threadSeconds() - start - muxing)
            state.clock.add(.mux, muxing)
        }
        try work()
    }

    /// Deletes the unfinished output (the run failed).
    func discard() { writer.discard() }

    /// Flushes the encoder and closes the container under its final name.
    func finish() throws {
        try measured { try writer.finish() }
    }
}
