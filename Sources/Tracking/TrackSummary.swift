/// What one confirmed track covered, for `--tracks-summary`.
public struct TrackSummary: Sendable, Equatable, Codable {
    /// The track's ID.
    public var id: Int
    /// The first frame the track reported (frame numbers as passed to `Tracker.update`), tentative frames included.
    public var firstFrame: Int
    /// The last frame the track reported.
    public var lastFrame: Int
    /// Presentation time of the first frame, in seconds.
    public var firstTime: Double
    /// Presentation time of the last frame, in seconds.
    public var lastTime: Double
    /// Frames reported (detected plus predicted).
    public var frameCount: Int
    /// Frames on which the detector found the face.
    public var detectedFrameCount: Int
    /// Mean detector confidence over the detected frames.
    public var meanConfidence: Double
    /// The known person (`--known`) the track was recognised as; absent for a stranger or
    /// without `--known`.
    public var person: String?
    /// The distance from the track's embeddings to that person's closest photo (lower is surer).
    public var personDistance: Double?

    /// Creates a summary.
    public init(id: Int, firstFrame: Int, lastFrame: Int, firstTime: Double, lastTime: Double, frameCount: Int,
                detectedFrameCount: Int, meanConfidence: Double) {
        self.id = id
        self.firstFrame = firstFrame
        self.lastFrame = lastFrame
        self.firstTime = firstTime
        self.lastTime = lastTime
        self.frameCount = frameCount
        self.detectedFrameCount = detectedFrameCount
        self.meanConfidence = meanConfidence
    }

    private enum CodingKeys: String, CodingKey {
        case id, firstFrame, lastFrame, firstTime, lastTime, frameCount, detectedFrameCount, meanConfidence, person,
             personDistance
    }

    /// Every key but `personDistance` is written, `person` as `null` for a track no one is named for.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(firstFrame, forKey: .firstFrame)
        try container.encode(lastFrame, forKey: .lastFrame)
        try container.encode(firstTime, forKey: .firstTime)
        try container.encode(lastTime, forKey: .lastTime)
        try container.encode(frameCount, forKey: .frameCount)
        try container.encode(detectedFrameCount, forKey: .detectedFrameCount)
        try container.encode(meanConfidence, forKey: .meanConfidence)
        try container.encode(person, forKey: .person)
        try container.encodeIfPresent(personDistance, forKey: .personDistance)
    }
}

/// The tracker's totals plus one summary per confirmed track, as written by `TrackSummaryWriter`.
public struct TrackingSummary: Sendable, Equatable, Codable {
    /// How many tracks were confirmed.
    public var confirmedTrackCount: Int
    /// The most frames one confirmed track covered.
    public var longestTrackFrameCount: Int
    /// Detections dropped as unusable (non-finite or empty boxes, non-finite confidence).
    public var droppedDetectionCount: Int
    /// The confirmed tracks, by ID.
    public var tracks: [TrackSummary]

    /// Creates a summary.
    public init(confirmedTrackCount: Int, longestTrackFrameCount: Int, droppedDetectionCount: Int, tracks: [TrackSummary]) {
        self.confirmedTrackCount = confirmedTrackCount
        self.longestTrackFrameCount = longestTrackFrameCount
        self.droppedDetectionCount = droppedDetectionCount
        self.tracks = tracks
    }
}
