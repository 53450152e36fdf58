import Foundation

/// Where each input's outputs go: the input tree mirrored under the output folder, one stem per
/// input (`trip/day1/clip.mov` → `OUT/trip/day1/clip.mp4`, `clip.csv`...). Every input gets names
/// of its own: when two inputs in one folder share a stem (`clip.mov`, `clip.mp4`) both keep their
/// extension in it (`clip.mov.csv`, `clip.mp4.csv`); when an output would still be another input's
/// (`clip.mov` beside `clip.mov.mp4`, or `a.mp4` beside `a.landmarks.mp4`), the inputs involved keep
/// their whole file name as the stem (`clip.mov.mp4.csv`), and if even that clashes, add `~` and a
/// hash of their path. Decided over the whole input list and every kind of output, so every shard
/// and every `--outputs` choice agrees.
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
        // Outputs (of any kind) that two inputs would share: those inputs take longer stems.
        for round in 0..<3 {
            var owners: [String: Set<String>] = [:]
            for input in inputs {
                for kind in OutputKind.allCases {
                    owners[OutputLayout.relativePath(kind, stem: stems[input.path]!, input: input), default: []].insert(input.path)
                }
            }
            let shared = Set(owners.values.filter { $0.count > 1 }.flatMap { $0 })
            if shared.isEmpty { break }
            for input in inputs where shared.contains(input.path) {
                stems[input.path] = round == 0 ? input.relativePath : input.relativePath + "~" + OutputLayout.hash(input.relativePath)
            }
        }
        self.stems = stems
    }

    /// Sixteen hex digits of FNV-1a over the path: the same name on every run and shard.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(value, radix: 16)
    }

    /// An output's path below the output folder, from the input's stem.
    static func relativePath(_ kind: OutputKind, stem base: String, input: BatchInput) -> String {
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

    /// The output path of one kind for `input`.
    package func path(_ kind: OutputKind, for input: BatchInput) -> String {
        let stem = stems[input.path] ?? (input.relativePath as NSString).deletingPathExtension
        return (folder as NSString).appendingPathComponent(OutputLayout.relativePath(kind, stem: stem, input: input))
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
