import Foundation

/// Where each input's outputs go: the input tree mirrored under the output folder, one stem per
/// input (`trip/day1/clip.mov` → `OUT/trip/day1/clip.mp4`, `clip.csv`...). When two inputs in one
/// folder share a stem (`clip.mov`, `clip.mp4`) both keep their extension in it (`clip.mov.csv`,
/// `clip.mp4.csv`). Decided over the whole input list, so every shard agrees.
package struct OutputLayout: Sendable {
    /// The output folder.
    package let folder: String
    /// The kinds written for each input.
    package let kinds: [OutputKind]
    /// Extensions treated as still images (their overlaid copy keeps the extension).
    package static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "bmp", "webp", "tif", "tiff"]
    private let stems: [String: String]

    /// The layout of `inputs` (the whole, unsharded list) under `folder`.
    package init(folder: String, kinds: [OutputKind], inputs: [BatchInput]) {
        self.folder = folder
        self.kinds = kinds
        var byStem: [String: [BatchInput]] = [:]
        for input in inputs {
            byStem[(input.relativePath as NSString).deletingPathExtension, default: []].append(input)
        }
        var stems: [String: String] = [:]
        for (stem, group) in byStem {
            for input in group { stems[input.path] = group.count == 1 ? stem : input.relativePath }
        }
        self.stems = stems
    }

    /// The output path of one kind for `input`.
    package func path(_ kind: OutputKind, for input: BatchInput) -> String {
        let stem = stems[input.path] ?? (input.relativePath as NSString).deletingPathExtension
        let base = (folder as NSString).appendingPathComponent(stem)
        switch kind {
        case .video:
            let ext = (input.relativePath as NSString).pathExtension.lowercased()
            return base + "." + (OutputLayout.imageExtensions.contains(ext) ? ext : "mp4")
        case .csv: return base + ".csv"
        case .mot: return base + ".mot.txt"
        case .tracks: return base + ".tracks.json"
        case .landmarks: return base + ".landmarks.csv"
        case .report: return base + ".report.html"
        }
    }

    /// Every output path of `input`, in `kinds` order.
    package func paths(for input: BatchInput) -> [String] { kinds.map { path($0, for: input) } }

    /// The lock file guarding `input`'s outputs (hidden, beside them).
    package func lockPath(for input: BatchInput) -> String {
        let video = path(.csv, for: input)
        let stem = ((video as NSString).lastPathComponent as NSString).deletingPathExtension
        return ((video as NSString).deletingLastPathComponent as NSString).appendingPathComponent(".\(stem).lock")
    }

    /// True when every output exists and was modified no earlier than the input (a rerun skips it).
    package func isUpToDate(_ input: BatchInput) -> Bool {
        guard let source = OutputLayout.modificationTime(input.path) else { return false }
        return paths(for: input).allSatisfy { path in
            OutputLayout.modificationTime(path).map { $0 >= source } ?? false
        }
    }

    /// A file's modification time in nanoseconds, nil if it does not exist.
    static func modificationTime(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}
