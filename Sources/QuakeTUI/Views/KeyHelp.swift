/// Every key of the browser (SPEC §8), written once: the help overlay (`?`) shows this table,
/// the root `--help` lists it, and a test checks README's key table against it.
///
/// ```swift
/// for entry in KeyHelp.entries { print(entry.keys, entry.action) }
/// ```
public enum KeyHelp {
    /// Key groups and their meaning, in the order shown.
    public static let entries: [(keys: String, action: String)] = [
        ("↑ ↓  j k", "move the selection"),
        ("PgUp PgDn  ctrl-u ctrl-d", "page up / down"),
        ("g  G", "top / bottom of the list"),
        ("Enter", "open the detail view"),
        ("Esc", "back / close search"),
        ("Tab shift-Tab  1 2 3", "Detail, Map, Notes tabs"),
        ("/", "search (Enter keeps, Esc clears)"),
        ("s  S", "next sort order / reverse"),
        ("space", "collapse / expand section"),
        ("m", "minimum magnitude"),
        ("r", "refresh in the background"),
        ("e", "edit notes (ctrl-s saves, Esc cancels)"),
        ("H", "handoff from another pane"),
        ("?", "this help"),
        ("q  Q", "quit / close the scene"),
        ("ctrl-l  ctrl-z", "redraw / suspend (fg returns)"),
        ("mouse", "click selects, wheel scrolls, click a tab"),
    ]

    /// The table as plain text lines, keys in a column: for `--help`.
    public static func lines(indent: Int = 2) -> [String] {
        let width = entries.map { TextWidth.of($0.keys) }.max() ?? 0
        return entries.map { entry in
            String(repeating: " ", count: indent) + entry.keys
                + String(repeating: " ", count: width - TextWidth.of(entry.keys) + 3) + entry.action
        }
    }
}
