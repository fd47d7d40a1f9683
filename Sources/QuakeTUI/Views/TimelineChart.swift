import Foundation
import QuakeModel

/// The timeline (issue 54): quakes per calendar bin (`CalendarTimeline`: hours, days, weeks,
/// months, years or decades, the finest that fits) as bars across the whole width, the count axis
/// on the left; on top of the bars the cumulative count `•` on its own scale (0 to the list's
/// count, labelled on the right) and the cumulative seismic moment `◦` (0 to the list's total,
/// named in the title); the largest quakes marked `▼` over their bin. Counts are grouped as
/// everywhere (`4,711`).
enum TimelineChart {
    static func render(_ stats: CatalogueStatistics?, in rect: Rect, into buffer: inout CellBuffer) {
        let zone = stats.map { $0.timeZone.identifier == "UTC" || $0.timeZone.identifier == "GMT" ? "UTC" : "local time" } ?? "…"
        guard let stats, stats.count > 0 else {
            buffer.put("Quakes over time (\(zone))", at: Point(x: rect.x, y: rect.y), style: .role(.header, [.bold]), maxWidth: rect.width)
            return StatsView.dots(in: rect, into: &buffer)
        }
        let total = CountFormat.grouped(stats.count)
        let rightGutter = total.count + 1
        // The left gutter holds the largest bin's count: the widest it can be is the list's count.
        var leftGutter = total.count + 1
        var chartWidth = max(1, rect.width - leftGutter - rightGutter)
        guard let timeline = CalendarTimeline(stats, columns: chartWidth) else { return }
        let largest = max(1, timeline.bins.map(\.count).max() ?? 1)
        leftGutter = CountFormat.grouped(largest).count + 1
        chartWidth = max(1, rect.width - leftGutter - rightGutter)
        var x = rect.x
        x += buffer.put("Quakes per \(timeline.unit.name) (\(zone))", at: Point(x: x, y: rect.y), style: .role(.header, [.bold]),
                        maxWidth: rect.width)
        x += buffer.put("  • cumulative", at: Point(x: x, y: rect.y), style: .role(.header), maxWidth: rect.maxX - x)
        let moment = timeline.totalMoment
        if moment > 0 {
            // Other magnitude types are taken as Mw, and the title says so.
            let asMw = stats.composition?.magnitudesAreMoment == true ? "" : " (as Mw)"
            x += buffer.put("  ◦ moment " + momentText(moment) + asMw, at: Point(x: x, y: rect.y), style: .role(.warning),
                            maxWidth: rect.maxX - x)
        }
        if !stats.largest.isEmpty {
            let text = "  ▼ " + stats.largest.map { "M" + MagnitudeBin.text($0.magnitude) }.joined(separator: " ")
            buffer.put(text, at: Point(x: x, y: rect.y), style: .role(.warning, [.bold]), maxWidth: rect.maxX - x)
        }
        let chart = Rect(x: rect.x + leftGutter, y: rect.y + 1, width: chartWidth, height: rect.height - 2)
        guard chart.width >= 2, chart.height >= 1 else { return }
        let bins = timeline.bins
        // Bin i spans columns [i·W/n, (i+1)·W/n): the bins fill the width.
        let columns: [(x: Int, width: Int)] = bins.indices.map { i in
            let from = i * chart.width / bins.count, to = (i + 1) * chart.width / bins.count
            return (chart.x + from, max(1, to - from))
        }
        let levels = chart.height * 8
        let bottom = chart.maxY - 1
        for (bin, column) in zip(bins, columns) {
            let eighths = bin.count > 0 ? max(1, bin.count * levels / largest) : 0
            for offset in 0 ..< column.width {
                StatsView.verticalBar(eighths: eighths, x: column.x + offset, bottom: bottom, rows: chart.height,
                                      style: .role(.accent), into: &buffer)
            }
        }
        // The curves on top of the bars: the moment first, the count over it where they meet.
        func row(_ fraction: Double) -> Int { bottom - min(chart.height - 1, Int((fraction * Double(chart.height - 1)).rounded())) }
        if moment > 0 {
            var running = 0.0
            for (bin, column) in zip(bins, columns) {
                running += bin.moment
                buffer.put("◦", at: Point(x: column.x + column.width - 1, y: row(running / moment)), style: .role(.warning, [.bold]))
            }
        }
        var running = 0
        for (bin, column) in zip(bins, columns) {
            running += bin.count
            buffer.put("•", at: Point(x: column.x + column.width - 1, y: row(Double(running) / Double(stats.count))),
                       style: .role(.header, [.bold]))
        }
        for quake in stats.largest {
            guard let index = bins.lastIndex(where: { $0.start <= quake.time }) else { continue }
            buffer.put("▼", at: Point(x: columns[index].x, y: chart.y), style: .role(.magnitude(MagnitudeBand(magnitude: quake.magnitude)), [.bold]))
        }
        // The count axis on the left (the largest bin), the cumulative one on the right (the list).
        buffer.put(TextWidth.pad(CountFormat.grouped(largest), to: leftGutter - 1, alignRight: true), at: Point(x: rect.x, y: chart.y),
                   style: .role(.dim))
        buffer.put(total, at: Point(x: chart.maxX + 1, y: chart.y), style: .role(.header))
        if chart.height > 1 {
            buffer.put(TextWidth.pad("0", to: leftGutter - 1, alignRight: true), at: Point(x: rect.x, y: bottom), style: .role(.dim))
            buffer.put("0", at: Point(x: chart.maxX + 1, y: bottom), style: .role(.header))
        }
        // The time axis: the first bin on the left, the last on the right.
        guard let first = bins.first, let last = bins.last else { return }
        let firstLabel = timeline.label(first.start), lastLabel = timeline.label(last.start)
        buffer.put(firstLabel, at: Point(x: chart.x, y: chart.maxY), style: .role(.dim), maxWidth: chart.width)
        let lastX = chart.maxX - TextWidth.of(lastLabel)
        if bins.count > 1, lastX >= chart.x + TextWidth.of(firstLabel) + 2 {
            buffer.put(lastLabel, at: Point(x: lastX, y: chart.maxY), style: .role(.dim))
        }
    }

    /// `3.2e19 N·m`.
    static func momentText(_ moment: Double) -> String {
        let exponent = Int(log10(moment).rounded(.down))
        return String(format: "%.1fe%d N·m", moment / pow(10, Double(exponent)), exponent)
    }
}
