import FaceCore
import Foundation
import MediaIO

/// The two pictures of one track: a small face crop for the table and a larger one with some of
/// the scene around it, shown when the small one is clicked. JPEG files.
package struct Thumbnail: Sendable {
    /// The small crop (`Thumbnails.smallSide` square).
    package var small: Data
    /// The large crop (`Thumbnails.largeSide` square).
    package var large: Data
}

/// Crops every track's best frame out of the video by seeking to it (not decoding the whole file).
package enum Thumbnails {
    /// Side of the small crop in pixels.
    package static let smallSide = 80
    /// Side of the large crop in pixels.
    package static let largeSide = 256

    /// Checks that the tracks can come from the video: no frame or time beyond its end (a frame's
    /// slack for containers that estimate). Throws a one-line error naming both files.
    package static func checkMatch(_ rows: FaceRows, video: VideoFacts, videoPath: String) throws {
        let frameLength = 1 / (video.framesPerSecond ?? VideoTiming.assumedFramesPerSecond)
        if let frames = video.frames, frames > 1, rows.lastFrame >= frames + max(1, frames / 100) {
            throw ReportError.mismatch(csv: rows.path, video: videoPath,
                                       reason: "the CSV lists frame \(rows.lastFrame), the video has \(frames) frames")
        }
        // Times are the video's own clock: it starts at its stream's start time (1.4 s for MPEG-TS).
        let end = video.startTime + (video.duration ?? 0)
        if let duration = video.duration, duration > 0, rows.lastTime > end + 2 * frameLength {
            let span = video.startTime == 0 ? String(format: "the video lasts %.3f s", duration)
                : String(format: "the video runs from %.3f s to %.3f s", video.startTime, end)
            throw ReportError.mismatch(csv: rows.path, video: videoPath, reason: String(format: "the CSV reaches %.3f s, ", rows.lastTime) + span)
        }
    }

    /// The crops of `tracks`' best frames, by track ID, in time order of the frames. A frame that
    /// cannot be decoded leaves its track without pictures.
    package static func make(for tracks: [TrackInfo], video: String) throws -> [Int: Thumbnail] {
        let seeker = try FrameSeeker(path: video)
        let smallEncoder = try JPEGEncoder(width: smallSide, height: smallSide, quality: 5)
        let largeEncoder = try JPEGEncoder(width: largeSide, height: largeSide, quality: 7)
        let small = BGRAImage(width: smallSide, height: smallSide)
        let large = BGRAImage(width: largeSide, height: largeSide)
        var result: [Int: Thumbnail] = [:]
        for track in tracks.sorted(by: { ($0.best.time, $0.id) < ($1.best.time, $1.id) }) {
            guard let picture = try seeker.uprightImage(at: track.best.time) else { continue }
            let box = track.best.box
            picture.resample(square(around: box, scale: 1.5), into: small)
            picture.resample(square(around: box, scale: 3.2), into: large)
            result[track.id] = Thumbnail(small: try smallEncoder.encode(small), large: try largeEncoder.encode(large))
        }
        return result
    }

    /// A square `scale` times the box's longer side, centred on the box.
    static func square(around box: Rect, scale: Double) -> Rect {
        let side = max(2, max(box.width, box.height) * scale)
        return Rect(x: box.x + box.width / 2 - side / 2, y: box.y + box.height / 2 - side / 2, width: side, height: side)
    }
}
