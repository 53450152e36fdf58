import Foundation
import XCTest
@testable import Detection

final class CascadeLoaderTests: XCTestCase {
    func testLoadsHaarCascade() throws {
        let model = try CascadeModel(contentsOf: HaarFixtures.cascade("haarcascades/haarcascade_frontalface_default.xml"))
        XCTAssertEqual(model.featureType, .haar)
        XCTAssertEqual(model.windowWidth, 24)
        XCTAssertEqual(model.windowHeight, 24)
        XCTAssertEqual(model.stages.count, 25)
        XCTAssertEqual(model.maxNodesPerTree, 1)
        XCTAssertFalse(model.hasTiltedFeatures)
        XCTAssertEqual(model.trees.count, model.stages.reduce(0) { $0 + $1.treeCount })
        // First stage threshold -5.0425500869750977 less OpenCV's 1e-5.
        XCTAssertEqual(model.stages[0].threshold, Float(-5.0425500869750977) - 1e-5)
        XCTAssertEqual(model.haarFeatures[0].rects[0], .init(x: 6, y: 4, width: 12, height: 9, weight: -1))
    }

    func testLoadsLBPCascade() throws {
        let model = try CascadeModel(contentsOf: HaarFixtures.cascade(HaarCascadeOptions.fastCascade))
        XCTAssertEqual(model.featureType, .lbp)
        XCTAssertEqual(model.subsetSize, 8)
        XCTAssertEqual(model.subsets.count, model.nodes.count * 8)
        XCTAssertTrue(model.lbpFeatures.allSatisfy { $0.x + 3 * $0.width <= model.windowWidth })
    }

    func testLoadsTreeCascadeWithTiltedFeatures() throws {
        let model = try CascadeModel(contentsOf: HaarFixtures.cascade("haarcascades/haarcascade_eye_tree_eyeglasses.xml"))
        XCTAssertGreaterThan(model.maxNodesPerTree, 1)
        XCTAssertTrue(model.hasTiltedFeatures)
    }

    func testMissingFileNamesItAndTheFix() {
        XCTAssertThrowsError(try CascadeModel(contentsOf: "/nonexistent/cascade.xml")) { error in
            XCTAssertEqual(error as? CascadeError, .missingFile(path: "/nonexistent/cascade.xml"))
            XCTAssertTrue("\(error)".contains("/nonexistent/cascade.xml"))
            XCTAssertTrue("\(error)".contains("scripts/setup"))
        }
    }

    func testNonXMLFile() {
        XCTAssertThrowsError(try CascadeModel(contentsOf: HaarFixtures.path("coffee.pgm"))) { error in
            guard case .malformedXML = error as? CascadeError else { return XCTFail("got \(error)") }
            XCTAssertFalse("\(error)".contains("\n"))
        }
    }

    func testXMLOfAnotherKind() {
        let xml = Data("<?xml version=\"1.0\"?><svg><rect width=\"3\"/></svg>".utf8)
        XCTAssertThrowsError(try CascadeModel(xml: xml, path: "drawing.svg")) { error in
            guard case .notACascade = error as? CascadeError else { return XCTFail("got \(error)") }
        }
        let storage = Data("<?xml version=\"1.0\"?><opencv_storage><camera><fx>500</fx></camera></opencv_storage>".utf8)
        XCTAssertThrowsError(try CascadeModel(xml: storage, path: "calib.xml")) { error in
            guard case .notACascade = error as? CascadeError else { return XCTFail("got \(error)") }
        }
    }

    func testOldFormatCascade() {
        XCTAssertThrowsError(try CascadeModel(contentsOf: HaarFixtures.path("old_format.xml"))) { error in
            XCTAssertEqual(error as? CascadeError, .oldFormat(path: HaarFixtures.path("old_format.xml")))
            XCTAssertTrue("\(error)".contains("old"))
        }
    }

    func testTruncatedCascade() throws {
        let full = try Data(contentsOf: URL(fileURLWithPath: HaarFixtures.cascade(HaarCascadeOptions.accurateCascade)))
        XCTAssertThrowsError(try CascadeModel(xml: full.prefix(full.count / 2), path: "half.xml")) { error in
            guard case .malformedXML = error as? CascadeError else { return XCTFail("got \(error)") }
        }
    }

    func testFeatureIndexOutOfRange() {
        let xml = """
        <?xml version="1.0"?><opencv_storage><cascade><stageType>BOOST</stageType><featureType>HAAR</featureType>
        <height>4</height><width>4</width><featureParams><maxCatCount>0</maxCatCount></featureParams>
        <stages><_><stageThreshold>0</stageThreshold><weakClassifiers><_><internalNodes>0 -1 7 0.5</internalNodes>
        <leafValues>-1 1</leafValues></_></weakClassifiers></_></stages>
        <features><_><rects><_>0 0 2 2 -1.</_><_>1 1 1 1 4.</_></rects></_></features></cascade></opencv_storage>
        """
        XCTAssertThrowsError(try CascadeModel(xml: Data(xml.utf8), path: "bad.xml")) { error in
            guard case .invalid = error as? CascadeError else { return XCTFail("got \(error)") }
            XCTAssertTrue("\(error)".contains("feature index"))
        }
    }

    func testTruncatedPGMIsAnError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haar-truncated.pgm").path
        try Data("P5\n10 10\n255\n".utf8 + [UInt8](repeating: 7, count: 30)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try PortableAnymap.readGray(path: path)) { error in
            XCTAssertTrue("\(error)".contains("truncated"))
        }
        XCTAssertThrowsError(try PortableAnymap.readGray(path: "/nonexistent.pgm"))
    }
}
