import Foundation

/// Reads a whole input file (CSV, JSON, lists) with a reason a user can act on when it cannot:
/// "no such file", "is a directory, not a file", "permission denied", "too many open files", never
/// Foundation's "NSCocoaErrorDomain error 256". "-" is standard input; pipes are read to their end.
package enum FileBytes {
    /// The file's bytes.
    package static func read(_ path: String) throws -> Data {
        let descriptor = path == "-" ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(path: path, reason: reason(errno, path: path)) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw FileReadError(path: path, reason: "is a directory, not a file")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { Int32($0.code) } ?? EIO
            throw FileReadError(path: path, reason: reason(code, path: path))
        }
    }

    /// The words for a failed open or read.
    package static func reason(_ code: Int32, path: String) -> String {
        switch code {
        case ENOENT, ENOTDIR: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "is a directory, not a file"
        case EMFILE, ENFILE: return "too many open files: raise the limit (ulimit -n) or run fewer jobs"
        default: return String(cString: strerror(code))
        }
    }
}

/// A file that cannot be read, with the reason in words.
package struct FileReadError: Error, CustomStringConvertible, Sendable {
    /// The path as given.
    package let path: String
    /// Why, in words.
    package let reason: String
    /// One line.
    package var description: String { "\(path == "-" ? "standard input" : path): \(reason)" }
}
