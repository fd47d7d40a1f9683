import Foundation
import QuakeModel

/// The timeline: quakes per day (per hour when the list spans under three days) as bars, the
/// cumulative count as `•` on its own scale (0 to the list's count) where it rises above the
/// bars, and the largest quakes marked `▼` over their bin.
enum TimelineChart {
    static let gutter = 5

    static func render(_ stats: CatalogueStatistics?, in rect: Rect, into buffer: inout CellBuffer) {
        let hourly = stats?.isHourly ?? false
        let zone = stats.map { $0.timeZone.identifier == "UTC" || $0.timeZone.identifier == "GMT" ? "UTC" : "local time" } ?? "…"
        // A long list draws several days (or hours) to a column: the title says how many.
        let bins = stats.map(denseBins) ?? []
        let perColumn = max(1, (bins.count + rect.width - gutter - 1) / max(1, rect.width - gutter))
        let unit = hourly ? "hour" : "day"
        var x = rect.x
        x += buffer.put("Quakes per \(perColumn > 1 ? "\(perColumn) \(unit)s" : unit) (\(zone))", at: Point(x: x, y: rect.y),
                        style: .role(.header, [.bold]), maxWidth: rect.width)
        x += buffer.put("  • cumulative", at: Point(x: x, y: rect.y), style: .role(.header), maxWidth: rect.maxX - x)
        guard let stats else { return StatsView.dots(in: rect, into: &buffer) }
        if !stats.largest.isEmpty {
            let text = "  ▼ " + stats.largest.map { String(format: "M%.1f", $0.magnitude) }.joined(separator: " ")
            buffer.put(text, at: Point(x: x, y: rect.y), style: .role(.warning, [.bold]), maxWidth: rect.maxX - x)
        }
        guard let first = bins.first, let last = bins.last else { return }
        let chart = Rect(x: rect.x + gutter, y: rect.y + 1, width: rect.width - gutter, height: rect.height - 2)
        guard chart.width >= 4, chart.height >= 1 else { return }
        let columnWidth = max(1, min(3, chart.width / ((bins.count + perColumn - 1) / perColumn)))
        var columns: [(x: Int, start: Int64, end: Int64, count: Int)] = []
        for (column, start) in stride(from: 0, to: bins.count, by: perColumn).enumerated() {
            let group = bins[start..<min(bins.count, start + perColumn)]
            let end = start + perColumn < bins.count ? bins[start + perColumn].start : Int64.max
            columns.append((chart.x + column * columnWidth, group.first!.start, end, group.reduce(0) { $0 + $1.count }))
        }
        let largest = max(1, columns.map(\.count).max() ?? 1)
        let levels = chart.height * 8
        let bottom = chart.maxY - 1
        for column in columns {
            let eighths = column.count > 0 ? max(1, column.count * levels / largest) : 0
            for offset in 0..<columnWidth {
                StatsView.verticalBar(eighths: eighths, x: column.x + offset, bottom: bottom, rows: chart.height,
                                      style: .role(.accent), into: &buffer)
            }
        }
        // The cumulative curve shows above the bars (inside one, the bar is what it counts).
        var running = 0
        for column in columns {
            running += column.count
            let eighths = max(1, running * levels / max(1, stats.count))
            let point = Point(x: column.x + columnWidth - 1, y: max(chart.y, bottom - (eighths - 1) / 8))
            guard buffer[point.x, point.y].grapheme == " " else { continue }
            buffer.put("•", at: point, style: .role(.header, [.bold]))
        }
        for quake in stats.largest {
            guard let column = columns.last(where: { $0.start <= quake.time }) else { continue }
            buffer.put("▼", at: Point(x: column.x, y: chart.y), style: .role(.magnitude(MagnitudeBand(magnitude: quake.magnitude)), [.bold]))
        }
        // The count axis: the largest column's count at the top, 0 at the bottom.
        buffer.put(TextWidth.pad(compactCount(largest), to: gutter - 1, alignRight: true), at: Point(x: rect.x, y: chart.y),
                   style: .role(.dim))
        if chart.height > 1 {
            buffer.put(TextWidth.pad("0", to: gutter - 1, alignRight: true), at: Point(x: rect.x, y: bottom), style: .role(.dim))
        }
        // The time axis: the first bin on the left, the last on the right.
        let firstLabel = label(first.start, hourly: hourly, zone: stats.timeZone)
        let lastLabel = label(last.start, hourly: hourly, zone: stats.timeZone)
        buffer.put(firstLabel, at: Point(x: chart.x, y: chart.maxY), style: .role(.dim), maxWidth: chart.width)
        let lastX = max(chart.x + TextWidth.of(firstLabel) + 2, (columns.last?.x ?? chart.x) + columnWidth - TextWidth.of(lastLabel))
        if bins.count > 1, lastX + TextWidth.of(lastLabel) <= rect.maxX {
            buffer.put(lastLabel, at: Point(x: lastX, y: chart.maxY), style: .role(.dim))
        }
    }

    /// Every bin from the first to the last, empty ones included (hours, or calendar days of
    /// the statistics' zone).
    static func denseBins(_ stats: CatalogueStatistics) -> [(start: Int64, count: Int)] {
        let sparse = stats.timeline
        guard let first = sparse.first?.start, let last = sparse.last?.start else { return [] }
        let counts = Dictionary(sparse.map { ($0.start, $0.count) }, uniquingKeysWith: +)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = stats.timeZone
        var bins: [(Int64, Int)] = []
        var start = first
        while start <= last, bins.count < 100_000 {
            bins.append((start, counts[start] ?? 0))
            // 36 hours on is always inside the next day, whatever the clocks did meanwhile. A bin
            // at the end of Int64's times (a store edited by hand) is the last.
            let (ahead, overflow) = start.addingReportingOverflow(stats.isHourly ? 3_600_000 : 36 * 3_600_000)
            guard !overflow else { break }
            if stats.isHourly {
                start = ahead
            } else {
                let next = calendar.startOfDay(for: Date(timeIntervalSince1970: Double(ahead) / 1000))
                guard let day = Int64(exactly: (next.timeIntervalSince1970 * 1000).rounded(.down)), day > start else { break }
                start = day
            }
        }
        return bins
    }

    static func label(_ time: Int64, hourly: Bool, zone: TimeZone) -> String {
        let text = QuakeFormat.absolute(time, in: zone, withSeconds: false)
        return hourly ? String(text.dropFirst(5).prefix(8)) + "h" : String(text.prefix(10))
    }

    /// `950`, `12k`, `3.4M`.
    static func compactCount(_ value: Int) -> String {
        switch value {
        case ..<10_000: String(value)
        case ..<1_000_000: "\(value / 1000)k"
        default: String(format: "%.1fM", Double(value) / 1_000_000)
        }
    }
}
