// Times the overlay renderer on a 1920x1080 frame with 10 faces of about 150x150 pixels (eyes,
// mouth, track IDs): median and 90th-percentile milliseconds per frame for each overlay set.
import FaceCore
import Rendering

let width = 1920, height = 1080, faceSize = 150.0
let iterations = CommandLine.arguments.count > 1 ? max(5, Int(CommandLine.arguments[1]) ?? 200) : 200

/// A frame with a busy, deterministic texture, so blur and pixelate do real work.
func makeFrame() -> BGRAImage {
    let image = BGRAImage(width: width, height: height)
    var state: UInt32 = 12345
    for y in 0..<height {
        let row = image.row(y)
        for x in 0..<width {
            state = state &* 1_664_525 &+ 1_013_904_223
            let p = row + x * 4
            p[0] = UInt8(truncatingIfNeeded: x &+ Int(state >> 27))
            p[1] = UInt8(truncatingIfNeeded: y &+ Int(state >> 26))
            p[2] = UInt8(truncatingIfNeeded: (x ^ y) &+ Int(state >> 28))
            p[3] = 255
        }
    }
    return image
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
let faces = makeFaces()
let clock = ContinuousClock()

/// Restores the frame before each run (untimed) and returns (median, p90) in milliseconds.
func measure(_ body: () -> Void) -> (Double, Double) {
    var times: [Double] = []
    for _ in 0..<iterations {
        work.pixels.update(from: pristine.pixels, count: pristine.bytesPerRow * height)
        let elapsed = clock.measure(body)
        times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
    }
    times.sort()
    return (times[times.count / 2], times[times.count * 9 / 10])
}

/// One close-up face of 600 x 600 pixels, as in a video call.
let closeUp = [TrackedFace(observation: FaceObservation(bounds: Rect(x: 660, y: 200, width: 600, height: 600),
                                                        confidence: 0.9), trackID: 1)]

/// One face larger than the frame, the worst case for blur (the whole frame is blurred).
let hugeFace = [TrackedFace(observation: FaceObservation(bounds: Rect(x: 200, y: -300, width: 1500, height: 1600),
                                                         confidence: 0.9), trackID: 1)]

let cases: [(name: String, target: Double?, configuration: OverlayConfiguration, faces: [TrackedFace])] = [
    ("boxes+eyes+labels", 1, OverlayConfiguration(kinds: [.boxes, .eyes, .labels]), faces),
    ("boxes+eyes+mouth+labels", nil, OverlayConfiguration(kinds: [.boxes, .eyes, .mouth, .labels]), faces),
    ("heart sprites (eyes)", 2, OverlayConfiguration(kinds: [.eyes], eyeSprite: Sprite.heart()), faces),
    ("blur (mask 1.3)", 5, OverlayConfiguration(kinds: [], anonymize: .blur), faces),
    ("pixelate (mask 1.3)", nil, OverlayConfiguration(kinds: [], anonymize: .pixelate), faces),
    ("fill (mask 1.3)", nil, OverlayConfiguration(kinds: [], anonymize: .fill), faces),
    ("blur, 1 face 600x600", nil, OverlayConfiguration(kinds: [], anonymize: .blur), closeUp),
    ("blur, 1 face > frame", nil, OverlayConfiguration(kinds: [], anonymize: .blur), hugeFace),
]

print("overlay-bench: \(width)x\(height) frame, \(faces.count) faces of \(Int(faceSize))x\(Int(faceSize)), "
      + "\(iterations) runs each")
let copy = measure { work.pixels.update(from: pristine.pixels, count: pristine.bytesPerRow * height) }
print(pad("full-frame copy (reference)") + format(copy) + "   (context only)")
for item in cases {
    let renderer = OverlayRenderer(configuration: item.configuration)
    let result = measure { renderer.render(item.faces, on: work) }
    let verdict = item.target.map { result.0 <= $0 ? "   target <= \(format1($0)) ms: met" : "   target <= \(format1($0)) ms: MISSED" } ?? ""
    print(pad(item.name) + format(result) + verdict)
}

func pad(_ name: String) -> String { name + String(repeating: " ", count: max(1, 28 - name.count)) }
func format1(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
func format(_ result: (Double, Double)) -> String { "median \(format1(result.0)) ms   p90 \(format1(result.1)) ms" }
