/// Why a model cannot be loaded or built. Each description is one line naming the model.
package enum NeuralRuntimeError: Error, CustomStringConvertible, Sendable {
    /// The file's contents are not the model expected (wrong size or checksum).
    case unreadable(path: String, reason: String)
    /// The file cannot be opened or read at all (too many open files, an I/O error): not its fault.
    case cannotOpen(path: String, reason: String)
    /// The bytes are not a valid model of the expected format.
    case malformed(model: String, reason: String)
    /// The model uses an operator this runtime does not implement (`format` is e.g. "TFLite").
    case unsupportedOperator(model: String, format: String, name: String)
    /// The model is well-formed but uses a feature (type, option, shape) this runtime lacks.
    case unsupported(model: String, reason: String)
    /// Tensor shapes do not fit an operation.
    case invalidGraph(model: String, reason: String)
    /// The memory for a network's buffers cannot be had.
    case outOfMemory(bytes: Int)

    /// The reason, when the file could not be read at all (not a damaged model).
    package var unreadableReason: String? {
        if case let .cannotOpen(_, reason) = self { return reason }
        return nil
    }

    /// One line for the user.
    package var description: String {
        switch self {
        case let .unreadable(path, reason), let .cannotOpen(path, reason):
            return "cannot read model file \(path): \(reason)"
        case let .malformed(model, reason):
            return "model \(model) is not a valid model file: \(reason)"
        case let .unsupportedOperator(model, format, name):
            return "unsupported \(format) operator \(name) in model \(model)"
        case let .unsupported(model, reason):
            return "model \(model) uses an unsupported feature: \(reason)"
        case let .invalidGraph(model, reason):
            return "model \(model) has an invalid graph: \(reason)"
        case let .outOfMemory(bytes):
            let size = bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes) bytes"
            return "out of memory: cannot allocate \(size) for a network's tensors; free memory or raise the limit (ulimit -v)"
        }
    }
}

/// Where a network's allocation failures go when they cannot be thrown (weight buffers packed in
/// kernel initialisers).
package enum NeuralMemory {
    /// Sets what a failed allocation does with its one-line message (it must not return).
    package static func onFailure(_ handler: @escaping @Sendable (String) -> Never) {
        FloatStorage.outOfMemory.withLock { $0 = handler }
    }
}
