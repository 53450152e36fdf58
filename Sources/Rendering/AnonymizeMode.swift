/// How faces are hidden (`--anonymize`). The region is the face box scaled by the mask scale
/// about its centre, in the mask shape (an ellipse or the whole box).
public enum AnonymizeMode: String, CaseIterable, Sendable {
    /// A strong blur: a separable box blur run three times (close to a Gaussian).
    case blur
    /// Large uniform blocks, each the average colour of the frame under it.
    case pixelate
    /// A solid colour.
    case fill
    /// A picture (`image:FILE`, e.g. an emoji) scaled to the mask box and blended by its alpha:
    /// its own alpha is the shape. Without a picture, the region is filled (privacy first).
    case image

    /// The prefix of the `image:FILE` value.
    public static let imagePrefix = "image:"

    /// How the modes are written on the command line.
    public static let validValues = allCases.map { $0 == .image ? imagePrefix + "FILE" : $0.rawValue }

    /// Reads a mode name, case-insensitive; `image:FILE` must go through `parse`.
    public init(parsing text: String) throws(RenderingError) {
        let (mode, file) = try AnonymizeMode.parse(text)
        guard file == nil else { throw .unknownAnonymizeMode(text) }
        self = mode
    }

    /// Reads an `--anonymize` value: a mode name (case-insensitive) or `image:FILE`, with its file.
    public static func parse(_ text: String) throws(RenderingError) -> (mode: AnonymizeMode, imageFile: String?) {
        if text.lowercased().hasPrefix(imagePrefix) {
            let file = String(text.dropFirst(imagePrefix.count))
            guard !Substring(file).trimmingSpaces().isEmpty else { throw .imageWithoutFile(text) }
            return (.image, file)
        }
        let name = Substring(text).trimmingSpaces().lowercased()
        guard let mode = AnonymizeMode(rawValue: name), mode != .image else {
            throw name == "image" ? .imageWithoutFile(text) : .unknownAnonymizeMode(text)
        }
        return (mode, nil)
    }
}
