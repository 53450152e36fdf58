import Foundation
import Synchronization

/// Writes `ResultRecord`s as JSON Lines as inputs finish (thread-safe). Each line is written and
/// flushed at once, so a run that is killed still leaves the records of the files it finished.
package final class ResultsWriter: Sendable {
    private let handle: Mutex<FileHandle>

    /// Creates (or truncates) `path`.
    package init(path: String) throws {
        // Not FileManager.createFile, which writes atomically on Linux (leaks a temporary folder).
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BatchError.results(path, reason: "cannot create the results file (\(String(cString: strerror(errno))))")
        }
        self.handle = Mutex(FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }

    /// Appends one record.
    package func append(_ record: ResultRecord) {
        let line = Data((record.jsonLine() + "\n").utf8)
        handle.withLock { $0.write(line) }
    }

    /// Closes the file.
    package func close() {
        handle.withLock { try? $0.close() }
    }
}
