import QuakeModel

extension QuakeSortOrder {
    /// The order a user names: its name (`magnitude`) or the start of one name alone (`mag`, as
    /// the list's column header writes it); nil for anything else (say `Spelling.didYouMean`).
    public init?(named text: String) {
        let word = text.lowercased()
        if let exact = QuakeSortOrder(rawValue: word) {
            self = exact
            return
        }
        let started = Self.allCases.filter { !word.isEmpty && $0.rawValue.hasPrefix(word) }
        guard started.count == 1 else { return nil }
        self = started[0]
    }
}
