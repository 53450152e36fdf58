/// One input file of a batch.
package struct BatchInput: Sendable, Equatable {
    /// The absolute path with symbolic links resolved (the key for sorting, sharding and dedupe).
    package let path: String
    /// Where its outputs go below the output folder: the path relative to the batch's root,
    /// e.g. `trip/day1/clip.mov`.
    package let relativePath: String
    /// False for a listed path that does not exist (it is reported as failed).
    package let exists: Bool

    /// Creates an input.
    package init(path: String, relativePath: String, exists: Bool = true) {
        self.path = path
        self.relativePath = relativePath
        self.exists = exists
    }
}
