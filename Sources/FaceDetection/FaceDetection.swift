// Face detection and attributes on in-memory BGRA images, without FFmpeg: the detectors, the
// face mesh and the value types, for programs that decode their own frames.
@_exported import FaceCore
@_exported import Detection
@_exported import Attributes
