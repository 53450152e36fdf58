internal import CFFmpeg
import Foundation

/// FFmpeg's own log output. FaceTrack reports problems itself, one line each, so the libraries'
/// messages are off unless `FACETRACK_FFMPEG_LOG` names a level (quiet, error, warning, info, debug).
package enum FFmpegLog {
    /// Applies `FACETRACK_FFMPEG_LOG`, or silences FFmpeg when it is not set.
    package static func configureFromEnvironment() {
        let levels: [String: Int32] = ["quiet": AV_LOG_QUIET, "error": AV_LOG_ERROR, "warning": AV_LOG_WARNING,
                                       "info": AV_LOG_INFO, "verbose": AV_LOG_VERBOSE, "debug": AV_LOG_DEBUG]
        let name = ProcessInfo.processInfo.environment["FACETRACK_FFMPEG_LOG"] ?? "quiet"
        av_log_set_level(levels[name] ?? AV_LOG_QUIET)
    }
}
