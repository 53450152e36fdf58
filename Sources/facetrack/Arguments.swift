/// A command line split into positionals, options with values, and flags, with typed accessors
/// whose errors name the option and the bad value.
struct Arguments {
    /// Non-option arguments, in order.
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments`. `valued` and `flagNames` list the long names (with dashes); `aliases`
    /// maps short forms such as `-o` to long ones. Unknown options are usage errors.
    init(_ arguments: [String], valued: Set<String>, flags flagNames: Set<String>, aliases: [String: String] = [:]) throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            name = aliases[name] ?? name
            if flagNames.contains(name) {
                if inlineValue != nil { throw UsageError("option \(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("option \(name) needs a value") }
                    values[name] = arguments[index]
                    index += 1
                }
            } else {
                throw UsageError("unknown option '\(argument)'")
            }
        }
    }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The raw value of an option.
    func string(_ name: String) -> String? { values[name] }

    /// An integer option within `range`.
    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("invalid value '\(text)' for \(name): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A number option within `range`.
    func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError("invalid value '\(text)' for \(name): expected a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// An option that must be one of `choices`.
    func choice(_ name: String, from choices: [String]) throws -> String? {
        guard let text = values[name] else { return nil }
        guard choices.contains(text) else {
            throw UsageError("invalid value '\(text)' for \(name): choose from \(choices.joined(separator: ", "))")
        }
        return text
    }
}

/// A mistake on the command line: exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
