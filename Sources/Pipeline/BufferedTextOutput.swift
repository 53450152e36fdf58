import FaceCore
import Foundation

/// A text file (or standard output for "-") written through a 64 KiB buffer under a temporary
/// name, renamed into place by `finish()` and deleted if never finished: the CSV writers' file.
final class BufferedTextOutput: @unchecked Sendable {
    private let output: AtomicOutput?
    private let handle: FileHandle
    private var finished = false
    /// Text not yet written; writers append to it and call `flushIfFull()`.
    var buffer = ""

    /// Opens `path` (or standard output when `path` is "-") and buffers the CSV header row made of
    /// `columns` (after an `image` column when `includesImage`); one-line errors name the path.
    init(path: String, inputs: [String], columns: [String], includesImage: Bool) throws {
        if path == "-" {
            output = nil
            handle = FileHandle.standardOutput
        } else {
            let output = try AtomicOutput(path: path, inputs: inputs)
            guard FileManager.default.createFile(atPath: output.temporaryPath, contents: nil),
                  let handle = FileHandle(forWritingAtPath: output.temporaryPath) else {
                throw AtomicOutputError.unwritable(path, reason: "cannot create the file")
            }
            self.output = output
            self.handle = handle
        }
        buffer.reserveCapacity(1 << 16)
        buffer += ((includesImage ? ["image"] : []) + columns).joined(separator: ",") + "\n"
    }

    deinit {
        if !finished, let output {
            try? handle.close()
            output.discard()
        }
    }

    /// Writes the buffer once it holds 64 KiB or more.
    func flushIfFull() throws {
        if buffer.utf8.count >= 1 << 16 { try flush() }
    }

    /// Writes what is buffered, closes the file and renames it into place.
    func finish() throws {
        guard !finished else { return }
        try flush()
        if let output {
            try handle.close()
            try output.commit()
        }
        finished = true
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: Data(buffer.utf8))
        } catch {
            throw AtomicOutputError.unwritable(output?.finalPath ?? "standard output", reason: "\(error.localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
