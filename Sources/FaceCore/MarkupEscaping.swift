extension String {
    /// The text with `& < > " '` written as character references: safe as XML or HTML text and
    /// as a quoted attribute value (the HTML report, the JUnit report).
    package var escapingMarkup: String {
        guard contains(where: { "&<>\"'".contains($0) }) else { return self }
        var out = ""
        out.reserveCapacity(count + 16)
        for c in self {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
