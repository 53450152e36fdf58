import Identity
import Synchronization

/// What a segment of a split plan keeps of its identity work for `stitch`: the face embeddings by
/// published track ID (to tell whether a face that comes back in a later segment is one seen in an
/// earlier one), the calls on its `IdentityLedger` in order (replayed over the whole video), and
/// which tracker serial each written row came from. Filled on the tracking stage's queue, read
/// after the run.
package final class IdentityGalleries: IdentityRecording {
    private struct State {
        var galleries: [Int: TrackGallery] = [:]
        var events: [IdentityEvent] = []
        var runs: [IdentityRun] = []
        /// Published ID → its latest run in `runs`.
        var lastRun: [Int: Int] = [:]
    }

    private let state = Mutex(State())

    /// An empty collection.
    package init() {}

    /// Adds a sample of the face published as `id`.
    func add(_ sample: FaceSample, to id: Int) {
        state.withLock { $0.galleries[id, default: TrackGallery()].add(sample) }
    }

    /// Adds every sample of `gallery` to the face published as `id`.
    func add(_ gallery: TrackGallery, to id: Int) {
        state.withLock { $0.galleries[id, default: TrackGallery()].merge(gallery) }
    }

    package func record(_ event: IdentityEvent) {
        state.withLock { $0.events.append(event) }
    }

    package func recordRow(frame: Int, id: Int, serial: Int, publishedAt: Int) {
        state.withLock { state in
            let lag = publishedAt - frame
            if let at = state.lastRun[id], state.runs[at].serial == serial, state.runs[at].lag == lag {
                state.runs[at].last = frame
            } else {
                state.lastRun[id] = state.runs.count
                state.runs.append(IdentityRun(id: id, serial: serial, first: frame, last: frame, lag: lag))
            }
        }
    }

    /// The galleries by published track ID.
    package var byID: [Int: TrackGallery] { state.withLock { $0.galleries } }

    /// The ledger's calls, in order.
    package var events: [IdentityEvent] { state.withLock { $0.events } }

    /// The written rows' tracker serials, by published ID and frames.
    package var runs: [IdentityRun] { state.withLock { $0.runs } }
}

/// Rows written as track ID `id` on frames `first...last` came from tracker serial `serial`
/// (no other serial wrote that ID in between), each written `lag` frames after its own.
package struct IdentityRun: Codable, Sendable, Equatable {
    package var id: Int, serial: Int, first: Int, last: Int, lag: Int
}
