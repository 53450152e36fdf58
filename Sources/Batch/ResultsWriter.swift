import Foundation
import Synchronization

/// Writes `ResultRecord`s as JSON Lines as inputs finish (thread-safe). Each line is written at
/// once, so a run that is killed still leaves the records of the files it finished.
///
/// Records are appended: a resumed run keeps the records of the run before it (merge-results and
/// the index count each input once, done winning over skipped). A write that fails (a full disk)
/// throws; it never stops the program.
package final class ResultsWriter: Sendable {
    private let path: String
    private let handle: Mutex<FileHandle>

    /// Opens `path` for appending, creating it. An existing regular file must be empty or hold
    /// results records (its first line is one), so --results never grows some other file.
    package init(path: String) throws {
        self.path = path
        try ResultsWriter.checkExisting(path)
        // Not FileManager.createFile, which writes atomically on Linux (leaks a temporary folder).
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BatchError.results(path, reason: "cannot create the results file (\(String(cString: strerror(errno))))")
        }
        self.handle = Mutex(FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }

    /// Refuses an existing regular file whose first line is not a results record.
    static func checkExisting(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
              let reader = FileHandle(forReadingAtPath: path) else { return }
        defer { try? reader.close() }
        let head = (try? reader.read(upToCount: 1 << 16)) ?? Data()
        let first = head.split(separator: UInt8(ascii: "\n")).first { !$0.allSatisfy { $0 == 0x20 || $0 == 0x0D } }
        guard let first else { return }
        if (try? JSONDecoder().decode(ResultRecord.self, from: Data(first))) == nil {
            throw BatchError.results(path, reason: "exists and is not a results file (its first line is not a record); "
                                         + "choose another --results")
        }
    }

    /// Appends one record; throws when the line cannot be written.
    package func append(_ record: ResultRecord) throws {
        let line = Data((record.jsonLine() + "\n").utf8)
        do {
            try handle.withLock { try $0.write(contentsOf: line) }
        } catch {
            let reason = (error as NSError).underlyingPOSIXReason ?? error.localizedDescription
            throw BatchError.results(path, reason: "cannot write the results file (\(reason))")
        }
    }

    /// Closes the file.
    package func close() {
        handle.withLock { try? $0.close() }
    }
}

extension NSError {
    /// strerror's text of the POSIX error under a Foundation error, if any ("No space left on device").
    var underlyingPOSIXReason: String? {
        if domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(code))) }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.underlyingPOSIXReason
    }
}
