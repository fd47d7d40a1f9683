import QuakeModel
import QuakeStore

extension ParsedArguments {
    /// The value of `--name` read by `DecimalNumber` (the `:` line's parser too), or nil when the
    /// option is not given.
    ///
    /// ```swift
    /// try arguments.number("min-magnitude", is: "a magnitude", use: "a number such as 4.5", command: spec)
    /// ```
    /// - Throws: `UsageError` saying what the text is not (or why it cannot be held exactly) and what to type.
    func number(_ name: String, is noun: String, use example: String, command: CommandSpec,
                where valid: (Double) -> Bool = { _ in true }) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        switch DecimalNumber.parse(text) {
        case .success(let number) where valid(number.value):
            return number.value
        case .failure(.inexact):
            throw UsageError(message: "--\(name): \(DecimalNumber.Refusal.inexact.reason(SafeText.sanitize(text))); use \(example).",
                             command: command)
        default:
            throw UsageError(message: "'\(SafeText.sanitize(text))' is not \(noun); use \(example).", command: command)
        }
    }
}
