/// Padding of one dimension, for `OperationKind.pad`.
package struct PadAmount: Sendable, Equatable {
    /// Elements added before.
    package var before: Int
    /// Elements added after.
    package var after: Int

    /// Creates a pad amount.
    package init(before: Int, after: Int) {
        self.before = before
        self.after = after
    }
}
