import FaceCore

/// The values of one tracks row (one face on one frame) in the order of
/// `TrackCSVWriter.header` (`person` with known people, `shot` last), spelled as the CSV spells them: what the CSV and
/// the JSON Lines writer share, so both files carry the same fields with the same precision.
struct TrackRowValues {
    /// One field's value.
    enum Value {
        /// A number already written with the column's decimals.
        case number(String)
        /// A fixed word (`source`).
        case word(String)
        /// Free text (`person`), quoted as the format needs.
        case text(String)
        /// A 1/0 attribute.
        case flag(Bool)
        /// Not available: an empty CSV field, a JSON null.
        case none
    }

    let frame: Int
    let time: Double
    let face: TrackedFace

    /// Calls `body` with each column's index and value (`TrackCSVWriter.header`): `person` when
    /// `includesPerson`, then `shot`, then the mask region when `includesMask` (empty until decided).
    func forEach(includesPerson: Bool, includesMask: Bool = false, _ body: (Int, Value) -> Void) {
        let o = face.observation
        var index = 0
        func put(_ value: Value) {
            body(index, value)
            index += 1
        }
        func number(_ value: Double?, _ decimals: Int) {
            guard let value else { return put(.none) }
            let text = TrackCSVWriter.fixed(value, decimals)
            put(text.isEmpty ? .none : .number(text))
        }
        func point(_ p: Point?) {
            number(p?.x, 2)
            number(p?.y, 2)
        }
        func flag(_ value: Bool?) { put(value.map(Value.flag) ?? .none) }
        put(.number(String(frame)))
        number(time, 6)
        put(face.trackID.map { .number(String($0)) } ?? .none)
        number(o.bounds.x, 2)
        number(o.bounds.y, 2)
        number(o.bounds.width, 2)
        number(o.bounds.height, 2)
        number(o.confidence, 4)
        point(o.leftEye)
        point(o.rightEye)
        point(o.mouth)
        flag(o.hasSmile)
        flag(o.leftEyeClosed)
        flag(o.rightEyeClosed)
        number(o.roll, 2)
        number(o.yaw, 2)
        put(.word(face.source.rawValue))
        if includesPerson { put(.text(face.person ?? "")) }
        put(face.shot.map { .number(String($0)) } ?? .none)
        if includesMask {
            let mask = face.maskRegion
            number(mask?.x, 2)
            number(mask?.y, 2)
            number(mask?.width, 2)
            number(mask?.height, 2)
        }
    }
}
