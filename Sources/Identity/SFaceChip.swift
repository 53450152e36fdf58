import FaceCore

/// SFace's aligned face chip: the 112x112 picture OpenCV Zoo's SFace network expects, cut from a
/// frame with the least-squares similarity that puts the face's eyes and mouth centre where the
/// ArcFace five-point template has them.
///
/// The template (eyes (38.2946, 51.6963) and (73.5318, 51.5014), nose (56.0252, 71.7366), mouth
/// corners (41.5493, 92.3655) and (70.7299, 92.2041)) is in pixel indices, as OpenCV's
/// `warpAffine` uses it with its detectors' landmarks; here it is in continuous coordinates (a
/// pixel's centre at +0.5), and the face's landmarks are taken as pixel indices too (moved by
/// +0.5), as scripts/reference/embedding_candidates.py took them for the embeddings docs/identity.md
/// measured: half a frame pixel moves SFace's output by about 0.01 in cosine on a 240-pixel photo.
/// The detectors give a mouth centre, not its corners: it goes to the corners' midpoint. The nose
/// is not used (the study fitted the eyes and the mouth only).
package struct SFaceChip: Sendable, Equatable {
    /// The chip's side in pixels.
    package static let size = 112
    /// Template centre of the eye on the chip's left (the subject's right eye).
    package static let leftEye = Point(x: 38.2946 + 0.5, y: 51.6963 + 0.5)
    /// Template centre of the eye on the chip's right.
    package static let rightEye = Point(x: 73.5318 + 0.5, y: 51.5014 + 0.5)
    /// Template mouth centre (the midpoint of the template's mouth corners).
    package static let mouth = Point(x: (41.5493 + 70.7299) / 2 + 0.5, y: (92.3655 + 92.2041) / 2 + 0.5)

    /// Maps frame pixels to chip pixels.
    package let frameToChip: SimilarityTransform

    /// A chip with an explicit transform.
    package init(frameToChip: SimilarityTransform) {
        self.frameToChip = frameToChip
    }

    /// The chip of `face`, fitted (least squares) to its eyes and mouth centre (pixel indices);
    /// nil without both eyes and the mouth, or when the points are degenerate.
    package init?(face: FaceObservation) {
        guard let left = face.leftEye, let right = face.rightEye, let mouth = face.mouth, left.isFinite, right.isFinite,
              mouth.isFinite else { return nil }
        let points = [left, right, mouth].map { Point(x: $0.x + 0.5, y: $0.y + 0.5) }
        guard let transform = SimilarityTransform(from: points, to: [Self.leftEye, Self.rightEye, Self.mouth]),
              transform.scale > 1e-3, transform.scale < 1e3 else { return nil }
        frameToChip = transform
    }

    /// Writes the chip as `size * size * 3` floats, rows top to bottom, red, green, blue per pixel,
    /// 0...255; bilinear, black outside the frame, sampled from the frame itself whatever the
    /// face's size (as OpenCV's `warpAffine`, which the study's embeddings used).
    package func sample(_ image: BGRAImage, into output: UnsafeMutableBufferPointer<Float>) {
        guard let chipToFrame = frameToChip.inverse else { return }
        ChipSampler.sample(image, chipToFrame: chipToFrame, size: Self.size, into: output, means: [0, 0, 0], scale: 1,
                           mirrorAxis: nil, downscale: 1)
    }
}
