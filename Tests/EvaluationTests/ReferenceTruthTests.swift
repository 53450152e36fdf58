import Evaluation
import Foundation
import TestSupport
import XCTest

/// The committed truth of samples/ is what the generator computes, and it scores perfectly against itself.
final class ReferenceTruthTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private let clips = ["zoom", "crossing", "exit-return", "no-face", "portrait-rotated", "vfr", "hd-small-face",
                         "exit-return-long", "cut-aba", "crowd-hd", "edge-enter", "steady-hd"]

    func testRegeneratedTruthIsByteIdentical() throws {
        let folder = try TemporaryFolder()
        let script = root.appendingPathComponent("scripts/reference_clips.py").path
        let result = try Tools.run("python3", [script, "--truth-only", "--out", folder.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        for clip in clips {
            let name = clip + ".truth.csv"
            let committed = try Data(contentsOf: root.appendingPathComponent("samples/" + name))
            let regenerated = try Data(contentsOf: URL(fileURLWithPath: folder.file(name)))
            XCTAssertEqual(committed, regenerated, "\(name) differs from what scripts/reference_clips.py computes")
        }
        XCTAssertEqual(Set(folder.contents()), Set(clips.map { $0 + ".truth.csv" }), "every generated clip is checked")
    }

    /// crowd-hd keeps what it was made for: at least five different people (IDs are people), faces 24 to 160 px
    /// high (within rounding), some hidden for a while (behind a pillar or a nearer person) and back under the same
    /// ID, and people who leave and come back after longer than the tracker bridges (re-identification's work).
    func testCrowdTruthHasManyPeopleAtManySizesWithOcclusionsAndReturns() throws {
        let table = try TrackTable.load(path: root.appendingPathComponent("samples/crowd-hd.truth.csv").path, requireIDs: true)
        let truth = TrackTable(rows: table.rows.filter { !$0.ignored })
        XCTAssertGreaterThan(table.rows.count - truth.rows.count, 50, "mostly hidden faces are marked ignore")
        let people = Dictionary(grouping: truth.rows, by: { $0.trackID ?? 0 })
        XCTAssertGreaterThanOrEqual(people.count, 5, "\(people.count) people")
        let heights = truth.rows.map(\.box.height)
        XCTAssertGreaterThanOrEqual(heights.min() ?? 0, 24)
        XCTAssertLessThanOrEqual(heights.max() ?? .infinity, 161)
        XCTAssertLessThan(heights.min() ?? 0, 30, "small far faces")
        XCTAssertGreaterThan(heights.max() ?? 0, 140, "large near faces")
        func gaps(_ rows: [TrackRow]) -> [Int] {
            let frames = rows.map(\.frame).sorted()
            return zip(frames, frames.dropFirst()).map { $1 - $0 }
        }
        XCTAssertGreaterThanOrEqual(people.values.filter { gaps($0).contains { $0 > 3 } }.count, 4,
                                    "people hidden for a while and seen again")
        // Longer than the default --max-age (1 s at 25 fps): no tracker bridges that, identity must.
        XCTAssertGreaterThanOrEqual(people.values.filter { gaps($0).contains { $0 > 25 } }.count, 2,
                                    "people who leave and come back")
    }

    func testEveryTruthScoresPerfectlyAgainstItself() throws {
        for clip in clips {
            let truth = try TrackTable.load(path: root.appendingPathComponent("samples/\(clip).truth.csv").path, requireIDs: true)
            let frames = try Tools.ffprobe(["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                                            "-of", "csv=p=0", root.appendingPathComponent("samples/\(clip).mp4").path])
            let count = frames.split(whereSeparator: { $0 == "\n" || $0 == "," }).lazy.compactMap { Int($0) }.first
            XCTAssertEqual(count, truth.frames.count, "\(clip): truth lists every frame")
            let result = try Evaluator().evaluate(truth: truth, prediction: truth)
            XCTAssertEqual(result.detection.falsePositives + result.detection.misses + result.tracking.idSwitches, 0, clip)
            if !truth.rows.isEmpty { XCTAssertEqual(result.tracking.idf1 ?? 0, 1, accuracy: 1e-12, clip) }
        }
    }
}
