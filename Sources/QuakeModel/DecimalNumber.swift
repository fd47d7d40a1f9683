import Foundation

/// A number as a person types one for a bound or a setting: decimal digits, an optional `-` and
/// point, no exponent. The one parser of the command line's numeric options and the browser's `:`
/// line, so both accept and refuse the same texts (issue 57).
///
/// It refuses what a `Double` cannot hold to the digit: more than 15 significant digits (`DBL_DIG`:
/// 15 decimal digits always survive the trip to binary and back) or 15 digits before the point
/// (10^15 and more: past 2^53 not every whole number exists). Before, `:mag 9999999999999999999`
/// became `mag 1e+19+`, a text the `:` line itself then refused, and matched every quake.
///
/// ```swift
/// DecimalNumber.parse("04.50")                 // .success: value 4.5, text "4.5"
/// DecimalNumber.parse("9999999999999999999")   // .failure(.inexact)
/// DecimalNumber.parse("1e3")                   // .failure(.notANumber)
/// ```
public struct DecimalNumber: Equatable, Sendable {
    public let value: Double
    /// The number written back without an exponent or needless zeros (`-04.50` → `-4.5`), which
    /// `parse` reads as the same value.
    public let text: String

    /// Significant digits, and digits before the point, that a number may have.
    public static let maximumDigits = 15

    /// Why a text is not a number.
    public enum Refusal: Error, Equatable, Sendable {
        /// Not decimal digits with an optional `-` and point.
        case notANumber
        /// Digits a `Double` cannot hold exactly (`maximumDigits`).
        case inexact

        /// What is wrong with `text`, as a clause for a sentence that then says what to type.
        public func reason(_ text: some StringProtocol) -> String {
            switch self {
            case .notANumber: "'\(text)' is not a number"
            case .inexact: "'\(text)' has more digits than a number can hold exactly "
                + "(at most \(DecimalNumber.maximumDigits) significant digits, and \(DecimalNumber.maximumDigits) before the point)"
            }
        }
    }

    /// Reads `text` (surrounding spaces allowed).
    public static func parse(_ text: some StringProtocol) -> Result<DecimalNumber, Refusal> {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        let negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count > 1 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty),
              (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber }) else { return .failure(.notANumber) }
        let wholeDigits = whole.drop { $0 == "0" }
        var fractionDigits = Substring(fraction)
        while fractionDigits.last == "0" { fractionDigits = fractionDigits.dropLast() }
        let significant = (wholeDigits + fractionDigits).drop { $0 == "0" }.count
        guard wholeDigits.count <= maximumDigits, significant <= maximumDigits else { return .failure(.inexact) }
        var canonical = (wholeDigits.isEmpty ? "0" : String(wholeDigits)) + (fractionDigits.isEmpty ? "" : "." + fractionDigits)
        if negative, significant > 0 { canonical = "-" + canonical }
        guard let value = Double(canonical) else { return .failure(.notANumber) }
        return .success(DecimalNumber(value: value, text: canonical))
    }
}
