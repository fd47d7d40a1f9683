import QuakeModel

/// How a row names its magnitude's type and its agencies (issue 53): one decision, read by the
/// browser's columns (`ListView.reports`) and by `list`'s text lines (`ListWriter.line`).
extension QuakeFormat {
    /// The widest magnitude type shown whole (`mww`, `mb_l…`): the browser's type column.
    public static let magnitudeTypeWidth = 4

    /// A magnitude's type as a row shows it: on one line, whole up to `magnitudeTypeWidth`
    /// cells, else cut with `…` (`mb_lg` → `mb_…`); nil when there is none to show.
    public static func magnitudeType(_ type: String?) -> String? {
        guard let type = type.map(singleLine), !type.isEmpty else { return nil }
        return TextWidth.of(type) <= magnitudeTypeWidth ? type : TextWidth.truncate(type, to: magnitudeTypeWidth)
    }

    /// `3 ag` for an event several agencies reported; blank for one agency's alone (most rows of
    /// most stores: `1 ag` on every line would say nothing).
    public static func agencies(_ agencies: Int) -> String {
        agencies > 1 ? "\(agencies) ag" : ""
    }
}
