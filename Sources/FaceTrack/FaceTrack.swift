@_exported import FaceCore
@_exported import MediaIO
@_exported import Detection
@_exported import Pipeline
@_exported import Tracking
@_exported import Rendering
@_exported import NeuralRuntime
