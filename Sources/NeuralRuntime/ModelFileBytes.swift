import Foundation

/// Reads a model file whole for a front-end, with the one-line error both readers give.
enum ModelFileBytes {
    /// The file's bytes and its name for error messages.
    static func read(_ path: String) throws -> (bytes: [UInt8], name: String) {
        // open(2) first, so a failure says why (too many open files is not a damaged model).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw NeuralRuntimeError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readToEnd() ?? Data())
        } catch {
            throw NeuralRuntimeError.cannotOpen(path: path, reason: "read error (\((error as NSError).localizedDescription))")
        }
        // A known model file must be the one scripts/setup installed (sha256).
        try ModelIntegrity.check(bytes, path: path)
        return (bytes, (path as NSString).lastPathComponent)
    }
}
