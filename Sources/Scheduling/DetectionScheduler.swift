import FaceCore
import Tracking

/// One detector run the scheduler asks for: a region of the upright frame, resampled to a
/// picture of `pictureWidth` x `pictureHeight` (a whole-frame pass hands the frame as it is).
package struct ScheduledPass: Sendable, Equatable {
    /// What the pass is for.
    package enum Kind: Sendable, Equatable {
        /// The whole frame at the detector's base size.
        case full
        /// A crop around the forecast box of the track with this serial.
        case crop(serial: Int)
        /// Tile number `index` of the frame's tile grid.
        case tile(index: Int)
        /// The whole frame shrunk into a larger canvas, the rest black, so that a face larger
        /// than the picture is seen whole (`CloseUpRule` says when).
        case closeUp
    }

    package var kind: Kind
    /// The region in upright frame pixels (the whole frame for `.full`).
    package var region: Rect
    package var pictureWidth: Int
    package var pictureHeight: Int
    /// Detector pixels per frame pixel: how large a face looks to the detector in this pass.
    package var scale: Double
    /// For a crop, the box it was made around: the faces centred in it are the ones the crop
    /// looks straight at (`FaceObservation.directConfidence`); its other faces are neighbours.
    package var target: Rect?

    /// Creates a pass; `scale` defaults to the picture's width over the region's.
    package init(kind: Kind, region: Rect, pictureWidth: Int, pictureHeight: Int, scale: Double? = nil) {
        self.kind = kind
        self.region = region
        self.pictureWidth = pictureWidth
        self.pictureHeight = pictureHeight
        self.scale = scale ?? Double(pictureWidth) / max(region.width, 1)
    }

    /// Whether the pass looks straight at a face with this box: every pass but a crop made around
    /// another face (the box's centre outside the crop's target).
    package func looksStraight(at box: Rect) -> Bool {
        guard let target else { return true }
        let c = box.center
        return c.x >= target.x && c.x <= target.maxX && c.y >= target.y && c.y <= target.maxY
    }

    /// The row source of the faces this pass finds.
    package var source: ObservationSource {
        switch kind {
        case .full, .closeUp: return .detected
        case .crop: return .refined
        case .tile: return .tile
        }
    }
}

extension ScheduledPass {
    /// A square crop `cropFactor` times the face's longer side around `box`'s centre, moved inside
    /// the frame where it can be (never shrunk), at the detector's crop size.
    package static func crop(around box: Rect, serial: Int, frameWidth: Int, frameHeight: Int,
                            geometry: DetectionGeometry) -> ScheduledPass {
        let side = max(box.width, box.height) * geometry.cropFactor
        let w = min(side, Double(frameWidth)), h = min(side, Double(frameHeight))
        let x = min(max(box.center.x - w / 2, 0), Double(frameWidth) - w)
        let y = min(max(box.center.y - h / 2, 0), Double(frameHeight) - h)
        // Never enlarged (a small face is seen at its own size, at a fraction of the cost); a crop
        // clipped by the frame keeps the picture's aspect equal to the region's.
        let longer = max(w, h)
        let pictureSide = min(Double(geometry.cropSide), longer)
        let pictureWidth = max(32, Int((pictureSide * w / longer / 32).rounded()) * 32)
        let pictureHeight = max(32, Int((pictureSide * h / longer / 32).rounded()) * 32)
        var pass = ScheduledPass(kind: .crop(serial: serial), region: Rect(x: x, y: y, width: w, height: h),
                                 pictureWidth: pictureWidth, pictureHeight: pictureHeight)
        pass.target = box
        return pass
    }
}

/// What to run on one frame.
package struct FramePlan: Sendable, Equatable {
    /// The passes, whole-frame pass first, then crops by track, then a tile.
    package var passes: [ScheduledPass] = []
    /// The frame starts a new shot: every track ended before it.
    package var isCut = false
    /// The frame that started this frame's shot (the last cut, or the first frame).
    package var shotStart = 0
    /// Frame size, for telling a box at the frame's edge from one cut by a region's edge.
    package var frameWidth = 0, frameHeight = 0
    /// The smallest face, in detector pixels, a pass counts as having looked at.
    package var smallestVisibleFace = 12.0
    /// The plan looks at the whole frame with no schedule (`--detection full`): every track
    /// counts as looked at.
    package var looksEverywhere = false
    /// The whole-frame pass at the detector's base size, run instead when a crop or tile fails.
    package var wholeFrame: ScheduledPass?
    /// The live tracks' boxes the keyframe was planned from: a face tracked already needs no
    /// close-up pass (`CloseUpRule`).
    package var trackedBoxes: [Rect] = []
    /// The frame's number in the whole video (`planAhead`'s `frame`).
    package var frame = 0
    /// The serials of the tracks whose crops `addCrops` skipped as steady (`skipsSteadyCrops`).
    package var skippedCrops: [Int] = []
    /// A shot boundary or the end of the input comes right after this frame: a face not looked at
    /// here would have no detection after it to be interpolated from, so every crop runs.
    package var endsShot = false

    /// One whole-frame pass at the detector's base size (`--detection full`).
    package static func wholeFrame(width: Int, height: Int, geometry: DetectionGeometry) -> FramePlan {
        let size = geometry.basePictureSize(width: width, height: height)
        return wholeFrame(width: width, height: height, pictureWidth: size.width, pictureHeight: size.height,
                          scale: geometry.baseScale(width: width, height: height))
    }

    /// One whole-frame pass on a `pictureWidth` x `pictureHeight` picture (`scale` picture pixels per frame pixel).
    package static func wholeFrame(width: Int, height: Int, pictureWidth: Int, pictureHeight: Int, scale: Double) -> FramePlan {
        var plan = FramePlan()
        plan.frameWidth = width
        plan.frameHeight = height
        plan.looksEverywhere = true
        let whole = ScheduledPass(kind: .full, region: Rect(x: 0, y: 0, width: Double(width), height: Double(height)),
                                  pictureWidth: pictureWidth, pictureHeight: pictureHeight, scale: scale)
        plan.passes = [whole]
        plan.wholeFrame = whole
        return plan
    }

    /// True when this frame's tile overlaps `region`: a tile may see part of a face there, and a
    /// skipped crop's whole face would not be there to win the merge (`skipsSteadyCrops`).
    package func hasTile(touching region: Rect) -> Bool {
        passes.contains { if case .tile = $0.kind { return $0.region.intersection(region).area > 0 } else { return false } }
    }

    /// True when some pass looked at `box` closely enough to have found a face there: the box lies
    /// in the pass's region (or runs off the frame) and is at least `smallestVisibleFace` detector
    /// pixels high. A tracked face the plan did not look at was not missed, only not looked for.
    package func covers(_ box: Rect) -> Bool {
        if looksEverywhere { return true }
        let frame = Rect(x: 0, y: 0, width: Double(frameWidth), height: Double(frameHeight))
        let visible = box.intersection(frame)
        guard visible.area > 0 else { return false }
        return passes.contains { pass in
            let r = pass.region
            return visible.x >= r.x - 1 && visible.y >= r.y - 1 && visible.maxX <= r.maxX + 1 && visible.maxY <= r.maxY + 1
                && box.height * pass.scale >= smallestVisibleFace
        }
    }
}

/// The scheduler's tuning; every default was measured (docs/scheduling.md).
package struct SchedulerConfiguration: Sendable, Equatable {
    /// Longest run of frames without a whole-frame pass while every track is steady.
    package var maxKeyframeInterval: Int
    /// Longest run of frames without a whole-frame pass while every track is steady and the tile
    /// sweep is quiet (see `quietTilePeriod`): a multiple of `maxKeyframeInterval`, so that its
    /// keyframes fall on frames the usual rhythm has too. `maxKeyframeInterval` unless the look-back
    /// holds more (`stretchKeyframesWhenQuiet`).
    package var quietKeyframeInterval: Int
    /// Frames between whole-frame passes while a track is tentative or just missed.
    package var uncertainKeyframeInterval: Int
    /// Longest run of frames between two tiles when no small face is in sight.
    package var maxTilePeriod: Int
    /// Frames between two tiles while small faces are in sight (or after a cut).
    package var smallFaceTilePeriod: Int
    /// Frames between two tiles once a whole sweep at `maxTilePeriod` went by with nothing new (no
    /// new track, none missed, no small face), until something happens; `maxTilePeriod` turns the
    /// budget off (--anonymize: an entering face is found as soon as it was before).
    package var quietTilePeriod: Int
    /// A track missed by more than this many detector runs in a row gets no crop (the
    /// whole-frame passes look for it instead).
    package var cropMissedRuns: Int
    /// A track missed by more runs than `cropMissedRuns`, up to this many, still gets a crop at its
    /// forecast (not a keyframe): with --anonymize, a face lost behind another or at the edge is
    /// looked for where it should come back for as long as its mask is held.
    package var lostCropRuns: Int
    /// Frame pixels of overlap between neighbouring tiles: the largest face a tile must see whole
    /// that the whole-frame pass would miss.
    package var tileOverlap: Double
    /// A confirmed face the whole-frame pass sees well, found by the last run, barely moving, alone
    /// in its crop and clear of the frame's edges, is cropped on even frames only: the frame between
    /// is not looked at (the tracker coasts, `FramePlan.covers`), and the look-ahead writes it on
    /// the line between the detections on both sides. Acts only where crops are cheap. Off by
    /// default; the pipeline turns it on except with --anonymize (a mask must follow the face
    /// itself), the face mesh (its measures need every frame) or --detect-every.
    package var skipsSteadyCrops = false
    /// The most a face may move per frame, as a fraction of its height (its area twice that), to
    /// count as steady: about the detector's own frame-to-frame jitter on a still face, so that the
    /// line between two detections is as close to the face as a third detection would be.
    package static let steadyMove = 0.02

    /// Creates a configuration for video at `framesPerSecond`: a whole-frame pass at least twice a
    /// second (a face that enters between two is found backwards by the tracking stage's look-back,
    /// which holds at least that), tiles every third of a second, once a second after a quiet sweep.
    package init(framesPerSecond: Double = VideoTiming.assumedFramesPerSecond) {
        let fps = framesPerSecond.isFinite && framesPerSecond > 0 ? framesPerSecond : VideoTiming.assumedFramesPerSecond
        maxKeyframeInterval = max(2, Int((fps / 2).rounded()))
        quietKeyframeInterval = maxKeyframeInterval
        maxTilePeriod = max(2, Int((fps / 3).rounded()))
        uncertainKeyframeInterval = 2
        smallFaceTilePeriod = 3
        quietTilePeriod = max(maxTilePeriod, Int(fps.rounded()))
        cropMissedRuns = 3
        lostCropRuns = 3
        tileOverlap = 64
    }
}

extension SchedulerConfiguration {
    /// With --anonymize: a lost track's forecast place keeps its crop while its mask is held
    /// (`maxAge` runs), and the tile sweep keeps its pace (no detection budget), so that an entering
    /// face is found as soon as it was before the budget.
    package mutating func anonymize(maxAge: Int) {
        lostCropRuns = maxAge
        quietTilePeriod = maxTilePeriod
        quietKeyframeInterval = maxKeyframeInterval
    }

    /// While the tile sweep is quiet, keyframes as far apart as a look-back of `lookBack` frames
    /// still writes a face from its first frame (one the whole-frame pass finds at the next keyframe):
    /// the longest multiple of `maxKeyframeInterval` up to `lookBack + 1` frames. Not with the
    /// budget off (`anonymize`).
    package mutating func stretchKeyframesWhenQuiet(lookBack: Int) {
        guard quietTilePeriod > maxTilePeriod else { return }
        quietKeyframeInterval = max(maxKeyframeInterval, (lookBack + 1) / maxKeyframeInterval * maxKeyframeInterval)
    }
}

/// Decides, frame by frame, where the detector looks: the whole frame at its base size on
/// keyframes, a crop around every live track's forecast box, and full-resolution tiles in turn
/// so that faces too small for the whole-frame pass are found within a bounded number of frames.
///
/// Decided in two halves, so that a pipeline can start the expensive passes early:
/// - `planAhead` (from older forecasts: the decisions only need them roughly): keyframes on a
///   rhythm, on the first frame and every cut, every `interval` frames, the interval doubling after
///   each keyframe up to `maxKeyframeInterval` (`quietKeyframeInterval` while the tile sweep is
///   quiet, where crops are cheap), then on the frames one short of that interval's multiples; and tiles, only when the
///   whole-frame pass sees the frame smaller than the tiles do, on every `period`th frame of the
///   video, the tile chosen by the frame's number too, the period `smallFaceTilePeriod` while a small face is tracked (small faces come in groups) and for one
///   sweep after a cut, otherwise `maxTilePeriod`, or `quietTilePeriod` once a whole sweep at
///   `maxTilePeriod` went by without a new, tentative or just missed track (the detection budget:
///   the keyframes stay within the look-back, so a face the whole-frame pass can see is still
///   written from its first frame). Keyed on the frame's number in the whole video
///   (not on a count since the run began), the rhythm of a run that starts mid-video (a segment of
///   a split plan) falls in step with a whole run's once their tracks agree.
/// - `addCrops` (from the freshest forecasts): a crop for each track missed at most
///   `cropMissedRuns` runs (`lostCropRuns`, when larger), at the detector's crop size, skipped on keyframes for faces the
///   whole-frame pass sees well; and a whole-frame pass every `uncertainKeyframeInterval` frames
///   while a track was just missed (its face may have left its crop) or, where crops cost as much
///   as a whole-frame pass, is tentative.
///
/// Each half depends only on the frame sizes, the cut flags and the forecasts given, in frame
/// order, so a run is deterministic when the forecasts are. `plan` runs both on one frame.
package struct DetectionScheduler: Sendable {
    package let geometry: DetectionGeometry
    package let configuration: SchedulerConfiguration
    private let width: Int, height: Int
    private let baseScale: Double
    private let tiles: TileGrid
    /// The first frame is a keyframe: `framesSinceKeyframe + 1 >= keyframeInterval`.
    private var framesSinceKeyframe = 0
    private var keyframeInterval = 1
    /// The number of the next frame when `planAhead` is not told (frames counted from 0).
    private var nextFrame = 0
    /// Tiles left to run quickly after a cut (one sweep).
    private var fastTilesLeft = 0
    /// The newest track serial seen in the forecasts (serials only grow): a larger one is a new face.
    private var newestSerial = 0
    /// Tiles run at `maxTilePeriod` since something happened; a whole sweep of them makes the sweep quiet.
    private var slowTilesSinceEvent = 0
    /// `addCrops`'s own count: frames since the last whole-frame pass of either half.
    private var framesSinceWholeFrame = Int.max / 2

    /// A scheduler for `width` x `height` upright frames.
    package init(width: Int, height: Int, geometry: DetectionGeometry, configuration: SchedulerConfiguration) {
        self.width = width
        self.height = height
        self.geometry = geometry
        self.configuration = configuration
        baseScale = geometry.baseScale(width: width, height: height)
        tiles = geometry.usesTiles(width: width, height: height)
            ? TileGrid(width: width, height: height, tileWidth: geometry.tileWidth, tileHeight: geometry.tileHeight,
                       scale: geometry.tileScale, overlap: configuration.tileOverlap)
            : TileGrid(width: 0, height: 0, tileWidth: 1, tileHeight: 1, scale: 1, overlap: 0)
        fastTilesLeft = tiles.regions.count
    }

    /// The tile regions, in sweep order (empty when tiles would not help).
    package var tileRegions: [Rect] { tiles.regions }

    /// Both halves on one frame, from the same forecasts.
    package mutating func plan(cut: Bool, forecasts: [TrackForecast], stale: Bool = false, frame: Int? = nil) -> FramePlan {
        var plan = planAhead(cut: cut, forecasts: forecasts, stale: stale, frame: frame)
        addCrops(to: &plan, forecasts: cut || stale ? [] : forecasts)
        return plan
    }

    /// The keyframe and tile of the next frame. `forecasts` are the live tracks' expected boxes
    /// on this frame; `stale` says no forecast of this shot exists yet (the first frames, or just
    /// after a cut), so new faces may be in the picture that no forecast shows. `frame` is the
    /// frame's number in the whole video (by default the count of frames planned before it).
    package mutating func planAhead(cut: Bool, forecasts: [TrackForecast], stale: Bool = false, frame: Int? = nil) -> FramePlan {
        let frame = frame ?? nextFrame
        nextFrame = frame + 1
        var plan = FramePlan()
        plan.isCut = cut
        plan.frame = frame
        plan.frameWidth = width
        plan.frameHeight = height
        plan.wholeFrame = FramePlan.wholeFrame(width: width, height: height, geometry: geometry).wholeFrame
        let live = cut ? [] : forecasts.filter { isInFrame($0.box) }
        plan.trackedBoxes = live.map(\.box)
        if cut { fastTilesLeft = tiles.regions.count }
        if cut || stale { slowTilesSinceEvent = 0 }
        // The tile decides first: while its sweep is quiet, keyframes may stretch to the quiet
        // interval; anything that ends the quiet brings the usual pace back at once. Not where
        // crops cost a whole-frame pass (BlazeFace): there a keyframe spared is a crop more.
        let (tile, quiet) = tilePass(frame: frame, live: live)
        let longest = quiet && geometry.cropsAreCheap ? configuration.quietKeyframeInterval : configuration.maxKeyframeInterval
        keyframeInterval = min(keyframeInterval, longest)
        // While the interval grows, counted from the last keyframe; at its longest, on the frames
        // numbered one short of its multiples (a whole run from frame 0 keeps its old rhythm up
        // to there), whatever frame the run began on.
        let due = keyframeInterval >= configuration.maxKeyframeInterval
            ? (frame + 1) % keyframeInterval == 0 : framesSinceKeyframe + 1 >= keyframeInterval
        let keyframe = cut || stale || due
        if keyframe {
            plan.passes.append(plan.wholeFrame!)
            framesSinceKeyframe = 0
        } else {
            framesSinceKeyframe += 1
        }
        // After a stretch of uncertainty (seen late here; `addCrops` reacts at once) the rhythm
        // starts again from every other frame.
        if cut || stale {
            keyframeInterval = 1
        } else if isUncertain(live) {
            keyframeInterval = configuration.uncertainKeyframeInterval
        } else if keyframe {
            keyframeInterval = min(longest, keyframeInterval * 2)
        }
        if let tile { plan.passes.append(tile) }
        return plan
    }

    /// Adds to `plan` (from `planAhead`, for the same frame) a crop for each live track and, while
    /// a track is uncertain, a whole-frame pass. `forecasts` are the freshest there are.
    package mutating func addCrops(to plan: inout FramePlan, forecasts: [TrackForecast]) {
        let live = forecasts.filter { isInFrame($0.box) }
        // Uncertain: a track just missed (its face may have left its crop), or a tentative one
        // when crops cost as much as a whole-frame pass. Where crops are cheap, a tentative track's
        // crop on every frame confirms it: on crowd-hd, keyframes for tentative tracks found
        // nothing more with CenterFace and cost whole-frame passes, while BlazeFace lost recall
        // without them (docs/scheduling.md, "Tentative tracks").
        let uncertain = isUncertain(live)
        var keyframe = plan.passes.contains { $0.kind == .full }
        if !keyframe, uncertain, framesSinceWholeFrame + 1 >= configuration.uncertainKeyframeInterval,
           let whole = plan.wholeFrame {
            plan.passes.insert(whole, at: 0)
            keyframe = true
        }
        framesSinceWholeFrame = keyframe ? 0 : framesSinceWholeFrame + 1
        let skipping = configuration.skipsSteadyCrops && geometry.cropsAreCheap && plan.frame % 2 == 1 && !plan.endsShot
        var crops: [ScheduledPass] = []
        for track in live where track.missedRuns <= max(configuration.cropMissedRuns, configuration.lostCropRuns)
            && !(keyframe && max(track.box.width, track.box.height) * baseScale >= 2 * geometry.reliableFaceSize) {
            let pass = crop(around: track)
            if skipping, isSteady(track, crop: pass.region, among: live), !plan.hasTile(touching: pass.region) {
                plan.skippedCrops.append(track.serial)
            } else {
                crops.append(pass)
            }
        }
        // Crops go after the whole-frame pass, before the tile.
        let at = plan.passes.firstIndex { if case .tile = $0.kind { return true } else { return false } } ?? plan.passes.count
        plan.passes.insert(contentsOf: crops, at: at)
    }

    /// True when `track` may go without its `crop` on this frame (`skipsSteadyCrops`): it is
    /// confirmed, was found by the last run, is seen well by the whole-frame pass, moves less than
    /// `steadyMove`, its crop lies inside the frame (a face at an edge may leave) and no other
    /// track's box touches that crop (faces that cross swap boxes).
    private func isSteady(_ track: TrackForecast, crop: Rect, among live: [TrackForecast]) -> Bool {
        guard track.id != nil, track.missedRuns == 0,
              max(track.box.width, track.box.height) * baseScale >= 2 * geometry.reliableFaceSize,
              track.pixelsPerFrame <= SchedulerConfiguration.steadyMove * track.box.height,
              track.areaChangePerFrame <= 2 * SchedulerConfiguration.steadyMove,
              crop.x > 0, crop.y > 0, crop.maxX < Double(width), crop.maxY < Double(height) else { return false }
        return !live.contains { $0.serial != track.serial && $0.box.intersection(crop).area > 0 }
    }

    /// Some track was just missed or, where crops are not cheap, is tentative.
    private func isUncertain(_ live: [TrackForecast]) -> Bool {
        live.contains { ($0.id == nil && !geometry.cropsAreCheap) || (1...configuration.cropMissedRuns).contains($0.missedRuns) }
    }

    /// The tile for frame number `frame`, if one is due (consecutive multiples of the period sweep
    /// the tiles in order), and whether the sweep is quiet: a whole one went by with nothing new.
    private mutating func tilePass(frame: Int, live: [TrackForecast]) -> (pass: ScheduledPass?, quiet: Bool) {
        guard !tiles.regions.isEmpty else { return (nil, false) }
        let smallInSight = live.contains { $0.box.height * baseScale < geometry.reliableFaceSize }
        // Something the sweep should look around for: a new face (a track not seen before, which a
        // tile's own find is too), a tentative or just missed track.
        let event = live.contains { $0.serial > newestSerial || $0.id == nil || (1...configuration.cropMissedRuns).contains($0.missedRuns) }
        newestSerial = max(newestSerial, live.lazy.map(\.serial).max() ?? 0)
        if smallInSight || fastTilesLeft > 0 || event { slowTilesSinceEvent = 0 }
        let quiet = slowTilesSinceEvent >= tiles.regions.count
        let period = smallInSight || fastTilesLeft > 0 ? configuration.smallFaceTilePeriod
            : quiet ? configuration.quietTilePeriod : configuration.maxTilePeriod
        // Frames 2, 5, 8... with a period of 3 (tiles 0, 1, 2...), as a whole run always had.
        guard (frame + 1) % period == 0 else { return (nil, quiet) }
        if fastTilesLeft == 0, !smallInSight, !quiet { slowTilesSinceEvent += 1 }
        fastTilesLeft = max(0, fastTilesLeft - 1)
        let index = ((frame + 1) / period - 1) % tiles.regions.count
        return (ScheduledPass(kind: .tile(index: index), region: tiles.regions[index],
                              pictureWidth: geometry.tileWidth, pictureHeight: geometry.tileHeight), quiet)
    }

    private func crop(around track: TrackForecast) -> ScheduledPass {
        ScheduledPass.crop(around: track.box, serial: track.serial, frameWidth: width, frameHeight: height, geometry: geometry)
    }

    /// True when at least half of the box lies inside the frame.
    private func isInFrame(_ box: Rect) -> Bool {
        box.isValid && box.intersection(Rect(x: 0, y: 0, width: Double(width), height: Double(height))).area >= box.area / 2
    }
}
