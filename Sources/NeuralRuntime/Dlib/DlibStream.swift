/// Bytes that do not follow dlib's serialisation format.
struct DlibFormatError: Error, CustomStringConvertible {
    /// What is wrong.
    let reason: String
    /// Where, in bytes from the start of the file.
    let offset: Int

    var description: String { "\(reason) at byte \(offset)" }
}

/// Reads the primitives of dlib's `serialize` format, every read bounds-checked (bad bytes throw,
/// they never trap):
/// - integers: a control byte (low four bits: how many magnitude bytes follow, 1 to 8; bit 7:
///   negative), then the magnitude, least significant byte first;
/// - strings: their length as an integer, then the bytes;
/// - real numbers (`float_details`): a mantissa and an exponent, both integers, value m * 2^e;
/// - booleans: the character '1' or '0';
/// - tensors: version 2, four sizes (samples, channels, rows, columns), then float32 values,
///   little-endian, in that order; alias tensors (views into a layer's parameters): version 1
///   and the four sizes only.
struct DlibStream {
    let bytes: ModelBytes
    private(set) var offset = 0

    init(bytes: ModelBytes) {
        self.bytes = bytes
    }

    /// Bytes not read yet.
    var remaining: Int { bytes.count - offset }

    private func fail(_ reason: String, at position: Int? = nil) -> DlibFormatError {
        DlibFormatError(reason: reason, offset: position ?? offset)
    }

    private mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw fail("file ends in the middle of a value") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A signed or unsigned integer.
    mutating func integer() throws -> Int {
        let start = offset
        let control = try byte()
        let size = Int(control & 0x0F)
        guard size >= 1, size <= 8, control & 0x70 == 0 else { throw fail("bad integer control byte \(control)", at: start) }
        var magnitude: UInt64 = 0
        for index in 0..<size { magnitude |= UInt64(try byte()) << (8 * UInt64(index)) }
        guard magnitude <= UInt64(Int.max) else { throw fail("integer out of range", at: start) }
        return control & 0x80 != 0 ? -Int(magnitude) : Int(magnitude)
    }

    /// An integer that must equal `expected` (a version number).
    mutating func expectInteger(_ expected: Int, _ what: String) throws {
        let start = offset
        let value = try integer()
        guard value == expected else { throw fail("\(what) is \(value), expected \(expected)", at: start) }
    }

    /// A string (layer names and versions are short ASCII).
    mutating func string() throws -> String {
        let start = offset
        let length = try integer()
        guard length >= 0, length <= 1024, length <= remaining else { throw fail("bad string length \(length)", at: start) }
        defer { offset += length }
        return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
    }

    /// A real number stored as mantissa and exponent.
    mutating func real() throws -> Double {
        let start = offset
        let mantissa = try integer(), exponent = try integer()
        guard abs(exponent) < 2000 else { throw fail("real number with exponent \(exponent)", at: start) }
        return Double(mantissa) * Double.pow2(exponent)
    }

    /// A boolean stored as '1' or '0'.
    mutating func flag() throws -> Bool {
        let start = offset
        switch try byte() {
        case UInt8(ascii: "1"): return true
        case UInt8(ascii: "0"): return false
        case let other: throw fail("bad boolean byte \(other)", at: start)
        }
    }

    /// The four sizes of a tensor, checked; returns them and their product.
    private mutating func sizes() throws -> (shape: [Int], count: Int) {
        let start = offset
        var shape: [Int] = []
        var count = 1
        for _ in 0..<4 {
            let size = try integer()
            let product = count.multipliedReportingOverflow(by: size)
            guard size >= 0, !product.overflow, product.partialValue <= 1 << 30 else {
                throw fail("bad tensor size \(size)", at: start)
            }
            shape.append(size)
            count = product.partialValue
        }
        return (shape, count)
    }

    /// A tensor with its values, read where they lie in the file.
    mutating func tensor() throws -> (shape: [Int], values: StoredFloats) {
        try expectInteger(2, "tensor version")
        let (shape, count) = try sizes()
        guard count * 4 <= remaining else { throw fail("file ends inside a tensor of \(count) values") }
        defer { offset += count * 4 }
        return (shape, StoredFloats(bytes: bytes, start: offset, count: count))
    }

    /// A tensor read past (training state: gradients, cached outputs).
    mutating func skipTensor() throws {
        try expectInteger(2, "tensor version")
        let (_, count) = try sizes()
        guard count * 4 <= remaining else { throw fail("file ends inside a tensor of \(count) values") }
        offset += count * 4
    }

    /// The sizes of an alias tensor.
    mutating func aliasShape() throws -> [Int] {
        try expectInteger(1, "alias tensor version")
        return try sizes().shape
    }
}

private extension Double {
    /// 2 to the power `exponent`, exactly for the exponents dlib writes.
    static func pow2(_ exponent: Int) -> Double {
        Double(sign: .plus, exponent: exponent, significand: 1)
    }
}
