import FaceTrack

/// The face-attribute options shared by `process` and `detect`: `--attributes` (smile, blink,
/// angle, all) and `--landmarks FILE`. Either one runs the face-mesh model on every detected face
/// (which also refines the eye and mouth positions); without both the mesh model is not loaded.
struct AttributeOptions: Sendable {
    static let valued: Set<String> = ["--attributes", "--landmarks"]
    static let help = """
      --attributes LIST     face attributes from the face mesh: smile, blink, angle or all (fills has_smile,
                            left/right_eye_closed, roll, yaw; refines eyes and mouth; needs face_landmark.tflite,
                            and for blink iris_landmark.tflite)
      --landmarks FILE      the 468 face-mesh points of each detected face as CSV (frame,track_id,point,x,y)
    """

    /// The attributes asked for (empty when only landmarks are wanted).
    let selection: AttributeSelection
    /// Where to write the landmarks, if anywhere.
    let landmarksPath: String?
    /// Where the model is looked up (the detector's `--models`).
    let models: ModelLocator

    init(_ arguments: Arguments, models: ModelLocator) throws {
        do {
            selection = try arguments.string("--attributes").map { try AttributeSelection(parsing: $0) } ?? []
        } catch {
            throw UsageError("\(error)")
        }
        landmarksPath = arguments.string("--landmarks")
        self.models = models
    }

    /// True when the face mesh has to run.
    var isEnabled: Bool { !selection.isEmpty || landmarksPath != nil }

    /// One analyzer (one per pipeline lane), or `nil` when nothing asks for the mesh; throws a
    /// one-line error when the model is missing.
    func makeAnalyzer() throws -> FaceAnalyzer? {
        guard isEnabled else { return nil }
        return try FaceMeshAnalyzer(models: models, selection: selection)
    }

    /// The per-track flag decisions, or `nil` without attributes.
    func makeStabilizer() -> AttributeStabilizer? {
        selection.isEmpty ? nil : AttributeStabilizer()
    }

    /// The landmark writer, or `nil` without `--landmarks`.
    func makeLandmarkWriter(inputs: [String], includesImage: Bool) throws -> LandmarkCSVWriter? {
        try landmarksPath.map { try LandmarkCSVWriter(path: $0, inputs: inputs, includesImage: includesImage) }
    }
}
