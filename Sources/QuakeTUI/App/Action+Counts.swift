/// Which keys wait for a pending count (never wait on a key, issue 11).
extension Action {
    /// Whether the action needs the whole list's sections, which a provisional window does not
    /// have: the first or last quake, a section jump, a collapse, another pane's quake. The
    /// model holds such actions until the count settles (a fraction of a second at 1M
    /// quakes) and then applies them in order; every other key acts on the window at once.
    public var needsCompleteSections: Bool {
        switch self {
        case .first, .last, .previousSection, .nextSection, .toggleSection, .nextNewQuake, .previousNewQuake,
             .continueActivity:
            true
        default:
            false
        }
    }

    /// Whether the action needs the new quakes in the list: results that a merge over its
    /// budget left as they were, waiting for the count that catches up, do not hold them yet.
    public var needsMergedResults: Bool {
        switch self {
        case .nextNewQuake, .previousNewQuake: true
        default: false
        }
    }
}
