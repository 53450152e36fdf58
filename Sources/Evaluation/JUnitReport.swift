import Foundation

/// A JUnit XML report (one test suite, one test case per clip), the format CI systems read.
public struct JUnitReport: Sendable {
    /// One test case.
    public struct Case: Sendable {
        /// The clip name.
        public var name: String
        /// Seconds taken.
        public var seconds: Double
        /// Failed thresholds (a failure) or empty.
        public var failures: [String]
        /// An error that stopped the case (an error), if any.
        public var error: String?
        /// Extra output (the metrics line).
        public var output: String

        /// Creates a case.
        public init(name: String, seconds: Double, failures: [String], error: String?, output: String) {
            self.name = name
            self.seconds = seconds
            self.failures = failures
            self.error = error
            self.output = output
        }
    }

    /// The suite name.
    public var suite: String
    /// The cases, in order.
    public var cases: [Case]

    /// Creates a report.
    public init(suite: String, cases: [Case]) {
        self.suite = suite
        self.cases = cases
    }

    /// The XML text.
    public func xml() -> String {
        let failures = cases.filter { $0.error == nil && !$0.failures.isEmpty }.count
        let errors = cases.filter { $0.error != nil }.count
        let total = cases.reduce(0) { $0 + $1.seconds }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<testsuites tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(Self.seconds(total))\">\n"
        text += "  <testsuite name=\"\(Self.escape(suite))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(Self.seconds(total))\">\n"
        for c in cases {
            text += "    <testcase classname=\"\(Self.escape(suite))\" name=\"\(Self.escape(c.name))\" time=\"\(Self.seconds(c.seconds))\">\n"
            if let error = c.error {
                text += "      <error message=\"\(Self.escape(error))\"/>\n"
            } else if !c.failures.isEmpty {
                let message = c.failures.joined(separator: "; ")
                text += "      <failure message=\"\(Self.escape(message))\">\(Self.escape(message))</failure>\n"
            }
            if !c.output.isEmpty { text += "      <system-out>\(Self.escape(c.output))</system-out>\n" }
            text += "    </testcase>\n"
        }
        text += "  </testsuite>\n</testsuites>\n"
        return text
    }

    /// Writes the XML to `path`.
    public func write(to path: String) throws {
        do {
            try Data(xml().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw EvaluationError.unwritable(path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// XML-escaped text for attributes and content.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}
