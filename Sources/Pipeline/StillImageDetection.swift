import Detection
import FaceCore
import Scheduling

/// Faces in a still image: the whole image at the detector's base size, plus full-resolution
/// tiles when the image is larger than that (so a 4000-pixel photo gives up its 30-pixel faces),
/// and a close-up pass when the whole image shows a face too large for it (`CloseUpRule`),
/// merged as the video scheduler merges its passes.
package struct StillImageDetection {
    private let detector: FaceDetector
    private let geometry: DetectionGeometry?
    private let closeUp: CloseUpRule

    /// Detects with `detector`, sized for `kind`; a close-up pass runs for a weak, large face at
    /// the image's border with no face from `kind`'s track threshold over it.
    package init(detector: FaceDetector, kind: DetectorKind) {
        self.detector = detector
        geometry = kind.geometry
        closeUp = CloseUpRule(confidentScore: kind.defaultTrackThreshold)
    }

    /// The faces of `image`, most confident first.
    package func faces(in image: BGRAImage) throws -> [FaceObservation] {
        let whole = ScheduledPass(kind: .full, region: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)),
                                  pictureWidth: image.width, pictureHeight: image.height)
        var merger = DetectionMerger(width: image.width, height: image.height)
        if let weakDetector = detector as? WeakCandidateDetector, let geometry {
            let found = try weakDetector.detect(in: image, weakFrom: closeUp.floor)
            merger.add(found.faces, from: whole)
            if closeUp.wantsCloseUp(found.faces + found.weak, width: image.width, height: image.height) {
                let pass = closeUp.pass(width: image.width, height: image.height, geometry: geometry)
                let picture = BGRAImage(width: pass.pictureWidth, height: pass.pictureHeight)
                picture.fill(b: 0, g: 0, r: 0)
                if let inside = pass.insideFrame(width: image.width, height: image.height) {
                    let part = BGRAImage(width: inside.picture.width, height: inside.picture.height)
                    image.resample(inside.region, into: part)
                    picture.paste(part, x: inside.picture.x0, y: inside.picture.y0)
                    var shown = pass
                    shown.region = pass.paddedRegion(sampled: inside.region, picture: inside.picture)
                    merger.add(try detector.detect(in: picture), from: shown)
                }
            }
        } else {
            merger.add(try detector.detect(in: image), from: whole)
        }
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
