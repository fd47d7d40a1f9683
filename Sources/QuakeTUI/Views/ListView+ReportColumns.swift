import QuakeModel

/// The list's columns of issue 53 (one quake, many reports): the magnitude's type beside the
/// magnitude (`5.4 Mww`), so a list mixing `mb`, `ml` and `Mww` says so on every row, and how
/// many agencies reported the event (`3 ag`). Where they join as the pane grows is
/// `ListView.Columns`' decision; what they show is here.
extension ListView {
    /// The cell of `.magnitudeType` or `.agencies`.
    static func reports(_ column: ListColumn, of quake: QuakeLine) -> (String, Style) {
        switch column {
        case .magnitudeType:
            // No magnitude, no type: the `—` stands alone.
            guard quake.magnitude != nil, let type = quake.magType.map(QuakeFormat.singleLine), !type.isEmpty else {
                return ("", .plain)
            }
            return (fitted(type: type), .role(.dim))
        case .agencies:
            return (agenciesLabel(quake.agencies), .role(.dim))
        default:
            return ("", .plain)
        }
    }

    /// `3 ag` for an event several agencies reported; blank for one agency's alone (most rows of
    /// most stores: a column of `1 ag` would say nothing on every line).
    static func agenciesLabel(_ agencies: Int) -> String {
        agencies > 1 ? "\(agencies) ag" : ""
    }

    /// A magnitude type in the type column: whole up to its width, else cut with `…` (`mb_…`).
    static func fitted(type: String) -> String {
        TextWidth.of(type) <= Columns.typeWidth ? type : TextWidth.truncate(type, to: Columns.typeWidth)
    }
}
