/// Every key of the browser (SPEC §8), written once: the help overlay (`?`) shows this table,
/// the root `--help` lists it, and a test checks README's key table against it.
///
/// ```swift
/// for entry in KeyHelp.entries { print(entry.keys, entry.action) }
/// ```
public enum KeyHelp {
    /// Key groups and their meaning, in the order shown.
    public static let entries: [(keys: String, action: String)] = [
        ("↑ ↓  j k", "previous / next quake"),
        ("PgUp PgDn  ctrl-b ctrl-f", "page up / down"),
        ("ctrl-u ctrl-d", "half a page up / down"),
        ("g G  Home End", "first quake / last quake"),
        ("[  ]", "this or previous / next section"),
        ("Enter", "open the detail view"),
        ("Esc", "back / close search"),
        ("Tab shift-Tab  1 2 3", "Detail, Map, Notes tabs"),
        ("/", "search (Enter keeps, Esc clears)"),
        (":", "filter: depth since time type alert felt clear"),
        ("s  S", "next sort order / reverse"),
        ("space", "collapse / expand section"),
        ("m", "minimum magnitude"),
        ("@", "set home to the selected quake"),
        ("~", "only quakes near home (nearRadius)"),
        ("r", "refresh in the background"),
        ("n  N", "next / previous new quake (marked ●)"),
        ("a", "mark all quakes seen"),
        ("e", "edit notes (ctrl-s saves, Esc asks, cancels)"),
        ("H", "handoff from another pane"),
        ("o  y", "open / copy the event page"),
        ("L", "message log (every message, whole)"),
        ("?", "this help"),
        ("q  Q", "quit / close the scene (asks first)"),
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
