import Foundation

/// A lock file created with O_CREAT|O_EXCL that holds "PID HOST"; it guards one input's outputs
/// while a batch writes them, so two batches sharing an output folder never write the same file.
///
/// A lock left by a process that died is stale and taken over: on this host when its PID no
/// longer exists, and from any host when its content is unreadable and it is older than a minute
/// (a creator that died between create and write). A live lock of another host (shared file
/// systems on a cluster) is always respected.
package final class OutputLock: Sendable {
    /// The lock file.
    package let path: String
    private let content: String

    /// Takes the lock or throws `BatchError.locked` naming its owner.
    package init(path: String) throws {
        self.path = path
        content = "\(getpid()) \(OutputLock.hostName)\n"
        for attempt in 0..<2 {
            let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
            if descriptor >= 0 {
                let bytes = Array(content.utf8)
                let written = write(descriptor, bytes, bytes.count)
                close(descriptor)
                guard written == bytes.count else {
                    unlink(path)
                    throw BatchError.lockFailed(path, reason: "short write")
                }
                return
            }
            guard errno == EEXIST else { throw BatchError.lockFailed(path, reason: String(cString: strerror(errno))) }
            let owner = OutputLock.owner(of: path)
            guard attempt == 0, OutputLock.isStale(path, owner: owner) else {
                throw BatchError.locked(path, owner: owner.map { "pid \($0.pid) on \($0.host)" } ?? "an unknown process")
            }
            unlink(path)
        }
        throw BatchError.locked(path, owner: "a process that keeps recreating it")
    }

    /// Removes the lock if it is still ours.
    package func release() {
        if (try? String(contentsOfFile: path, encoding: .utf8)) == content { unlink(path) }
    }

    /// The PID and host a lock file names, nil when it holds anything else.
    static func owner(of path: String) -> (pid: Int32, host: String)? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0 else { return nil }
        return (pid, String(parts[1]))
    }

    /// Whether a lock's owner is certainly gone.
    static func isStale(_ path: String, owner: (pid: Int32, host: String)?) -> Bool {
        guard let owner else {
            var info = stat()
            guard stat(path, &info) == 0 else { return true }
            return Date().timeIntervalSince1970 - Double(info.st_mtim.tv_sec) > 60
        }
        guard owner.host == hostName else { return false }
        return kill(owner.pid, 0) != 0 && errno == ESRCH
    }

    /// This machine's name.
    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }()
}
