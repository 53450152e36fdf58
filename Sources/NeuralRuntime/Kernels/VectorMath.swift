/// Eight floats, the vector width the kernels work in (one AVX register).
typealias Float8 = SIMD8<Float>

/// Loads eight floats from any address.
@inline(__always)
func load8(_ pointer: UnsafePointer<Float>) -> Float8 {
    UnsafeRawPointer(pointer).loadUnaligned(as: Float8.self)
}

/// Stores eight floats to any address.
@inline(__always)
func store8(_ value: Float8, _ pointer: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: Float8.self)
}

/// The lane-wise maximum (compare and blend, which vectorises; `pointwiseMax` does not).
@inline(__always)
func maximum(_ a: Float8, _ b: Float8) -> Float8 {
    a.replacing(with: b, where: a .< b)
}

/// Stores the first `count` (< 8) lanes of `value`. The vector goes to the caller's stack whole
/// and the lanes are copied out of line: extracting lanes inside a hot loop (or passing the vector
/// to a function) makes the optimiser split the loop's vectors into halves or scalars. The stack
/// copy is private to the thread, so workers splitting one kernel never share it.
@inline(__always)
func storePartial(_ value: Float8, _ pointer: UnsafeMutablePointer<Float>, count: Int) {
    var lanes = value
    withUnsafeBytes(of: &lanes) { raw in
        copyFloats(raw.baseAddress!.assumingMemoryBound(to: Float.self), pointer, count: count)
    }
}

/// Adds `value`'s first `count` (< 8) lanes to `pointer`'s floats, by way of the stack as `storePartial`.
@inline(__always)
func addPartial(_ value: Float8, _ pointer: UnsafeMutablePointer<Float>, count: Int) {
    var lanes = value
    withUnsafeBytes(of: &lanes) { raw in
        let source = raw.baseAddress!.assumingMemoryBound(to: Float.self)
        for lane in 0..<count { pointer[lane] += source[lane] }
    }
}

/// Copies `count` floats; out of line on purpose (see `storePartial`).
@inline(never)
func copyFloats(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Float>, count: Int) {
    destination.update(from: source, count: count)
}

/// The clamp range an activation applies: `min(max(x, lower), upper)`.
struct ClampRange {
    let lower: Float
    let upper: Float

    init(_ activation: Activation) {
        switch activation {
        case .none: lower = -.infinity; upper = .infinity
        case .relu: lower = 0; upper = .infinity
        case .relu6: lower = 0; upper = 6
        case .reluMinus1To1: lower = -1; upper = 1
        }
    }

    /// Whether the clamp changes nothing.
    var isIdentity: Bool { lower == -.infinity && upper == .infinity }

    @inline(__always)
    func apply(_ value: Float8) -> Float8 {
        // Compare-and-blend compiles to two vector instructions; pointwiseMin/Max does not vectorise.
        let low = Float8(repeating: lower), high = Float8(repeating: upper)
        let raised = value.replacing(with: low, where: value .< low)
        return raised.replacing(with: high, where: raised .> high)
    }

    @inline(__always)
    func apply(_ value: Float) -> Float { Swift.min(Swift.max(value, lower), upper) }

    /// Clamps `count` floats in place.
    func apply(_ data: UnsafeMutablePointer<Float>, count: Int) {
        if isIdentity { return }
        var i = 0
        while i + 8 <= count {
            store8(apply(load8(data + i)), data + i)
            i += 8
        }
        while i < count {
            data[i] = apply(data[i])
            i += 1
        }
    }
}
