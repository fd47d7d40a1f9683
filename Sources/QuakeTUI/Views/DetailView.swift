import QuakeModel

/// The detail pane: a tab bar (Detail, Map, Notes) and the selected tab's content.
enum DetailView {
    static func render(_ detail: DetailModel, display: DisplaySettings, layout: ScreenLayout, in rect: Rect,
                       into buffer: inout CellBuffer) {
        guard let bar = layout.tabBar, let content = layout.detailContent else { return }
        buffer.fill(bar, style: .role(.border))
        for (index, (tab, columns)) in layout.tabRanges.enumerated() where !columns.isEmpty {
            let selected = tab == detail.tab
            let style = selected ? Style(foreground: .header, background: .selection, attributes: [.bold])
                                 : Style.role(.dim)
            buffer.put(ScreenLayout.tabLabel(tab, index: index), at: Point(x: columns.lowerBound, y: bar.y),
                       style: style, maxWidth: columns.count)
        }
        guard let record = detail.record else {
            buffer.put("No quake selected.", at: Point(x: content.x + 1, y: content.y + 1), style: .role(.dim),
                       maxWidth: content.width - 1)
            return
        }
        switch detail.tab {
        case .detail: renderFields(record, hasNotes: !detail.notes.text.isEmpty, display: display, in: content,
                                   into: &buffer)
        case .map: MapView.render(record, map: detail.map, in: content, into: &buffer)
        case .notes: NotesView.render(detail.notes, in: content, into: &buffer)
        case .reports: renderReports(detail.reports.isEmpty ? [record] : detail.reports, revisions: detail.revisions,
                                     display: display, in: content, into: &buffer)
        }
    }

    /// The Reports tab: each agency's solution, the preferred one first, and under each other one
    /// how it differs from the preferred (`+1.2 s  8 km NNE  mb 5.1 vs Mww 5.4`).
    /// Under a report that changed, its versions (`Revisions:`, `RevisionFormat.line`).
    static func reportLines(_ reports: [QuakeRecord], revisions: [ReportRevision] = [],
                            display: DisplaySettings) -> [(String, Style)] {
        guard let preferred = reports.first else { return [] }
        let agencies = Set(reports.map(Association.agency(of:))).count
        var lines: [(String, Style)] = [(
            agencies == 1 ? "One agency reported this quake." : "\(agencies) agencies reported this quake; the list shows the first.",
            .role(.dim))]
        for (index, r) in reports.enumerated() {
            let magnitude = QuakeFormat.magnitude(r.magnitude) + (r.magType.map { " \($0)" } ?? "")
            let head = [r.sourceName.padding(toLength: 7, withPad: " ", startingAt: 0), magnitude,
                        QuakeFormat.absolute(r.time, in: display.zone),
                        QuakeFormat.coordinates(latitude: r.latitude, longitude: r.longitude),
                        QuakeFormat.depth(kilometres: r.depth, unit: display.distanceUnit),
                        r.status ?? "—", index == 0 ? "preferred" : ""].filter { !$0.isEmpty }.joined(separator: "  ")
            lines.append((head, index == 0 ? Style.plain.with([.bold]) : .plain))
            let differences = Association.differences(of: r, from: preferred)
            if !differences.isEmpty { lines.append(("        " + differences.joined(separator: "  "), .role(.accent))) }
            lines.append(("        " + r.code, .role(.dim)))
            let versions = revisions.filter { $0.code == r.code }
            if versions.count > 1 {
                lines.append(("        Revisions: " + RevisionFormat.line(versions, zone: display.zone), .role(.warning)))
            }
        }
        return lines
    }

    private static func renderReports(_ reports: [QuakeRecord], revisions: [ReportRevision], display: DisplaySettings,
                                      in content: Rect, into buffer: inout CellBuffer) {
        for (row, line) in reportLines(reports, revisions: revisions, display: display).prefix(max(0, content.height - 1)).enumerated() {
            buffer.put(line.0, at: Point(x: content.x + 1, y: content.y + 1 + row), style: line.1, maxWidth: content.width - 2)
        }
    }

    /// Every field of the record, one per line, labels in a column.
    static func fields(_ r: QuakeRecord, hasNotes: Bool, display: DisplaySettings) -> [(String, String, Style)] {
        let zone = display.zone
        func optional(_ value: String?) -> String { value.flatMap { $0.isEmpty ? nil : $0 } ?? "—" }
        // The catalogue's own digits beside the value shown and tested, where they differ.
        let reported = r.magnitude.flatMap { m in Double(QuakeFormat.magnitude(m)) == m ? nil : "  (reported \(m))" } ?? ""
        let magnitude = QuakeFormat.magnitude(r.magnitude) + (r.magType.map { " \($0)" } ?? "") + reported
        var rows: [(String, String, Style)] = [
            ("Magnitude", magnitude, MagnitudeBand(magnitude: r.magnitude).style),
            ("Place", r.place.isEmpty ? "—" : PlaceName.displayed(r.place), .plain),
            ("Time", QuakeFormat.absolute(r.time, in: zone) + "  (" + QuakeFormat.relative(r.time, now: display.now) + ")",
             .plain),
            ("Updated", QuakeFormat.absolute(r.updated, in: zone), .role(.dim)),
            ("Location", QuakeFormat.coordinates(latitude: r.latitude, longitude: r.longitude), .plain),
            ("Depth", QuakeFormat.depth(kilometres: r.depth, unit: display.distanceUnit), .plain),
            ("Code", r.code, .role(.accent)),
            ("Source", r.sourceName, .plain),
            ("Status", optional(r.status), .plain),
            ("Type", optional(r.type), .plain),
            ("Tsunami", r.tsunami.map { $0 != 0 ? "yes" : "no" } ?? "—",
             r.tsunami.map { $0 != 0 } == true ? .role(.error, [.bold]) : .plain),
            ("Felt", r.felt.map { CountFormat.count($0, "report") } ?? "—", .plain),
            ("Alert", optional(r.alert), alertStyle(r.alert)),
            ("Significance", r.sig.map(String.init) ?? "—", .plain),
            ("Network", optional(r.net), .plain),
            r.isSample ? ("URL", "none: a sample quake, not real data", .role(.dim))
                : ("URL", optional(r.url), .role(.accent, [.underline])),
        ]
        if let home = display.home {
            let name = display.homeLabel
            let line = QuakeFormat.fromHome(home, latitude: r.latitude, longitude: r.longitude, unit: display.distanceUnit,
                                            homeName: display.homeName)
            var index = rows.firstIndex { $0.0 == "Depth" } ?? rows.endIndex
            rows.insert(("From \(name)", line, .plain), at: index)
            if let felt = FeltIntensity(home: home, latitude: r.latitude, longitude: r.longitude, depth: r.depth,
                                        magnitude: r.magnitude) {
                index += 1
                rows.insert(("At \(name)", QuakeFormat.feltAtHome(felt), felt.whole >= 5 ? .role(.warning, [.bold]) : .plain),
                            at: index)
            }
        }
        if let title = r.title, !title.isEmpty { rows.insert(("Title", title, .plain), at: 0) }
        rows.append(("Notes", hasNotes ? "✎ yes (tab 3)" : "—", .plain))
        return rows
    }

    static func alertStyle(_ alert: String?) -> Style {
        switch alert {
        case "red"?: .role(.error, [.bold])
        case "orange"?, "yellow"?: .role(.warning, [.bold])
        case "green"?: .role(.success)
        default: .plain
        }
    }

    /// The fields, a label column and values word-wrapped under their first line (a long title
    /// or URL is read whole, not cut), as many as fit.
    static func renderFields(_ record: QuakeRecord, hasNotes: Bool, display: DisplaySettings, in rect: Rect,
                             into buffer: inout CellBuffer) {
        let inner = rect.inset(dx: 1, dy: 0).splitTop(rect.height).0
        let rows = fields(record, hasNotes: hasNotes, display: display)
        let labelWidth = min(13, max(0, inner.width / 3))
        let valueWidth = inner.width - labelWidth - 1
        var y = inner.y + 1
        for (label, value, style) in rows where y < inner.maxY {
            buffer.put(label, at: Point(x: inner.x, y: y), style: .role(.dim), maxWidth: labelWidth)
            let characters = Array(SafeText.sanitize(value))
            for line in NotesView.wrap(characters, width: valueWidth) where y < inner.maxY {
                let text = String(characters[line.range]).trimmingCharacters(in: .whitespaces)
                buffer.put(text, at: Point(x: inner.x + labelWidth + 1, y: y), style: style, maxWidth: valueWidth)
                y += 1
            }
        }
    }
}
