import QuakeModel

/// The list pane: section headers and quake rows in columns sized to the pane's width.
enum ListView {
    /// Column widths for one pane width. The place keeps room first; the other columns join in
    /// order of use as the pane grows (depth, time, the magnitude's type, code, the agencies,
    /// epicentre; the type and the agencies only after all before them), and the place takes what is left up to `widestPlace`, so the columns stay
    /// together on a very wide pane. The column the list is sorted by joins before all of them,
    /// with less room kept for the place (sorted by magnitude, the magnitude's type joins so
    /// too): a narrow pane (the list beside the detail) drops other columns, never that one.
    /// Widths never depend on the rows shown: scrolling never shifts a column.
    ///
    /// Under the time sort without a home: 40 columns show the magnitude, place and time ago;
    /// depth joins at 60, the time of day at 67, the magnitude's type at 72 (`5.4 Mww`), the
    /// code at 94, the agencies at 101 (`3 ag`) and the epicentre at 119.
    struct Columns: Equatable {
        var magnitude = 5
        /// The magnitude's type right after it (`5.4 Mww`; issue 53): `typeWidth` or nothing.
        var magnitudeType = 0
        /// One cell after the magnitude: tsunami, alert, event type (`QuakeMark`).
        var mark = 1
        var place: Int
        var notes = 1
        /// `HH:mm` under day sections (the day is in the header), else the date and time.
        var absolute = 0
        var depth = 0
        var location = 0
        var code = 0
        var relative = 8
        /// Distance from home (`12,345 km`), only with a home.
        var distance = 0
        /// The intensity predicted at home (`VII very strong`), only with a home: on the widest
        /// panes, or first when the list is sorted by it.
        var felt = 0
        /// How many agencies reported the event (`3 ag`; blank for one): `agenciesWidth` or nothing.
        var agencies = 0

        /// The magnitude type's room: `Mww`, `mb`, `ml`, `Mwr` whole (USGS, EMSC, GEOFON, INGV
        /// and the ISC write 2–3 letters); a longer one (`mb_lg`, `Mw(mB)`) is cut with `…`.
        static let typeWidth = QuakeFormat.magnitudeTypeWidth
        /// The agencies column's width: `3 ag`, up to `12 ag`.
        static let agenciesWidth = 5

        /// The felt column's width: `VII very strong`, the longest label.
        static let feltWidth = 15

        /// The place keeps this much before depth or time may take room…
        static let placeBeforeDetails = 28
        /// …and this much before the code or the epicentre may…
        static let placeBeforeExtras = 36
        /// …and this much before the column the list is sorted by may.
        static let placeBeforeSortColumn = 16

        /// Wider than nearly every USGS place name ("125 km WNW of …, Aleutian Islands, Alaska").
        static let widestPlace = 64

        /// The code's room when the place has all it wants (issue 56.3): an agency's prefix and
        /// a long id (`emsc:20240101_0000123`, a host's `127.0.0.1:fdsn…`) whole, not cut at 12
        /// beside an empty right half of the pane.
        static let widestCode = 32

        init(width: Int, timeOfDayOnly: Bool = false, showsDistance: Bool = false, sortedBy sorted: ListColumn? = nil) {
            var rest = width - 1 - magnitude - 1 - mark - 1 - 1 - notes - 1 - relative - 1
            func take(_ column: Int, keeping minimum: Int) -> Int {
                guard rest - (column + 2) >= minimum else { return 0 }
                rest -= column + 2
                return column
            }
            let wanted: [(ListColumn, Int, Int)] = [
                // With a home, its distance joins first: it is what the user asked to see.
                (.distance, showsDistance ? 9 : 0, Self.placeBeforeDetails),
                (.depth, 9, Self.placeBeforeDetails),
                (.absolute, timeOfDayOnly ? 5 : 16, Self.placeBeforeDetails),
                // The type's gap before it is one cell, as the magnitude's after it (taken as two: one to spare).
                (.magnitudeType, Self.typeWidth - 1, Self.placeBeforeDetails),
                (.code, 12, Self.placeBeforeExtras),
                (.agencies, Self.agenciesWidth, Self.placeBeforeExtras),
                (.location, 16, Self.placeBeforeExtras),
                (.felt, showsDistance ? Self.feltWidth : 0, Self.placeBeforeExtras),
            ]
            var widths: [ListColumn: Int] = [:]
            // Sorted by magnitude (always shown), the magnitude's type is what joins first.
            let first = sorted == .magnitude ? .magnitudeType : sorted
            if let first, let entry = wanted.first(where: { $0.0 == first }), entry.1 > 0 {
                widths[first] = take(entry.1, keeping: Self.placeBeforeSortColumn)
            }
            // The type and the agencies join only after every column before them: a pane too
            // narrow for the depth never shows them in its place, so columns only come as it grows.
            var allJoined = true
            for (column, width, keeping) in wanted where widths[column] == nil && width > 0 {
                let joinsInOrder = column == .magnitudeType || column == .agencies
                widths[column] = joinsInOrder && !allJoined ? 0 : take(width, keeping: keeping)
                if widths[column] == 0 { allJoined = false }
            }
            magnitudeType = widths[.magnitudeType].map { $0 > 0 ? Self.typeWidth : 0 } ?? 0
            agencies = widths[.agencies] ?? 0
            distance = widths[.distance] ?? 0
            depth = widths[.depth] ?? 0
            absolute = widths[.absolute] ?? 0
            code = widths[.code] ?? 0
            location = widths[.location] ?? 0
            felt = widths[.felt] ?? 0
            place = max(0, min(rest, Self.widestPlace))
            // Past the widest place, the code takes the room left, up to a long code.
            if code > 0, rest > place { code += min(rest - place, Self.widestCode - code) }
        }

        /// One column as drawn: its width, alignment and the gap after it.
        struct Slot: Equatable {
            var column: ListColumn
            var width: Int
            var alignsRight: Bool
            var gap: Int
        }

        /// The columns left to right, as rows and the header row draw them (zero widths included:
        /// they draw nothing and take no room).
        var slots: [Slot] {
            [Slot(column: .magnitude, width: magnitude, alignsRight: true, gap: 1),
             Slot(column: .magnitudeType, width: magnitudeType, alignsRight: false, gap: 1),
             Slot(column: .mark, width: mark, alignsRight: false, gap: 1),
             Slot(column: .place, width: place, alignsRight: false, gap: 1),
             Slot(column: .notes, width: notes, alignsRight: false, gap: 1),
             Slot(column: .agencies, width: agencies, alignsRight: true, gap: 2),
             Slot(column: .distance, width: distance, alignsRight: true, gap: 2),
             Slot(column: .absolute, width: absolute, alignsRight: false, gap: 2),
             Slot(column: .depth, width: depth, alignsRight: true, gap: 2),
             Slot(column: .location, width: location, alignsRight: true, gap: 2),
             Slot(column: .code, width: code, alignsRight: false, gap: 2),
             Slot(column: .felt, width: felt, alignsRight: false, gap: 2),
             Slot(column: .relative, width: relative, alignsRight: true, gap: 1)]
        }
    }

    static func render(_ list: ListModel, display: DisplaySettings, in rect: Rect, focused: Bool,
                       sort: SortMark = SortMark(order: .time, ascending: false), columnHeaders: Rect? = nil,
                       into buffer: inout CellBuffer) {
        let columns = Columns(width: rect.width, timeOfDayOnly: sort.order == .time, showsDistance: display.home != nil,
                              sortedBy: sort.column)
        if let columnHeaders { renderColumnHeaders(columns, sort: sort, display: display, in: columnHeaders, into: &buffer) }
        guard !rect.isEmpty else { return }
        if list.lines.isEmpty {
            buffer.put(list.emptyMessage, at: Point(x: rect.x + 2, y: rect.y + 1), style: .role(.dim),
                       maxWidth: rect.width - 2)
            return
        }
        defer { renderScrollbar(list, in: rect, into: &buffer) }
        let slots = columns.slots.filter { $0.width > 0 }  // once a frame, not once a row
        for (index, line) in list.lines.prefix(rect.height).enumerated() {
            let row = rect.row(index)
            let selected = index == list.selectedIndex
            switch line {
            case .section(let section):
                renderSection(section, in: row, selected: selected, into: &buffer)
            case .quake(let quake):
                renderQuake(quake, columns: columns, slots: slots, display: display, in: row, into: &buffer)
            case .unread:
                buffer.put("…", at: Point(x: row.x + 1 + max(0, (slots.first?.width ?? 1) - 1), y: row.y), style: .role(.dim))
            }
            if selected {
                buffer.restyle(row) { style in
                    var copy = style
                    copy.background = .selection
                    if !focused { copy.attributes.insert(.dim) }
                    return copy
                }
            }
        }
    }

    /// A thumb in the pane's last column (which rows leave free) when not every line fits.
    static func renderScrollbar(_ list: ListModel, in rect: Rect, into buffer: inout CellBuffer) {
        guard !list.isCountPending, let thumb = scrollbarThumb(first: list.firstLineIndex, total: list.totalLines, rows: rect.height) else {
            return
        }
        for row in thumb {
            buffer.put("┃", at: Point(x: rect.maxX - 1, y: rect.y + row), style: .role(.border))
        }
    }

    /// The rows of the scrollbar thumb, nil when everything fits.
    static func scrollbarThumb(first: Int, total: Int, rows: Int) -> Range<Int>? {
        guard rows > 0, total > rows else { return nil }
        let size = max(1, rows * rows / total)
        let start = min(rows - size, (first * (rows - size) + (total - rows) / 2) / (total - rows))
        return start..<(start + size)
    }

    static func renderSection(_ section: SectionLine, in row: Rect, selected: Bool, into buffer: inout CellBuffer) {
        let marker = section.isCollapsed ? "▸" : "▾"
        let count = section.isCountPending ? " (…)" : " (\(QuakeFormat.count(section.count)))"
        let countWidth = TextWidth.of(count)
        let titleWidth = buffer.put("\(marker) \(section.title)", at: Point(x: row.x, y: row.y),
                                    style: .role(.header, [.bold]), maxWidth: row.width - countWidth)
        let x = row.x + titleWidth
        if x + countWidth <= row.maxX {
            buffer.put(count, at: Point(x: x, y: row.y), style: .role(.dim))
            // A dim rule to the right edge makes sections easy to scan.
            let ruleStart = x + countWidth + 1
            if ruleStart < row.maxX - 1 {
                buffer.put(String(repeating: "─", count: row.maxX - 1 - ruleStart),
                           at: Point(x: ruleStart, y: row.y), style: .role(.border))
            }
        }
    }

    /// One quake row; `slots` are `columns.slots` with a width (computed once for the frame).
    static func renderQuake(_ quake: QuakeLine, columns: Columns, slots: [Columns.Slot], display: DisplaySettings,
                            in row: Rect, into buffer: inout CellBuffer) {
        var x = row.x + 1
        let y = row.y
        if quake.isNew { buffer.put("●", at: Point(x: row.x, y: y), style: .role(.accent, [.bold])) }
        else if quake.isRevised { buffer.put("◆", at: Point(x: row.x, y: y), style: .role(.accent, [.bold])) }
        for slot in slots {
            let (text, style) = cell(slot.column, of: quake, columns: columns, display: display)
            buffer.put(TextWidth.pad(text, to: slot.width, alignRight: slot.alignsRight), at: Point(x: x, y: y),
                       style: style, maxWidth: min(slot.width, row.maxX - x))
            x += slot.width + slot.gap
        }
    }

    /// A code in `width` columns: whole when it fits; else without its agency's prefix (`emsc:`,
    /// a host's), the id's end kept after `…`, where codes of one agency differ.
    static func fitted(code: String, width: Int) -> String {
        guard TextWidth.of(code) > width, width > 1 else { return code }
        let id = code.split(separator: ":").last.map(String.init) ?? code
        return "…" + String(id.suffix(width - 1))
    }

    /// What one column of a quake row shows, and in which style.
    static func cell(_ column: ListColumn, of quake: QuakeLine, columns: Columns,
                     display: DisplaySettings) -> (String, Style) {
        switch column {
        case .magnitude:
            return (QuakeFormat.magnitude(quake.magnitude), MagnitudeBand(magnitude: quake.magnitude).style)
        case .magnitudeType, .agencies:
            return reports(column, of: quake)
        case .mark:
            let mark = QuakeMark(quake)
            return (mark.map { String($0.glyph) } ?? "", mark?.style ?? .plain)
        case .place:
            let place = QuakeFormat.singleLine(PlaceName.displayed(quake.place))
            return place.isEmpty ? ("(unknown place)", .role(.dim)) : (place, .plain)
        case .notes:
            return (quake.hasNotes ? "✎" : "", .role(.accent))
        case .distance:
            guard let home = display.home, let latitude = quake.latitude, let longitude = quake.longitude else {
                return ("", .plain)
            }
            let km = home.distance(to: GeoPoint(latitude: latitude, longitude: longitude))
            return (QuakeFormat.homeDistance(kilometres: km, unit: display.distanceUnit), .plain)
        case .absolute:
            let time = QuakeFormat.absolute(quake.time, in: display.zone, withSeconds: false)
            return (columns.absolute == 5 ? String(time.suffix(5)) : time, .role(.dim))
        case .depth:
            return (QuakeFormat.depth(kilometres: quake.depth, unit: display.distanceUnit), .role(.dim))
        case .location:
            let location = quake.latitude.flatMap { lat in
                quake.longitude.map { QuakeFormat.coordinates(latitude: lat, longitude: $0) }
            } ?? ""
            return (location, .role(.dim))
        case .code:
            return (fitted(code: quake.code, width: columns.code), .role(.dim))
        case .felt:
            guard let home = display.home, let latitude = quake.latitude, let longitude = quake.longitude,
                  let felt = FeltIntensity(home: home, latitude: latitude, longitude: longitude, depth: quake.depth,
                                           magnitude: quake.magnitude) else { return ("", .plain) }
            return (felt.label, felt.whole >= 5 ? .role(.warning, [.bold]) : .plain)
        case .relative:
            return (QuakeFormat.relative(quake.time, now: display.now), .plain)
        }
    }
}
