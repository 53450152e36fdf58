import Foundation
import FaceCore

/// A JUnit XML report (one test suite, one test case per clip), the format CI systems read.
package struct JUnitReport: Sendable {
    /// One test case.
    package struct Case: Sendable {
        /// The clip name.
        package var name: String
        /// Seconds taken.
        package var seconds: Double
        /// Failed thresholds (a failure) or empty.
        package var failures: [String]
        /// An error that stopped the case (an error), if any.
        package var error: String?
        /// Extra output (the metrics line).
        package var output: String

        /// Creates a case.
        package init(name: String, seconds: Double, failures: [String], error: String?, output: String) {
            self.name = name
            self.seconds = seconds
            self.failures = failures
            self.error = error
            self.output = output
        }
    }

    /// The suite name.
    package var suite: String
    /// The cases, in order.
    package var cases: [Case]

    /// Creates a report.
    package init(suite: String, cases: [Case]) {
        self.suite = suite
        self.cases = cases
    }

    /// The XML text.
    package func xml() -> String {
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

    /// Writes the XML to `path` (under a temporary name, renamed when complete), refusing a path
    /// that names one of `inputs`.
    package func write(to path: String, inputs: [String] = []) throws {
        let file = try BufferedTextFile(path: path, inputs: inputs)
        try file.write(xml())
        try file.finish()
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// XML-escaped text for attributes and content.
    static func escape(_ text: String) -> String { text.escapingMarkup }
}
