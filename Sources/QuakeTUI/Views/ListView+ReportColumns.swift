import QuakeModel

/// The list's columns of issue 53 (one quake, many reports): the magnitude's type beside the
/// magnitude (`5.4 Mww`), so a list mixing `mb`, `ml` and `Mww` says so on every row, and how
/// many agencies reported the event (`3 ag`). Where they join as the pane grows is
/// `ListView.Columns`' decision; what they show is `QuakeFormat`'s, shared with `list`.
extension ListView {
    /// The cell of `.magnitudeType` or `.agencies`.
    static func reports(_ column: ListColumn, of quake: QuakeLine) -> (String, Style) {
        switch column {
        case .magnitudeType:
            // No magnitude, no type: the `—` stands alone.
            guard quake.magnitude != nil, let type = QuakeFormat.magnitudeType(quake.magType) else { return ("", .plain) }
            return (type, .role(.dim))
        case .agencies:
            return (QuakeFormat.agencies(quake.agencies), .role(.dim))
        default:
            return ("", .plain)
        }
    }
}
