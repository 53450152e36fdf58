import FaceCore
import Foundation
import XCTest
@testable import Detection

/// Paths of the committed fixtures and of OpenCV's cascade files.
enum HaarFixtures {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/haar").path
    static func path(_ name: String) -> String { directory + "/" + name }
    static func gray(_ name: String) throws -> GrayImage { try PortableAnymap.readGray(path: path(name + ".pgm")) }
    static func cascade(_ relative: String) -> String { HaarCascadeOptions.defaultCascadeDirectory + "/" + relative }

    /// Reads an `image,x,y,w,h,neighbors` CSV into boxes per image.
    static func referenceBoxes(_ file: String) throws -> [String: [PixelRect]] {
        let text = try String(contentsOfFile: path(file), encoding: .utf8)
        var boxes: [String: [PixelRect]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            guard f.count >= 5, let x = Int(f[1]), let y = Int(f[2]), let w = Int(f[3]), let h = Int(f[4]) else { continue }
            boxes[f[0], default: []].append(PixelRect(x: x, y: y, width: w, height: h))
        }
        return boxes
    }
}

/// The agreement measure of the task: the share of OpenCV's boxes matched by one of ours at
/// IoU >= 0.8, and the share of our boxes matching none of OpenCV's.
struct BoxAgreement {
    var reference = 0, matched = 0, ours = 0, extra = 0

    static func iou(_ a: PixelRect, _ b: PixelRect) -> Double {
        let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        let h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        guard w > 0, h > 0 else { return 0 }
        let inter = Double(w * h)
        return inter / (Double(a.width * a.height + b.width * b.height) - inter)
    }

    mutating func add(reference refs: [PixelRect], ours mine: [PixelRect]) {
        reference += refs.count
        ours += mine.count
        matched += refs.filter { r in mine.contains { Self.iou($0, r) >= 0.8 } }.count
        extra += mine.filter { m in !refs.contains { Self.iou($0, m) >= 0.8 } }.count
    }

    var matchedShare: Double { reference == 0 ? 1 : Double(matched) / Double(reference) }
    var extraShare: Double { ours == 0 ? 0 : Double(extra) / Double(ours) }
}
