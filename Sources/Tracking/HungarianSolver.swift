/// Minimum-cost assignment (Kuhn-Munkres) for rectangular cost matrices in O(n² m), by
/// shortest augmenting paths with row and column potentials. The scratch arrays are kept between
/// calls, so solving many small problems does not allocate once they have grown.
package final class HungarianSolver {
    private var rowPotential: [Double] = []
    private var columnPotential: [Double] = []
    private var minimumSlack: [Double] = []
    private var columnOwner: [Int] = []
    private var previousColumn: [Int] = []
    private var visited: [Bool] = []
    private var matrix: [Double] = []

    /// Creates a solver with empty scratch memory.
    package init() {}

    /// The column assigned to each row (`-1` for none), minimising the sum of the chosen costs.
    /// `costs` is row-major, `rows * columns` long. Every row is assigned when rows <= columns,
    /// every column otherwise. Non-finite costs mark forbidden pairs, which are left unassigned.
    /// A `costs` array of the wrong length gives no assignment at all.
    package func solve(costs: [Double], rows: Int, columns: Int) -> [Int] {
        var assignment: [Int] = []
        solve(costs: costs, rows: rows, columns: columns, into: &assignment)
        return assignment
    }

    /// As `solve(costs:rows:columns:)`, writing into `assignment` (resized to `rows`) to avoid allocating.
    package func solve(costs: [Double], rows: Int, columns: Int, into assignment: inout [Int]) {
        assignment.removeAll(keepingCapacity: true)
        guard rows > 0 else { return }
        assignment.append(contentsOf: repeatElement(-1, count: rows))
        let (size, overflow) = rows.multipliedReportingOverflow(by: columns)
        guard columns > 0, !overflow, costs.count == size else { return }

        // Forbidden pairs get a cost larger than any whole assignment of allowed pairs, so they
        // are only used where nothing else is possible, and are then dropped.
        var largest = 0.0
        for c in costs where c.isFinite { largest = max(largest, abs(c)) }
        let forbidden = (largest + 1) * Double(2 * min(rows, columns) + 2)

        // The algorithm wants rows <= columns: solve the transpose otherwise.
        let transpose = rows > columns
        let n = transpose ? columns : rows, m = transpose ? rows : columns
        matrix.removeAll(keepingCapacity: true)
        matrix.reserveCapacity(n * m)
        for i in 0..<n {
            for j in 0..<m {
                let c = transpose ? costs[j * columns + i] : costs[i * columns + j]
                matrix.append(c.isFinite ? c : forbidden)
            }
        }
        run(n: n, m: m)
        // columnOwner[j] is the 1-based row owning 1-based column j.
        for j in 1...m where columnOwner[j] != 0 {
            let i = columnOwner[j] - 1, col = j - 1
            let (row, column) = transpose ? (col, i) : (i, col)
            if costs[row * columns + column].isFinite { assignment[row] = column }
        }
    }

    /// The sum of the costs of an assignment (rows assigned `-1` add nothing).
    package static func cost(of assignment: [Int], costs: [Double], columns: Int) -> Double {
        var total = 0.0
        for (row, column) in assignment.enumerated() where column >= 0 { total += costs[row * columns + column] }
        return total
    }

    /// Shortest augmenting paths on `matrix` (n x m, n <= m), 1-based potentials with index 0 as
    /// the virtual start column.
    private func run(n: Int, m: Int) {
        Self.reset(&rowPotential, count: n + 1, value: 0)
        Self.reset(&columnPotential, count: m + 1, value: 0)
        Self.reset(&columnOwner, count: m + 1, value: 0)
        Self.reset(&previousColumn, count: m + 1, value: 0)
        Self.reset(&minimumSlack, count: m + 1, value: .infinity)
        Self.reset(&visited, count: m + 1, value: false)
        // Work on raw buffers: array accesses through `self` in the O(n² m) loop would each pay
        // for an exclusivity check and a bounds check.
        matrix.withUnsafeBufferPointer { a in
            rowPotential.withUnsafeMutableBufferPointer { u in
                columnPotential.withUnsafeMutableBufferPointer { v in
                    columnOwner.withUnsafeMutableBufferPointer { owner in
                        previousColumn.withUnsafeMutableBufferPointer { way in
                            minimumSlack.withUnsafeMutableBufferPointer { slack in
                                visited.withUnsafeMutableBufferPointer { used in
                                    Self.augment(a: a, n: n, m: m, u: u, v: v, owner: owner, way: way, slack: slack, used: used)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private static func augment(a: UnsafeBufferPointer<Double>, n: Int, m: Int,
                                u: UnsafeMutableBufferPointer<Double>, v: UnsafeMutableBufferPointer<Double>,
                                owner: UnsafeMutableBufferPointer<Int>, way: UnsafeMutableBufferPointer<Int>,
                                slack: UnsafeMutableBufferPointer<Double>, used: UnsafeMutableBufferPointer<Bool>) {
        for row in 1...n {
            owner[0] = row
            var column0 = 0
            for j in 0...m { slack[j] = .infinity; used[j] = false }
            repeat {
                used[column0] = true
                let row0 = owner[column0]
                var delta = Double.infinity
                var column1 = 0
                let rowBase = (row0 - 1) * m - 1
                let u0 = u[row0]
                for j in 1...m where !used[j] {
                    let reduced = a[rowBase + j] - u0 - v[j]
                    if reduced < slack[j] { slack[j] = reduced; way[j] = column0 }
                    if slack[j] < delta { delta = slack[j]; column1 = j }
                }
                // Only reachable with non-finite numbers, which `solve` has replaced; never loop forever.
                if column1 == 0 { return }
                for j in 0...m {
                    if used[j] {
                        u[owner[j]] += delta
                        v[j] -= delta
                    } else {
                        slack[j] -= delta
                    }
                }
                column0 = column1
            } while owner[column0] != 0
            // Flip the augmenting path back to the start.
            repeat {
                let column1 = way[column0]
                owner[column0] = owner[column1]
                column0 = column1
            } while column0 != 0
        }
    }

    /// Sets `array` to `count` copies of `value`, reusing its storage.
    private static func reset<T>(_ array: inout [T], count: Int, value: T) {
        if array.count == count {
            for i in 0..<count { array[i] = value }
        } else {
            array.removeAll(keepingCapacity: true)
            array.append(contentsOf: repeatElement(value, count: count))
        }
    }
}
