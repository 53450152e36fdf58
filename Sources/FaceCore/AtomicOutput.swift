import Foundation
import Synchronization

/// An output file written under a temporary name beside its final path and renamed into place
/// only when complete, so a failed run never leaves a half file that looks finished.
///
/// Edge cases: a symlink is written through to its target (the link stays, as `cp` does); a
/// character device or FIFO (`/dev/null`, a pipe) is written straight into, never renamed over;
/// the temporary name is kept within the file system's name limit (NAME_MAX) however long the
/// output's name; leftovers of killed runs (`.NAME.partial-PID` of a dead PID) are removed.
package struct AtomicOutput: Sendable {
    /// Where the file ends up, as the user named it.
    package let finalPath: String
    /// Where it is written meanwhile (same folder as the target, so the rename is atomic); the
    /// target itself when `writesInPlace`.
    package let temporaryPath: String
    /// The file that is finally replaced: `finalPath`, or the target of the symlink it names.
    package let targetPath: String
    /// True for non-regular files (character devices, FIFOs): written straight through, no rename.
    package let writesInPlace: Bool

    /// The longest file name most Linux file systems take (NAME_MAX).
    static let nameLimit = 255

    /// Checks that the output can be written and does not name an input, then picks the temporary name.
    /// Errors are one line naming the path.
    package init(path: String, inputs: [String] = []) throws {
        finalPath = path
        targetPath = AtomicOutput.followingLinks(path)
        for input in inputs where AtomicOutput.sameFile(input, path) {
            throw AtomicOutputError.isInput(path)
        }
        var info = stat()
        var inPlace = false
        if stat(targetPath, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw AtomicOutputError.unwritable(path, reason: "is a directory")
            case S_IFCHR, S_IFIFO: inPlace = true
            default: throw AtomicOutputError.unwritable(path, reason: "not a regular file, character device or FIFO")
            }
        }
        writesInPlace = inPlace
        let target = URL(fileURLWithPath: targetPath)
        let folder = target.deletingLastPathComponent().path
        if inPlace {
            temporaryPath = targetPath
            guard access(targetPath, W_OK) == 0 else { throw AtomicOutputError.unwritable(path, reason: "permission denied") }
            return
        }
        temporaryPath = (folder as NSString).appendingPathComponent(AtomicOutput.temporaryName(for: target.lastPathComponent, pid: getpid()))
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AtomicOutputError.unwritable(path, reason: "folder \(folder) does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw AtomicOutputError.unwritable(path, reason: "folder \(folder) is not writable")
        }
        if AtomicOutput.sweepsStaleFiles.load(ordering: .relaxed) {
            AtomicOutput.removeStale(in: folder, prefix: AtomicOutput.temporaryPrefix(for: target.lastPathComponent))
        }
        AtomicOutput.pending.withLock { _ = $0.insert(temporaryPath) }
        CrashCleanup.register(temporaryPath)
    }

    /// `.NAME.partial-PID`, with NAME shortened (never the output itself) so the whole stays
    /// within the name limit.
    static func temporaryName(for name: String, pid: Int32) -> String {
        temporaryPrefix(for: name) + "\(pid)"
    }

    /// `.NAME.partial-` with NAME cut (on a character boundary) so a PID of up to 10 digits fits.
    static func temporaryPrefix(for name: String) -> String {
        let room = nameLimit - ".".utf8.count - ".partial-".utf8.count - 10
        var kept = ""
        var used = 0
        for character in name {
            let size = String(character).utf8.count
            if used + size > room { break }
            kept.append(character)
            used += size
        }
        return ".\(kept).partial-"
    }

    /// The path with every symlink of its last component followed (a dangling link gives its
    /// target, so the link is never replaced by a file).
    package static func followingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = target.hasPrefix("/") ? target
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        return current
    }

    /// True when two paths name one existing file (through links, hard links or `..`).
    package static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        if stat(a, &sa) == 0, stat(b, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
        return canonical(a) == canonical(b)
    }

    /// An absolute path with links and `..` resolved as far as the file exists.
    package static func canonical(_ path: String) -> String {
        let url = URL(fileURLWithPath: followingLinks(path)).standardizedFileURL
        let folder = url.deletingLastPathComponent().resolvingSymlinksInPath()
        return folder.appendingPathComponent(url.lastPathComponent).path
    }

    /// Whether each new output lists its folder for stale temporary files of its own name. `batch`
    /// sweeps its whole output folder once instead and turns this off (thousands of outputs in one
    /// folder would list it thousands of times).
    package static let sweepsStaleFiles = Atomic<Bool>(true)

    /// Removes `PREFIXPID` files in `folder` whose PID is not a running process (runs killed
    /// with SIGKILL leave them).
    static func removeStale(in folder: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                unlink((folder as NSString).appendingPathComponent(name))
            }
        }
    }

    /// Removes every `.*.partial-PID` file of a dead process under `folder` (recursively);
    /// `batch` calls it on its output folder. Returns how many were removed.
    @discardableResult
    package static func removeStalePartials(under folder: String) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return 0 }
        var removed = 0
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard name.hasPrefix("."), let range = name.range(of: ".partial-", options: .backwards),
                  let pid = Int32(name[range.upperBound...]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH,
               unlink((folder as NSString).appendingPathComponent(relative)) == 0 {
                removed += 1
            }
        }
        return removed
    }

    /// Temporary files of this process not yet committed or discarded.
    private static let pending = Mutex<Set<String>>([])

    /// Deletes every temporary file this process has not finished: called on the way out after
    /// a failure or a signal, so nothing is left whatever still holds an output open.
    package static func discardAll() {
        let paths = pending.withLock { paths in
            defer { paths.removeAll() }
            return paths
        }
        for path in paths {
            unlink(path)
            CrashCleanup.unregister(path)
        }
    }

    /// Renames the finished temporary file to the final path (the symlink's target when it names one).
    package func commit() throws {
        guard !writesInPlace else { return }
        if rename(temporaryPath, targetPath) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw AtomicOutputError.unwritable(finalPath, reason: reason)
        }
        _ = AtomicOutput.pending.withLock { $0.remove(temporaryPath) }
        CrashCleanup.unregister(temporaryPath)
        _ = AtomicOutput.committed.withLock { $0.insert(targetPath) }
    }

    /// Files this process renamed into place (their targets), so a run that fails later removes
    /// what it wrote and never a file that was there before it.
    private static let committed = Mutex<Set<String>>([])

    /// Whether this process renamed a file into place at `target`; forgets it.
    package static func forgetCommitted(_ target: String) -> Bool {
        committed.withLock { $0.remove(target) != nil }
    }

    /// Deletes the temporary file, if any (never a file written in place).
    package func discard() {
        guard !writesInPlace else { return }
        unlink(temporaryPath)
        _ = AtomicOutput.pending.withLock { $0.remove(temporaryPath) }
        CrashCleanup.unregister(temporaryPath)
    }

    /// Writes `data` whole: to the temporary file, then renamed into place (Foundation's atomic
    /// writes leave `TemporaryDirectory.*` folders behind on Linux).
    package static func write(_ data: Data, to path: String, inputs: [String] = []) throws {
        let output = try AtomicOutput(path: path, inputs: inputs)
        let flags = output.writesInPlace ? O_WRONLY : O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        let descriptor = open(output.temporaryPath, flags, 0o644)
        guard descriptor >= 0 else { throw AtomicOutputError.unwritable(path, reason: FileBytes.reason(errno, path: path)) }
        var offset = 0
        let failure: String? = data.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
        let closed = close(descriptor) == 0 ? nil : String(cString: strerror(errno))
        if let reason = failure ?? closed {
            output.discard()
            throw AtomicOutputError.unwritable(path, reason: reason)
        }
        try output.commit()
    }
}

/// Why an output cannot be written.
public enum AtomicOutputError: Error, CustomStringConvertible, Sendable {
    /// The output names an input file.
    case isInput(String)
    /// The output or its folder cannot be written.
    case unwritable(String, reason: String)
    /// Two outputs of one run name the same file.
    case sameOutput(String, first: String, second: String)
    /// The output names a file the command reads besides its input (`role` says which, e.g. "a --known photo").
    case namesReadFile(String, role: String)

    /// One line for the user.
    public var description: String {
        switch self {
        case .isInput(let path): return "\(path): output path is the input file; choose another output name"
        case let .unwritable(path, reason): return "\(path): cannot write output (\(reason))"
        case let .sameOutput(path, first, second): return "\(path): \(first) and \(second) name the same file; choose different output names"
        case let .namesReadFile(path, role): return "\(path): output path is \(role), an input; choose another output name"
        }
    }
}
