import Identity
import Synchronization

/// The face embeddings a run computed, by published track ID: what a segment of a split plan
/// writes so that `stitch` can tell whether a face that comes back in a later segment is one seen
/// in an earlier one. Filled on the tracking stage's queue, read after the run.
package final class IdentityGalleries: Sendable {
    private let galleries = Mutex<[Int: TrackGallery]>([:])

    /// An empty collection.
    package init() {}

    /// Adds a sample of the face published as `id`.
    func add(_ sample: FaceSample, to id: Int) {
        galleries.withLock { $0[id, default: TrackGallery()].add(sample) }
    }

    /// Adds every sample of `gallery` to the face published as `id`.
    func add(_ gallery: TrackGallery, to id: Int) {
        galleries.withLock { $0[id, default: TrackGallery()].merge(gallery) }
    }

    /// The galleries by published track ID.
    package var byID: [Int: TrackGallery] { galleries.withLock { $0 } }
}
