import Foundation

/// An output file written under a temporary name beside its final path and renamed into place
/// only when complete, so a failed run never leaves a half file that looks finished.
package struct AtomicOutput: Sendable {
    /// Where the file ends up.
    package let finalPath: String
    /// Where it is written meanwhile (same folder, so the rename is atomic).
    package let temporaryPath: String

    /// Checks that the output can be written and does not name an input, then picks the temporary name.
    /// Errors are one line naming the path.
    package init(path: String, inputs: [String] = []) throws {
        let url = URL(fileURLWithPath: path)
        finalPath = path
        let folder = url.deletingLastPathComponent().path
        temporaryPath = (folder as NSString).appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())")
        let resolved = url.standardizedFileURL.resolvingSymlinksInPath().path
        for input in inputs {
            let inputURL = URL(fileURLWithPath: input).standardizedFileURL.resolvingSymlinksInPath()
            if inputURL.path == resolved || AtomicOutput.sameFile(input, path) {
                throw AtomicOutputError.isInput(path)
            }
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw AtomicOutputError.unwritable(path, reason: "is a directory")
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AtomicOutputError.unwritable(path, reason: "folder \(folder) does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw AtomicOutputError.unwritable(path, reason: "folder \(folder) is not writable")
        }
    }

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// Renames the finished temporary file to the final path.
    package func commit() throws {
        if rename(temporaryPath, finalPath) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw AtomicOutputError.unwritable(finalPath, reason: reason)
        }
    }

    /// Deletes the temporary file, if any.
    package func discard() {
        unlink(temporaryPath)
    }
}

/// Why an output cannot be written.
package enum AtomicOutputError: Error, CustomStringConvertible, Sendable {
    /// The output names an input file.
    case isInput(String)
    /// The output or its folder cannot be written.
    case unwritable(String, reason: String)

    /// One line for the user.
    package var description: String {
        switch self {
        case .isInput(let path): return "\(path): output path is the input file; choose another output name"
        case let .unwritable(path, reason): return "\(path): cannot write output (\(reason))"
        }
    }
}
