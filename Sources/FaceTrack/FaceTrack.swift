// The public library: one import for programs that process video files. Programs that have
// their own frames and only need detection import `FaceDetection` (no FFmpeg).
@_exported import FaceCore
@_exported import MediaIO
@_exported import Detection
@_exported import Pipeline
@_exported import Tracking
@_exported import Rendering
@_exported import Evaluation
@_exported import Attributes
// Public there: `KnownPeopleError` (a --known or --face photo that cannot be used) and `AppearanceRange`.
@_exported import Identity
