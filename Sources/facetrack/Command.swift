import FaceCore

/// One `facetrack` command, declared once: its name, its one-line summary and synopsis (the
/// tool's usage text lists them), its options (what the command line is parsed against), its
/// `--help` text, and what it does with the parsed arguments.
protocol Command {
    /// The word that selects the command: `facetrack NAME ...`.
    static var name: String { get }
    /// The short form of its command line, as the tool's usage lists it.
    static var synopsis: String { get }
    /// What it does, in a few words.
    static var summary: String { get }
    /// Every option it takes.
    static var options: [OptionSpec] { get }
    /// `facetrack NAME --help`.
    static var help: String { get }
    /// True for commands that decode and detect: they are refused under too small an address-space
    /// limit, where their threads may not start and libdispatch waits for them instead of failing.
    static var startsWorkers: Bool { get }
    /// Runs the command; returns the exit status.
    static func run(_ arguments: ParsedArguments) throws -> Int32
}

extension Command {
    static var startsWorkers: Bool { false }
}

/// The tool: its commands, and what comes from their table (usage text, help, dispatch, the
/// unknown-command message).
enum Tool {
    static let version = "facetrack 0.1.0"

    /// Every command, in the order the usage lists them.
    static let commands: [any Command.Type] = [ProcessCommand.self, DetectCommand.self, EvalCommand.self, CheckCommand.self,
                                               BatchCommand.self, MergeResultsCommand.self, ReportCommand.self,
                                               FindCommand.self, RenderCommand.self, ApplyEditsCommand.self,
                                               SplitPlanCommand.self, StitchCommand.self]

    static var usage: String {
        let width = commands.map { $0.synopsis.count }.max() ?? 0
        return """
            USAGE: facetrack <command> [options]

            Finds, tracks and marks faces in recorded video.

            COMMANDS:
            \(commands.map { "  " + $0.synopsis.padding(toLength: width + 3, withPad: " ", startingAt: 0) + $0.summary }
                .joined(separator: "\n"))

            OPTIONS:
              --version     print the version
              -h, --help    show this help; `facetrack <command> --help` shows a command's options

            EXAMPLES:
              facetrack process clip.mp4 -o clip-faces.mp4 --csv tracks.csv
              facetrack detect photo.jpg
              facetrack batch videos/ --out faces/ --results results.jsonl
            """
    }

    /// Runs the command line (without the program name); returns the exit status. `-h` or
    /// `--help` anywhere before `--` shows the command's help instead of running it.
    static func run(_ arguments: [String]) throws -> Int32 {
        guard let first = arguments.first else {
            Console.standardError(usage + "\n")
            return 2
        }
        switch first {
        case "--version":
            print(version)
            return 0
        case "-h", "--help", "help":
            print(usage)
            return 0
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            throw UsageError("unknown command '\(first)' (commands: \(commands.map { $0.name }.joined(separator: ", ")); "
                             + "see facetrack --help)")
        }
        let rest = Array(arguments.dropFirst())
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            print(command.help)
            return 0
        }
        if command.startsWorkers, let refusal = OutOfMemory.checkAddressSpace() { throw InputRefused(description: refusal) }
        return try command.run(ParsedArguments(rest, options: command.options))
    }
}
