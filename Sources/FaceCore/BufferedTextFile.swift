import Foundation

/// A text output (or standard output for "-") written through a 64 KiB buffer under a temporary
/// name, renamed into place by `finish()` and deleted if never finished. Every text output of
/// FaceTrack (tracks and landmark CSV, MOT files, track summaries) goes through it.
package final class BufferedTextFile {
    private let output: AtomicOutput?
    private let handle: FileHandle
    private var finished = false
    /// Text not yet written; writers may append to it directly and then call `flushIfFull()`.
    package var buffer = ""

    /// Opens `path` (or standard output when `path` is "-"), refusing a path that names one of
    /// `inputs` or an unwritable folder; one-line errors name the path.
    package init(path: String, inputs: [String] = []) throws {
        if path == "-" {
            output = nil
            handle = FileHandle.standardOutput
        } else {
            let output = try AtomicOutput(path: path, inputs: inputs)
            // Not FileManager.createFile: on Linux it writes atomically itself (a rename over a
            // device, a `TemporaryDirectory.*` folder left behind).
            let flags = output.writesInPlace ? O_WRONLY | O_CLOEXEC : O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
            let descriptor = open(output.temporaryPath, flags, 0o644)
            guard descriptor >= 0 else {
                throw AtomicOutputError.unwritable(path, reason: FileBytes.reason(errno, path: path))
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            self.output = output
            self.handle = handle
        }
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        if !finished, let output {
            try? handle.close()
            output.discard()
        }
    }

    /// The final path ("-" for standard output).
    package var path: String { output?.finalPath ?? "-" }

    /// Appends text, writing the buffer out when it is full.
    package func write(_ text: String) throws {
        buffer += text
        try flushIfFull()
    }

    /// Writes the buffer once it holds 64 KiB or more.
    package func flushIfFull() throws {
        if buffer.utf8.count >= 1 << 16 { try flush() }
    }

    /// Writes what is buffered, closes the file and renames it into place. A second call throws.
    package func finish() throws {
        guard !finished else { throw AtomicOutputError.unwritable(path, reason: "already finished") }
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
