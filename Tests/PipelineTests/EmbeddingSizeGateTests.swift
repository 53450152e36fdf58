import Pipeline
import TestSupport
import XCTest

/// Re-identification embeds only faces large enough to judge (eyes at least
/// `ReidentificationSettings.minimumEyeDistance` apart): the same clip shrunk into a corner of
/// the frame is still tracked, but none of its faces is embedded.
final class EmbeddingSizeGateTests: XCTestCase {
    private static let clip = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples/cut-aba.mp4").path

    func testOnlyFacesWithEyesFarEnoughApartAreEmbedded() throws {
        let folder = try TemporaryFolder()
        // Faces about 130 px high, eyes about 50 px apart.
        let large = try FaceTrackJob(input: Self.clip, outputs: JobOutputs(csv: folder.file("large.csv"))).run()
        XCTAssertGreaterThan(large.tracks, 0)
        XCTAssertGreaterThan(large.embeddedFaces, 0)
        // Shrunk to 0.3: faces about 40 px high, eyes about 15 px apart.
        let shrunk = folder.file("shrunk.mp4")
        try Tools.ffmpeg(["-i", Self.clip, "-vf", "scale=192:108,pad=640:360:224:126", "-c:v", "libx264", "-crf", "18", shrunk])
        let small = try FaceTrackJob(input: shrunk, outputs: JobOutputs(csv: folder.file("small.csv"))).run()
        XCTAssertGreaterThan(small.tracks, 0)
        XCTAssertGreaterThan(small.faces, 50)
        XCTAssertEqual(small.embeddedFaces, 0)
    }
}
