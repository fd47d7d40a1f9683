import Foundation
import QuakeTime

extension PropertyListItem {
    /// Serializes a root dictionary as an XML property list, byte for byte as Foundation's
    /// `PropertyListSerialization` writes it: keys sorted, one tab per level, `&amp;` `&lt;`
    /// `&gt;` in text, dates in whole UTC seconds.
    ///
    /// Written here rather than by Foundation, which bridges every value to an `NSObject` first:
    /// a browser saves its scene on every key, and Foundation's writer took 3.5 ms of each `j`
    /// with a 13 KB scene (the message log). A tree holding a `<real>` or `<data>` (app
    /// defaults, never a scene) still goes through Foundation, whose number and base64 layouts
    /// are its own.
    static func xmlData(for root: [String: PropertyListItem]) throws -> Data {
        guard PropertyListItem.dictionary(root).isWrittenHere else {
            return try PropertyListSerialization.data(fromPropertyList: root.mapValues(\.foundationValue),
                                                      format: .xml, options: 0)
        }
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        PropertyListItem.dictionary(root).write(to: &xml, depth: 0)
        xml += "</plist>\n"
        return Data(xml.utf8)
    }

    /// Whether `write(to:depth:)` writes this value as Foundation does: anything but reals and data.
    private var isWrittenHere: Bool {
        switch self {
        case .string, .bool, .int, .date: true
        case .double, .data: false
        case .array(let items): items.allSatisfy(\.isWrittenHere)
        case .dictionary(let items): items.values.allSatisfy(\.isWrittenHere)
        }
    }

    private func write(to xml: inout String, depth: Int) {
        let indent = String(repeating: "\t", count: depth)
        xml += indent
        switch self {
        case .string(let text):
            xml += "<string>"
            Self.appendEscaped(text, to: &xml)
            xml += "</string>\n"
        case .bool(let value): xml += value ? "<true/>\n" : "<false/>\n"
        case .int(let value): xml += "<integer>\(value)</integer>\n"
        case .date(let date): xml += "<date>\(Self.utcSeconds(date))</date>\n"
        case .array(let items) where items.isEmpty: xml += "<array/>\n"
        case .array(let items):
            xml += "<array>\n"
            for item in items { item.write(to: &xml, depth: depth + 1) }
            xml += indent + "</array>\n"
        case .dictionary(let items) where items.isEmpty: xml += "<dict/>\n"
        case .dictionary(let items):
            xml += "<dict>\n"
            // In UTF-16 order, as Core Foundation sorts the keys it writes.
            for key in items.keys.sorted(by: { $0.utf16.lexicographicallyPrecedes($1.utf16) }) {
                xml += indent + "\t<key>"
                Self.appendEscaped(key, to: &xml)
                xml += "</key>\n"
                items[key]!.write(to: &xml, depth: depth + 1)
            }
            xml += indent + "</dict>\n"
        case .double, .data:
            preconditionFailure("reals and data are written by Foundation (isWrittenHere)")
        }
    }

    /// `text` with `&`, `<` and `>` as entities; everything else as it is (Foundation writes
    /// control characters raw too, and reads them back).
    private static func appendEscaped(_ text: String, to xml: inout String) {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
            xml += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": xml += "&amp;"
            case "<": xml += "&lt;"
            case ">": xml += "&gt;"
            default: xml.unicodeScalars.append(scalar)
            }
        }
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` of the whole second at or before `date`.
    private static func utcSeconds(_ date: Date) -> String {
        CivilDate.isoDateTime(seconds: Int64(date.timeIntervalSince1970.rounded(.down))) + "Z"
    }
}
