import Foundation
import TestSupport
import XCTest

/// Identities from the command line on the reference clips: re-identification across a cut and a
/// long absence, known people by name, --keep/--only masking, `find`, and the bad-input errors.
/// The known people are the committed photos of the clips' two people (Grace Hopper and the
/// astronaut, `Tests/IdentityTests/Fixtures`), not the frames the clips were made from.
final class IdentityCommandTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static let samples = root.appendingPathComponent("samples").path
    private static let photos = root.appendingPathComponent("Tests/IdentityTests/Fixtures").path

    /// A --known folder with hopper.jpg and astronaut.jpg.
    private func knownFolder(in folder: TemporaryFolder) throws -> String {
        let known = folder.file("known")
        try FileManager.default.createDirectory(atPath: known, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.photos + "/photo_hopper_1.jpg", toPath: known + "/hopper.jpg")
        try FileManager.default.copyItem(atPath: Self.photos + "/photo_astronaut_1.jpg", toPath: known + "/astronaut.jpg")
        return known
    }

    private func metrics(_ clip: String, _ options: [String]) throws -> [String: Any] {
        let folder = try TemporaryFolder()
        let csv = folder.file("tracks.csv")
        let run = try Tools.run(Tools.facetrack, ["process", "\(Self.samples)/\(clip).mp4", "--csv", csv, "--quiet"] + options)
        XCTAssertEqual(run.status, 0, run.stderr)
        let eval = try Tools.run(Tools.facetrack, ["eval", "--truth", "\(Self.samples)/\(clip).truth.csv", "--pred", csv, "--json"])
        XCTAssertEqual(eval.status, 0, eval.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(eval.stdout.utf8)) as? [String: Any])
    }

    /// Rows of a CSV as dictionaries by header.
    private func rows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    func testCutABAGivesTwoIDsWithReidentificationAndThreeWithout() throws {
        let reid = try metrics("cut-aba", ["--detector", "blazeface"])
        XCTAssertEqual(reid["predicted_tracks"] as? Int, 2, "Hopper keeps ID 1 after the second cut")
        XCTAssertEqual(reid["id_switches"] as? Int, 0)
        XCTAssertGreaterThanOrEqual(reid["idf1"] as? Double ?? 0, 0.95)
        let off = try metrics("cut-aba", ["--detector", "blazeface", "--no-reid"])
        XCTAssertEqual(off["predicted_tracks"] as? Int, 3, "every shot starts new tracks")
        XCTAssertEqual(off["id_switches"] as? Int, 1)
    }

    /// A models folder from before SFace was added: the run says once that re-identification is
    /// off and which file is missing (the tracker's IDs: three for cut-aba), rather than silently;
    /// --no-reid and a video-only run, which embed nothing, say nothing.
    func testAMissingEmbeddingModelTurnsReidentificationOffAndSaysSo() throws {
        let folder = try TemporaryFolder()
        let models = folder.file("models")
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        for name in ["centerface.onnx", "face_detection_full_range.tflite", "face_detection_short_range.tflite",
                     "dlib_face_recognition_resnet_model_v1.dat"] {
            try FileManager.default.createSymbolicLink(atPath: (models as NSString).appendingPathComponent(name),
                                                       withDestinationPath: try InstalledModels.path(name))
        }
        let csv = folder.file("tracks.csv"), clip = "\(Self.samples)/cut-aba.mp4"
        var run = try Tools.run(Tools.facetrack, ["process", clip, "--csv", csv, "--models", models, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        let said = "re-identification is off: face_recognition_sface_2021dec_int8bq.onnx not installed in"
        XCTAssertTrue(run.stderr.contains(said), run.stderr)
        XCTAssertEqual(Set(try rows(csv).compactMap { $0["track_id"] }.filter { !$0.isEmpty }).count, 3)
        run = try Tools.run(Tools.facetrack, ["process", clip, "--csv", csv, "--models", models, "--quiet", "--no-reid"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        run = try Tools.run(Tools.facetrack, ["process", clip, "-o", folder.file("out.mp4"), "--models", models, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
    }

    /// Fast mode leaves re-identification out unless --reid asks for it; both flags at once is a
    /// usage error naming them.
    func testAccuracyLowReidentifiesOnlyWhenAsked() throws {
        let fast = try metrics("cut-aba", ["--accuracy", "low"])
        XCTAssertEqual(fast["predicted_tracks"] as? Int, 3, "every shot starts new tracks")
        let asked = try metrics("cut-aba", ["--accuracy", "low", "--reid"])
        XCTAssertEqual(asked["predicted_tracks"] as? Int, 2, "Hopper keeps ID 1 after the second cut")
        let both = try Tools.run(Tools.facetrack, ["process", "\(Self.samples)/cut-aba.mp4", "--csv", "/dev/null", "--reid", "--no-reid"])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("--reid and --no-reid"), both.stderr)
    }

    /// A face that leaves one side and reappears on the other within --max-age: the tracker still
    /// holds the lost track (its forecast is far from the face), and re-identification gives the
    /// new track that track's ID; without it the face gets a second ID.
    func testAFaceReappearingElsewhereWithinMaxAgeKeepsItsID() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("jump.mp4")
        let portrait = Self.root.appendingPathComponent("Tests/DetectionTests/Fixtures/grace_hopper.ppm").path
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=640x360:r=25:d=4.4", "-i", portrait, "-filter_complex",
                          "[1:v]scale=-2:180,split[a][b];[0:v][a]overlay=x=40:y=90:enable='lt(t,2)'[v1];"
                          + "[v1][b]overlay=x=430:y=90:enable='gte(t,2.4)'[v]",
                          "-map", "[v]", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip])
        for (options, expected) in [([String](), 1), (["--no-reid"], 2)] {
            let csv = folder.file("tracks.csv")
            let run = try Tools.run(Tools.facetrack, ["process", clip, "--csv", csv, "--quiet"] + options)
            XCTAssertEqual(run.status, 0, run.stderr)
            let rows = try rows(csv)
            let ids = Set(rows.compactMap { $0["track_id"] }.filter { !$0.isEmpty })
            XCTAssertEqual(ids.count, expected, "\(options): \(ids.sorted())")
            // One row per ID and frame, always.
            let pairs = rows.compactMap { row in row["track_id"].flatMap { $0.isEmpty ? nil : "\(row["frame"] ?? "") \($0)" } }
            XCTAssertEqual(Set(pairs).count, pairs.count, "\(options): an ID twice on one frame")
        }
    }

    func testAFaceAwayLongerThanMaxAgeKeepsItsIDWithinTheWindow() throws {
        let reid = try metrics("exit-return-long", ["--detector", "blazeface"])
        XCTAssertEqual(reid["id_switches"] as? Int, 0)
        XCTAssertGreaterThanOrEqual(reid["idf1"] as? Double ?? 0, 0.95)
        // Away 3.6 s: a 1-second window forgets the face.
        let short = try metrics("exit-return-long", ["--detector", "blazeface", "--reid-window", "1"])
        XCTAssertEqual(short["id_switches"] as? Int, 1)
        XCTAssertLessThan(short["idf1"] as? Double ?? 1, 0.8)
    }

    func testKnownPeopleAreNamedInTheLastCSVColumnAndTheSummary() throws {
        let folder = try TemporaryFolder()
        let known = try knownFolder(in: folder)
        let csv = folder.file("tracks.csv"), summary = folder.file("summary.json")
        let run = try Tools.run(Tools.facetrack, ["process", Self.samples + "/cut-aba.mp4", "--detector", "blazeface",
                                                  "--known", known, "--csv", csv, "--tracks-summary", summary, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("too small or soft"), "sharp photos are not warned about: \(run.stderr)")
        let header = try XCTUnwrap(try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").first)
        XCTAssertTrue(header.hasSuffix(",source,person,shot"), "person after source, then the shot: \(header)")
        let table = try rows(csv)
        XCTAssertEqual(table.count, 114)
        for row in table {
            XCTAssertEqual(row["person"], row["track_id"] == "1" ? "hopper" : "astronaut", "frame \(row["frame"] ?? "")")
        }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary))) as? [String: Any])
        let tracks = try XCTUnwrap(json["tracks"] as? [[String: Any]])
        XCTAssertEqual(tracks.map { $0["person"] as? String }, ["hopper", "astronaut"])
        for track in tracks { XCTAssertLessThan(track["person_distance"] as? Double ?? 1, 0.42) }

        // Without --known the CSV keeps its columns.
        let plain = folder.file("plain.csv")
        XCTAssertEqual(try Tools.run(Tools.facetrack, ["process", Self.samples + "/exit-return.mp4", "--csv", plain, "-q"]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: plain, encoding: .utf8).hasPrefix("frame,time,track_id,"))
        XCTAssertFalse(try String(contentsOfFile: plain, encoding: .utf8).split(separator: "\n")[0].hasSuffix(",person"))
    }

    /// A known photo whose face is too soft to compare reliably (the astronaut's, shrunk to 20 px wide
    /// and blown up again: quality 0.016) is read, and the run says so in one line naming it; so does
    /// `find --face` with it. The sharp photo beside it is not mentioned.
    func testASoftKnownPhotoIsReadAndWarnedAbout() throws {
        let folder = try TemporaryFolder()
        let known = try knownFolder(in: folder)
        try Tools.ffmpeg(["-i", Self.photos + "/photo_astronaut_1.jpg", "-vf", "scale=20:-1,scale=240:-1", known + "/astronaut.jpg"])
        let csv = folder.file("tracks.csv")
        let run = try Tools.run(Tools.facetrack, ["process", Self.samples + "/no-face.mp4", "--known", known, "--csv", csv, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("too small or soft") }
        XCTAssertEqual(warnings.count, 1, run.stderr)
        XCTAssertTrue(warnings.first?.hasPrefix("facetrack: warning: \(known)/astronaut.jpg: ") ?? false, run.stderr)
        XCTAssertTrue(warnings.first?.contains("astronaut may go unnamed") ?? false, run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: csv))

        let find = try Tools.run(Tools.facetrack, ["find", "--face", known + "/astronaut.jpg", Self.samples + "/no-face.mp4",
                                                   "-o", folder.file("found.jsonl"), "--quiet"])
        XCTAssertEqual(find.status, 0, find.stderr)
        XCTAssertTrue(find.stderr.contains("\(known)/astronaut.jpg: the face is too small or soft"), find.stderr)
        XCTAssertTrue(find.stderr.contains("the person may be missed"), find.stderr)
    }

    /// Mean absolute difference between two frames' grey pixels inside `box`'s middle half, and
    /// the standard deviation there in the second.
    private func compare(_ original: [UInt8], _ output: [UInt8], width: Int, box: (x: Double, y: Double, w: Double, h: Double))
        -> (difference: Double, spread: Double) {
        var sum = 0.0, values: [Double] = []
        for y in Int(box.y + box.h / 4)..<Int(box.y + 3 * box.h / 4) {
            for x in Int(box.x + box.w / 4)..<Int(box.x + 3 * box.w / 4) {
                sum += abs(Double(original[y * width + x]) - Double(output[y * width + x]))
                values.append(Double(output[y * width + x]))
            }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let spread = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
        return (sum / Double(values.count), spread)
    }

    /// Frame `index` of `path` as 8-bit grey, 640x360.
    private func grey(_ path: String, frame index: Int, in folder: TemporaryFolder) throws -> [UInt8] {
        let raw = folder.file("frame-\(UUID().uuidString).gray")
        try Tools.ffmpeg(["-i", path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", raw])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    func testKeepMasksEveryoneButTheKeptPersonAndOnlyMasksOnlyThem() throws {
        let folder = try TemporaryFolder()
        let known = try knownFolder(in: folder)
        let clip = Self.samples + "/cut-aba.mp4"
        let csv = folder.file("tracks.csv")
        XCTAssertEqual(try Tools.run(Tools.facetrack, ["process", clip, "--detector", "blazeface", "--csv", csv, "-q"]).status, 0)
        let table = try rows(csv)
        func box(_ frame: Int) throws -> (x: Double, y: Double, w: Double, h: Double) {
            let row = try XCTUnwrap(table.first { $0["frame"] == String(frame) })
            return (Double(row["x"]!)!, Double(row["y"]!)!, Double(row["width"]!)!, Double(row["height"]!)!)
        }
        // Frame 20: Hopper (shot 1); frame 57: the astronaut (shot 2); frame 100: Hopper again.
        let frames = [(20, "hopper"), (57, "astronaut"), (100, "hopper")]
        let originals = try frames.map { try grey(clip, frame: $0.0, in: folder) }
        for (option, name) in [("--keep", "hopper"), ("--only", "hopper")] {
            let out = folder.file("\(option).mp4")
            let run = try Tools.run(Tools.facetrack, ["process", clip, "--detector", "blazeface", "--known", known, "-o", out,
                                                      "--anonymize", "fill", option, name, "--overlay", "none", "-q"])
            XCTAssertEqual(run.status, 0, run.stderr)
            for (i, (frame, person)) in frames.enumerated() {
                let result = compare(originals[i], try grey(out, frame: frame, in: folder), width: 640, box: try box(frame))
                let masked = option == "--keep" ? person != name : person == name
                if masked {
                    XCTAssertGreaterThan(result.difference, 40, "\(option) \(name): \(person) on frame \(frame) is filled")
                    XCTAssertLessThan(result.spread, 4, "a flat fill")
                } else {
                    XCTAssertLessThan(result.difference, 8, "\(option) \(name): \(person) on frame \(frame) is left as is")
                    XCTAssertGreaterThan(result.spread, 10, "a face, not a fill")
                }
            }
        }
    }

    func testFindGivesTheTimeRangesOfThePhotosPerson() throws {
        let folder = try TemporaryFolder()
        let out = folder.file("found.jsonl")
        let run = try Tools.run(Tools.facetrack, ["find", "--face", Self.photos + "/photo_hopper_1.jpg", "--detector", "blazeface",
                                                  Self.samples + "/cut-aba.mp4", Self.samples + "/no-face.mp4", "-o", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("start"), "a table on standard error: \(run.stderr)")
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "one line per video")
        let first = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(first["video"] as? String, Self.samples + "/cut-aba.mp4")
        let ranges = try XCTUnwrap(first["ranges"] as? [[String: Double]])
        // Hopper: frames 0-37 and 76-113 at 25 fps; the astronaut's shot between is not hers.
        XCTAssertEqual(ranges.count, 2, "\(ranges)")
        XCTAssertEqual(ranges.first?["start"] ?? -1, 0, accuracy: 0.05)
        XCTAssertEqual(ranges.first?["end"] ?? -1, 1.52, accuracy: 0.1)
        XCTAssertEqual(ranges.last?["start"] ?? -1, 3.04, accuracy: 0.1)
        XCTAssertEqual(ranges.last?["end"] ?? -1, 4.56, accuracy: 0.1)
        let second = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        XCTAssertEqual((second["ranges"] as? [Any])?.count, 0)
    }

    func testBadKnownPhotosAndNamesAreRefusedBeforeAnyVideo() throws {
        let folder = try TemporaryFolder()
        let known = try knownFolder(in: folder)
        // Two faces in one photo.
        let crowd = folder.file("crowd")
        try FileManager.default.createDirectory(atPath: crowd, withIntermediateDirectories: true)
        try Tools.ffmpeg(["-i", Self.photos + "/photo_hopper_1.jpg", "-i", Self.photos + "/photo_astronaut_1.jpg", "-filter_complex",
                          "[0]scale=300:300[a];[1]scale=300:300[b];[a][b]hstack", crowd + "/pair.jpg"])
        // No face at all.
        let empty = folder.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=gray:size=320x240", "-frames:v", "1", empty + "/nobody.png"])
        let missingVideo = folder.file("never-read.mp4")  // does not exist: the photo's error must come first
        for (folder, photo, problem) in [(crowd, "pair.jpg", "2 faces"), (empty, "nobody.png", "no face")] {
            let run = try Tools.run(Tools.facetrack, ["process", missingVideo, "--known", folder, "--csv", "-"])
            XCTAssertEqual(run.status, 2, run.stderr)
            let lines = run.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, run.stderr)
            XCTAssertTrue(lines.first?.contains(photo) == true && lines.first?.contains(problem) == true, run.stderr)
            XCTAssertTrue(run.stdout.isEmpty)
        }
        let find = try Tools.run(Tools.facetrack, ["find", "--face", crowd + "/pair.jpg", missingVideo])
        XCTAssertEqual(find.status, 2, find.stderr)
        XCTAssertTrue(find.stderr.contains("pair.jpg"), find.stderr)
        for arguments in [["--known", known, "--anonymize", "blur", "--keep", "nobody"],
                          ["--known", known, "--anonymize", "blur", "--keep", "hopper", "--only", "astronaut"],
                          ["--anonymize", "blur", "--keep", "hopper"]] {
            let run = try Tools.run(Tools.facetrack, ["process", Self.samples + "/cut-aba.mp4", "--csv", folder.file("x.csv")] + arguments)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("--keep") || run.stderr.contains("--only"), run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("x.csv")))
        }
    }
}
