import Foundation

extension QuaketuiBinary.Result {
    /// stdout read as a help text (`--help`, `help COMMAND`): its paragraphs (blocks of lines
    /// between blank lines), each joined into one line with single spaces, as it would read
    /// unwrapped. Tests compare a whole paragraph, sentence or option line, not a substring.
    public var paragraphs: [String] {
        stdout.components(separatedBy: "\n\n").map { block in
            block.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }.filter { !$0.isEmpty }
    }

    /// The sentences of the paragraphs, in order: a sentence ends at `.` (or `!`, `?`) before a
    /// space and a capital letter, a quote or a bracket.
    public var sentences: [String] {
        paragraphs.flatMap { paragraph in
            paragraph.replacingOccurrences(of: #"(?<=[.!?]) (?=[A-Z"'(])"#, with: "\n", options: .regularExpression)
                .split(separator: "\n").map(String.init)
        }
    }

    /// The whole sentence that starts with `start`.
    public func sentence(startingWith start: String) -> String? { sentences.first { $0.hasPrefix(start) } }

    /// The description of an option in the help's OPTIONS list: `option("--scene <id>")` is
    /// what follows `  --scene <id>` and its column of spaces, whole.
    public func option(_ synopsis: String) -> String? {
        lines.first { $0.hasPrefix("  " + synopsis + "  ") }
            .map { String($0.dropFirst(2 + synopsis.count)).trimmingCharacters(in: .whitespaces) }
    }
}
