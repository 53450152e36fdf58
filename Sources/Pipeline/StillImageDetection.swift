import Detection
import FaceCore
import Scheduling

/// Faces in a still image: the whole image at the detector's base size, plus full-resolution
/// tiles when the image is larger than that (so a 4000-pixel photo gives up its 30-pixel faces),
/// merged as the video scheduler merges its passes.
package struct StillImageDetection {
    private let detector: FaceDetector
    private let geometry: DetectionGeometry?

    /// Detects with `detector`, sized for `kind`.
    package init(detector: FaceDetector, kind: DetectorKind) {
        self.detector = detector
        geometry = kind.geometry
    }

    /// The faces of `image`, most confident first.
    package func faces(in image: BGRAImage) throws -> [FaceObservation] {
        let whole = ScheduledPass(kind: .full, region: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)),
                                  pictureWidth: image.width, pictureHeight: image.height)
        var merger = DetectionMerger(width: image.width, height: image.height)
        merger.add(try detector.detect(in: image), from: whole)
        if let geometry {
            let scheduler = DetectionScheduler(width: image.width, height: image.height, geometry: geometry,
                                               configuration: SchedulerConfiguration())
            for (index, region) in scheduler.tileRegions.enumerated() {
                let pass = ScheduledPass(kind: .tile(index: index), region: region, pictureWidth: geometry.tileWidth,
                                         pictureHeight: geometry.tileHeight)
                let picture = BGRAImage(width: pass.pictureWidth, height: pass.pictureHeight)
                image.resample(region, into: picture)
                merger.add(try detector.detect(in: picture), from: pass)
            }
        }
        // A still's rows say `detected` whichever pass found them.
        return merger.merged().map { face in
            var face = face
            face.source = .detected
            return face
        }
    }
}
