import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One XML element of a cascade file: its name, attributes, text and child elements.
struct CascadeXMLElement {
    /// The tag name (`_` for list items in OpenCV's files).
    var name: String
    /// The attributes, e.g. `type_id`.
    var attributes: [String: String]
    /// The text directly inside the element, concatenated.
    var text: String = ""
    /// The child elements in file order.
    var children: [CascadeXMLElement] = []

    /// The first child with that name.
    func child(_ childName: String) -> CascadeXMLElement? {
        children.first { $0.name == childName }
    }

    /// The text with surrounding whitespace removed.
    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// Reads a whole XML file into a `CascadeXMLElement` tree with Foundation's `XMLParser`.
final class CascadeXMLReader: NSObject, XMLParserDelegate {
    private var stack: [CascadeXMLElement] = []
    private var root: CascadeXMLElement?

    /// Parses `data`; throws `CascadeError.malformedXML` naming `path` when the XML is broken.
    static func parse(_ data: Data, path: String) throws -> CascadeXMLElement {
        let reader = CascadeXMLReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        let ok = parser.parse()
        guard ok, let root = reader.root else {
            let reason: String
            if let error = parser.parserError {
                reason = "line \(parser.lineNumber): \((error as NSError).localizedDescription)"
            } else {
                reason = "no root element"
            }
            throw CascadeError.malformedXML(path: path, reason: reason)
        }
        return root
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        stack.append(CascadeXMLElement(name: elementName, attributes: attributeDict))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }
}
