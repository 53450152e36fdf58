import FaceCore

/// When a frame needs a close-up pass (`ScheduledPass.Kind.closeUp`): a face that fills or
/// overflows the picture (forehead or chin cut off) is too large for the detector's whole-frame
/// pass, which scores it low, with a box reaching across the picture. Shown smaller, inside a
/// larger black canvas, the same face scores high (docs/scheduling.md, "Close-ups").
///
/// The evidence is the whole-frame pass's own: a candidate, confident or not, below
/// `confidentScore`, whose box is large (`minimumShare` of the frame's height or width) and
/// touches the frame's border, with no confident face and no tracked face over it. Ordinary
/// footage has none, so the pass costs it nothing; a close-up once tracked needs it no more (its
/// crops, whose pictures are small, see it well).
package struct CloseUpRule: Sendable, Equatable {
    /// Candidates from this score up count as evidence (the detector is asked for them).
    package var floor: Double
    /// A face from this score up is found already (the tracker's threshold for a new track).
    package var confidentScore: Double
    /// The candidate's height over the frame's (or width over width) from which it is large.
    package var minimumShare: Double
    /// Frame pixels from the border within which a box touches it.
    package var borderMargin: Double
    /// The canvas's size over the frame's: the frame shows at this fraction of the whole-frame
    /// pass's scale, so a face up to about this many times the frame's height fits.
    package var canvasFactor: Double

    /// Creates a rule; the defaults were measured on the identity corpus's tune half.
    package init(floor: Double = 0.05, confidentScore: Double = 0.5, minimumShare: Double = 0.6, borderMargin: Double = 2,
                canvasFactor: Double = 2) {
        self.floor = floor
        self.confidentScore = confidentScore
        self.minimumShare = minimumShare
        self.borderMargin = borderMargin
        self.canvasFactor = canvasFactor
    }

    /// True when `faces` (a whole-frame pass's on a `width` x `height` picture, weak candidates
    /// included) show a face too large for the picture that no confident face overlaps and none
    /// of `tracked` (boxes in the same pixels) covers.
    package func wantsCloseUp(_ faces: [FaceObservation], width: Int, height: Int, tracked: [Rect] = []) -> Bool {
        let confident = faces.filter { $0.confidence >= confidentScore }.map(\.bounds)
        return faces.contains { face in
            let box = face.bounds
            return face.confidence >= floor && face.confidence < confidentScore && isLarge(box, width: width, height: height)
                && touchesBorder(box, width: width, height: height)
                // A confident face anywhere on a candidate this large is the face, or the
                // candidate is something else (a body, a backdrop).
                && !confident.contains { $0.intersection(box).area > 0 }
                && !tracked.contains { $0.iou(box) > 0.3 || $0.intersection(box).area >= 0.5 * $0.area }
        }
    }

    private func isLarge(_ box: Rect, width: Int, height: Int) -> Bool {
        box.height >= minimumShare * Double(height) || box.width >= minimumShare * Double(width)
    }

    private func touchesBorder(_ box: Rect, width: Int, height: Int) -> Bool {
        box.x <= borderMargin || box.y <= borderMargin || box.maxX >= Double(width) - borderMargin
            || box.maxY >= Double(height) - borderMargin
    }

    /// The close-up pass for a `width` x `height` frame: the frame centred in a canvas
    /// `canvasFactor` times its size, at the whole-frame pass's picture size for that canvas.
    package func pass(width: Int, height: Int, geometry: DetectionGeometry) -> ScheduledPass {
        let w = Double(width) * canvasFactor, h = Double(height) * canvasFactor
        let size = geometry.basePictureSize(width: Int(w.rounded()), height: Int(h.rounded()))
        return ScheduledPass(kind: .closeUp,
                             region: Rect(x: (Double(width) - w) / 2, y: (Double(height) - h) / 2, width: w, height: h),
                             pictureWidth: size.width, pictureHeight: size.height)
    }
}

extension ScheduledPass {
    /// Where the frame lies in a pass whose region reaches beyond a `width` x `height` frame: the
    /// region's part inside the frame and the whole-pixel rectangle of the picture it fills (the
    /// rest of the picture is black). `nil` when the region lies inside the frame (or misses it).
    package func insideFrame(width: Int, height: Int) -> (region: Rect, picture: PixelRect)? {
        let frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        let inside = region.intersection(frame)
        guard inside.area > 0, inside != region else { return nil }
        let sx = Double(pictureWidth) / region.width, sy = Double(pictureHeight) / region.height
        let x0 = Int(((inside.x - region.x) * sx).rounded()), y0 = Int(((inside.y - region.y) * sy).rounded())
        let x1 = Int(((inside.maxX - region.x) * sx).rounded()), y1 = Int(((inside.maxY - region.y) * sy).rounded())
        guard x1 > x0, y1 > y0 else { return nil }
        return (inside, PixelRect(x0: x0, y0: y0, x1: min(x1, pictureWidth), y1: min(y1, pictureHeight)))
    }

    /// The region a padded picture shows when its `picture` part holds `sampled` (frame pixels):
    /// the picture's pixels mapped back through the part's own scale.
    package func paddedRegion(sampled: Rect, picture: PixelRect) -> Rect {
        let sx = Double(picture.x1 - picture.x0) / sampled.width, sy = Double(picture.y1 - picture.y0) / sampled.height
        return Rect(x: sampled.x - Double(picture.x0) / sx, y: sampled.y - Double(picture.y0) / sy,
                    width: Double(pictureWidth) / sx, height: Double(pictureHeight) / sy)
    }
}
