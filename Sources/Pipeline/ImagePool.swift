import FaceCore
import Synchronization

/// Reuses BGRA images of one size so frames don't allocate picture memory. Thread-safe.
final class ImagePool: Sendable {
    private let free = Mutex<[BGRAImage]>([])

    /// An image of the given size, reused when one is free (its old pixels are left in place).
    func acquire(width: Int, height: Int) -> BGRAImage {
        let reused = free.withLock { free in
            free.lastIndex { $0.width == width && $0.height == height }.map { free.remove(at: $0) }
        }
        return reused ?? BGRAImage(width: width, height: height)
    }

    /// Gives an image back for reuse.
    func release(_ image: BGRAImage) {
        free.withLock { $0.append(image) }
    }
}
