import Foundation

/// Turns the argument of `quaketui open` into a quake code (SPEC §4.3).
///
/// ```swift
/// try QuakeCode.parse("us7000abcd")                                                       // "us7000abcd"
/// try QuakeCode.parse("iris:958596")                                                      // "iris:958596"
/// try QuakeCode.parse("https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd/executive") // "us7000abcd"
/// ```
public enum QuakeCode {
    /// Returns the code given directly or inside a USGS event page URL (any trailing path,
    /// query or fragment is ignored). A USGS code is lowercased as the feeds spell codes; an
    /// agency's code (`iris:958596`, `local:C201303010329A`, every code `list --json` prints
    /// for a quake not from USGS) keeps its id as stored, the agency lowercased.
    ///
    /// Any other code is taken as written when `isStored` says the store holds it (a CSV's
    /// own ids, `import`ed as USGS's, need not look like USGS codes).
    ///
    /// - Throws: ``QuakeScenesError`` `invalidActivityTarget` (a usage error) for anything else.
    public static func parse(_ argument: String, isStored: (String) -> Bool = { _ in false }) throws -> String {
        let text = argument.trimmingCharacters(in: .whitespacesAndNewlines)
        if isPlausible(text) { return text.lowercased() }
        if let code = agencyCode(text) { return code }
        if (1...256).contains(text.unicodeScalars.count), !text.contains("://"),
           text.unicodeScalars.allSatisfy({ !$0.properties.isWhitespace && $0.properties.generalCategory != .control }),
           isStored(text) {
            return text
        }
        if let components = URLComponents(string: text),
           let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
           let host = components.host?.lowercased(), host == "earthquake.usgs.gov"
        {
            let parts = components.path.split(separator: "/").map(String.init)
            if parts.count >= 3, parts[0] == "earthquakes", parts[1] == "eventpage", isPlausible(parts[2]) {
                return parts[2].lowercased()
            }
        }
        throw QuakeScenesError(.invalidActivityTarget, detail: argument)
    }

    /// `agency:id` as the importer writes it (`FeedAgency`): an agency of letters, digits, `.`
    /// and `-` (1–64), then an id of 1–256 printable characters without spaces; nil otherwise.
    public static func agencyCode(_ text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let agency = text[..<colon].lowercased(), id = text[text.index(after: colon)...]
        guard (1...64).contains(agency.count), (1...256).contains(id.unicodeScalars.count),
              let first = agency.unicodeScalars.first, ("a"..."z").contains(first) || ("0"..."9").contains(first),
              agency.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }),
              !agency.hasPrefix("http"), !id.hasPrefix("//"),
              id.unicodeScalars.allSatisfy({ !$0.properties.isWhitespace && $0.properties.generalCategory != .control
                                              && $0.properties.generalCategory != .format })
        else { return nil }
        return agency + ":" + id
    }

    /// Whether `text` looks like a USGS event code: a two-letter network then 4 to 18 letters
    /// and digits, with at least one digit (e.g. `us7000abcd`, `ci40123456`, `usp000h60h`).
    public static func isPlausible(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard (6...20).contains(scalars.count) else { return false }
        let isLetter: (Unicode.Scalar) -> Bool = { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
        let isDigit: (Unicode.Scalar) -> Bool = { ("0"..."9").contains($0) }
        guard isLetter(scalars[0]), isLetter(scalars[1]) else { return false }
        let rest = scalars.dropFirst(2)
        return rest.allSatisfy { isLetter($0) || isDigit($0) } && rest.contains(where: isDigit)
    }
}
