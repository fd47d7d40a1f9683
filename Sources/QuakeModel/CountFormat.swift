/// Counts as every message shows them, in the browser and on the command line (issue 31): one
/// function for the digits and one for the noun, so `imported 1 quake` and `12,569 quakes` read
/// the same everywhere.
///
/// ```swift
/// CountFormat.quakes(12_569)           // "12,569 quakes"
/// CountFormat.count(1, "window")       // "1 window"
/// CountFormat.grouped(-1234)           // "-1,234"
/// ```
public enum CountFormat {
    /// Digits grouped by thousands with a comma, whatever the locale: `1,234`, `-1,234`, `0`.
    public static func grouped<Value: BinaryInteger>(_ value: Value) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        grouped.reserveCapacity(digits.count + digits.count / 3 + 1)
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// The count and the noun, singular for exactly one: `1 quake`, `0 quakes`, `2,000 windows`.
    /// `plural` is for nouns that do not take an `s`.
    public static func count<Value: BinaryInteger>(_ value: Value, _ singular: String, plural: String? = nil) -> String {
        "\(grouped(value)) \(value == 1 ? singular : plural ?? singular + "s")"
    }

    /// `1 quake`, `12,569 quakes`.
    public static func quakes<Value: BinaryInteger>(_ value: Value) -> String { count(value, "quake") }
}
