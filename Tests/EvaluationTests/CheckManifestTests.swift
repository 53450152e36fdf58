import Evaluation
import Foundation
import XCTest

/// Manifest parsing, thresholds and the JUnit report.
final class CheckManifestTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["a.mp4", "a.truth.csv"] { try Data().write(to: URL(fileURLWithPath: folder.appendingPathComponent(name).path)) }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func load(_ text: String) throws -> CheckManifest {
        let path = folder.appendingPathComponent("manifest.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try CheckManifest.load(path: path)
    }

    private func error(_ text: String) -> String {
        do { _ = try load(text); return "no error" } catch { return "\(error)".replacingOccurrences(of: folder.path + "/", with: "") }
    }

    func testReadsEntriesWithDefaults() throws {
        let manifest = try load("""
        {"clips": [
          {"clip": "a.mp4", "truth": "a.truth.csv", "options": ["--detector", "blazeface"],
           "thresholds": {"recall": 0.9, "id_switches": 0}}
        ]}
        """)
        let entry = try XCTUnwrap(manifest.entries.first)
        XCTAssertEqual(entry.name, "a")
        XCTAssertEqual(entry.clip, folder.appendingPathComponent("a.mp4").path)
        XCTAssertEqual(entry.golden, folder.appendingPathComponent("golden/a.csv").path)
        XCTAssertEqual(entry.options, ["--detector", "blazeface"])
        XCTAssertEqual(entry.iou, 0.5)
        XCTAssertEqual(entry.line, 2)
        XCTAssertEqual(entry.thresholds.map(\.metric), ["id_switches", "recall"])
    }

    func testMissingClipNamesFileAndLine() {
        XCTAssertEqual(error("""
        {"clips": [
          {"clip": "a.mp4", "truth": "a.truth.csv", "thresholds": {"recall": 0.9}},
          {"clip": "gone.mp4", "truth": "a.truth.csv", "thresholds": {"recall": 0.9}}
        ]}
        """), "manifest.json:3: clip 2: clip file gone.mp4 does not exist")
    }

    func testMalformedJSONNamesLine() {
        let message = error("{\"clips\": [\n  {\"clip\": \"a.mp4\",\n   \"truth\": }\n]}\n")
        XCTAssertTrue(message.hasPrefix("manifest.json:3: malformed JSON"), message)
    }

    func testShapeErrors() {
        XCTAssertEqual(error(""), "manifest.json: empty file")
        XCTAssertEqual(error("[1]"), "manifest.json: expected an object with a \"clips\" array")
        XCTAssertEqual(error("{\"clips\": []}"), "manifest.json: \"clips\" is empty")
        XCTAssertEqual(error("{\"clips\": [{\"clip\": \"a.mp4\", \"truth\": \"a.truth.csv\"}]}"),
                       "manifest.json:1: clip 1 (a.mp4) has no thresholds: it could never fail")
        XCTAssertTrue(error("{\"clips\": [{\"clip\": \"a.mp4\", \"truth\": \"a.truth.csv\", \"thresholds\": {\"speed\": 1}}]}")
            .contains("unknown metric 'speed'"))
        XCTAssertTrue(error("{\"clips\": [{\"clip\": \"a.mp4\", \"truth\": \"a.truth.csv\", \"options\": \"-x\", \"thresholds\": {\"recall\": 1}}]}")
            .contains("\"options\" must be an array of strings"))
    }

    func testThresholdDirectionsAndUndefinedMetricsFail() throws {
        let result = EvaluationResult(iouThreshold: 0.5, frames: 1, truthFaces: 0, predictedFaces: 0, untrackedPredictions: 0,
                                      detection: DetectionMetrics(), tracking: TrackingMetrics())
        XCTAssertEqual(Threshold(metric: "recall", limit: 0.5)?.failure(in: result), "recall n/a (needs >= 0.5000)")
        XCTAssertNil(Threshold(metric: "false_positives", limit: 0)?.failure(in: result))
        var detection = DetectionMetrics()
        detection.truePositives = 8
        detection.misses = 2
        detection.falsePositives = 3
        let scored = EvaluationResult(iouThreshold: 0.5, frames: 1, truthFaces: 10, predictedFaces: 11, untrackedPredictions: 0,
                                      detection: detection, tracking: TrackingMetrics())
        XCTAssertEqual(Threshold(metric: "recall", limit: 0.9)?.failure(in: scored), "recall 0.8000 < 0.9000")
        XCTAssertNil(Threshold(metric: "recall", limit: 0.8)?.failure(in: scored))
        XCTAssertEqual(Threshold(metric: "false_positives", limit: 2)?.failure(in: scored), "false_positives 3 > 2")
        XCTAssertNil(Threshold(metric: "frames", limit: 1), "counts of the input are not metrics to threshold")
    }

    func testJUnitReport() {
        let report = JUnitReport(suite: "facetrack check", cases: [
            .init(name: "ok", seconds: 1.5, failures: [], error: nil, output: "recall 1.0000"),
            .init(name: "bad<1>", seconds: 2, failures: ["recall 0.5 < 0.9", "idf1 \"x\""], error: nil, output: ""),
            .init(name: "broken", seconds: 0, failures: [], error: "clip & truth missing", output: ""),
        ])
        let xml = report.xml()
        XCTAssertTrue(xml.contains("<testsuite name=\"facetrack check\" tests=\"3\" failures=\"1\" errors=\"1\" time=\"3.500\">"), xml)
        XCTAssertTrue(xml.contains("name=\"bad&lt;1&gt;\""))
        XCTAssertTrue(xml.contains("<failure message=\"recall 0.5 &lt; 0.9; idf1 &quot;x&quot;\">"))
        XCTAssertTrue(xml.contains("<error message=\"clip &amp; truth missing\"/>"))
        XCTAssertEqual(xml.components(separatedBy: "<testcase ").count - 1, 3)
    }
}
