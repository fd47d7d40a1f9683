import Foundation

/// The one-cell mark of a list row (issue 31): what the magnitude does not say — a tsunami flag,
/// a PAGER alert level, an event that is not an earthquake. One cell holds one glyph, so the
/// rarest news wins it: `~` for the tsunami flag, else a letter for another event type, else `!`
/// for an alert; the alert's level colours whichever glyph is shown (green, yellow, orange,
/// red, through `Palette`'s fallbacks on 8 colours and without colour).
///
/// ```swift
/// QuakeMark(tsunami: false, alert: "orange", type: "earthquake")  // "!" in orange
/// ```
struct QuakeMark: Equatable {
    let glyph: Character
    let style: Style

    /// The mark of a quake; nil when there is nothing to mark.
    init?(tsunami: Bool, alert: String?, type: String?) {
        let level = AlertLevel(feed: alert)
        let levelStyle = level.map { Style.role(.alert($0), [.bold]) }
        if tsunami {
            glyph = "~"
            style = levelStyle ?? .role(.accent, [.bold])
        } else if let letter = Self.letter(ofType: type) {
            glyph = letter
            style = levelStyle ?? .plain
        } else if alert.map({ !$0.isEmpty }) ?? false {
            // A level PAGER does not have is still an alert, uncoloured.
            glyph = "!"
            style = levelStyle ?? .plain
        } else {
            return nil
        }
    }

    /// The mark of a list line.
    init?(_ quake: QuakeLine) {
        self.init(tsunami: quake.tsunami, alert: quake.alert, type: quake.eventType)
    }

    /// The letter of an event type that is not an earthquake: `x` for any explosion, `q` for a
    /// quarry blast, else the type's first letter (`i` ice quake, `l` landslide, `o` other event,
    /// …), `*` for one that starts with no letter; nil for an earthquake or no type.
    static func letter(ofType type: String?) -> Character? {
        guard let type = type?.trimmingCharacters(in: .whitespaces).lowercased(), !type.isEmpty, type != "earthquake" else {
            return nil
        }
        if type.contains("explosion") { return "x" }
        guard let first = type.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return "*" }
        return Character(first)
    }

    /// What the marks mean, for the help overlay (`?`), `--help` and README: each line's marks
    /// in the styles the list draws them in, and their meaning.
    static let legend: [(marks: [(glyph: String, style: Style)], meaning: String)] = [
        ([("~", .role(.accent, [.bold]))], "tsunami flag (coloured by an alert too)"),
        (AlertLevel.allCases.map { ("!", .role(.alert($0), [.bold])) }, "PAGER alert: green yellow orange red"),
        ([("q", .plain), ("x", .plain)], "quarry blast, explosion (not an earthquake)"),
        ([("i", .plain), ("l", .plain), ("…", .plain)], "another event type: its first letter"),
    ]

    /// The marks elsewhere on a row and on the status line.
    static let otherLegend: [(marks: [(glyph: String, style: Style)], meaning: String)] = [
        ([("●", .role(.accent, [.bold]))], "new since you looked: n N jump, a clears"),
        ([("◆", .role(.accent, [.bold]))], "revised since you looked: :revised, a clears"),
        ([("✎", .role(.accent))], "your notes on it: e edits them"),
        ([("● live", .role(.live, [.bold]))], "status line: any process's change shows at once"),
        ([("✗", .plain)], "status line: last refresh failed, L says why"),
    ]

    /// The legend as plain text lines, marks in a column (for `--help` and README).
    static var legendLines: [(marks: String, meaning: String)] {
        legend.map { ($0.marks.map(\.glyph).joined(separator: " "), $0.meaning) }
    }
}
