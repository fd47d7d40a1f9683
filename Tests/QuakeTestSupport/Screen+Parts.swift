import Foundation

extension Screen {
    /// The header line as `HeaderView` draws it: ` quaketui │ 1,234 quakes │ 2 new │ sort time ↓ │
    /// M ≥ 2.5 │ near home ≤ 300 km │ :depth 0-70 │ /tokyo▏`, then at the right end the badges
    /// (`sample data`, `offline`) and `scene NAME`.
    public struct Header: Equatable, Sendable, CustomStringConvertible {
        /// The whole line, trimmed.
        public let line: String
        /// The left side's segments between ` │ `: `["quaketui", "1,234 quakes", "sort time ↓", …]`.
        public let segments: [String]
        /// The right end's items: badges, then `scene NAME`.
        public let right: [String]

        /// What `HeaderView` draws as badges (`HeaderModel.badges`): never cut.
        public static let knownBadges = ["sample data", "offline"]

        public init(_ line: String) {
            self.line = line.trimmingCharacters(in: .whitespaces)
            // From the right: `scene NAME` (or its label cut to `sc…`, giving way to the badges),
            // then the badges, then the left side, which a narrow pane cuts with `…` right
            // before them.
            var rest = self.line
            var scene: [String] = []
            if let at = rest.range(of: " scene ", options: .backwards), !rest[at.upperBound...].contains(" ") {
                scene = ["scene " + rest[at.upperBound...]]
                rest = String(rest[..<at.lowerBound])
            } else if let last = rest.split(separator: " ").last, last.hasSuffix("…"), "scene".hasPrefix(last.dropLast()),
                      rest.count > last.count {
                scene = [String(last)]
                rest = String(rest.dropLast(last.count))
            }
            var badges: [String] = []
            while true {
                rest = rest.trimmingCharacters(in: .whitespaces)
                guard let badge = Self.knownBadges.first(where: { rest.hasSuffix(" " + $0) }) else { break }
                badges.insert(badge, at: 0)
                rest = String(rest.dropLast(badge.count))
            }
            segments = rest.isEmpty ? [] : rest.components(separatedBy: " │ ").map { $0.trimmingCharacters(in: .whitespaces) }
            right = badges + scene
        }

        public var description: String { line }

        /// The title segment (`quaketui`).
        public var title: String? { segments.first }

        /// The list's declustering (`:decluster`, issue 54): `declustered (Gardner–Knopoff): 8,412 of
        /// 12,569`, or `declustering 43 %` / `declustering…` while it is computed; nil when off.
        public var declustering: String? {
            segments.first { $0.hasPrefix("declustered (") || $0.hasPrefix("declustering") || $0.hasPrefix("not declustered") }
        }
        /// The total (`1,234 quakes`, `1 quake`, or `… quakes` while it is counted).
        public var count: String? { segments.count > 1 ? segments[1] : nil }
        /// The total is still being counted (a provisional window).
        public var isCountPending: Bool { count == "… quakes" }
        /// `2 new` / `5,000+ new`, nil when nothing is new.
        public var new: String? { segment { $0.hasSuffix(" new") } }
        /// `sort time ↓`.
        public var sort: String? { segment { $0.hasPrefix("sort ") } }
        /// `M ≥ 2.5`.
        public var minimumMagnitude: String? { segment { $0.hasPrefix("M ≥ ") } }
        /// `near home ≤ 300 km`, `near Aksaray ≤ 300 km`.
        public var nearHome: String? { segment { $0.hasPrefix("near ") && $0.contains(" ≤ ") } }
        /// The `:` line's filters: `:depth 0-70 · mag 5+`.
        public var filters: String? { segment { $0.hasPrefix(":") } }
        /// The search field: `/tokyo`, with `▏` at the cursor while it has focus.
        public var search: String? { segment { $0.hasPrefix("/") } }
        /// The scene's name (`a` for `scene a`).
        public var scene: String? { right.last.flatMap { $0.hasPrefix("scene ") ? String($0.dropFirst(6)) : nil } }
        /// Whether this is a drawn header of scene `name`: its label names it, whole or cut to a
        /// start of it, or there is none (a pane too narrow for it: the label gives way first).
        public func isOf(scene name: String) -> Bool {
            guard title == "quaketui" else { return false }
            guard let shown = scene else { return true }
            return shown.hasSuffix("…") ? name.hasPrefix(shown.dropLast()) : shown == name
        }

        /// The badges before the scene: `sample data`, `offline`. (The scene's label gives way
        /// to them on a narrow pane: cut, `sc…`, it is not a badge.)
        public var badges: [String] {
            guard let last = right.last else { return [] }
            let isScene = last.hasPrefix("scene ") || (last.hasSuffix("…") && "scene ".hasPrefix(last.dropLast()))
            return isScene ? Array(right.dropLast()) : right
        }

        func segment(_ matches: (String) -> Bool) -> String? { segments.dropFirst(2).first(where: matches) }
    }

    /// The status line as `StatusLineView` draws it: a message and the kept hints, or the key
    /// hints, on the left; progress, `● live` and the refresh's state on the right.
    public struct StatusLine: Equatable, Sendable, CustomStringConvertible {
        /// The whole line, trimmed.
        public let line: String
        /// The left side (what precedes a run of three spaces), trimmed.
        public let left: String
        /// The right side's items (`✗ retry 4m`, `● live`), left to right.
        public let right: [String]

        public init(_ line: String) {
            self.line = line.trimmingCharacters(in: .whitespaces)
            let parts = self.line.components(separatedBy: "   ")
            left = (parts.first ?? "").trimmingCharacters(in: .whitespaces)
            right = Screen.words(parts.dropFirst().joined(separator: "   "), separatedBy: 2)
        }

        public var description: String { line }

        /// The left side's parts between two spaces: a message, then hints (`? help`).
        public var parts: [String] { Screen.words(left, separatedBy: 2) }
        /// The left side's first part: the message when one is shown.
        public var message: String? { parts.first }
        /// Whether the left side offers `hint` (`? help`, `j/k move`) as a part of its own.
        public func offers(_ hint: String) -> Bool { parts.contains(hint) }
    }

    /// One line of the list: a section line or a quake row.
    public struct Row: Equatable, Sendable, CustomStringConvertible {
        /// The line trimmed, without the new mark and the scrollbar's thumb.
        public let text: String
        /// Marked `●`: arrived since the scene last looked.
        public let isNew: Bool
        /// The section this line heads, nil for a quake row.
        public let section: Section?

        /// nil for an empty line.
        public init?(_ line: String) {
            var text = Screen.trim(line)
            guard !text.isEmpty else { return nil }
            isNew = text.hasPrefix("●")
            if isNew { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
            self.text = text
            section = Section(text)
        }

        public var description: String { (isNew ? "● " : "") + text }

        /// The words of the row (split at spaces): its code is one of them.
        public var words: [String] { text.split(separator: " ").map(String.init) }
        /// The row's columns: the magnitude, the place, then the others split at runs of two
        /// spaces (notes `✎`, agencies `3 ag`, distance, time, depth, epicentre, code, relative
        /// time, as shown). The magnitude's type is `magType`, not a column here.
        public var columns: [String] {
            guard let magnitude, let rest = afterMagnitude else { return Screen.words(text, separatedBy: 2) }
            return [magnitude] + Screen.words(String(rest.dropFirst(2)), separatedBy: 2)
        }
        /// The magnitude (the first word): `4.5`.
        public var magnitude: String? { section == nil ? words.first : nil }
        /// The magnitude's type after it (`mww`, `mb`; from 72 columns), nil where not shown or
        /// blank: the word right after the magnitude when it is longer than the one-cell mark.
        public var magType: String? {
            guard section == nil, let magnitude else { return nil }
            let rest = text.dropFirst(magnitude.count)
            guard rest.hasPrefix(" "), let word = rest.dropFirst().split(separator: " ", maxSplits: 1).first,
                  word.count > 1, rest.dropFirst().hasPrefix(word) else { return nil }
            return String(word)
        }
        /// The cell after the magnitude (`QuakeMark`: tsunami, alert, event type), nil when blank.
        public var mark: String? { afterMagnitude.map { String($0.prefix(1)) }.flatMap { $0 == " " ? nil : $0 } }
        /// The place column: after the magnitude and the mark, up to the next run of two spaces.
        public var place: String? { afterMagnitude == nil ? nil : columns.dropFirst().first }

        /// The text after the magnitude and the space after it (and after the magnitude's type,
        /// 4 cells and a space, when one is shown): the mark's cell first.
        var afterMagnitude: Substring? {
            guard section == nil, let magnitude else { return nil }
            let skipped = magnitude.count + 1 + (magType == nil ? 0 : Self.typeCells + 1)
            guard text.count > skipped + 2 else { return nil }
            return text.dropFirst(skipped)
        }

        /// The magnitude type's cells (`ListView.Columns.typeWidth`).
        static let typeCells = 4
    }

    /// A section line: `▾ Thursday, 14 June 2018 (127) ────`.
    public struct Section: Equatable, Sendable {
        public let title: String
        /// The count in brackets (`127`), `…` while it is counted.
        public let count: String
        public let isCollapsed: Bool

        public init(title: String, count: String, isCollapsed: Bool = false) {
            (self.title, self.count, self.isCollapsed) = (title, count, isCollapsed)
        }

        init?(_ text: String) {
            guard text.hasPrefix("▾ ") || text.hasPrefix("▸ ") else { return nil }
            isCollapsed = text.hasPrefix("▸")
            var rest = String(text.dropFirst(2))
            while rest.hasSuffix("─") || rest.hasSuffix(" ") { rest.removeLast() }
            if rest.hasSuffix(")"), let open = rest.range(of: " (", options: .backwards) {
                title = String(rest[..<open.lowerBound])
                count = String(rest[open.upperBound...].dropLast())
            } else {
                (title, count) = (rest, "")
            }
        }

        public var isCountPending: Bool { count == "…" }
    }

    /// A box drawn over the body (`HelpOverlay.drawBox`): its title, its lines and its footer.
    public struct Overlay: Equatable, Sendable {
        /// `Keys`, `Messages, newest first`.
        public let title: String
        /// The lines inside the box, trimmed.
        public let lines: [String]
        /// The text on the bottom border (`? or Esc closes`, `↓ more: j/k G`).
        public let footer: String

        init?(_ screen: [String]) {
            let cells = screen.map(Screen.cellArray)
            guard let top = cells.firstIndex(where: { $0.contains("╭") && $0.contains("╮") }),
                  let left = cells[top].firstIndex(of: "╭"), let right = cells[top].lastIndex(of: "╮"),
                  let bottom = cells[(top + 1)...].firstIndex(where: { left < $0.count && $0[left] == "╰" }) else { return nil }
            func inside(_ row: [String]) -> String {
                row[min(left + 1, row.count)..<min(right, row.count)].joined()
            }
            func label(_ row: [String]) -> String {
                inside(row).trimmingCharacters(in: CharacterSet(charactersIn: "─"))
                    .components(separatedBy: " ─").first?.trimmingCharacters(in: .whitespaces) ?? ""
            }
            title = label(cells[top])
            footer = label(cells[bottom])
            lines = cells[(top + 1)..<bottom].map { inside($0).trimmingCharacters(in: .whitespaces) }
        }

        /// The message log's entries, newest first, without their times: a line that starts with
        /// a time (`12:34:56  `) starts one, and the lines under it (wrapped at spaces) join it.
        public var entries: [String] {
            var entries: [String] = []
            for line in lines where !line.isEmpty {
                let isStamp = line.count > 10 && line.prefix(10).enumerated().allSatisfy { index, character in
                    index == 2 || index == 5 ? character == ":" : index >= 8 ? character == " " : character.isNumber
                }
                if isStamp {
                    entries.append(String(line.dropFirst(10)))
                } else if !entries.isEmpty {
                    entries[entries.count - 1] += " " + line
                }
            }
            return entries
        }
    }
}
