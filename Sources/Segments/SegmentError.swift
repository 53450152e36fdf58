import FaceCore
import Foundation

/// What can go wrong with a split plan, a segment or a stitch: one line naming the file.
package enum SegmentError: Error, CustomStringConvertible, Sendable {
    /// A file cannot be read.
    case cannotRead(String, reason: String)
    /// The plan file is not a plan, or one of its lines is wrong (`line` 0: the file as a whole).
    case badPlan(String, line: Int, reason: String)
    /// The input is not the file the plan was made for, or changed since.
    case inputChanged(String, plan: String)
    /// `--segment` names no segment of the plan.
    case noSuchSegment(String, segment: Int, count: Int)
    /// Segments whose record is missing (never run, failed or killed), by number.
    case missingSegments(String, [Int], count: Int)
    /// A segment's record or part cannot be used.
    case badRecord(String, reason: String)
    /// A segment ran, but not over all the frames its plan gives it.
    case incomplete(String, segment: Int, reason: String)

    /// One line for the user.
    package var description: String {
        switch self {
        case let .cannotRead(path, reason): return "\(path): \(reason)"
        case let .badPlan(path, line, reason): return "\(path)\(line > 0 ? ": line \(line)" : ""): \(reason)"
        case let .inputChanged(path, plan):
            return "\(path): not the file the plan was made for, or changed since (\(plan)); "
                + "make a new plan with facetrack split-plan"
        case let .noSuchSegment(path, segment, count):
            return "\(path): has no segment \(segment) (its segments are 0 to \(count - 1))"
        case let .missingSegments(path, numbers, count):
            return "\(path): segment\(numbers.count == 1 ? "" : "s") \(SegmentError.list(numbers)) of \(count) "
                + "\(numbers.count == 1 ? "has" : "have") not finished (never run, failed or killed); run "
                + "\(numbers.count == 1 ? "it" : "them") again (facetrack process INPUT --segment K --plan PLAN, "
                + "or sbatch --array=\(SegmentError.arraySpec(numbers)))"
        case let .badRecord(path, reason): return "\(path): \(reason)"
        case let .incomplete(path, segment, reason): return "\(path): segment \(segment) is incomplete: \(reason)"
        }
    }

    /// "1, 4 and 7".
    static func list(_ numbers: [Int]) -> String {
        let words = numbers.map(String.init)
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + words.last!
    }

    /// "1,4,7-9": a Slurm `--array` list of `numbers`.
    package static func arraySpec(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        let sorted = numbers.sorted()
        while index < sorted.count {
            var end = index
            while end + 1 < sorted.count && sorted[end + 1] == sorted[end] + 1 { end += 1 }
            parts.append(end > index ? "\(sorted[index])-\(sorted[end])" : "\(sorted[index])")
            index = end + 1
        }
        return parts.joined(separator: ",")
    }
}

extension SegmentError {
    /// The bytes of `path`; a file that cannot be read is a `cannotRead` naming it.
    static func read(_ path: String) throws -> Data {
        do {
            return try FileBytes.read(path)
        } catch let error as FileReadError {
            throw SegmentError.cannotRead(path, reason: error.reason)
        }
    }
}

extension JSONDecoder {
    /// A decoder of the snake-case keys plan files and records are written with.
    static var snakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
