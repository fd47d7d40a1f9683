import Foundation

/// A value with its uncertainty, the uncertainty to two significant digits and the value to the
/// same decimal place (issue 54): `0.952 ± 0.031`, `0.9500 ± 0.0048`, never `± 0.00` for an
/// error that is not zero.
///
/// ```swift
/// UncertaintyFormat.string(0.95, 0.0048)   // "0.9500 ± 0.0048"
/// ```
public enum UncertaintyFormat {
    /// The decimal places that show `error` to two significant digits (0 for errors of 10 and
    /// up; `fallback` for an error that is zero or not finite).
    public static func decimals(_ error: Double, fallback: Int = 2) -> Int {
        guard error.isFinite, error > 0 else { return fallback }
        var places = max(0, 1 - Int(log10(error).rounded(.down)))
        // 0.0996 rounds to 0.100 at three places: two digits are then 0.10.
        if places > 0, (error * pow(10, Double(places))).rounded() >= 100 { places -= 1 }
        return min(places, 12)
    }

    /// `value ± error`, the error to two significant digits, the value to the same place.
    public static func string(_ value: Double, _ error: Double, fallback: Int = 2) -> String {
        let places = decimals(error, fallback: fallback)
        return String(format: "%.\(places)f ± %.\(places)f", value, error)
    }

    /// `error` alone to two significant digits.
    public static func error(_ error: Double, fallback: Int = 2) -> String {
        String(format: "%.\(decimals(error, fallback: fallback))f", error)
    }
}
