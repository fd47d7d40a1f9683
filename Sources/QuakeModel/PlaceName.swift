/// How a place is shown: as the catalogue wrote it, except that a name written in capitals (EMSC's
/// and the Flinn–Engdahl `NEAR WEST COAST OF HONSHU, JAPAN`) is title-cased, as every other name is
/// written (`Near West Coast of Honshu, Japan`). Searching and sorting fold case, so this changes
/// neither.
public enum PlaceName {
    /// `place` title-cased when it has no small letter and a word of four capitals or more (so
    /// that an abbreviation alone, `CAN`, `P.N.G.`, stays); as it is otherwise.
    public static func displayed(_ place: String) -> String {
        var run = 0, longest = 0
        for scalar in place.unicodeScalars {
            if scalar.properties.isLowercase { return place }
            run = scalar.properties.isUppercase ? run + 1 : 0
            longest = max(longest, run)
        }
        guard longest >= 4 else { return place }
        var result = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            result += small.contains(word) && !result.isEmpty ? word : word.prefix(1).uppercased() + word.dropFirst()
            word = ""
        }
        for character in place.lowercased() {
            if character.isLetter || character == "'" {
                word.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    /// Words left in lower case inside a title (after its first word).
    package static let small: Set<String> = ["of", "the", "and", "de", "del", "la", "da", "das", "dos"]
}
