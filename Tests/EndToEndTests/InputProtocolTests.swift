import Foundation
import TestSupport
import XCTest

/// Every file is opened through FFmpeg's file protocol only, and formats that open other files
/// are refused unless asked for (issue 27, items 1 and 2).
final class InputProtocolTests: XCTestCase {
    private static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("IdentityTests/Fixtures").path
    private var folder: TemporaryFolder!
    private var clip: String!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        clip = folder.file("plain.ts")
        // An MPEG-TS copy, as `ffmpeg -c copy` makes it (its timestamps start at 1.4 s).
        try Clips.pattern(clip, seconds: 1, size: "160x120")
    }

    override func tearDown() { folder = nil }

    /// A local folder `http:/127.0.0.1:PORT/` holds the clip: the name is a local file, and the
    /// listener on that port sees no connection from process, detect, find, report and --eye-sprite.
    func testNetworkLookingNameIsALocalFileAndTheNetworkIsNeverReached() throws {
        let listener = try LocalListener()
        let url = "http://127.0.0.1:\(listener.port)/plain.ts"
        let local = folder.file("http:/127.0.0.1:\(listener.port)")
        try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: clip, toPath: local + "/plain.ts")
        let photo = folder.file("http:/127.0.0.1:\(listener.port)/face.png")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x64", "-frames:v", "1", photo])
        let photoURL = "http://127.0.0.1:\(listener.port)/face.png"
        let runs: [[String]] = [
            ["process", url, "--csv", "p.csv", "--detector", "none", "-q"],
            ["detect", photoURL, "--csv", "d.csv", "--detector", "none"],
            ["process", clip, "-o", "sprite.mp4", "--eye-sprite", photoURL, "--detector", "none", "-q"],
            ["find", "--face", Self.photos + "/photo_hopper_1.jpg", url, "--accuracy", "low", "-q"],
        ]
        for arguments in runs {
            let result = try Tools.run(Tools.facetrack, arguments, directory: folder.path)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        try Clips.pattern(local + "/clip.mp4", seconds: 1, size: "160x120")
        try "frame,time,track_id,x,y,width,height,confidence\n5,0.2,1,10,10,20,20,0.9\n"
            .write(toFile: folder.file("t.csv"), atomically: false, encoding: .utf8)
        let video = "http://127.0.0.1:\(listener.port)/clip.mp4"
        let report = try Tools.run(Tools.facetrack, ["report", "t.csv", "--video", video, "-o", "r.html"], directory: folder.path)
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertTrue(report.stderr.contains("1 thumbnails"), report.stderr)
        XCTAssertEqual(listener.connections, 0, "no connection may reach the network")
        XCTAssertEqual(try String(contentsOfFile: folder.file("p.csv"), encoding: .utf8).split(separator: "\n").count, 1,
                       "the local copy was read (header only: no detector)")
    }

    /// `data:x`, `concat:a|b` and `file:x` are file names like any other.
    func testOtherProtocolNamesAreLocalFiles() throws {
        for name in ["data:x", "subfile:y", "pipe:0"] {
            try FileManager.default.copyItem(atPath: clip, toPath: folder.file(name))
            let result = try Tools.run(Tools.facetrack, ["process", name, "--csv", "o.csv", "--detector", "none"],
                                       directory: folder.path)
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("25 frames"), "\(name): \(result.stderr)")
        }
        let concat = try Tools.run(Tools.facetrack, ["process", "concat:plain.ts|plain.ts", "--csv", "c.csv"],
                                   directory: folder.path)
        XCTAssertEqual(concat.status, 1)
        XCTAssertTrue(concat.stderr.contains("concat:plain.ts|plain.ts: no such file"), concat.stderr)
    }

    /// An HLS playlist or an ffconcat list saved as .mp4 is refused, naming the format; the user
    /// can allow it with FACETRACK_ALLOW_FORMATS (still local files only).
    func testPlaylistsThatOpenOtherFilesAreRefusedUnlessAllowed() throws {
        let inputs = folder.file("in")
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        let playlist = inputs + "/b.mp4"
        try "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1.0,\n\(clip!)\n#EXT-X-ENDLIST\n"
            .write(toFile: playlist, atomically: false, encoding: .utf8)
        let list = inputs + "/c.mp4"
        try "ffconcat version 1.0\nfile \(clip!)\n".write(toFile: list, atomically: false, encoding: .utf8)
        for (input, format) in [(playlist, "hls"), (list, "concat")] {
            let result = try Tools.run(Tools.facetrack, ["process", input, "--csv", folder.file("x.csv"), "--detector", "none"])
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("(FFmpeg format \(format)), which opens other files; refused"), result.stderr)
            XCTAssertTrue(result.stderr.contains("FACETRACK_ALLOW_FORMATS=\(format)"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("x.csv")))
        }
        let batch = try Tools.run(Tools.facetrack, ["batch", inputs, "--out", folder.file("out"), "--outputs", "csv",
                                                    "--detector", "none", "-q"])
        XCTAssertEqual(batch.status, 1, batch.stderr)
        XCTAssertTrue(batch.stderr.contains("b.mp4: is an HLS playlist"), batch.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("out/b.csv")), "the playlist's target was not processed")
        let allowed = try Tools.run(Tools.facetrack, ["process", playlist, "--csv", folder.file("x.csv"), "--detector", "none"],
                                    environment: ["FACETRACK_ALLOW_FORMATS": "hls"])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
    }

    /// A picture named like an image-sequence pattern is that one picture, not the sequence.
    func testImageNamedLikeAPatternIsOnePicture() throws {
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "4", folder.file("seq%d.png")])
        try FileManager.default.copyItem(atPath: folder.file("seq1.png"), toPath: folder.file("one%d.png"))
        for n in 1...3 { try FileManager.default.copyItem(atPath: folder.file("seq\(n).png"), toPath: folder.file("one\(n).png")) }
        let result = try Tools.run(Tools.facetrack, ["process", folder.file("one%d.png"), "--csv", folder.file("o.csv"),
                                                     "--detector", "none"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("facetrack: 1 frames"), result.stderr)
    }
}

/// A TCP listener on 127.0.0.1 (a free port) that counts connections and closes each at once.
private final class LocalListener: @unchecked Sendable {
    let port: UInt16
    private let socket: Int32
    private let lock = NSLock()
    private var count = 0

    init() throws {
        let listening = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        socket = listening
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic -> Bool in
                bind(listening, generic, length) == 0 && listen(listening, 8) == 0 && getsockname(listening, generic, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [weak self] in
            while true {
                let client = accept(listening, nil, nil)
                if client < 0 { return }
                close(client)
                guard let self else { return }
                self.lock.lock()
                self.count += 1
                self.lock.unlock()
            }
        }
    }

    var connections: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    deinit { shutdown(socket, Int32(SHUT_RDWR)); close(socket) }
}
