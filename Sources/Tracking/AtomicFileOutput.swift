import Foundation

/// A file written under a temporary name beside its target and renamed onto it by `finish()`, so
/// a reader never sees half a file and a failed run leaves any previous file intact. Bytes are
/// buffered and written in large blocks. If the output is dropped unfinished, the temporary file is removed.
final class AtomicFileOutput {
    /// The target path.
    let path: String
    /// The temporary path being written.
    let temporaryPath: String
    private var file: UnsafeMutablePointer<FILE>?
    private var buffer: [UInt8] = []
    private static let flushSize = 1 << 16

    /// Creates (truncates) the temporary file `.<name>.<pid>.tmp` in the target's directory.
    init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        temporaryPath = directory + "/." + url.lastPathComponent + ".\(getpid()).tmp"
        guard let handle = fopen(temporaryPath, "wb") else {
            throw TrackOutputError.cannotCreate(path: path, reason: Self.lastErrorMessage())
        }
        file = handle
        buffer.reserveCapacity(Self.flushSize + 1024)
    }

    deinit {
        if let file {
            fclose(file)
            unlink(temporaryPath)
        }
    }

    /// Appends text.
    func write(_ text: String) throws {
        guard file != nil else { throw TrackOutputError.alreadyFinished(path: path) }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Appends bytes.
    func write(_ data: Data) throws {
        guard file != nil else { throw TrackOutputError.alreadyFinished(path: path) }
        buffer.append(contentsOf: data)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Writes what is buffered, closes the file and renames it onto the target.
    func finish() throws {
        guard let handle = file else { throw TrackOutputError.alreadyFinished(path: path) }
        try flush()
        file = nil
        if fclose(handle) != 0 {
            let reason = Self.lastErrorMessage()
            unlink(temporaryPath)
            throw TrackOutputError.cannotWrite(path: path, reason: reason)
        }
        if rename(temporaryPath, path) != 0 {
            let reason = Self.lastErrorMessage()
            unlink(temporaryPath)
            throw TrackOutputError.cannotRename(path: path, reason: reason)
        }
    }

    private func flush() throws {
        guard let handle = file, !buffer.isEmpty else { return }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
        if written != buffer.count {
            throw TrackOutputError.cannotWrite(path: path, reason: Self.lastErrorMessage())
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private static func lastErrorMessage() -> String {
        String(cString: strerror(errno))
    }
}
