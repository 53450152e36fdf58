import Foundation

/// Reads a model file whole for a front-end, with the one-line error both readers give.
enum ModelFileBytes {
    /// The file's bytes and its name for error messages.
    static func read(_ path: String) throws -> (bytes: [UInt8], name: String) {
        do {
            return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), (path as NSString).lastPathComponent)
        } catch {
            throw NeuralRuntimeError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }
}
