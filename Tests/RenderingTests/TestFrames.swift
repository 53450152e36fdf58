import FaceCore
@testable import Rendering

/// Synthetic frames and faces shared by the rendering tests.
enum TestFrames {
    /// A frame of one opaque grey.
    static func gray(_ width: Int, _ height: Int, level: UInt8 = 100) -> BGRAImage {
        let image = BGRAImage(width: width, height: height)
        image.fill(b: level, g: level, r: level)
        return image
    }

    /// A frame of deterministic pseudo-random opaque pixels.
    static func noise(_ width: Int, _ height: Int, seed: UInt32 = 7) -> BGRAImage {
        let image = BGRAImage(width: width, height: height)
        var state = seed
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                image.setPixel(x: x, y: y, b: UInt8(truncatingIfNeeded: state >> 24),
                               g: UInt8(truncatingIfNeeded: state >> 16), r: UInt8(truncatingIfNeeded: state >> 8))
            }
        }
        return image
    }

    /// A tracked face with a box and, optionally, eyes and a mouth.
    static func face(_ bounds: Rect, confidence: Double = 0.9, trackID: Int? = 1, smile: Bool? = nil,
                     leftEye: Point? = nil, rightEye: Point? = nil, mouth: Point? = nil,
                     source: ObservationSource = .detected) -> TrackedFace {
        var observation = FaceObservation(bounds: bounds, confidence: confidence)
        observation.hasSmile = smile
        observation.leftEye = leftEye
        observation.rightEye = rightEye
        observation.mouth = mouth
        return TrackedFace(observation: observation, trackID: trackID, source: source)
    }

    /// Faces with coordinates a renderer must skip or clip: not finite, negative, absurdly far or
    /// large, tiny, and partly outside a frame of about 37 x 23.
    static let oddFaces: [TrackedFace] = [
        face(Rect(x: .nan, y: 10, width: 20, height: 20)),
        face(Rect(x: 10, y: 10, width: .infinity, height: 20)),
        face(Rect(x: 10, y: 10, width: -5, height: 20)),
        face(Rect(x: 1e300, y: -1e300, width: 1e300, height: 1e300)),
        face(Rect(x: -1e12, y: -1e12, width: 3e12, height: 3e12), leftEye: Point(x: 1e12, y: 5),
             rightEye: Point(x: -1e12, y: 5), mouth: Point(x: 5, y: 1e15)),
        face(Rect(x: 5, y: 5, width: 20, height: 20), confidence: .nan, trackID: Int.max,
             leftEye: Point(x: .nan, y: 3), rightEye: Point(x: 10, y: .infinity), mouth: Point(x: .nan, y: .nan)),
        face(Rect(x: 36.9, y: 22.9, width: 1, height: 1), leftEye: Point(x: 37, y: 23),
             rightEye: Point(x: 37, y: 23), mouth: Point(x: 37, y: 24)),
        face(Rect(x: -30, y: -30, width: 100, height: 100), leftEye: Point(x: -5, y: -5),
             rightEye: Point(x: 40, y: 30), mouth: Point(x: 36, y: 23)),
        face(Rect(x: -1e9, y: 3, width: 2e9 + 10, height: 0.3)),
    ]

    /// One pixel as [b, g, r, a].
    static func pixel(_ image: BGRAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let p = image.pixel(x: x, y: y)
        return [p.b, p.g, p.r, p.a]
    }

    /// True when the two frames hold the same bytes, row padding included.
    static func identical(_ a: BGRAImage, _ b: BGRAImage) -> Bool {
        guard a.width == b.width, a.height == b.height, a.bytesPerRow == b.bytesPerRow else { return false }
        for y in 0..<a.height where !(0..<a.bytesPerRow).allSatisfy({ a.row(y)[$0] == b.row(y)[$0] }) {
            return false
        }
        return true
    }

    /// The pixels that differ between two frames of the same size.
    static func changedPixels(_ a: BGRAImage, _ b: BGRAImage) -> [(x: Int, y: Int)] {
        var changed: [(x: Int, y: Int)] = []
        for y in 0..<a.height {
            for x in 0..<a.width where pixel(a, x, y) != pixel(b, x, y) { changed.append((x, y)) }
        }
        return changed
    }

    /// True when every byte after the last pixel of every row is still zero.
    static func paddingIsClean(_ image: BGRAImage) -> Bool {
        (0..<image.height).allSatisfy { y in
            (image.width * 4..<image.bytesPerRow).allSatisfy { image.row(y)[$0] == 0 }
        }
    }

    static let red: [UInt8] = [0, 0, 255, 255]
    static let green: [UInt8] = [0, 255, 0, 255]
    static let magenta: [UInt8] = [255, 0, 255, 255]
    static func grayPixel(_ level: UInt8 = 100) -> [UInt8] { [level, level, level, 255] }
}
