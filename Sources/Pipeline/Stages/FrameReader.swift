import FaceCore
import MediaIO

/// The first stage, on the caller's thread: takes the decoded frames from the `VideoReader` in
/// order and routes audio packets to the encoder.
struct FrameReader {
    private let reader: VideoReader

    init(reader: VideoReader) {
        self.reader = reader
    }

    /// Frames handed on so far.
    var frameCount: Int { reader.frameCount }

    /// Reads to the end of the input, or until the run is stopped or failed: every decoded frame
    /// goes to `frame` in order, every audio packet to `audio`. Returns a note when reading broke
    /// off early (the frames read so far are kept); throws when decoding fails. A stop still
    /// takes the frames the decoder holds; a failure does not.
    func read(_ state: RunState, audio: (Packet) -> Void, frame: (FrameJob) -> Void) throws -> String? {
        while !state.isFailed {
            if state.stopRequested { reader.stopReading() }
            guard let item = try state.clock.time(.decode, { try reader.next() }) else { break }
            switch item {
            case .frame(let decoded): frame(FrameJob(decoded))
            case .audio(let packet): audio(packet)
            }
        }
        return reader.readError
    }
}
