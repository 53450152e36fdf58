import FaceCore
import Synchronization

/// Reuses BGRA images of one size so frames don't allocate picture memory. Thread-safe.
final class ImagePool: Sendable {
    private let free = Mutex<[BGRAImage]>([])
    private let made = Mutex<(count: Int, bytes: Int)>((0, 0))

    /// Images made so far and their bytes: every picture the run held at once (`--stats`).
    var allocated: (count: Int, bytes: Int) { made.withLock { $0 } }

    /// An image of the given size, reused when one is free (its old pixels are left in place).
    func acquire(width: Int, height: Int) -> BGRAImage {
        let reused = free.withLock { free in
            free.lastIndex { $0.width == width && $0.height == height }.map { free.remove(at: $0) }
        }
        if let reused { return reused }
        made.withLock { made in
            made.count += 1
            made.bytes += width * height * 4
        }
        return BGRAImage(width: width, height: height)
    }

    /// Gives an image back for reuse.
    func release(_ image: BGRAImage) {
        free.withLock { $0.append(image) }
    }
}
