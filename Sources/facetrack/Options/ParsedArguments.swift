/// A command line split into positionals, option values and flags, checked against the options a
/// command declares. Typed values are read through the `Option` that declares them, so each
/// error names the option and the bad value.
struct ParsedArguments {
    /// Non-option arguments, in order.
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    /// Whether `--` was given (every argument after it is positional, options included).
    private(set) var endedOptions = false

    /// Parses `arguments` against `options` (long names, short aliases, `--name=value`, `--` ends
    /// the options). An unknown option or a missing value is a usage error; the last of a
    /// repeated option wins.
    init(_ arguments: [String], options: [OptionSpec]) throws(UsageError) {
        var byName: [String: OptionSpec] = [:]
        for spec in options {
            byName[spec.name] = spec
            if let short = spec.short { byName[short] = spec }
        }
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; endedOptions = true; continue }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = byName[name] else { throw UsageError("unknown option '\(argument)'") }
            if spec.isFlag {
                if inlineValue != nil { throw UsageError("option \(spec.name) takes no value") }
                flags.insert(spec.name)
            } else {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("option \(spec.name) needs a value") }
                    value = arguments[index]
                    // `--csv --quiet` would write a file named --quiet: a value that looks like an
                    // option is one (a negative number is a value; a name starting with '-' is ./-x or --csv=-x).
                    if ParsedArguments.looksLikeOption(value) {
                        throw UsageError("option \(spec.name) needs a value, and '\(value)' is an option; "
                                         + "for a value starting with '-' write \(spec.name)=\(value) (or ./\(value) for a file)")
                    }
                    index += 1
                }
                if spec.isOutput, let earlier = values[spec.name], earlier != value {
                    throw UsageError("\(spec.name) is given twice ('\(earlier)' and '\(value)'): each output is written once; give one")
                }
                values[spec.name] = value
            }
        }
    }

    /// True for `-x` or `--name`, not for `-` (standard output) or a negative number (`-5`, `-0.1`).
    static func looksLikeOption(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        let rest = text.dropFirst()
        return !(rest.first.map { $0.isNumber || $0 == "." } ?? false)
    }

    /// "got 3: a.mp4, --csv, c.csv", with a note when `--` made options into inputs.
    func describePositionals() -> String {
        "got \(positionals.count): " + positionals.map { "'\($0)'" }.joined(separator: ", ")
            + (endedOptions ? "; after -- every argument is an input, options included" : "")
    }

    /// The option's value, converted and checked; `nil` when it was not given.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        guard let text = values[option.spec.name] else { return nil }
        do {
            return try option.convert(text)
        } catch let invalid as InvalidValue {
            throw UsageError("invalid value '\(text)' for \(option.spec.name): \(invalid.expected)")
        } catch {
            throw UsageError("\(error)")
        }
    }

    /// Whether a flag was given.
    func isSet(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// Whether an option (flag or valued) was given at all.
    func contains(_ spec: OptionSpec) -> Bool { values[spec.name] != nil || flags.contains(spec.name) }
}

/// A mistake on the command line: exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A set of options declared together (detector, tracking, overlay...): its options in help order.
/// A command's options are the union of its groups', and its help lists each group's entries.
protocol OptionGroup {
    /// The group's options, in help order.
    static var options: [OptionSpec] { get }
}

extension OptionGroup {
    /// The group's help entries, one per option.
    static var help: String { options.map(\.helpEntry).joined(separator: "\n") }
}
