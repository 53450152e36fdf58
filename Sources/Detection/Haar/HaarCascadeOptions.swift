import FaceCore

/// Settings of `HaarCascadeDetector`, with the `CIDetector`-like mapping from `HaarSettings`.
package struct HaarCascadeOptions: Sendable {
    /// Where OpenCV's cascade files live (the Debian `opencv-data` package).
    package static let defaultCascadeDirectory = "/usr/share/opencv4"
    /// The face cascade for `accuracy` high or unset: `_alt2`, as accurate as `_default` with fewer
    /// false boxes, and faster (measured: docs/performance.md, "Numbers behind choices in the code").
    package static let accurateCascade = "haarcascades/haarcascade_frontalface_alt2.xml"
    /// The face cascade for `accuracy` low: LBP, faster (`scripts/bench-haar` times both).
    package static let fastCascade = "lbpcascades/lbpcascade_frontalface_improved.xml"
    /// The eye cascade, run in the upper part of each face.
    package static let eyeCascade = "haarcascades/haarcascade_eye.xml"
    /// The smile cascade, run in the lower part of each face.
    package static let smileCascade = "haarcascades/haarcascade_smile.xml"

    /// The face cascade file (absolute, or relative to `cascadeDirectory`).
    package var cascadePath: String
    /// The folder holding OpenCV's `haarcascades/` and `lbpcascades/`.
    package var cascadeDirectory: String
    /// Pyramid step: 1.1 for accuracy high, 1.2 for low.
    package var scaleFactor: Double
    /// A face needs more than this many overlapping raw windows (OpenCV's minNeighbors), default 3.
    package var minNeighbors: Int
    /// Smallest face side in pixels (`--min-face-size`); 0 = the cascade window.
    package var minFaceSize: Int
    /// Faces below this confidence are dropped (`--threshold`), default 0.
    package var minConfidence: Double
    /// Threads scanning a frame; `nil` = every active processor.
    package var threads: Int?
    /// Look for eyes and a smile inside each face (default true).
    package var findFacialFeatures: Bool

    /// Maps the typed settings: `fast` (`--accuracy low`) picks the LBP cascade with scale factor
    /// 1.2, else the Haar cascade with 1.1; `cascadePath` overrides the file; `minFaceSize` and
    /// `threshold` carry over.
    package init(settings: HaarSettings = HaarSettings(), threshold: Double? = nil, minFaceSize: Double = 0) {
        cascadeDirectory = Self.defaultCascadeDirectory
        cascadePath = settings.cascadePath ?? (settings.fast ? Self.fastCascade : Self.accurateCascade)
        scaleFactor = settings.fast ? 1.2 : 1.1
        minNeighbors = 3
        self.minFaceSize = max(0, Int(minFaceSize.isFinite ? minFaceSize.rounded(.up) : 0))
        minConfidence = threshold ?? 0
        threads = nil
        findFacialFeatures = true
    }

    /// `path` itself when absolute, else inside `cascadeDirectory`.
    package func resolve(_ path: String) -> String {
        path.hasPrefix("/") || path.hasPrefix(".") ? path : cascadeDirectory + "/" + path
    }
}
