/// Padding of one dimension, for `OperationKind.pad`.
public struct PadAmount: Sendable, Equatable {
    /// Elements added before.
    public var before: Int
    /// Elements added after.
    public var after: Int

    /// Creates a pad amount.
    public init(before: Int, after: Int) {
        self.before = before
        self.after = after
    }
}
