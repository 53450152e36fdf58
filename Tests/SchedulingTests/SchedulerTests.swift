import FaceCore
import Scheduling
import Tracking
import XCTest

final class SchedulerTests: XCTestCase {
    /// CenterFace's geometry at 640.
    private let geometry = DetectionGeometry(baseLongSide: 640, cropSide: 128, tileWidth: 640, tileHeight: 416,
                                             reliableFaceSize: 24)

    private func scheduler(_ width: Int = 1920, _ height: Int = 1080) -> DetectionScheduler {
        DetectionScheduler(width: width, height: height, geometry: geometry, configuration: SchedulerConfiguration(framesPerSecond: 25))
    }

    private func steady(_ serial: Int, _ box: Rect) -> TrackForecast {
        TrackForecast(serial: serial, id: serial, box: box, missedRuns: 0)
    }

    func testFirstFrameIsAKeyframeThenKeyframesStretchWhileSteady() {
        var s = scheduler()
        let tracks = [steady(1, Rect(x: 800, y: 300, width: 150, height: 150))]
        var keyframes: [Int] = []
        for frame in 0..<60 where s.plan(cut: false, forecasts: frame == 0 ? [] : tracks).passes.contains(where: { $0.kind == .full }) {
            keyframes.append(frame)
        }
        XCTAssertEqual(Array(keyframes.prefix(7)), [0, 2, 6, 14, 25, 38, 51],
                       "intervals 2, 4, 8, then every 13th frame of the video (half a second at 25 fps)")
    }

    /// A run that begins mid-video (a segment of a split plan) plans its frames as a whole run
    /// does once its tracks agree: keyframes at the longest interval and tiles are keyed on the
    /// frame's number in the video, not on a count since the run began.
    func testARunStartingLaterFallsInStepWithAWholeRun() {
        let tracks = [steady(1, Rect(x: 800, y: 300, width: 150, height: 150)), steady(2, Rect(x: 300, y: 500, width: 20, height: 24))]
        var whole = scheduler(), later = scheduler()
        var plans: [Int: FramePlan] = [:]
        for frame in 0..<300 { plans[frame] = whole.plan(cut: false, forecasts: frame == 0 ? [] : tracks, frame: frame) }
        for start in [101, 157] {
            later = scheduler()
            var differing: [Int] = []
            for frame in start..<300 {
                let plan = later.plan(cut: false, forecasts: frame == start ? [] : tracks, stale: frame == start, frame: frame)
                if plan != plans[frame] { differing.append(frame) }
            }
            XCTAssertFalse(differing.isEmpty, "the start is a keyframe of its own")
            XCTAssertLessThan(differing.max() ?? 0, start + 50, "in step within two seconds: \(differing)")
        }
    }

    func testCutForcesAKeyframeAndDropsCrops() {
        var s = scheduler()
        let tracks = [steady(1, Rect(x: 800, y: 300, width: 60, height: 60))]
        for _ in 0..<10 { _ = s.plan(cut: false, forecasts: tracks) }
        let plan = s.plan(cut: true, forecasts: tracks)
        XCTAssertTrue(plan.isCut)
        XCTAssertEqual(plan.passes.first?.kind, .full)
        XCTAssertFalse(plan.passes.contains { if case .crop = $0.kind { return true } else { return false } },
                       "a track before the cut says nothing about the new shot")
    }

    func testUncertainTracksBringKeyframesBackToEveryOtherFrame() {
        let missed = TrackForecast(serial: 1, id: 1, box: Rect(x: 800, y: 300, width: 150, height: 150), missedRuns: 1)
        let tentative = TrackForecast(serial: 2, id: nil, box: Rect(x: 200, y: 300, width: 150, height: 150), missedRuns: 0)
        func keyframes(_ forecasts: [TrackForecast], geometry: DetectionGeometry) -> [Bool] {
            var s = DetectionScheduler(width: 1920, height: 1080, geometry: geometry,
                                       configuration: SchedulerConfiguration(framesPerSecond: 25))
            // Steady for a while: keyframes every 13 frames (half a second at 25 fps).
            for _ in 0..<20 { _ = s.plan(cut: false, forecasts: []) }
            return (0..<8).map { _ in s.plan(cut: false, forecasts: forecasts).passes.contains { $0.kind == .full } }
        }
        // Crops as large as the whole-frame picture (BlazeFace's fixed input): a crop saves nothing.
        let costly = DetectionGeometry(baseLongSide: 640, cropSide: 640, tileWidth: 640, tileHeight: 416, reliableFaceSize: 24)
        XCTAssertTrue(geometry.cropsAreCheap)
        XCTAssertFalse(costly.cropsAreCheap)
        func everyOtherFrame(_ frames: [Bool]) -> Bool {
            frames.count >= 2 && zip(frames, frames.dropFirst()).allSatisfy { $0 || $1 }
        }
        for forecasts in [[missed], [tentative]] {
            let frames = keyframes(forecasts, geometry: costly)
            XCTAssertTrue(everyOtherFrame(frames), "a whole-frame pass at least every other frame: \(frames)")
            XCTAssertLessThanOrEqual(frames.filter { $0 }.count, 5)
        }
        XCTAssertTrue(everyOtherFrame(keyframes([missed], geometry: geometry)))
        // With cheap crops a tentative track is confirmed by its crop; keyframes keep their pace.
        XCTAssertLessThanOrEqual(keyframes([tentative], geometry: geometry).filter { $0 }.count, 1)
        var stale = scheduler()
        for _ in 0..<20 { _ = stale.plan(cut: false, forecasts: []) }
        XCTAssertEqual(stale.plan(cut: false, forecasts: [], stale: true).passes.first?.kind, .full,
                       "forecasts from before a cut: look at the whole frame")
    }

    func testEveryLiveTrackGetsACropAtTheDetectorsSize() {
        var s = scheduler()
        _ = s.plan(cut: false, forecasts: [])
        let small = steady(7, Rect(x: 1000, y: 500, width: 30, height: 36))
        let plan = s.plan(cut: false, forecasts: [small, TrackForecast(serial: 9, id: 9, box: small.box, missedRuns: 5)])
        let crops = plan.passes.filter { if case .crop = $0.kind { return true } else { return false } }
        XCTAssertEqual(crops.map(\.kind), [.crop(serial: 7)], "a track missed too often is left to the keyframes")
        let crop = crops[0]
        XCTAssertEqual(crop.region.width, 90, accuracy: 1e-9, "2.5 times the face")
        XCTAssertEqual(crop.region.center.x, small.box.center.x, accuracy: 1e-9)
        XCTAssertEqual([crop.pictureWidth, crop.pictureHeight], [96, 96], "the 90-pixel region, not enlarged")
        let shrunk = ScheduledPass.crop(around: Rect(x: 1000, y: 500, width: 200, height: 200), serial: 8,
                                        frameWidth: 1920, frameHeight: 1080, geometry: geometry)
        XCTAssertEqual([shrunk.pictureWidth, shrunk.pictureHeight], [128, 128], "a 500-pixel region at the crop size")
    }

    /// With --anonymize (`lostCropRuns` = the tracker's max age), a lost track's forecast place
    /// keeps its crop as long as its mask is held, so a face coming back from behind another is
    /// found on its first frame there; it brings no keyframes (those stay for a track just missed).
    func testALostTracksPlaceIsSearchedAsLongAsItsMaskIsHeld() {
        let lost = TrackForecast(serial: 4, id: 4, box: Rect(x: 1000, y: 500, width: 30, height: 36), missedRuns: 10)
        func plans(lostCropRuns: Int?, _ forecasts: [TrackForecast]) -> [FramePlan] {
            var configuration = SchedulerConfiguration(framesPerSecond: 25)
            if let lostCropRuns { configuration.lostCropRuns = lostCropRuns }
            var s = DetectionScheduler(width: 1920, height: 1080, geometry: geometry, configuration: configuration)
            for _ in 0..<20 { _ = s.plan(cut: false, forecasts: []) }
            return (0..<12).map { _ in s.plan(cut: false, forecasts: forecasts) }
        }
        func crops(_ plan: FramePlan) -> [ScheduledPass.Kind] {
            plan.passes.map(\.kind).filter { if case .crop = $0 { return true } else { return false } }
        }
        func keyframes(_ plans: [FramePlan]) -> Int { plans.filter { $0.passes.contains { $0.kind == .full } }.count }
        XCTAssertTrue(plans(lostCropRuns: nil, [lost]).allSatisfy { crops($0).isEmpty }, "by default: left to the keyframes")
        let held = plans(lostCropRuns: 25, [lost])
        XCTAssertTrue(held.allSatisfy { crops($0) == [.crop(serial: 4)] }, "a crop at its forecast on every frame")
        XCTAssertEqual(keyframes(held), keyframes(plans(lostCropRuns: nil, [])), "and no more keyframes")
        var gone = lost
        gone.missedRuns = 26
        XCTAssertTrue(plans(lostCropRuns: 25, [gone]).allSatisfy { crops($0).isEmpty }, "not once its mask is dropped")
    }

    func testCropNearTheBorderMovesInsideWithoutShrinking() {
        var s = scheduler(640, 360)
        _ = s.plan(cut: false, forecasts: [])
        let plan = s.plan(cut: false, forecasts: [steady(1, Rect(x: 600, y: -10, width: 40, height: 50))])
        let crop = try! XCTUnwrap(plan.passes.first { $0.kind == .crop(serial: 1) })
        XCTAssertEqual(crop.region, Rect(x: 515, y: 0, width: 125, height: 125))
    }

    func testSmallFaceAppearingInATileIsSweptWithinOneCycle() {
        var s = scheduler()
        let regions = s.tileRegions
        XCTAssertEqual(regions.count, 12, "4 x 3 native tiles of 640 x 416 over 1920 x 1080")
        // Every point of the frame lies in a tile with room for a 48-pixel face around it.
        for (x, y) in [(0.0, 0.0), (1919.0, 1079.0), (640.0, 384.0), (1280.0, 700.0)] {
            XCTAssertTrue(regions.contains { $0.x <= max(0, x - 24) && $0.maxX >= min(1920, x + 24)
                && $0.y <= max(0, y - 24) && $0.maxY >= min(1080, y + 24) }, "\(x), \(y)")
        }
        // With no face in sight the first sweep is fast (after the start), then slow.
        var tileFrames: [Int] = []
        for frame in 0..<80 where s.plan(cut: false, forecasts: []).passes.contains(where: {
            if case .tile = $0.kind { return true } else { return false }
        }) { tileFrames.append(frame) }
        XCTAssertEqual(Array(tileFrames.prefix(12)), Array(stride(from: 2, to: 36, by: 3)), "one sweep at a tile every third frame")
        XCTAssertEqual(tileFrames[12...14], [39, 47, 55], "then a tile every third of a second, on every 8th frame of the video")
        // A small tracked face brings the fast sweep back, so its neighbours are found soon.
        let small = steady(3, Rect(x: 100, y: 100, width: 24, height: 28))
        let next = (0..<36).compactMap { _ -> Int? in
            s.plan(cut: false, forecasts: [small]).passes.compactMap { pass -> Int? in
                if case .tile(let index) = pass.kind { return index } else { return nil }
            }.first
        }
        XCTAssertEqual(next.count, 12, "a tile every third frame while a small face is tracked")
        XCTAssertEqual(Set(next).count, 12, "every tile once")
    }

    /// The frames with a tile in `plans`, and which tile.
    private func tiles(_ plans: [Int: FramePlan]) -> [(frame: Int, index: Int)] {
        plans.keys.sorted().compactMap { frame in
            plans[frame]!.passes.compactMap { pass -> (Int, Int)? in
                if case .tile(let index) = pass.kind { return (frame, index) } else { return nil }
            }.first
        }
    }

    /// The detection budget (issue 33): at 720p, 30 fps (6 tiles, a tile every 10th frame, every
    /// 30th once quiet), two big steady faces. After the first sweep at a tile every third frame and
    /// one whole sweep at every 10th frame with nothing new, a tile every second; a new face brings
    /// the tile every 10th frame back, for a whole sweep.
    func testQuietSweepsStretchTheTilePeriodUntilANewFaceComes() {
        var s = DetectionScheduler(width: 1280, height: 720, geometry: geometry, configuration: SchedulerConfiguration(framesPerSecond: 30))
        XCTAssertEqual(s.tileRegions.count, 6)
        let two = [steady(1, Rect(x: 200, y: 200, width: 110, height: 130)), steady(2, Rect(x: 800, y: 180, width: 110, height: 130))]
        let three = two + [steady(3, Rect(x: 500, y: 300, width: 100, height: 120))]
        var plans: [Int: FramePlan] = [:]
        for frame in 0..<600 { plans[frame] = s.plan(cut: false, forecasts: frame == 0 ? [] : frame < 400 ? two : three, frame: frame) }
        let frames = tiles(plans).map(\.frame)
        XCTAssertEqual(frames.filter { $0 < 18 }, [2, 5, 8, 11, 14, 17], "the first sweep: a tile every third frame")
        XCTAssertEqual(frames.filter { (18..<80).contains($0) }, [19, 29, 39, 49, 59, 69], "then every 10th frame of the video")
        XCTAssertEqual(frames.filter { (70..<400).contains($0) }, Array(stride(from: 89, to: 400, by: 30)),
                       "after a whole sweep with nothing new: every 30th frame")
        XCTAssertEqual(frames.filter { (400..<470).contains($0) }, [409, 419, 429, 439, 449, 459],
                       "a new face: every 10th frame again, for a whole sweep")
        XCTAssertEqual(frames.filter { (460..<600).contains($0) }, Array(stride(from: 479, to: 600, by: 30)))
        XCTAssertEqual(frames.count, 34, "main ran 6 + 59 tiles on these 600 frames")
        // Keyframes keep their half second whatever the tiles do: a big face entering is found
        // inside the look-back.
        let keyframes = plans.keys.sorted().filter { plans[$0]!.passes.contains { $0.kind == .full } }
        XCTAssertLessThanOrEqual(zip(keyframes, keyframes.dropFirst()).map { $1 - $0 }.max() ?? 99, 15)
    }

    /// Where the look-back holds a second (tiles run) and crops are cheap, a quiet sweep stretches
    /// the keyframes too: at 720p and 30 fps to every 30th frame (the look-back writes a face the
    /// next keyframe finds from its first frame), on frames the usual rhythm (every 15th) has as
    /// well, so that a segment of a split plan falls in step; a new face brings every 15th frame back
    /// at once, until the sweep is quiet again. The same stretch at 25 fps is every 26th frame
    /// (two of the usual 13, inside the 25 frames of look-back). Not with --anonymize.
    func testQuietSweepsStretchKeyframesAsFarAsTheLookBackHolds() {
        func keyframes(fps: Double, lookBack: Int, anonymize: Bool = false, newFaceAt: Int = 400) -> [Int] {
            var configuration = SchedulerConfiguration(framesPerSecond: fps)
            if anonymize { configuration.anonymize(maxAge: 25) }
            configuration.stretchKeyframesWhenQuiet(lookBack: lookBack)
            var s = DetectionScheduler(width: 1280, height: 720, geometry: geometry, configuration: configuration)
            let two = [steady(1, Rect(x: 200, y: 200, width: 110, height: 130)), steady(2, Rect(x: 800, y: 180, width: 110, height: 130))]
            let three = two + [steady(3, Rect(x: 500, y: 300, width: 100, height: 120))]
            return (0..<600).filter { frame in
                s.plan(cut: false, forecasts: frame == 0 ? [] : frame < newFaceAt ? two : three, frame: frame)
                    .passes.contains { $0.kind == .full }
            }
        }
        let quiet = keyframes(fps: 30, lookBack: 30)
        // Quiet from frame 69 (the first sweep, then six tiles every 10th frame: see the test above).
        XCTAssertEqual(quiet.filter { (60..<400).contains($0) }, [74] + Array(stride(from: 89, to: 400, by: 30)))
        XCTAssertEqual(quiet.filter { (400..<480).contains($0) }, [404, 419, 434, 449, 464, 479],
                       "a new face: every 15th frame again until the sweep is quiet")
        XCTAssertEqual(quiet.filter { $0 >= 480 }, Array(stride(from: 509, to: 600, by: 30)))
        XCTAssertTrue(quiet.filter { $0 > 14 }.allSatisfy { ($0 + 1) % 15 == 0 }, "on the usual rhythm's frames")
        let gaps = zip(quiet, quiet.dropFirst()).map { $1 - $0 }
        XCTAssertEqual(gaps.max(), 30, "never longer than the look-back's 30 frames plus the one that finds the face")
        let usual = keyframes(fps: 30, lookBack: 30, anonymize: true)
        XCTAssertEqual(usual.filter { $0 >= 60 }, Array(stride(from: 74, to: 600, by: 15)), "--anonymize: every 15th frame")
        XCTAssertEqual(keyframes(fps: 30, lookBack: 15), usual, "a half-second look-back holds no more")
        let at25 = keyframes(fps: 25, lookBack: 25, newFaceAt: 600)
        XCTAssertEqual(zip(at25, at25.dropFirst()).map { $1 - $0 }.max(), 26)
        XCTAssertTrue(at25.filter { $0 > 200 }.allSatisfy { ($0 + 1) % 26 == 0 })
        XCTAssertEqual([quiet.count, usual.count], [29, 43], "keyframes in 600 frames, quiet stretches against none")
    }

    /// A cut, a lost track, a tentative one or a small face in sight end the quiet stretch at once.
    func testACutALostTrackOrASmallFaceBringTheFullPaceBack() {
        let big = steady(1, Rect(x: 200, y: 200, width: 110, height: 130))
        func quiet() -> DetectionScheduler {
            var s = DetectionScheduler(width: 1280, height: 720, geometry: geometry, configuration: SchedulerConfiguration(framesPerSecond: 30))
            for frame in 0..<200 { _ = s.plan(cut: false, forecasts: frame == 0 ? [] : [big], frame: frame) }
            return s
        }
        func tileFrames(_ s: inout DetectionScheduler, from start: Int, _ forecasts: [TrackForecast], cut: Int? = nil) -> [Int] {
            var plans: [Int: FramePlan] = [:]
            for frame in start..<start + 60 {
                plans[frame] = s.plan(cut: frame == cut, forecasts: frame == cut ? [] : forecasts, stale: frame == cut.map { $0 + 1 }, frame: frame)
            }
            return tiles(plans).map(\.frame)
        }
        var s = quiet()
        XCTAssertEqual(tileFrames(&s, from: 200, [big]), [209, 239], "quiet: every 30th frame")
        var missed = big
        missed.missedRuns = 1
        s = quiet()
        XCTAssertEqual(tileFrames(&s, from: 200, [missed]), Array(stride(from: 209, to: 260, by: 10)), "a track just missed")
        var tentative = big
        tentative.id = nil
        s = quiet()
        XCTAssertEqual(tileFrames(&s, from: 200, [tentative]), Array(stride(from: 209, to: 260, by: 10)), "a tentative track")
        s = quiet()
        XCTAssertEqual(tileFrames(&s, from: 200, [big, steady(2, Rect(x: 900, y: 400, width: 30, height: 36))]),
                       Array(stride(from: 200, to: 260, by: 3)), "a small face: a tile every third frame")
        s = quiet()
        XCTAssertEqual(tileFrames(&s, from: 200, [big], cut: 210), [209] + Array(stride(from: 212, to: 228, by: 3)) + [229, 239, 249, 259],
                       "a cut: the fast sweep, then every 10th frame")
    }

    /// How late a lone small face is first found once the sweep is quiet: every tile comes round
    /// within a quiet sweep (6 x 30 frames, 6 s at 720p and 30 fps) plus the sweep before it, whose
    /// pace was faster (the tile is chosen by the frame's number, so a change of pace can move a
    /// tile's turn); with --anonymize (no budget) within a sweep every 10th frame plus the fast one.
    func testEveryTileComesRoundWithinTheQuietSweep() {
        for budget in [true, false] {
            var configuration = SchedulerConfiguration(framesPerSecond: 30)
            if !budget { configuration.anonymize(maxAge: 25) }
            var s = DetectionScheduler(width: 1280, height: 720, geometry: geometry, configuration: configuration)
            var plans: [Int: FramePlan] = [:]
            for frame in 0..<1200 { plans[frame] = s.plan(cut: false, forecasts: [], frame: frame) }
            let visits = tiles(plans)
            for index in 0..<6 {
                let frames = [0] + visits.filter { $0.index == index }.map(\.frame) + [1199]
                let gap = zip(frames, frames.dropFirst()).map { $1 - $0 }.max()!
                XCTAssertLessThanOrEqual(gap, budget ? 6 * 30 + 6 * 10 : 6 * 10 + 6 * 3, "tile \(index), budget \(budget)")
            }
            XCTAssertEqual(visits.count, budget ? 6 + 6 + 38 : 6 + 119)
        }
    }

    /// The frames in `frames` on which track 1 got a crop, and those on which its crop was skipped
    /// as steady, on a 640 x 360 video (no tiles; the whole-frame pass sees faces at their size).
    private func steadyCrops(skipping: Bool = true, frames: Range<Int> = 0..<60, endsShot: Set<Int> = [],
                             width: Int = 640, height: Int = 360,
                             forecasts: [TrackForecast]) -> (cropped: [Int], skipped: [Int], keyframes: [Int], tiles: [Int]) {
        var configuration = SchedulerConfiguration(framesPerSecond: 25)
        configuration.skipsSteadyCrops = skipping
        var s = DetectionScheduler(width: width, height: height, geometry: geometry, configuration: configuration)
        var result: (cropped: [Int], skipped: [Int], keyframes: [Int], tiles: [Int]) = ([], [], [], [])
        for frame in frames {
            let live = frame == frames.lowerBound ? [] : forecasts
            var plan = s.planAhead(cut: false, forecasts: live, stale: live.isEmpty, frame: frame)
            plan.endsShot = endsShot.contains(frame)
            s.addCrops(to: &plan, forecasts: live)
            if plan.passes.contains(where: { $0.kind == .crop(serial: 1) }) { result.cropped.append(frame) }
            if plan.skippedCrops.contains(1) { result.skipped.append(frame) }
            if plan.passes.contains(where: { $0.kind == .full }) { result.keyframes.append(frame) }
            if plan.passes.contains(where: { if case .tile = $0.kind { return true } else { return false } }) {
                result.tiles.append(frame)
            }
        }
        return result
    }

    /// A still, confirmed face the whole-frame pass sees well, alone and clear of the edges, is
    /// cropped on even frames only; the frame before a boundary and any sign of doubt (motion,
    /// a neighbour, the frame's edge, a miss, a tentative track) bring its crop back on every frame.
    func testASteadyFaceIsCroppedOnEvenFramesOnlyUntilSomethingIsInDoubt() {
        let box = Rect(x: 270, y: 130, width: 100, height: 100)
        let still = TrackForecast(serial: 1, id: 1, box: box, missedRuns: 0, pixelsPerFrame: 0.5, areaChangePerFrame: 0.001)
        let steady = steadyCrops(endsShot: [31], forecasts: [still])
        XCTAssertTrue(steady.cropped.allSatisfy { $0 % 2 == 0 || $0 == 31 }, "\(steady.cropped)")
        XCTAssertTrue(steady.skipped.allSatisfy { $0 % 2 == 1 } && steady.skipped.count >= 20, "\(steady.skipped)")
        XCTAssertTrue(steady.cropped.contains(31) && !steady.skipped.contains(31), "the next frame starts a shot")
        for frame in 1..<60 where !steady.keyframes.contains(frame) {
            XCTAssertTrue(steady.cropped.contains(frame) != steady.skipped.contains(frame), "frame \(frame): one or the other")
        }

        var moving = still
        moving.pixelsPerFrame = 3
        var zooming = still
        zooming.areaChangePerFrame = 0.06
        var missed = still
        missed.missedRuns = 1
        var tentative = still
        tentative.id = nil
        var atEdge = still
        atEdge.box.x = 20
        let neighbour = TrackForecast(serial: 2, id: 2, box: Rect(x: 400, y: 130, width: 60, height: 60), missedRuns: 0,
                                      pixelsPerFrame: 0.5, areaChangePerFrame: 0.001)
        for (name, forecasts) in [("3 px a frame on a 100 px face", [moving]), ("6 % more area a frame", [zooming]),
                                  ("just missed", [missed]), ("tentative", [tentative]), ("at the frame's edge", [atEdge]),
                                  ("a neighbour in its crop", [still, neighbour])] {
            XCTAssertTrue(steadyCrops(forecasts: forecasts).skipped.isEmpty, name)
        }
        XCTAssertTrue(steadyCrops(skipping: false, forecasts: [still]).skipped.isEmpty, "off unless asked for")

        // 720p runs tiles (every third frame at first, then every tenth), and every tile overlaps a
        // face in the middle of the frame: a frame with a tile crops the face whatever its number.
        let middle = TrackForecast(serial: 1, id: 1, box: Rect(x: 590, y: 310, width: 100, height: 100), missedRuns: 0,
                                   pixelsPerFrame: 0.5, areaChangePerFrame: 0.001)
        let hd = steadyCrops(frames: 0..<90, width: 1280, height: 720, forecasts: [middle])
        XCTAssertFalse(hd.tiles.filter { $0 % 2 == 1 }.isEmpty)
        XCTAssertTrue(Set(hd.tiles).isDisjoint(with: hd.skipped), "tiles \(hd.tiles), skipped \(hd.skipped)")
        XCTAssertFalse(hd.skipped.isEmpty, "frames without a tile still skip")
    }

    func testNoTilesWhenTheWholeFramePassIsNative() {
        XCTAssertTrue(scheduler(640, 360).tileRegions.isEmpty)
        XCTAssertTrue(scheduler(700, 400).tileRegions.isEmpty, "barely larger: the base pass sees nearly all")
    }

    func testMergerMapsDropsCutFacesAndSuppressesDuplicates() {
        var merger = DetectionMerger(width: 1920, height: 1080)
        let full = ScheduledPass(kind: .full, region: Rect(x: 0, y: 0, width: 1920, height: 1080), pictureWidth: 1920, pictureHeight: 1080)
        var wide = FaceObservation(bounds: Rect(x: 1000, y: 500, width: 60, height: 60), confidence: 0.6)
        wide.leftEye = Point(x: 1015, y: 520)
        merger.add([wide], from: full)
        let crop = ScheduledPass(kind: .crop(serial: 1), region: Rect(x: 955, y: 455, width: 150, height: 150),
                                 pictureWidth: 128, pictureHeight: 128)
        var close = FaceObservation(bounds: Rect(x: 38, y: 38, width: 52, height: 52), confidence: 0.9)
        close.leftEye = Point(x: 50, y: 55)
        let cut = FaceObservation(bounds: Rect(x: 0, y: 40, width: 30, height: 40), confidence: 0.95)
        merger.add([close, cut], from: crop)
        let merged = merger.merged()
        XCTAssertEqual(merged.count, 1, "the cut face is dropped; the two boxes of one face become one")
        XCTAssertEqual(merged[0].source, .refined)
        XCTAssertEqual(merged[0].bounds.x, 955 + 38 * 150.0 / 128, accuracy: 1e-9)
        XCTAssertEqual(merged[0].leftEye?.y ?? 0, 455 + 55 * 150.0 / 128, accuracy: 1e-9)
    }

    func testACropLooksStraightOnlyAtTheFaceItWasMadeFor() throws {
        // A crop made around a 60 px face at (400, 300) also holds a neighbour beside it: the crop
        // looks straight at its own face, not at the neighbour. A whole-frame pass that finds the
        // neighbour weakly lends it its look; the crop's stronger box is still the one kept.
        let geometry = DetectionGeometry(baseLongSide: 640, cropSide: 96, tileWidth: 640, tileHeight: 416, reliableFaceSize: 24)
        let target = Rect(x: 370, y: 270, width: 60, height: 60)
        let crop = ScheduledPass.crop(around: target, serial: 1, frameWidth: 640, frameHeight: 360, geometry: geometry)
        XCTAssertEqual(crop.target, target)
        let s = Double(crop.pictureWidth) / crop.region.width
        func inCrop(_ box: Rect, _ confidence: Double) -> FaceObservation {
            FaceObservation(bounds: Rect(x: (box.x - crop.region.x) * s, y: (box.y - crop.region.y) * s,
                                         width: box.width * s, height: box.height * s), confidence: confidence)
        }
        let own = Rect(x: 372, y: 268, width: 58, height: 62), neighbour = Rect(x: 335, y: 320, width: 28, height: 28)
        var merger = DetectionMerger(width: 640, height: 360)
        merger.add([inCrop(own, 0.9), inCrop(neighbour, 0.55)], from: crop)
        var alone = merger
        let whole = ScheduledPass(kind: .full, region: Rect(x: 0, y: 0, width: 640, height: 360), pictureWidth: 640,
                                  pictureHeight: 360)
        merger.add([FaceObservation(bounds: Rect(x: 336, y: 321, width: 27, height: 27), confidence: 0.3)], from: whole)

        let byCropAlone = alone.merged()
        XCTAssertEqual(byCropAlone.map(\.confidence), [0.9, 0.55])
        XCTAssertEqual(byCropAlone[0].directConfidence, 0.9)
        XCTAssertEqual(byCropAlone[1].directConfidence, 0, "a neighbour in another face's crop")
        let merged = merger.merged()
        XCTAssertEqual(merged.map(\.confidence), [0.9, 0.55])
        XCTAssertEqual(merged[1].source, .refined)
        XCTAssertEqual(merged[1].directConfidence, 0.3, "the whole-frame pass's look, folded into the kept box")
        alone = DetectionMerger(width: 640, height: 360)
        alone.add([FaceObservation(bounds: neighbour, confidence: 0.6)], from: whole)
        XCTAssertEqual(try XCTUnwrap(alone.merged().first).directConfidence, 0.6)
    }

    func testMergerKeepsOneBoxWhenOneLiesInsideTheOther() {
        // A tile narrower than a large face finds its eyes and forehead: little overlap (IoU 0.25)
        // but the part lies inside the whole face, so it is the same face; two faces side by side
        // and a small face beside a large one stay.
        var merger = DetectionMerger(width: 1000, height: 1000)
        let full = ScheduledPass(kind: .full, region: Rect(x: 0, y: 0, width: 1000, height: 1000), pictureWidth: 500,
                                 pictureHeight: 500)
        merger.add([FaceObservation(bounds: Rect(x: 50, y: 50, width: 200, height: 200), confidence: 0.9),
                    FaceObservation(bounds: Rect(x: 300, y: 50, width: 100, height: 100), confidence: 0.8)], from: full)
        let tile = ScheduledPass(kind: .tile(index: 0), region: Rect(x: 0, y: 0, width: 1000, height: 1000),
                                 pictureWidth: 1000, pictureHeight: 1000)
        merger.add([FaceObservation(bounds: Rect(x: 140, y: 140, width: 200, height: 200), confidence: 0.6),
                    FaceObservation(bounds: Rect(x: 860, y: 100, width: 30, height: 30), confidence: 0.5)], from: tile)
        // An empty box lies inside nothing and hides nothing: it is left for the validity check.
        merger.add([FaceObservation(bounds: Rect(x: 150, y: 150, width: 0, height: 10), confidence: 0.95)], from: tile)
        let merged = merger.merged()
        XCTAssertEqual(merged.map(\.confidence), [0.95, 0.9, 0.8, 0.5])
        XCTAssertEqual(merged[1].bounds, Rect(x: 100, y: 100, width: 400, height: 400))
        XCTAssertEqual(merged[3].source, .tile)
    }
}
