import QuakeModel

/// One column of the list's quake rows.
enum ListColumn: Equatable, Hashable, Sendable {
    case magnitude, magnitudeType, mark, place, notes, agencies, distance, absolute, depth, location, code, felt, relative
}

/// The header row above the list (issue 31): the name of each column the rows show at this
/// width, drawn from the same `Columns` as the rows (so a label always sits over its values),
/// with the column the list is sorted by marked `↓`/`↑` and bold.
extension ListView {
    /// The sort order and direction, and the column that shows what the list is sorted by.
    struct SortMark: Equatable {
        var order: QuakeSortOrder
        var ascending: Bool

        /// The column holding the sort key: time is the relative time (always shown), region the place.
        var column: ListColumn {
            switch order {
            case .time: .relative
            case .magnitude: .magnitude
            case .region: .place
            case .distance: .distance
            case .intensity: .felt
            case .depth: .depth
            }
        }

        var arrow: String { ascending ? "↑" : "↓" }
    }

    /// A column's name in the header row. Every name, with ` ↓` after it, fits its column.
    static func label(_ column: ListColumn, columns: Columns, display: DisplaySettings) -> String {
        switch column {
        case .magnitude: "mag"
        case .place: "place"
        // The type reads as the magnitude's own (`5.4 Mww`), under `mag`.
        case .mark, .notes, .magnitudeType: ""
        case .agencies: "ag"
        case .distance: namingHome("to", or: "to home", within: columns.distance, display: display)
        case .felt: namingHome("at", or: "felt here", within: columns.felt, display: display)
        // The times' zone: `UTC 10:00`, `local 2024-05-06 19:00`.
        case .absolute: display.timeZone == .utc ? "UTC" : "local"
        case .depth: "depth"
        case .location: "epicentre"
        case .code: "code"
        case .relative: "time"
        }
    }

    /// `to Aksaray`: home by its name when it has one and the name fits the column with the sort
    /// mark after it (` ↓`), else `fallback`.
    private static func namingHome(_ preposition: String, or fallback: String, within width: Int, display: DisplaySettings) -> String {
        guard display.homeName != nil else { return fallback }
        let named = "\(preposition) \(display.homeLabel)"
        return TextWidth.of(named) + 2 <= width ? named : fallback
    }

    static func renderColumnHeaders(_ columns: Columns, sort: SortMark, display: DisplaySettings, in row: Rect,
                                    into buffer: inout CellBuffer) {
        var x = row.x + 1
        for slot in columns.slots where slot.width > 0 {
            var text = label(slot.column, columns: columns, display: display)
            let isSorted = slot.column == sort.column
            if isSorted { text += " " + sort.arrow }
            let style: Style = isSorted ? .role(.header, [.bold]) : .role(.dim)
            buffer.put(TextWidth.pad(text, to: slot.width, alignRight: slot.alignsRight), at: Point(x: x, y: row.y),
                       style: style, maxWidth: min(slot.width, row.maxX - x))
            x += slot.width + slot.gap
        }
    }
}
