import Foundation
import Synchronization
import XCTest

/// Runs external programs (ffmpeg, ffprobe, the built facetrack) for tests.
public enum Tools {
    /// What a finished program did.
    public struct Result: Sendable {
        /// Exit status.
        public var status: Int32
        /// Standard output as text.
        public var stdout: String
        /// Standard error as text.
        public var stderr: String
    }

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments` and waits for it.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           directory: String? = nil) throws -> Result {
        let process = Process()
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the program runs so a full pipe cannot block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs ffmpeg quietly and throws when it fails.
    public static func ffmpeg(_ arguments: [String]) throws {
        let result = try run("ffmpeg", ["-v", "error", "-y"] + arguments)
        if result.status != 0 { throw ToolError(message: "ffmpeg \(arguments.joined(separator: " ")): \(result.stderr)") }
    }

    /// Runs ffprobe and returns its standard output.
    public static func ffprobe(_ arguments: [String]) throws -> String {
        let result = try run("ffprobe", ["-v", "error"] + arguments)
        if result.status != 0 { throw ToolError(message: "ffprobe \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }

    /// The presentation timestamps (seconds) of a file's first video stream, in order.
    public static func videoFrameTimes(_ path: String) throws -> [Double] {
        try ffprobe(["-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path])
            .split(separator: "\n").compactMap { line in line.split(separator: ",").first.flatMap { Double($0) } }
    }

    /// How many packets each stream of a file has, by codec type ("video", "audio").
    public static func packetCount(_ path: String, stream: String) throws -> Int {
        try ffprobe(["-select_streams", stream, "-show_entries", "packet=pts", "-of", "csv=p=0", path])
            .split(separator: "\n").count
    }

    /// The built `facetrack` executable, next to the test bundle (`FACETRACK_BINARY` names another
    /// build, e.g. the base commit's, to see a new test fail there).
    public static var facetrack: String {
        if let other = ProcessInfo.processInfo.environment["FACETRACK_BINARY"], !other.isEmpty { return other }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("facetrack").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return bundle.appendingPathComponent("facetrack").path
    }
}

/// A failed helper program.
public struct ToolError: Error, CustomStringConvertible {
    /// What failed.
    public let message: String
    /// The message.
    public var description: String { message }
}

/// A fresh folder under the system's temporary folder, deleted with the object or, at the latest,
/// when the test that made it ends (XCTest keeps every test case object, and so a folder held as a
/// property, until the whole run is over).
public final class TemporaryFolder {
    /// The folder's path.
    public let path: String

    /// Creates the folder.
    public init() throws {
        path = NSTemporaryDirectory() + "facetrack-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        TemporaryFolderSweeper.shared.track(path)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the folder.
    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Names of the files in the folder, hidden ones included, sorted.
    public func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

/// Small media files made with ffmpeg for tests.
public enum Clips {
    /// A test-pattern clip with a sine tone: `seconds` long, `size` WxH, `rate` fps, H.264 + AAC.
    public static func pattern(_ path: String, seconds: Double = 1, size: String = "320x240", rate: Int = 25,
                               extra: [String] = []) throws {
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-f", "lavfi", "-i",
                          "sine=frequency=440:sample_rate=44100", "-t", String(seconds), "-c:v", "libx264",
                          "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"] + extra + [path])
    }

    /// Adds an EXIF orientation tag (1-8) to a JPEG file, as a camera would.
    public static func addEXIFOrientation(_ orientation: UInt16, toJPEG path: String) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        var tiff = Data([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1])  // big-endian header, one IFD entry
        tiff += Data([0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0])
        tiff += Data([0, 0, 0, 0])
        let body = Data("Exif".utf8) + Data([0, 0]) + tiff
        let length = body.count + 2
        let segment = Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]) + body
        data.insert(contentsOf: segment, at: 2)
        try data.write(to: URL(fileURLWithPath: path))
    }
}

/// Removes the temporary folders of a test when it ends (and any left when the run ends).
final class TemporaryFolderSweeper: NSObject, XCTestObservation, Sendable {
    static let shared: TemporaryFolderSweeper = {
        let sweeper = TemporaryFolderSweeper()
        XCTestObservationCenter.shared.addTestObserver(sweeper)
        return sweeper
    }()

    private let paths = Mutex<[String]>([])

    func track(_ path: String) { paths.withLock { $0.append(path) } }

    private func sweep() {
        for path in paths.withLock({ paths in defer { paths.removeAll() }; return paths }) {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) { sweep() }
    func testBundleDidFinish(_ testBundle: Bundle) { sweep() }
}
