import QuakeStore

/// The list pane: section headers and quake rows in columns sized to the pane's width.
enum ListView {
    /// Column widths for one pane width. The place keeps room first; the other columns join in
    /// order of use as the pane grows (depth, time, code, epicentre), and the place takes what
    /// is left up to `widestPlace`, so the columns stay together on a very wide pane. Widths
    /// never depend on the rows shown: scrolling never shifts a column.
    struct Columns: Equatable {
        var magnitude = 5
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

        /// The place keeps this much before depth or time may take room…
        static let placeBeforeDetails = 28
        /// …and this much before the code or the epicentre may.
        static let placeBeforeExtras = 36

        /// Wider than nearly every USGS place name ("125 km WNW of …, Aleutian Islands, Alaska").
        static let widestPlace = 64

        init(width: Int, timeOfDayOnly: Bool = false, showsDistance: Bool = false) {
            var rest = width - 1 - magnitude - 1 - mark - 1 - 1 - notes - 1 - relative - 1
            func take(_ column: Int, keeping minimum: Int) -> Int {
                guard rest - (column + 2) >= minimum else { return 0 }
                rest -= column + 2
                return column
            }
            // With a home, its distance joins first: it is what the user asked to see.
            distance = showsDistance ? take(9, keeping: Self.placeBeforeDetails) : 0
            depth = take(9, keeping: Self.placeBeforeDetails)
            absolute = take(timeOfDayOnly ? 5 : 16, keeping: Self.placeBeforeDetails)
            code = take(12, keeping: Self.placeBeforeExtras)
            location = take(16, keeping: Self.placeBeforeExtras)
            place = max(0, min(rest, Self.widestPlace))
        }
    }

    static func render(_ list: ListModel, display: DisplaySettings, in rect: Rect, focused: Bool,
                       timeOfDayOnly: Bool = false, into buffer: inout CellBuffer) {
        guard !rect.isEmpty else { return }
        if list.lines.isEmpty {
            buffer.put(list.emptyMessage, at: Point(x: rect.x + 2, y: rect.y + 1), style: .role(.dim),
                       maxWidth: rect.width - 2)
            return
        }
        let columns = Columns(width: rect.width, timeOfDayOnly: timeOfDayOnly, showsDistance: display.home != nil)
        defer { renderScrollbar(list, in: rect, into: &buffer) }
        for (index, line) in list.lines.prefix(rect.height).enumerated() {
            let row = rect.row(index)
            let selected = index == list.selectedIndex
            switch line {
            case .section(let section):
                renderSection(section, in: row, selected: selected, into: &buffer)
            case .quake(let quake):
                renderQuake(quake, columns: columns, display: display, in: row, selected: selected, into: &buffer)
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

    static func renderQuake(_ quake: QuakeLine, columns: Columns, display: DisplaySettings, in row: Rect,
                            selected: Bool, into buffer: inout CellBuffer) {
        var x = row.x + 1
        let y = row.y
        if quake.isNew { buffer.put("●", at: Point(x: row.x, y: y), style: .role(.accent, [.bold])) }
        func column(_ text: String, width: Int, style: Style, right: Bool = false, gap: Int = 1) {
            guard width > 0 else { return }
            buffer.put(TextWidth.pad(text, to: width, alignRight: right), at: Point(x: x, y: y), style: style,
                       maxWidth: min(width, row.maxX - x))
            x += width + gap
        }
        let band = MagnitudeBand(magnitude: quake.magnitude)
        column(QuakeFormat.magnitude(quake.magnitude), width: columns.magnitude, style: band.style, right: true)
        let mark = QuakeMark(quake)
        column(mark.map { String($0.glyph) } ?? "", width: columns.mark, style: mark?.style ?? .plain)
        let place = QuakeFormat.singleLine(quake.place)
        column(place.isEmpty ? "(unknown place)" : place, width: columns.place,
               style: place.isEmpty ? .role(.dim) : .plain)
        column(quake.hasNotes ? "✎" : "", width: columns.notes, style: .role(.accent))
        if let home = display.home, let latitude = quake.latitude, let longitude = quake.longitude {
            let km = home.distance(to: GeoPoint(latitude: latitude, longitude: longitude))
            column(QuakeFormat.homeDistance(kilometres: km, unit: display.distanceUnit), width: columns.distance,
                   style: .plain, right: true, gap: 2)
        } else {
            column("", width: columns.distance, style: .plain, gap: 2)
        }
        let time = QuakeFormat.absolute(quake.time, in: display.zone, withSeconds: false)
        column(columns.absolute == 5 ? String(time.suffix(5)) : time, width: columns.absolute, style: .role(.dim), gap: 2)
        column(QuakeFormat.distance(kilometres: quake.depth, unit: display.distanceUnit), width: columns.depth,
               style: .role(.dim), right: true, gap: 2)
        let location = quake.latitude.flatMap { lat in
            quake.longitude.map { QuakeFormat.coordinates(latitude: lat, longitude: $0) }
        } ?? ""
        column(location, width: columns.location, style: .role(.dim), right: true, gap: 2)
        column(quake.code, width: columns.code, style: .role(.dim), gap: 2)
        column(QuakeFormat.relative(quake.time, now: display.now), width: columns.relative, style: .plain, right: true)
    }
}
