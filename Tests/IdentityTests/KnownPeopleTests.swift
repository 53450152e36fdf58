import Detection
import FaceCore
import Foundation
@testable import Identity
import MediaIO
import XCTest

/// `--known` folders: layout, errors naming the photo, and naming faces on the committed photos.
final class KnownPeopleTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "known-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func copy(_ fixture: String, to relative: String) throws {
        let target = (folder as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try IdentityFixtures.path(fixture), toPath: target)
    }

    private func load(detect: ((BGRAImage) throws -> [FaceObservation])? = nil) throws -> KnownPeople {
        let embedder = try IdentityEmbedder(models: IdentityFixtures.identityModels.get())
        let detector = try CenterFaceDetector(models: IdentityFixtures.models())
        return try KnownPeople.load(folder: folder, embedder: embedder,
                                    loadImage: { try ImageLoader.load(path: $0).image },
                                    detect: detect ?? { try detector.detect(in: $0) })
    }

    func testFolderLayouts() throws {
        for file in ["Grace Hopper.jpg", "Eileen/one.jpg", "Eileen/two.PNG", "Eileen/notes.txt", "Zed.png",
                     ".hidden.jpg", "readme.md"] {
            let path = (folder as NSString).appendingPathComponent(file)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: path))
        }
        let found = try KnownPeople.photoFiles(in: folder)
        XCTAssertEqual(found.map(\.name), ["Eileen", "Grace Hopper", "Zed"])
        XCTAssertEqual(found[0].photos.map { ($0 as NSString).lastPathComponent }, ["one.jpg", "two.PNG"])
        XCTAssertEqual(found[1].photos, [(folder as NSString).appendingPathComponent("Grace Hopper.jpg")])

        try FileManager.default.createDirectory(atPath: folder + "/Empty", withIntermediateDirectories: true)
        XCTAssertThrowsError(try KnownPeople.photoFiles(in: folder)) { error in
            XCTAssertEqual(error as? KnownPeopleError, .noPhotos(folder: folder + "/Empty"))
        }
        XCTAssertThrowsError(try KnownPeople.photoFiles(in: folder + "/missing")) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(folder)/missing: cannot read the known-people folder"), "\(error)")
        }
    }

    func testPhotoWithoutAFaceOrWithSeveralIsAOneLineError() throws {
        try copy("photo_hopper_1.jpg", to: "hopper.jpg")
        let photo = (folder as NSString).appendingPathComponent("hopper.jpg")
        XCTAssertThrowsError(try load(detect: { _ in [] })) { error in
            XCTAssertEqual(error as? KnownPeopleError, .noFace(path: photo))
            XCTAssertEqual("\(error)", "\(photo): no face found in this photo of a known person")
        }
        let face = FaceObservation(bounds: Rect(x: 0, y: 0, width: 10, height: 10), confidence: 1)
        XCTAssertThrowsError(try load(detect: { _ in [face, face] })) { error in
            XCTAssertEqual("\(error)", "\(photo): 2 faces in this photo of a known person (it must show exactly one)")
        }
        // A face without eyes cannot be aligned: the same as no face.
        XCTAssertThrowsError(try load(detect: { _ in [face] })) { error in
            XCTAssertEqual(error as? KnownPeopleError, .noFace(path: photo))
        }
        let broken = (folder as NSString).appendingPathComponent("broken.png")
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: broken))
        XCTAssertThrowsError(try load()) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(broken): cannot read the photo"), "\(error)")
        }
    }

    func testNamesKnownPeopleAndNoStranger() throws {
        try copy("photo_hopper_1.jpg", to: "Grace Hopper.jpg")
        let known = try load()
        XCTAssertEqual(known.names, ["Grace Hopper"])
        let samples = try IdentityFixtures.joinedPhotoSamples.get()
        let match = try XCTUnwrap(known.match(try XCTUnwrap(samples["hopper_2"]).embedding), "her other picture")
        XCTAssertEqual(match.name, "Grace Hopper")
        XCTAssertLessThan(match.distance, 0.6)
        XCTAssertNil(known.match(try XCTUnwrap(samples["astronaut_1"]).embedding), "a stranger is not named")
        XCTAssertNil(known.match(try XCTUnwrap(samples["astronaut_2"]).embedding))

        // Both people known, one of them from a folder of photos: each picture gets the right name.
        try copy("photo_astronaut_1.jpg", to: "Eileen Collins/a.jpg")
        try copy("photo_astronaut_2.jpg", to: "Eileen Collins/b.jpg")
        let both = try load()
        XCTAssertEqual(both.people.map(\.embeddings.count), [2, 1])
        for (name, expected) in [("hopper_2", "Grace Hopper"), ("astronaut_2", "Eileen Collins")] {
            XCTAssertEqual(both.match(try XCTUnwrap(samples[name]).embedding)?.name, expected, name)
        }
        // A track is named from two samples on (one picture of a stranger came within 0.39 of a known
        // photo on the identity corpus's tune half), and only when clearly closer to one person.
        var gallery = TrackGallery()
        gallery.add(try XCTUnwrap(samples["hopper_2"]))
        XCTAssertNil(both.match(gallery), "one picture is too little to name a track")
        XCTAssertEqual(both.match(gallery, minimumSamples: 1)?.name, "Grace Hopper")
        gallery.add(try XCTUnwrap(samples["hopper_1"]))
        XCTAssertEqual(both.match(gallery)?.name, "Grace Hopper")
        XCTAssertNil(both.match(gallery, margin: 10), "not clearly closer to her than to Collins")
        XCTAssertNil(both.match(TrackGallery()))
    }
}
