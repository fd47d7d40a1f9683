import Foundation

/// Case- and diacritic-insensitive folding, the `[cd]` of `CONTAINS[cd]`.
///
/// The store keeps folded copies of `place` and `region` so that search and region sections
/// never evaluate an expression per row at fetch time; the same function folds search text.
///
/// ```swift
/// TextFolding.fold("México") // "mexico"
/// TextFolding.fold("SÃO")    // "sao"
/// ```
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        // ASCII fast path: most USGS places are plain ASCII, and Foundation's folding costs
        // microseconds per call, which a million-row import notices.
        var isASCII = true
        var hasUpper = false
        for byte in text.utf8 {
            if byte >= 0x80 { isASCII = false; break }
            if byte >= 0x41 && byte <= 0x5A { hasUpper = true }
        }
        if isASCII {
            guard hasUpper else { return text }
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        guard folded.unicodeScalars.contains(where: { extraLetters[$0] != nil }) else { return folded }
        var result = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if let replacement = extraLetters[scalar] { result.append(contentsOf: replacement.unicodeScalars) }
            else { result.append(scalar) }
        }
        return String(result)
    }

    /// Letters that are not a base letter plus a combining mark, so diacritic folding leaves them,
    /// but that a person typing ASCII expects to match: "sindirgi" finds "Sındırgı".
    package static let extraLetters: [Unicode.Scalar: String] = [
        "ı": "i", "ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th",
    ]
}
