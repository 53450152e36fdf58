import Foundation
import Identity
import Pipeline
import XCTest

/// The calls a run makes on its identity ledger, recorded and made again on another ledger (what
/// `stitch` does with a split plan's segments), give the same identities.
final class IdentityLedgerTests: XCTestCase {
    /// A person: a random unit vector; a picture of them: that vector a little disturbed.
    private var generator = SystemRandomNumberGenerator()
    private func person() -> [Float] { normalized((0..<128).map { _ in Float.random(in: -1...1, using: &generator) }) }
    private func picture(of person: [Float]) -> FaceSample {
        FaceSample(embedding: FaceEmbedding(values: normalized(person.map { $0 + Float.random(in: -0.01...0.01, using: &generator) })),
                   quality: 0.8)
    }
    private func normalized(_ v: [Float]) -> [Float] {
        let norm = v.map { $0 * $0 }.reduce(0, +).squareRoot()
        return v.map { $0 / norm }
    }

    func testReplayingRecordedCallsGivesTheSameIdentities() throws {
        let a = person(), b = person()
        let recording = IdentityGalleries()
        var run = IdentityLedger(settings: ReidentificationSettings(), reidentify: true, recording: recording)
        // A (track 1), then B (track 2), a cut, then A again (track 3) and B turning into A (track 4's split).
        func show(_ who: [Float], as serial: Int, frames: Range<Int>, decideAt: Int, turnsInto other: [Float]? = nil) {
            for frame in frames {
                run.frame = frame
                let time = Double(frame) / 10
                let face = other != nil && frame >= frames.lowerBound + 20 ? other! : who
                // Embedded when the index asks, as the tracking stage does.
                run.observe(serial, sample: run.index.wantsSample(track: serial, time: time) ? picture(of: face) : nil, time: time)
                if frame == decideAt { run.decide(serial, time: time) }
            }
        }
        show(a, as: 1, frames: 0..<15, decideAt: 5)
        run.end(1)
        show(b, as: 2, frames: 30..<45, decideAt: 35)
        run.frame = 50
        run.cut(at: 5, transitionStart: nil)
        show(a, as: 3, frames: 60..<75, decideAt: 65)
        show(b, as: 4, frames: 80..<130, decideAt: 85, turnsInto: a)
        XCTAssertEqual(run.identity(of: 3, at: 7), run.identity(of: 1, at: 1), "A comes back as A")
        XCTAssertNotEqual(run.identity(of: 2, at: 4), run.identity(of: 1, at: 1))
        XCTAssertNotEqual(run.identity(of: 4, at: 8.5), run.identity(of: 4, at: 12.5), "a split")

        // Recorded, written and read back, made again with other serials.
        let events = try JSONDecoder().decode([IdentityEvent].self, from: try JSONEncoder().encode(recording.events))
        XCTAssertEqual(events, recording.events, "embeddings and times survive JSON exactly")
        var replay = IdentityLedger(settings: ReidentificationSettings(), reidentify: true)
        for event in events { replay.apply(event, serial: event.serial.map { $0 + 100 }) }
        for (serial, time) in [(1, 1.0), (2, 4.0), (3, 7.0), (4, 8.5), (4, 12.5)] {
            XCTAssertEqual(replay.identity(of: serial + 100, at: time), run.identity(of: serial, at: time), "track \(serial) at \(time)")
        }
    }
}
