/// Why the CenterFace detector cannot run. Each description is one line.
package enum CenterFaceError: Error, CustomStringConvertible {
    /// `--input-size` outside 32...8192.
    case badInputSize(Int)
    /// The network could not be planned for a frame's size.
    case cannotPlan(width: Int, height: Int, reason: String)

    /// One line for the user.
    package var description: String {
        switch self {
        case let .badInputSize(size):
            return "centerface: --input-size \(size) is out of range (32...8192)"
        case let .cannotPlan(width, height, reason):
            return "centerface: cannot run at \(width)x\(height): \(reason)"
        }
    }
}
