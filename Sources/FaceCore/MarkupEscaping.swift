extension String {
    /// The text with `& < > " '` written as character references and control characters (which
    /// XML 1.0 cannot hold at all, NUL and ESC among them) written out as `\u{1B}`: safe as XML or
    /// HTML text and as a quoted attribute value (the HTML report, the JUnit report). Tab, newline
    /// and carriage return stay.
    package var escapingMarkup: String {
        guard unicodeScalars.contains(where: { "&<>\"'".unicodeScalars.contains($0) || $0.isMarkupControl }) else { return self }
        var out = ""
        out.reserveCapacity(count + 16)
        for scalar in unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case _ where scalar.isMarkupControl: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension Unicode.Scalar {
    /// A C0 control other than tab, newline and carriage return, DEL, a C1 control, or one of the
    /// two noncharacters XML excludes.
    var isMarkupControl: Bool {
        switch value {
        case 0x09, 0x0A, 0x0D: return false
        case 0..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }
}
