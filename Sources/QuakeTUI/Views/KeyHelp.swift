/// The browser's keys as help lines: the entries of `KeyTable` that carry help, in table order.
/// The help overlay (`?`) shows them, the root `--help` lists them, and a test checks README's
/// key table against them.
///
/// ```swift
/// for entry in KeyHelp.entries { print(entry.keys, entry.action) }
/// ```
public enum KeyHelp {
    /// Key groups and their meaning, in the order shown.
    public static let entries: [(keys: String, action: String)] = KeyTable.entries.compactMap(\.help)

    /// The table as plain text lines, keys in a column: for `--help`.
    public static func lines(indent: Int = 2) -> [String] {
        let width = entries.map { TextWidth.of($0.keys) }.max() ?? 0
        return entries.map { entry in
            String(repeating: " ", count: indent) + entry.keys
                + String(repeating: " ", count: width - TextWidth.of(entry.keys) + 3) + entry.action
        }
    }
}
