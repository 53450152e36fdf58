import Foundation

/// Finds model files: `--models DIR` first, then `$FACETRACK_MODELS`, then the default folder.
///
/// The default folder is the first `models` directory found walking up from the executable
/// (so a build inside the repository finds the repository's `models/`, where `scripts/setup`
/// puts the files), else `/usr/local/share/facetrack/models`.
public struct ModelLocator: Sendable, Equatable {
    /// The environment variable that names a models folder.
    public static let environmentVariable = "FACETRACK_MODELS"

    /// The folder given with `--models`, if any.
    public var explicitDirectory: String?

    /// Creates a locator; pass the `--models` value when the user gave one.
    public init(explicitDirectory: String? = nil) {
        self.explicitDirectory = explicitDirectory
    }

    /// The folder that will be searched, and how it was chosen.
    public func directory() -> (path: String, origin: String) {
        if let dir = explicitDirectory { return (dir, "--models") }
        if let env = ProcessInfo.processInfo.environment[Self.environmentVariable], !env.isEmpty {
            return (env, Self.environmentVariable)
        }
        return (Self.defaultDirectory(), "default folder")
    }

    /// The path of `fileName` in the models folder; throws a one-line error naming the file,
    /// the folder searched and the fix when it is missing.
    public func path(for fileName: String) throws -> String {
        let dir = directory()
        let path = (dir.path as NSString).appendingPathComponent(fileName)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw ModelError.missing(file: fileName, directory: dir.path, origin: dir.origin)
        }
        return path
    }

    /// The default models folder (see the type's documentation).
    public static func defaultDirectory() -> String {
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("models").path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        return "/usr/local/share/facetrack/models"
    }
}

/// A model file that cannot be used.
public enum ModelError: Error, CustomStringConvertible, Sendable {
    /// The file is not in the models folder.
    case missing(file: String, directory: String, origin: String)
    /// The file is there but cannot be read as a model.
    case damaged(path: String, reason: String)
    /// The file cannot be opened or read at all (too many open files, an I/O error): not its fault.
    case unreadable(path: String, reason: String)

    /// One line for the user, with the fix.
    public var description: String {
        switch self {
        case let .missing(file, directory, origin):
            return "model file \(file) not found in \(directory) (\(origin)); run scripts/setup to download the models"
        case let .damaged(path, reason):
            return "model file \(path) is damaged (\(reason)); run scripts/setup to download it again"
        case let .unreadable(path, reason):
            let limit = reason.lowercased().contains("too many open files")
            return "model file \(path) cannot be read (\(reason)" + (limit ? ": raise the limit (ulimit -n) or run fewer jobs)" : ")")
        }
    }
}
