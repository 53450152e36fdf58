import FaceCore
import MediaIO
@testable import Pipeline
import TestSupport
import XCTest

/// A detector whose model is broken ("finds" thousands of faces) stops the run with a clear error.
final class DetectorOutputCheckTests: XCTestCase {
    private final class FloodDetector: FaceDetector {
        let name = "flood"
        func detect(in image: BGRAImage) throws -> [FaceObservation] {
            (0..<1500).map { i in
                FaceObservation(bounds: Rect(x: Double(i % 60), y: Double(i / 60) * 1.5, width: 1, height: 1), confidence: 0.9)
            }
        }
    }

    func testThousandsOfFacesInAFrameAreRefused() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4")
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-frames:v", "3", "-pix_fmt", "yuv420p", clip])
        XCTAssertThrowsError(try runPipeline(FaceTrackJob(input: clip, threads: 1), detector: { FloodDetector() })) { error in
            XCTAssertTrue("\(error)".contains("the flood detector reported 1500 faces in frame 0"), "\(error)")
            XCTAssertTrue("\(error)".contains("model file is likely damaged"), "\(error)")
        }
    }
}
