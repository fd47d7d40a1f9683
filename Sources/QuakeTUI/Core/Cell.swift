/// One terminal column: a grapheme cluster, its display width and its style.
///
/// A wide character (CJK, most emoji) occupies its own cell with `width == 2` followed by a
/// `continuation` cell that the terminal never writes.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster shown in this column; empty for a continuation cell.
    public var grapheme: String
    /// 1 for most characters, 2 for wide ones, 0 for the right half of a wide one.
    public var width: Int
    public var style: Style

    public init(_ grapheme: String, width: Int = 1, style: Style = .plain) {
        self.grapheme = grapheme
        self.width = width
        self.style = style
    }

    /// A blank column in a style.
    public static func blank(_ style: Style = .plain) -> Cell { Cell(" ", width: 1, style: style) }

    /// The right half of a wide character.
    public static func continuation(_ style: Style) -> Cell { Cell("", width: 0, style: style) }

    /// Whether this cell is the right half of a wide character.
    public var isContinuation: Bool { width == 0 }
}
