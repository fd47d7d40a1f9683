import Foundation

/// What a search of places asks, decided once from its text: every word, in any order
/// (`japan honshu` finds "Near East Coast of Honshu, Japan"), each as a substring of the folded
/// place or as one of the other names of the same place (`PlaceSpellings`: `sumatra` finds
/// "Southern Sumatera, Indonesia"), or, for a word of a US state's or Mexico's name, as the
/// postal code USGS ends a place with (`california` finds "3 km W of Cobb, CA": the place read
/// as the region its section shows, `QuakeRecord.spelledOutRegions`). The text is literal:
/// whitespace separates words, and nothing else (quotes, `*`, `AND`, `(`) is syntax.
///
/// `QueryPlan` turns it into every form a reader needs (SQL's `instr` and `substr`, FTS5's
/// trigram query, the digest's pass in C, the test on one row here), so they all decide alike.
///
/// ```swift
/// PlaceSearch(folded: "sumatra japan")!.words  // [["sumatra", "sumatera"], ["japan"]]
/// PlaceSearch(folded: "nevada")!.endings       // [[", nv"]]
/// ```
public struct PlaceSearch: Hashable, Sendable {
    /// Each word's alternatives, the word first; a place matches when it holds one of each.
    public let words: [[String]]
    /// Each word's endings: a place that ends with one matches the word too (`, ca` for
    /// `california` or `calif`; none for most words).
    public let endings: [[String]]
    /// The same as UTF-8 bytes, for the per-row test (no allocation a row).
    package let bytes: [[[UInt8]]]
    package let endingBytes: [[[UInt8]]]

    /// The search of `folded` (folded with `TextFolding`, trimmed); nil when it has no word.
    public init?(folded: String) {
        let split = folded.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        var words: [[String]] = []
        for word in split where !words.contains(where: { $0.first == word }) {
            words.append([word] + PlaceSpellings.otherNames(of: word))
        }
        guard !words.isEmpty else { return nil }
        self.words = words
        endings = words.map { PlaceSpellings.endings(of: $0[0]) }
        bytes = words.map { $0.map { Array($0.utf8) } }
        endingBytes = endings.map { $0.map { Array($0.utf8) } }
    }

    /// Whether `place` (folded UTF-8) holds one alternative of every word or ends with one of its
    /// endings: SQL's `instr(placeKey, ?) > 0` and `substr(rtrim(placeKey), -n) = ?`, each alternative
    /// found by `memchr` on its first byte and `memcmp` of the rest. SQLite's `instr` steps
    /// through text a character at a time; a valid UTF-8 word never starts on a continuation
    /// byte, so testing every byte finds the same (and an ASCII ending is the last characters).
    public func matches(_ place: UnsafeRawBufferPointer) -> Bool {
        bytes.indices.allSatisfy { word in
            bytes[word].contains { Self.contains(place, $0) } || endingBytes[word].contains { Self.endsWith(place, $0) }
        }
    }

    /// `matches` on a folded place.
    public func matches(_ place: String) -> Bool {
        var place = place
        return place.withUTF8 { matches(UnsafeRawBufferPointer($0)) }
    }

    /// Whether `text` ends with `ending` byte for byte, spaces after it aside (SQL's `rtrim`).
    package static func endsWith(_ text: UnsafeRawBufferPointer, _ ending: [UInt8]) -> Bool {
        var end = text.count
        while end > 0 && text[end - 1] == 0x20 { end -= 1 }
        guard ending.count <= end else { return false }
        guard let base = text.baseAddress, !ending.isEmpty else { return true }
        return ending.withUnsafeBytes { memcmp(base + (end - ending.count), $0.baseAddress!, ending.count) == 0 }
    }

    /// Whether `haystack` holds `needle` byte for byte (true for an empty needle).
    package static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count, let base = haystack.baseAddress else { return false }
        return needle.withUnsafeBytes { needle in
            let lastStart = haystack.count - needle.count
            var start = 0
            while start <= lastStart {
                guard let found = memchr(base + start, Int32(first), lastStart - start + 1) else { return false }
                if needle.count == 1 || memcmp(found + 1, needle.baseAddress! + 1, needle.count - 1) == 0 { return true }
                start = base.distance(to: UnsafeRawPointer(found)) + 1
            }
            return false
        }
    }

    /// The words FTS5's trigram index can answer (three characters or more, every alternative
    /// too, no control character), by their place in `words`.
    package var indexedWords: [Int] { words.indices.filter { Self.isIndexable(words[$0]) } }

    /// The words the rows FTS5 finds are tested on again: those it cannot answer, and those with
    /// endings (FTS5 finds `, ca` anywhere in a place; only at its end does it match).
    package var wordsTestedAfterIndex: [Int] { words.indices.filter { !Self.isIndexable(words[$0]) || !endings[$0].isEmpty } }

    private static func isIndexable(_ alternatives: [String]) -> Bool {
        alternatives.allSatisfy { name in
            name.unicodeScalars.count >= 3 && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
    }

    /// The FTS5 query of the indexed words (nil without one): each word's alternatives and
    /// endings as quoted phrases joined by OR, the words joined by AND
    /// (https://www.sqlite.org/fts5.html#full_text_query_syntax).
    package var ftsQuery: String? {
        let indexed = indexedWords
        guard !indexed.isEmpty else { return nil }
        return indexed.map { word in
            "(" + (words[word] + endings[word]).map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
                .joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
    }

    /// A word's names and endings as bytes, for a pass over the digest.
    package struct WordBytes {
        package let names: [[UInt8]], endings: [[UInt8]]
    }

    /// The word a pass over the digest marks first, the one least likely to match (the longest
    /// of the words: `honshu` before `near`), then the others to keep among its matches.
    package var wordsByRarity: [WordBytes] {
        bytes.indices.sorted { (bytes[$0][0].count, -$0) > (bytes[$1][0].count, -$1) }
            .map { WordBytes(names: bytes[$0], endings: endingBytes[$0]) }
    }
}
