import FaceCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns the command line's files, folders, glob patterns and list files into a sorted,
/// de-duplicated list of inputs, with the relative paths that the outputs mirror.
///
/// Folders are scanned recursively for `extensions` (case-insensitive); hidden files and
/// folders (temporary outputs, locks) and the `excluded` folders (the output folder, when it
/// lies inside an input folder) are skipped. Files named directly or listed are taken whatever
/// their extension. Duplicates (the same file by real path, e.g. through a symbolic link or
/// both in a folder and a list) are kept once. Paths in a list file are relative to the
/// current folder; blank lines and lines starting with `#` are ignored.
package struct InputCollector {
    /// The extensions scanned for by default: video containers and still images.
    package static let defaultExtensions: Set<String> = [
        "mp4", "mov", "mkv", "webm", "avi", "m4v", "mpg", "mpeg", "ts", "mts", "m2ts", "wmv", "flv", "3gp", "ogv",
        "jpg", "jpeg", "png", "bmp", "webp", "tif", "tiff",
    ]

    /// Lower-case extensions without the dot.
    package var extensions: Set<String>
    /// Folders never entered (absolute paths; resolved here).
    package var excluded: [String]

    /// What was found.
    package struct Collection: Sendable {
        /// The inputs, sorted by path, each once.
        package var inputs: [BatchInput]
        /// Repeated files dropped.
        package var duplicates: Int
        /// Problems that did not stop the scan (unreadable folders), one line each.
        package var warnings: [String]
        /// The folder the relative paths start from.
        package var root: String
    }

    /// A collector for `extensions`, skipping `excluded` folders.
    package init(extensions: Set<String> = InputCollector.defaultExtensions, excluded: [String] = []) {
        self.extensions = Set(extensions.map { $0.lowercased() })
        self.excluded = excluded.map(InputCollector.resolve)
    }

    /// Collects `arguments` (files, folders or glob patterns) and the lines of `listFiles`.
    package func collect(_ arguments: [String], listFiles: [String] = []) throws -> Collection {
        var folders: [String] = []
        var files: [(path: String, exists: Bool)] = []
        var warnings: [String] = []
        var specs = arguments
        for list in listFiles {
            specs += try InputCollector.readList(list)
        }
        for spec in specs {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: spec, isDirectory: &isDirectory) {
                let path = InputCollector.resolve(spec)
                if isDirectory.boolValue {
                    folders.append(path)
                    scan(path, root: path, into: &files, warnings: &warnings)
                } else {
                    files.append((path, true))
                }
            } else if spec.contains(where: { "*?[".contains($0) }), let matches = InputCollector.glob(spec), !matches.isEmpty {
                for match in matches { files.append((InputCollector.resolve(match), true)) }
            } else {
                files.append((InputCollector.resolve(spec), false))
            }
        }

        // One entry per real path, sorted so that every shard sees the same order.
        var seen = Set<String>()
        var unique: [(path: String, exists: Bool)] = []
        for file in files where seen.insert(file.path).inserted { unique.append((file.path, file.exists)) }
        unique.sort { $0.path < $1.path }

        let parents = unique.map { ($0.path as NSString).deletingLastPathComponent }
        let root = InputCollector.commonAncestor(folders + parents)
        let inputs = unique.map { file in
            BatchInput(path: file.path, relativePath: InputCollector.relative(file.path, to: root), exists: file.exists)
        }
        return Collection(inputs: inputs, duplicates: files.count - unique.count, warnings: warnings, root: root)
    }

    /// Whether a file name has one of the scanned extensions.
    package func matches(_ name: String) -> Bool {
        extensions.contains((name as NSString).pathExtension.lowercased())
    }

    private func scan(_ folder: String, root: String, into files: inout [(path: String, exists: Bool)],
                      warnings: inout [String]) {
        if excluded.contains(folder) { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            warnings.append("\(folder): cannot read the folder; skipped")
            return
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = (folder as NSString).appendingPathComponent(name)
            // Linked folders are not entered (like find without -L: no loops); linked files are
            // followed and named by their real path.
            var link = stat(), info = stat()
            guard lstat(path, &link) == 0, stat(path, &info) == 0 else { continue }  // gone, or a dangling link
            if link.st_mode & S_IFMT == S_IFDIR {
                scan(path, root: root, into: &files, warnings: &warnings)
            } else if info.st_mode & S_IFMT == S_IFREG, matches(name) {
                files.append((InputCollector.resolve(path), true))
            }
        }
    }

    /// The lines of a list file.
    static func readList(_ path: String) throws -> [String] {
        let text: String
        do {
            text = try TextReader.read(path)  // a BOM and CRLF are accepted; "-" is standard input
        } catch {
            throw BatchError.unreadableList(path, reason: FileManager.default.fileExists(atPath: path) ? "not readable UTF-8 text" : "no such file")
        }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Matches of a glob(3) pattern, sorted; nil when it matches nothing or is invalid.
    static func glob(_ pattern: String) -> [String]? {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, GLOB_TILDE | GLOB_BRACE, nil, &result) == 0 else { return nil }
        return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }.sorted()
    }

    /// The absolute path with links resolved; for a missing file, the standardized absolute path.
    package static func resolve(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (absolute as NSString).standardizingPath
    }

    /// The deepest folder containing all `paths` (absolute); "/" when there is none.
    static func commonAncestor(_ paths: [String]) -> String {
        guard var common = paths.first.map({ ($0 as NSString).pathComponents }) else { return "/" }
        for path in paths.dropFirst() {
            let components = (path as NSString).pathComponents
            var shared = 0
            while shared < min(common.count, components.count), common[shared] == components[shared] { shared += 1 }
            common.removeLast(common.count - shared)
        }
        return common.isEmpty ? "/" : NSString.path(withComponents: common)
    }

    /// `path` relative to the folder `root`.
    static func relative(_ path: String, to root: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : (path as NSString).lastPathComponent
    }
}
