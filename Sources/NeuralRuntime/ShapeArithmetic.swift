/// Overflow-safe element counts for shapes that come from files.
enum ShapeArithmetic {
    /// The product of `dimensions`, or nil when a dimension is negative or the product passes 2^40.
    static func elementCount(_ dimensions: [Int]) -> Int? {
        var product = 1
        for dimension in dimensions {
            guard dimension >= 0 else { return nil }
            let (next, overflow) = product.multipliedReportingOverflow(by: dimension)
            guard !overflow, next < 1 << 40 else { return nil }
            product = next
        }
        return product
    }
}
