import Foundation

/// Reads a model file whole for a front-end, with the one-line error both readers give.
enum ModelFileBytes {
    /// The file's bytes and its name for error messages.
    static func read(_ path: String) throws -> (bytes: [UInt8], name: String) {
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw NeuralRuntimeError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        // A known model file must be the one scripts/setup installed (sha256).
        try ModelIntegrity.check(bytes, path: path)
        return (bytes, (path as NSString).lastPathComponent)
    }
}
