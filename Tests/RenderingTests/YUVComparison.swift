import FaceCore
import XCTest
@testable import Rendering

/// How far the YUV renderer's picture is from the BGRA renderer's after the pipeline's round trip
/// (to BGRA, upright, draw, back to the stored orientation, to YUV with each chroma sample the mean
/// of its footprint). Differences are in steps of the 8-bit scale, whatever the bit depth.
struct YUVComparison {
    /// Largest luma difference.
    var luma = 0.0
    /// Largest chroma difference.
    var chroma = 0.0
    /// Largest distance of a chroma sample from the range of chroma values the BGRA result's pixels
    /// show in its footprint (0 when it lies between the footprint's extremes).
    var chromaBeyondFootprint = 0.0
    /// Chroma samples (either plane) more than 4 steps from the reference.
    var chromaSamplesOff = 0
    /// Chroma samples whose footprint holds a pixel the BGRA renderer changed.
    var chromaSamplesDrawn = 0
    /// Samples changed by the YUV renderer although the BGRA renderer changed nothing within two
    /// pixels of them.
    var strayChanges = 0
    /// Luma pixels the BGRA renderer changed (so a comparison cannot pass by drawing nothing).
    var changedPixels = 0
    /// False when the YUV renderer wrote outside its planes (guard bytes or row padding).
    var stayedInside = true

    /// Draws `faces` with both renderers on `frame`, stored turned by `orientation`, and compares.
    init(_ configuration: OverlayConfiguration, faces: [TrackedFace], frame: YUVTestFrame,
         orientation: ImageOrientation = .up) {
        let stored = frame.bgra
        let size = orientation.uprightSize(width: frame.width, height: frame.height)
        let upright = BGRAImage(width: size.width, height: size.height)
        BGRAImage.makeUpright(stored, orientation: orientation, into: upright)
        OverlayRenderer(configuration: configuration).render(faces, on: upright)
        let drawn = BGRAImage(width: frame.width, height: frame.height)
        BGRAImage.restoreStored(upright, orientation: orientation, into: drawn)
        let reference = frame.converted(from: drawn)

        let result = frame.copy()
        YUVOverlayRenderer(configuration: configuration, encoding: frame.encoding)
            .render(faces, on: result.image, orientation: orientation)
        stayedInside = result.outsideIsIntact

        // Pixels the BGRA renderer changed, grown by two pixels each way.
        let w = frame.width, h = frame.height
        var near = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            for x in 0..<w where stored.pixel(x: x, y: y) != drawn.pixel(x: x, y: y) {
                changedPixels += 1
                for ny in max(0, y - 2)...min(h - 1, y + 2) {
                    for nx in max(0, x - 2)...min(w - 1, x + 2) { near[ny * w + nx] = true }
                }
            }
        }
        let unit = Double(frame.unit)
        let original = (0..<3).map(frame.values), drawnYUV = (0..<3).map(result.values)
        let expected = (0..<3).map(reference.values)
        for i in 0..<(w * h) {
            luma = max(luma, Double(abs(drawnYUV[0][i] - expected[0][i])) / unit)
            if !near[i], drawnYUV[0][i] != original[0][i] { strayChanges += 1 }
        }
        let (shownCb, shownCr) = reference.pixelChroma
        let (sx, sy) = (frame.subsampling.shiftX, frame.subsampling.shiftY), cw = frame.sizes[1].width
        for cy in 0..<frame.sizes[1].height {
            for cx in 0..<cw {
                var footprintNear = false, shown: [[Double]] = [[], []]
                for y in (cy << sy)..<min((cy + 1) << sy, h) {
                    for x in (cx << sx)..<min((cx + 1) << sx, w) {
                        shown[0].append(shownCb[y * w + x])
                        shown[1].append(shownCr[y * w + x])
                        footprintNear = footprintNear || near[y * w + x]
                    }
                }
                let c = cy * cw + cx
                var off = false
                for plane in 1...2 {
                    let value = Double(drawnYUV[plane][c])
                    chroma = max(chroma, abs(value - Double(expected[plane][c])) / unit)
                    off = off || abs(value - Double(expected[plane][c])) / unit > 4
                    let beyond = max(0, shown[plane - 1].min()! - value, value - shown[plane - 1].max()!)
                    chromaBeyondFootprint = max(chromaBeyondFootprint, beyond / unit)
                    if !footprintNear, drawnYUV[plane][c] != original[plane][c] { strayChanges += 1 }
                }
                if off { chromaSamplesOff += 1 }
                if footprintNear { chromaSamplesDrawn += 1 }
            }
        }
    }

    /// Fails unless luma and chroma are within the tolerances, nothing changed away from the
    /// overlays, nothing was written outside the planes, and the BGRA renderer drew something.
    func check(luma lumaTolerance: Double, chroma chromaTolerance: Double, _ context: String,
               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertLessThanOrEqual(luma, lumaTolerance, "luma, \(context)", file: file, line: line)
        XCTAssertLessThanOrEqual(chroma, chromaTolerance, "chroma, \(context)", file: file, line: line)
        checkPlacement(context, file: file, line: line)
    }

    /// Fails if the YUV renderer changed pixels away from the overlays or wrote outside its planes,
    /// or if the BGRA renderer drew nothing.
    func checkPlacement(_ context: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(strayChanges, 0, "changes away from the overlays, \(context)", file: file, line: line)
        XCTAssertTrue(stayedInside, "wrote outside the planes, \(context)", file: file, line: line)
        XCTAssertGreaterThan(changedPixels, 0, "nothing drawn, \(context)", file: file, line: line)
    }
}
