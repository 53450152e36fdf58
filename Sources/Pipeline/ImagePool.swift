import FaceCore
import Foundation

/// Reuses BGRA images of one size so frames don't allocate picture memory. Thread-safe.
final class ImagePool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [BGRAImage] = []

    /// An image of the given size, reused when one is free (its old pixels are left in place).
    func acquire(width: Int, height: Int) -> BGRAImage {
        lock.lock()
        if let index = free.lastIndex(where: { $0.width == width && $0.height == height }) {
            let image = free.remove(at: index)
            lock.unlock()
            return image
        }
        lock.unlock()
        return BGRAImage(width: width, height: height)
    }

    /// Gives an image back for reuse.
    func release(_ image: BGRAImage) {
        lock.lock()
        free.append(image)
        lock.unlock()
    }
}
