import FaceTrack

/// `--attributes`, shared by `process`, `detect` and `batch`: the face mesh runs on every detected
/// face when attributes (or landmarks, an output) are asked for.
struct AttributeOptions: OptionGroup {
    static let attributes = Option(
        "--attributes", "LIST",
        help: """
        face attributes from the face mesh: smile, blink, angle or all (fills has_smile,
        left/right_eye_closed, roll, yaw; refines eyes and mouth; needs face_landmark.tflite,
        and for blink iris_landmark.tflite)
        """) { try AttributeSelection(parsing: $0) }

    static let options = [attributes.spec]

    let selection: AttributeSelection

    init(_ arguments: ParsedArguments) throws {
        selection = try arguments.value(Self.attributes) ?? []
    }
}
