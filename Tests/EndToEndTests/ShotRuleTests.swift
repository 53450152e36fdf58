import Foundation
import TestSupport
import XCTest

/// Shot boundaries and identities across them, end to end on clips made from the committed
/// portraits: a hard cut that changes colour but not brightness, and a dissolve from one person
/// to another at the same place. Both failed on main a3f124c (the cut was missed; the dissolve
/// carried one ID from one person to the next).
final class ShotRuleTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("IdentityTests/Fixtures").path

    /// Rows of a CSV as dictionaries by header.
    private func rows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    private func process(_ clip: String, _ options: [String] = []) throws -> [[String: String]] {
        let csv = clip + ".csv"
        let run = try Tools.run(Tools.facetrack, ["process", clip, "--csv", csv, "--quiet"] + options)
        XCTAssertEqual(run.status, 0, run.stderr)
        return try rows(csv)
    }

    /// One person on a wood-brown backdrop, then the same picture with its hues turned half way
    /// round (a blue-green backdrop): the brightness of every pixel stays, so a test on the luma
    /// histogram alone sees no cut. The `shot` column (last) counts it.
    func testHardCutBetweenDifferentlyColouredShotsOfEqualBrightnessIsFound() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("colour-cut.mp4")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "color=c=0x7a5230:s=640x360:r=25:d=3", "-i", Self.fixtures + "/photo_hopper_1.jpg",
                          "-filter_complex", "[1:v]scale=-2:220[p];[0:v][p]overlay=x=(W-w)/2+10*sin(t*3):y=70,"
                          + "hue=h='if(gte(n,38),180,0)',format=yuv420p[v]",
                          "-map", "[v]", "-c:v", "libx264", "-crf", "18", clip])
        let rows = try process(clip)
        XCTAssertEqual(rows.first.map { Array($0.keys).contains("shot") }, true, "a shot column")
        let shotOf = Dictionary(rows.compactMap { row in Int(row["frame"] ?? "").flatMap { f in Int(row["shot"] ?? "").map { (f, $0) } } },
                                uniquingKeysWith: { a, _ in a })
        XCTAssertFalse(shotOf.isEmpty)
        for (frame, shot) in shotOf { XCTAssertEqual(shot, frame < 38 ? 0 : 1, "frame \(frame)") }
    }

    /// Grace Hopper for 2 s, a 0.5 s dissolve (frames 50 to 62, the astronaut outweighs her from
    /// frame 57) into the astronaut at the same place and size, the astronaut for 2 s. The ID
    /// changes within a frame of the dissolve's middle: a3f124c carried Hopper's ID to frame 58.
    func testDissolveDoesNotCarryAnIDFromOnePersonToTheNext() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("dissolve.mp4")
        let shot = "scale=-2:240,pad=640:360:(ow-iw)/2:60:color=0x505a64,setsar=1,fps=25,format=yuv420p"
        try Tools.ffmpeg(["-loop", "1", "-t", "2.5", "-i", Self.fixtures + "/photo_hopper_1.jpg",
                          "-loop", "1", "-t", "2.5", "-i", Self.fixtures + "/photo_astronaut_1.jpg", "-filter_complex",
                          "[0:v]\(shot)[a];[1:v]\(shot)[b];[a][b]xfade=transition=fade:duration=0.5:offset=2[v]",
                          "-map", "[v]", "-c:v", "libx264", "-crf", "18", clip])
        let rows = try process(clip)
        func ids(_ frames: ClosedRange<Int>) -> Set<String> {
            Set(rows.filter { Int($0["frame"] ?? "").map(frames.contains) ?? false }.compactMap { $0["track_id"] }.filter { !$0.isEmpty })
        }
        let before = ids(0...55), after = ids(58...111)
        XCTAssertEqual(before.count, 1, "\(before)")
        XCTAssertEqual(after.count, 1, "\(after)")
        XCTAssertTrue(before.isDisjoint(with: after), "the ID of one person went on to the next: \(before) \(after)")
    }

    /// A small face (110 px photo) on a busy moving background turns into another person's for
    /// 1.2 s (frames 60 to 89) and back, within one shot (the background hides the change from the
    /// cut detector), with a still of each person known. Each row takes the name its face had at
    /// its own frame, as far as the samples tell: the doubt raised by the first far sample holds
    /// from just after the last agreeing one (frame 50: samples are half a second apart), a split's
    /// new name from its first sample on. Main unnamed Hopper's frames from 45 on (the doubt reached
    /// back over all the rows still in the look-ahead), named the astronaut on 13 of her 30 frames
    /// and named her last frames Hopper (the split back held only for rows leaving after it).
    func testEachRowIsNamedAsItsFaceWasAtItsFrame() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("swap.mp4"), known = folder.file("known")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=5",
                          "-loop", "1", "-t", "5", "-i", Self.fixtures + "/photo_hopper_1.jpg",
                          "-loop", "1", "-t", "5", "-i", Self.fixtures + "/photo_astronaut_1.jpg", "-filter_complex",
                          "[1:v]scale=-2:110,setsar=1[a];[2:v]scale=-2:110,setsar=1[b];[0:v][a]overlay=x=(W-w)/2:y=120[p];"
                          + "[p][b]overlay=x=(W-w)/2:y=120:enable='between(n,60,89)',format=yuv420p[v]",
                          "-map", "[v]", "-t", "5", "-c:v", "libx264", "-crf", "18", clip])
        try FileManager.default.createDirectory(atPath: known, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixtures + "/photo_hopper_2.jpg", toPath: known + "/hopper.jpg")
        try FileManager.default.copyItem(atPath: Self.fixtures + "/photo_astronaut_2.jpg", toPath: known + "/astronaut.jpg")
        let rows = try process(clip, ["--known", known])
        var names: [Int: Set<String>] = [:]
        for row in rows {
            guard let frame = Int(row["frame"] ?? "") else { continue }
            names[frame, default: []].insert(row["person"] ?? "")
        }
        for frame in 0...50 { XCTAssertEqual(names[frame], ["hopper"], "frame \(frame)") }
        for frame in 51..<60 { XCTAssertFalse(names[frame]?.contains("astronaut") ?? false, "frame \(frame) shows Hopper") }
        for frame in 60..<90 { XCTAssertFalse(names[frame]?.contains("hopper") ?? false, "frame \(frame) shows the astronaut") }
        let astronaut = (66..<90).filter { names[$0] == ["astronaut"] }.count
        XCTAssertGreaterThanOrEqual(astronaut, 20, "the astronaut is named from the split on")
        for frame in 95..<125 { XCTAssertEqual(names[frame], ["hopper"], "frame \(frame)") }
    }

    /// Grace Hopper, then a dissolve into the astronaut like the corpus bench's (the astronaut's
    /// weight (n - 49) / 13 on frame n: Hopper outweighs her up to frame 55, she outweighs Hopper
    /// from frame 56), both known. The frame the detector marks as the dissolve's middle is two
    /// faces blended about half and half, and names no one; no frame on which one person outweighs
    /// is named as the other. Main 07f1631 marked frame 55 (46 % astronaut), started her track
    /// there and named it astronaut from its start, as it named 5 strangers' frames on the
    /// corpus's report half.
    func testTheBlendedMiddleOfADissolveNamesNoOne() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("dissolve.mp4"), known = folder.file("known")
        let shot = "scale=-2:240,pad=640:360:(ow-iw)/2:60:color=0x505a64,setsar=1,fps=25,format=yuv420p"
        try Tools.ffmpeg(["-loop", "1", "-t", "4.5", "-i", Self.fixtures + "/photo_hopper_1.jpg",
                          "-loop", "1", "-t", "4.5", "-i", Self.fixtures + "/photo_astronaut_1.jpg", "-filter_complex",
                          "[0:v]\(shot)[a];[1:v]\(shot)[b];[a][b]blend=all_expr='A+(B-A)*clip((N-49)/13\\,0\\,1)',format=yuv420p[v]",
                          "-map", "[v]", "-c:v", "libx264", "-crf", "18", clip])
        try FileManager.default.createDirectory(atPath: known, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixtures + "/photo_hopper_2.jpg", toPath: known + "/hopper.jpg")
        try FileManager.default.copyItem(atPath: Self.fixtures + "/photo_astronaut_2.jpg", toPath: known + "/astronaut.jpg")
        let rows = try process(clip, ["--known", known])
        var names: [Int: Set<String>] = [:], shots: [Int: Int] = [:]
        for row in rows {
            guard let frame = Int(row["frame"] ?? "") else { continue }
            names[frame, default: []].insert(row["person"] ?? "")
            shots[frame] = Int(row["shot"] ?? "")
        }
        guard let middle = shots.filter({ $0.value == 1 }).keys.min() else { return XCTFail("no dissolve found") }
        XCTAssertTrue((53...58).contains(middle), "the dissolve is marked at frame \(middle)")
        XCTAssertEqual(names[middle]?.subtracting([""]) ?? [], [], "the blended middle names no one")
        for frame in 0...55 { XCTAssertFalse(names[frame]?.contains("astronaut") ?? false, "frame \(frame): Hopper outweighs") }
        for frame in 56...111 { XCTAssertFalse(names[frame]?.contains("hopper") ?? false, "frame \(frame): the astronaut outweighs") }
        XCTAssertGreaterThanOrEqual((0..<49).filter { names[$0] == ["hopper"] }.count, 45)
        XCTAssertGreaterThanOrEqual((62...111).filter { names[$0] == ["astronaut"] }.count, 45)
    }
}
