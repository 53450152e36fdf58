import XCTest
import FaceCore
@testable import Tracking

final class HungarianSolverTests: XCTestCase {
    /// The optimum by trying every assignment of the smaller side (small sizes only).
    private func bruteForce(_ costs: [Double], rows: Int, columns: Int) -> Double {
        var best = Double.infinity
        func search(_ row: Int, _ used: inout [Bool], _ sum: Double, _ assigned: Int) {
            if row == rows {
                if assigned == min(rows, columns) { best = min(best, sum) }
                return
            }
            // Leaving a row out is only allowed when there are more rows than columns.
            if rows - row - 1 >= min(rows, columns) - assigned { search(row + 1, &used, sum, assigned) }
            for c in 0..<columns where !used[c] {
                used[c] = true
                search(row + 1, &used, sum + costs[row * columns + c], assigned + 1)
                used[c] = false
            }
        }
        var used = [Bool](repeating: false, count: columns)
        search(0, &used, 0, 0)
        return best
    }

    func testKnownSquareMatrix() {
        let costs: [Double] = [4, 1, 3,
                               2, 0, 5,
                               3, 2, 2]
        let assignment = HungarianSolver().solve(costs: costs, rows: 3, columns: 3)
        XCTAssertEqual(assignment, [1, 0, 2])
        XCTAssertEqual(HungarianSolver.cost(of: assignment, costs: costs, columns: 3), 5)
    }

    func testKnownWideAndTallMatrices() {
        let wide: [Double] = [1, 2, 3,
                              2, 4, 6]
        let solver = HungarianSolver()
        let a = solver.solve(costs: wide, rows: 2, columns: 3)
        XCTAssertEqual(a, [1, 0])
        XCTAssertEqual(HungarianSolver.cost(of: a, costs: wide, columns: 3), 4)

        let tall: [Double] = [10, 1,
                              1, 10,
                              5, 5]
        let b = solver.solve(costs: tall, rows: 3, columns: 2)
        XCTAssertEqual(b, [1, 0, -1])
        XCTAssertEqual(HungarianSolver.cost(of: b, costs: tall, columns: 2), 2)
    }

    func testRandomMatricesMatchBruteForce() {
        var random = SplitMix(seed: 7)
        let solver = HungarianSolver()
        for (rows, columns) in [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (2, 5), (5, 2), (3, 6), (6, 4), (1, 6), (6, 1)] {
            for _ in 0..<20 {
                let costs = (0..<(rows * columns)).map { _ in (random.uniform() * 20).rounded() - 5 }
                let assignment = solver.solve(costs: costs, rows: rows, columns: columns)
                let used = assignment.filter { $0 >= 0 }
                XCTAssertEqual(used.count, min(rows, columns))
                XCTAssertEqual(Set(used).count, used.count, "a column was used twice")
                XCTAssertEqual(HungarianSolver.cost(of: assignment, costs: costs, columns: columns),
                               bruteForce(costs, rows: rows, columns: columns), accuracy: 1e-9, "\(rows)x\(columns) \(costs)")
            }
        }
    }

    func testForbiddenPairsStayUnassigned() {
        let inf = Double.infinity
        let costs: [Double] = [inf, 3,
                               inf, 1]
        let assignment = HungarianSolver().solve(costs: costs, rows: 2, columns: 2)
        XCTAssertEqual(assignment, [-1, 1])
        XCTAssertEqual(HungarianSolver().solve(costs: [.nan, .nan], rows: 1, columns: 2), [-1])
    }

    func testBadShapesGiveNoAssignment() {
        let solver = HungarianSolver()
        XCTAssertEqual(solver.solve(costs: [1, 2, 3], rows: 2, columns: 2), [-1, -1])
        XCTAssertEqual(solver.solve(costs: [], rows: 0, columns: 3), [])
        XCTAssertEqual(solver.solve(costs: [], rows: 2, columns: 0), [-1, -1])
        XCTAssertEqual(solver.solve(costs: [1], rows: 2, columns: Int.max), [-1, -1])
    }

    func testAssociatorSplitsComponentsAndMaximisesIoU() {
        // Component 1: a crowded pair where the greedy first choice is wrong; component 2: a lone pair.
        let tracks = [Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 4, y: 0, width: 10, height: 10),
                      Rect(x: 500, y: 500, width: 20, height: 20)]
        let detections = [Rect(x: 502, y: 500, width: 20, height: 20), Rect(x: 3, y: 0, width: 10, height: 10),
                          Rect(x: 7, y: 0, width: 10, height: 10)]
        var matches: [Match] = []
        IoUAssociator().associate(tracks: tracks, detections: detections, threshold: 0.1, into: &matches)
        let pairs = Set(matches.map { [$0.track, $0.detection] })
        // Track 0 best overlaps detection 1 and track 1 detection 2 (IoU 0.54 + 0.54 beats the greedy 0.82 + 0.18).
        XCTAssertEqual(pairs, [[0, 1], [1, 2], [2, 0]])
    }
}
