/// A point in pixels, origin at the top-left corner of the upright frame, y pointing down.
public struct Point: Sendable, Equatable, Hashable {
    /// Horizontal position in pixels.
    public var x: Double
    /// Vertical position in pixels (down is positive).
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Euclidean distance to another point.
    public func distance(to other: Point) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }

    /// True when both coordinates are finite numbers.
    public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// An axis-aligned rectangle in pixels: top-left corner plus size, top-left origin, y down.
public struct Rect: Sendable, Equatable, Hashable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width (non-negative for a valid box).
    public var width: Double
    /// Height (non-negative for a valid box).
    public var height: Double

    /// Creates a rectangle from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Creates a rectangle from its centre and size.
    public init(centerX: Double, centerY: Double, width: Double, height: Double) {
        self.init(x: centerX - width / 2, y: centerY - height / 2, width: width, height: height)
    }

    /// Right edge (`x + width`).
    public var maxX: Double { x + width }
    /// Bottom edge (`y + height`).
    public var maxY: Double { y + height }
    /// The centre point.
    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }
    /// Width times height; zero for an empty or inverted box.
    public var area: Double { max(0, width) * max(0, height) }

    /// True when every field is finite and both sides are positive.
    public var isValid: Bool {
        x.isFinite && y.isFinite && width.isFinite && height.isFinite && width > 0 && height > 0
    }

    /// The overlap with another rectangle (empty rectangle when they do not touch).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// Intersection over union, in [0, 1].
    public func iou(_ other: Rect) -> Double {
        let inter = intersection(other).area
        let union = area + other.area - inter
        return union > 0 ? inter / union : 0
    }
}
