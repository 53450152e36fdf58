/// One kind of overlay drawn on each face. The command line takes a comma list of their names
/// (`--overlay boxes,eyes,labels`).
public enum OverlayKind: String, CaseIterable, Sendable, Hashable {
    /// A rectangle outline around the face: red, green when the face smiles.
    case boxes
    /// A magenta square (or the eye sprite) on each eye.
    case eyes
    /// A marker at the mouth.
    case mouth
    /// The track ID and confidence above the box.
    case labels

    /// The default set, `boxes,eyes`.
    public static let defaultSet: Set<OverlayKind> = [.boxes, .eyes]

    /// Every name `parseList` accepts: the kinds plus `all` and `none`.
    public static var validNames: [String] { allCases.map(\.rawValue) + ["all", "none"] }

    /// Reads a comma list such as `boxes,eyes`. Names are case-insensitive and may be padded with
    /// spaces; `all` adds every kind and `none` (or an empty list) gives the empty set, which is
    /// useful with anonymisation alone.
    public static func parseList(_ text: String) throws(RenderingError) -> Set<OverlayKind> {
        var kinds = Set<OverlayKind>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingSpaces().lowercased()
            if let kind = OverlayKind(rawValue: name) {
                kinds.insert(kind)
            } else if name == "all" {
                kinds.formUnion(allCases)
            } else if name == "none" || (name.isEmpty && !text.contains(",")) {
                continue
            } else {
                throw .unknownOverlay(String(part))
            }
        }
        return kinds
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs (Foundation-free).
    func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
