// Times the overlay renderers on a 1920x1080 frame with 10 faces of about 150x150 pixels (eyes,
// mouth, track IDs): median and 90th-percentile milliseconds per frame for each overlay set, on
// BGRA (OverlayRenderer) and on 8-bit 4:2:0 YUV, the encoder's format (YUVOverlayRenderer),
// stored upright and stored turned a quarter (drawn in place by mapping coordinates).
// Arguments: runs per case (default 200), and optionally part of a case name to run only those.
import BenchmarkTiming
import FaceCore
import Rendering

let width = 1920, height = 1080, faceSize = 150.0
let iterations = CommandLine.arguments.count > 1 ? max(5, Int(CommandLine.arguments[1]) ?? 200) : 200
/// Only the cases whose name contains this text (for profiling one case), if given.
let only = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : nil

/// A busy, deterministic texture value for channel `c` at (x, y), so blur and pixelate do real work.
func texture(_ x: Int, _ y: Int, _ c: Int, _ state: inout UInt32) -> UInt8 {
    state = state &* 1_664_525 &+ 1_013_904_223
    switch c {
    case 0: return UInt8(truncatingIfNeeded: x &+ Int(state >> 27))
    case 1: return UInt8(truncatingIfNeeded: y &+ Int(state >> 26))
    default: return UInt8(truncatingIfNeeded: (x ^ y) &+ Int(state >> 28))
    }
}

func makeFrame() -> BGRAImage {
    let image = BGRAImage(width: width, height: height)
    var state: UInt32 = 12345
    for y in 0..<height {
        let row = image.row(y)
        for x in 0..<width {
            let p = row + x * 4
            for c in 0..<3 { p[c] = texture(x, y, c, &state) }
            p[3] = 255
        }
    }
    return image
}

/// An 8-bit 4:2:0 picture in one buffer: Y, then Cb, then Cr, rows 64-byte aligned like FFmpeg's.
final class YUVBuffer: @unchecked Sendable {
    let strides = [(width + 63) & ~63, (width / 2 + 63) & ~63, (width / 2 + 63) & ~63]
    let offsets: [Int]
    let byteCount: Int
    let bytes: UnsafeMutableRawPointer

    init() {
        offsets = [0, strides[0] * height, strides[0] * height + strides[1] * height / 2]
        byteCount = offsets[2] + strides[2] * height / 2
        bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        var state: UInt32 = 12345
        for plane in 0..<3 {
            let (w, h) = plane == 0 ? (width, height) : (width / 2, height / 2)
            for y in 0..<h {
                for x in 0..<w { bytes.storeBytes(of: texture(x, y, plane, &state), toByteOffset: offsets[plane] + y * strides[plane] + x, as: UInt8.self) }
            }
        }
    }

    deinit { bytes.deallocate() }

    func image(_ encoding: YUVEncoding, storedWidth: Int, storedHeight: Int) -> YUVImage {
        // A picture stored turned a quarter is height x width; the buffer is big enough either way.
        let strides = storedWidth == width ? self.strides : [(height + 63) & ~63, (height / 2 + 63) & ~63, (height / 2 + 63) & ~63]
        guard let image = YUVImage(width: storedWidth, height: storedHeight, subsampling: .yuv420, encoding: encoding,
                                   luma: bytes, lumaStride: strides[0], cb: bytes + offsets[1], cbStride: strides[1],
                                   cr: bytes + offsets[2], crStride: strides[2]) else { fatalError("bad picture") }
        return image
    }
}

/// Ten faces in two rows of five, each with eyes, mouth, a track ID and a confidence.
func makeFaces() -> [TrackedFace] {
    (0..<10).map { i in
        let x = 120.0 + Double(i % 5) * 350, y = 250.0 + Double(i / 5) * 420
        var face = FaceObservation(bounds: Rect(x: x, y: y, width: faceSize, height: faceSize), confidence: 0.9)
        face.leftEye = Point(x: x + 0.3 * faceSize, y: y + 0.4 * faceSize)
        face.rightEye = Point(x: x + 0.7 * faceSize, y: y + 0.4 * faceSize)
        face.mouth = Point(x: x + 0.5 * faceSize, y: y + 0.75 * faceSize)
        face.hasSmile = i % 2 == 0
        return TrackedFace(observation: face, trackID: i + 1, trackFrameCount: 10)
    }
}

let pristine = makeFrame()
let work = BGRAImage(width: width, height: height)
let pristineYUV = YUVBuffer(), workYUV = YUVBuffer()
let encoding = YUVEncoding(matrix: .bt709, range: .limited)
let faces = makeFaces()

/// Runs `restore` (untimed) and `body` (timed) `iterations` times; returns (median, p90) in milliseconds.
func measure(restore: () -> Void, _ body: () -> Void) -> (Double, Double) {
    var times: [Double] = []
    for _ in 0..<iterations {
        restore()
        times.append(Timing.measure(body).wall)
    }
    times.sort()
    return (times[times.count / 2], times[times.count * 9 / 10])
}
func restoreBGRA() { work.pixels.update(from: pristine.pixels, count: pristine.bytesPerRow * height) }
func restoreYUV() { workYUV.bytes.copyMemory(from: pristineYUV.bytes, byteCount: pristineYUV.byteCount) }

/// One close-up face of 600 x 600 pixels, as in a video call.
let closeUp = [TrackedFace(observation: FaceObservation(bounds: Rect(x: 660, y: 200, width: 600, height: 600),
                                                        confidence: 0.9), trackID: 1)]

/// One face larger than the frame, the worst case for blur (the whole frame is blurred).
let hugeFace = [TrackedFace(observation: FaceObservation(bounds: Rect(x: 200, y: -300, width: 1500, height: 1600),
                                                         confidence: 0.9), trackID: 1)]

/// A 128 x 128 emoji-like picture: an opaque disc on transparency, for `--anonymize image:FILE`.
let disc: MaskImage? = {
    let image = BGRAImage(width: 128, height: 128)
    for y in 0..<128 {
        for x in 0..<128 {
            let inside = (Double(x) - 63.5) * (Double(x) - 63.5) + (Double(y) - 63.5) * (Double(y) - 63.5) < 60 * 60
            image.setPixel(x: x, y: y, b: 0, g: 210, r: 255, a: inside ? 255 : 0)
        }
    }
    return try? MaskImage(image: image)
}()

let cases: [(name: String, target: Double?, configuration: OverlayConfiguration, faces: [TrackedFace])] = [
    ("boxes+eyes+labels", 1, OverlayConfiguration(kinds: [.boxes, .eyes, .labels]), faces),
    ("boxes+eyes+mouth+labels", nil, OverlayConfiguration(kinds: [.boxes, .eyes, .mouth, .labels]), faces),
    ("heart sprites (eyes)", 2, OverlayConfiguration(kinds: [.eyes], eyeSprite: Sprite.heart()), faces),
    ("blur (mask 1.3)", 5, OverlayConfiguration(kinds: [], anonymize: .blur), faces),
    ("pixelate (mask 1.3)", nil, OverlayConfiguration(kinds: [], anonymize: .pixelate), faces),
    ("fill (mask 1.3)", nil, OverlayConfiguration(kinds: [], anonymize: .fill), faces),
    ("image 128 px (mask 1.3)", nil, OverlayConfiguration(kinds: [], anonymize: .image, maskImage: disc), faces),
    ("blur, box (mask 1.3)", nil, OverlayConfiguration(kinds: [], anonymize: .blur, maskShape: .box), faces),
    ("fill, box (mask 1.3)", nil, OverlayConfiguration(kinds: [], anonymize: .fill, maskShape: .box), faces),
    ("blur, 1 face 600x600", nil, OverlayConfiguration(kinds: [], anonymize: .blur), closeUp),
    ("blur, 1 face > frame", nil, OverlayConfiguration(kinds: [], anonymize: .blur), hugeFace),
]

print("overlay-bench: \(width)x\(height) frame, \(faces.count) faces of \(Int(faceSize))x\(Int(faceSize)), "
      + "\(iterations) runs each; milliseconds per frame, median / p90")
print(pad("") + column("BGRA") + column("YUV 4:2:0") + column("YUV, stored 90°") + "YUV/BGRA")
let copy = measure(restore: {}, restoreBGRA)
print(pad("full-frame BGRA copy") + column(format(copy)) + "(context only)")
for item in cases where only.map(item.name.contains) ?? true {
    let bgra = OverlayRenderer(configuration: item.configuration)
    let yuv = YUVOverlayRenderer(configuration: item.configuration, encoding: encoding)
    let upright = workYUV.image(encoding, storedWidth: width, storedHeight: height)
    let turned = workYUV.image(encoding, storedWidth: height, storedHeight: width)
    let a = measure(restore: restoreBGRA) { bgra.render(item.faces, on: work) }
    let b = measure(restore: restoreYUV) { yuv.render(item.faces, on: upright) }
    let c = measure(restore: restoreYUV) { yuv.render(item.faces, on: turned, orientation: .right) }
    let verdict = item.target.map { b.0 <= $0 ? "   YUV target <= \(format1($0)) ms: met" : "   YUV target <= \(format1($0)) ms: MISSED" } ?? ""
    print(pad(item.name) + column(format(a)) + column(format(b)) + column(format(c)) + format1(b.0 / a.0) + verdict)
}

func pad(_ name: String) -> String { name + String(repeating: " ", count: max(1, 26 - name.count)) }
func column(_ text: String) -> String { text + String(repeating: " ", count: max(1, 18 - text.count)) }
func format1(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
func format(_ result: (Double, Double)) -> String { "\(format1(result.0)) / \(format1(result.1))" }
