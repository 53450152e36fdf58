/// One option as it appears on the command line and in the help: its names, the placeholder of
/// its value (none for a flag) and its help text. Parsing, validation and help are all derived
/// from these, so they cannot drift apart.
struct OptionSpec: Hashable, Sendable {
    /// The long name with dashes, e.g. `--threshold`.
    let name: String
    /// A short alias such as `-o`.
    let short: String?
    /// The value's placeholder in the help (`X`, `FILE`); `nil` for a flag.
    let valueName: String?
    /// One or more lines (continuation lines are indented in the help).
    let help: String
    /// True for a file the command writes: given twice (with two names) it is a usage error, not
    /// "the last wins".
    var isOutput = false

    /// True for an option that takes no value.
    var isFlag: Bool { valueName == nil }

    /// The help entry, aligned like swift-argument-parser's: names in a 22-column field.
    var helpEntry: String {
        let label = (short.map { "\($0), " } ?? "") + name + (valueName.map { " \($0)" } ?? "")
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = String(repeating: " ", count: 24)
        var entry = label.count < 22 ? "  " + label.padding(toLength: 22, withPad: " ", startingAt: 0)
                                     : "  " + label + "\n" + indent
        entry += lines.joined(separator: "\n" + indent)
        return entry
    }
}

/// An option that takes a value and turns it into `Value`, with the check that goes with it.
struct Option<Value>: Sendable {
    /// Names and help.
    var spec: OptionSpec
    /// Converts the text; a thrown error becomes a usage error naming the option.
    let convert: @Sendable (String) throws -> Value

    init(_ name: String, short: String? = nil, _ valueName: String, help: String,
         convert: @escaping @Sendable (String) throws -> Value) {
        spec = OptionSpec(name: name, short: short, valueName: valueName, help: help)
        self.convert = convert
    }
}

/// An option without a value.
struct Flag: Sendable {
    /// Names and help.
    let spec: OptionSpec

    init(_ name: String, short: String? = nil, help: String) {
        spec = OptionSpec(name: name, short: short, valueName: nil, help: help)
    }
}

/// A value that does not fit its option: the part of the message after "invalid value 'V' for --NAME: ".
struct InvalidValue: Error {
    let expected: String
}

extension Option where Value == String {
    /// Any text (a path, a name).
    static func text(_ name: String, short: String? = nil, _ valueName: String, help: String) -> Option {
        Option(name, short: short, valueName, help: help) { $0 }
    }

    /// A file the command writes (given once).
    static func output(_ name: String, short: String? = nil, _ valueName: String, help: String) -> Option {
        var option = Option(name, short: short, valueName, help: help) { $0 }
        option.spec.isOutput = true
        return option
    }

    /// One of `choices`.
    static func choice(_ name: String, _ valueName: String, from choices: [String], help: String) -> Option {
        Option(name, valueName, help: help) { text in
            guard choices.contains(text) else { throw InvalidValue(expected: "choose from \(choices.joined(separator: ", "))") }
            return text
        }
    }
}

extension Option where Value == Int {
    /// A whole number in `range`.
    static func number(_ name: String, _ valueName: String = "N", in range: ClosedRange<Int>, help: String) -> Option {
        Option(name, valueName, help: help) { text in
            guard let value = Int(text), range.contains(value) else {
                throw InvalidValue(expected: "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
    }
}

extension Option where Value == Double {
    /// A finite number in `range`.
    static func number(_ name: String, _ valueName: String = "X", in range: ClosedRange<Double>, help: String) -> Option {
        Option(name, valueName, help: help) { text in
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw InvalidValue(expected: "expected a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
    }
}
