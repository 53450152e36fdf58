/// An activation applied to an operation's result.
package enum Activation: Sendable, Equatable {
    /// Identity.
    case none
    /// max(0, x).
    case relu
    /// min(max(0, x), 6).
    case relu6
    /// min(max(-1, x), 1).
    case reluMinus1To1
}
