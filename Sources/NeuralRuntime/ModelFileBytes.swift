import Foundation

/// Opens a model file for a front-end, mapped, with the one-line error both readers give.
enum ModelFileBytes {
    /// The file's bytes and its name for error messages.
    static func read(_ path: String) throws -> (bytes: ModelBytes, name: String) {
        // open(2) first, so a failure says why (too many open files is not a damaged model).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw NeuralRuntimeError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        func readError(_ code: Int32) -> NeuralRuntimeError {
            .cannotOpen(path: path, reason: "read error (\(String(cString: strerror(code))))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw readError(errno) }
        // Only a regular file can be mapped (a directory or a pipe is not a model).
        guard info.st_mode & S_IFMT == S_IFREG else { throw readError(info.st_mode & S_IFMT == S_IFDIR ? EISDIR : EINVAL) }
        guard let bytes = ModelBytes(mapping: descriptor, size: Int(info.st_size)) else { throw readError(errno) }
        // A known model file must be the one scripts/setup installed (sha256).
        try ModelIntegrity.check(bytes, path: path)
        return (bytes, (path as NSString).lastPathComponent)
    }
}
