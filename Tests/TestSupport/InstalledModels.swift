import Foundation

/// The model files `scripts/setup` installs, as tests find them: in `$FACETRACK_MODELS`, else in
/// the first `models` folder above the test file that asks.
public enum InstalledModels {
    /// The path of model `file`; throws a one-line error saying to run scripts/setup.
    public static func path(_ file: String, testFile: String = #filePath) throws -> String {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["FACETRACK_MODELS"], !env.isEmpty { candidates.append(env) }
        var dir = URL(fileURLWithPath: testFile).deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(dir.appendingPathComponent("models").path)
            dir.deleteLastPathComponent()
        }
        for candidate in candidates {
            let path = (candidate as NSString).appendingPathComponent(file)
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        throw ToolError(message: "model \(file) not found in \(candidates.joined(separator: ", ")): run scripts/setup")
    }
}
