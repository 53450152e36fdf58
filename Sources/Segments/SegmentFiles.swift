import Foundation

/// Where a plan's segments keep their files: beside the plan, named after it, so every task of a
/// job array finds its own from the plan and its number alone, and `stitch` finds them all.
/// For `work/long.plan.jsonl` and segment 2: `work/long.plan.part-002.csv` (tracks, overlaps
/// included), `.part-002.landmarks.csv`, `.part-002.mp4` (the video part) and
/// `.part-002.json`, the record written last, which says the segment is complete.
package struct SegmentFiles: Sendable {
    /// The plan file.
    package let plan: String
    private let base: String
    private let width: Int

    /// The files of a plan of `count` segments at `plan`.
    package init(plan: String, count: Int) {
        self.plan = plan
        let name = plan.lowercased().hasSuffix(".jsonl") ? String(plan.dropLast(6)) : plan
        base = name
        width = max(3, String(max(0, count - 1)).count)
    }

    private func name(_ segment: Int, _ suffix: String) -> String {
        let number = String(segment)
        return base + ".part-" + String(repeating: "0", count: max(0, width - number.count)) + number + suffix
    }

    /// The record: written last, when everything else of the segment is in place.
    package func record(_ segment: Int) -> String { name(segment, ".json") }
    /// The tracks CSV of the segment's frames, overlaps included.
    package func csv(_ segment: Int) -> String { name(segment, ".csv") }
    /// The face-mesh points CSV.
    package func landmarks(_ segment: Int) -> String { name(segment, ".landmarks.csv") }
    /// The video part, in the container `pathExtension` names (that of `-o`).
    package func video(_ segment: Int, pathExtension: String) -> String { name(segment, "." + pathExtension) }

    /// The folder the files are in.
    package var folder: String { (plan as NSString).deletingLastPathComponent }
}
