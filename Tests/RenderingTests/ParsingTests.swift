import FaceCore
import XCTest
@testable import Rendering

final class ParsingTests: XCTestCase {
    func testOverlayLists() throws {
        XCTAssertEqual(try OverlayKind.parseList("boxes,eyes"), [.boxes, .eyes])
        XCTAssertEqual(try OverlayKind.parseList(" Boxes , LABELS,mouth "), [.boxes, .labels, .mouth])
        XCTAssertEqual(try OverlayKind.parseList("all"), Set(OverlayKind.allCases))
        XCTAssertEqual(try OverlayKind.parseList("none"), [])
        XCTAssertEqual(try OverlayKind.parseList(""), [])
        XCTAssertEqual(OverlayConfiguration().kinds, [.boxes, .eyes])
    }

    func testBadOverlayListsNameTheProblem() {
        for text in ["boxes,hats", "boxes,,eyes", "box", "eyes;mouth"] {
            XCTAssertThrowsError(try OverlayKind.parseList(text), text) { error in
                let message = String(describing: error)
                XCTAssertTrue(message.hasPrefix("--overlay: unknown overlay"), message)
                XCTAssertTrue(message.contains("boxes, eyes, mouth, labels"), message)
                XCTAssertFalse(message.contains("\n"))
            }
        }
        XCTAssertThrowsError(try OverlayKind.parseList("boxes,hats")) { error in
            XCTAssertEqual(error as? RenderingError, .unknownOverlay("hats"))
        }
    }

    func testColours() throws {
        XCTAssertEqual(try RenderColor(parsing: "red"), .red)
        XCTAssertEqual(try RenderColor(parsing: " GREEN "), .green)
        XCTAssertEqual(try RenderColor(parsing: "#FF8000"), RenderColor(r: 255, g: 128, b: 0))
        XCTAssertEqual(try RenderColor(parsing: "0a0B0c"), RenderColor(r: 10, g: 11, b: 12))
        XCTAssertEqual(try RenderColor(parsing: "yellow"), RenderColor(r: 255, g: 255, b: 0))
    }

    func testBadColours() {
        for text in ["", "#12345", "1234567", "#GG0000", "blurple", "##123456", "+12345", "0x1234"] {
            XCTAssertThrowsError(try RenderColor(parsing: text), text) { error in
                XCTAssertEqual(error as? RenderingError, .badColor(text))
                let message = String(describing: error)
                XCTAssertTrue(message.hasPrefix("--box-color: cannot read colour"), message)
                XCTAssertFalse(message.contains("\n"))
            }
        }
    }

    func testImageModeMaskShapeAndFillColourValues() throws {
        XCTAssertTrue(try AnonymizeMode.parse("image:smile.png") == (.image, "smile.png"))
        XCTAssertTrue(try AnonymizeMode.parse("IMAGE:Dir/Smile.PNG") == (.image, "Dir/Smile.PNG"), "the path is kept as given")
        XCTAssertTrue(try AnonymizeMode.parse(" Fill ") == (.fill, nil))
        for text in ["image:", "image", "image:  "] {
            XCTAssertThrowsError(try AnonymizeMode.parse(text)) { error in
                XCTAssertEqual(error as? RenderingError, .imageWithoutFile(text))
                XCTAssertTrue("\(error)".hasPrefix("--anonymize: '\(text)' names no picture"), "\(error)")
            }
        }
        XCTAssertThrowsError(try AnonymizeMode(parsing: "image:a.png"), "a picture needs the options' loader")
        XCTAssertThrowsError(try AnonymizeMode.parse("smudge")) { error in
            XCTAssertTrue("\(error)".contains("valid: blur, pixelate, fill, image:FILE"), "\(error)")
        }
        XCTAssertEqual(try OverlayConfiguration.parseMaskShape("Box"), .box)
        XCTAssertEqual(try OverlayConfiguration.parseMaskShape("ellipse"), .ellipse)
        XCTAssertThrowsError(try OverlayConfiguration.parseMaskShape("circle")) { error in
            XCTAssertEqual("\(error)", "--mask-shape: unknown shape 'circle' (valid: ellipse, box)")
        }
        XCTAssertEqual(OverlayConfiguration().maskShape, .ellipse)
        XCTAssertEqual(OverlayConfiguration().fillColor, .black)
    }

    func testAnonymizeModesAndMaskScale() throws {
        XCTAssertEqual(try AnonymizeMode(parsing: "blur"), .blur)
        XCTAssertEqual(try AnonymizeMode(parsing: "Pixelate"), .pixelate)
        XCTAssertEqual(try AnonymizeMode(parsing: "fill"), .fill)
        XCTAssertThrowsError(try AnonymizeMode(parsing: "mosaic")) { error in
            XCTAssertEqual(String(describing: error), "--anonymize: unknown mode 'mosaic' (valid: blur, pixelate, fill, image:FILE)")
        }
        XCTAssertEqual(try OverlayConfiguration.parseMaskScale("1.3"), 1.3)
        XCTAssertEqual(try OverlayConfiguration.parseMaskScale(" 2 "), 2)
        XCTAssertEqual(OverlayConfiguration().maskScale, 1.3)
        for text in ["0", "-1", "nan", "inf", "abc", "", "11"] {
            XCTAssertThrowsError(try OverlayConfiguration.parseMaskScale(text), text) { error in
                XCTAssertTrue(String(describing: error).hasPrefix("--mask-scale:"))
            }
        }
    }
}
