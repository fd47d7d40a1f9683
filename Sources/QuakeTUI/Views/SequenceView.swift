import Foundation
import QuakeModel

/// What the sequence view (`A`) shows: the mainshock asked for, its sequence as last computed,
/// whether a newer one is being computed, and why there is none.
public struct SequenceModel: Sendable, Equatable {
    public var mainshock: String
    /// nil until the first computation for this mainshock finishes: the view draws `…`.
    public var sequence: AftershockSequence?
    public var isPending: Bool
    public var failure: String?

    public init(mainshock: String, sequence: AftershockSequence?, isPending: Bool = false, failure: String? = nil) {
        self.mainshock = mainshock
        self.sequence = sequence
        self.isPending = isPending
        self.failure = failure
    }

    init?(_ state: SequenceState) {
        guard let mainshock = state.mainshock else { return nil }
        self.init(mainshock: mainshock, sequence: state.result, isPending: state.isPending, failure: state.failure)
    }
}

/// The sequence view (issue 54), in the detail's pane: the mainshock, the radius and counts,
/// the Omori fit (or why there is none), the aftershocks per day on a log-time axis with the
/// fitted rate, and the Reasenberg & Jones forecast for the next day, week and month.
enum SequenceView {
    /// Rows below the chart: the forecast's title, its header and a row per magnitude.
    static let forecastRows = 6
    static let gutter = 7

    static func render(_ model: SequenceModel, display: DisplaySettings, in rect: Rect, into buffer: inout CellBuffer) {
        let area = Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: rect.height)
        guard area.width >= 20, area.height >= 2 else { return }
        var y = area.y
        func line(_ text: String, _ style: Style) {
            guard y < area.maxY else { return }
            buffer.put(text, at: Point(x: area.x, y: y), style: style, maxWidth: area.width)
            y += 1
        }
        guard let sequence = model.sequence else {
            line("Sequence of \(model.mainshock)" + (model.failure == nil ? "  …" : ""), .role(.header, [.bold]))
            if let failure = model.failure { line(failure, .role(.error)) }
            return
        }
        let main = sequence.mainshock
        var x = area.x
        x += buffer.put("Sequence of ", at: Point(x: x, y: y), style: .role(.header, [.bold]), maxWidth: area.width)
        x += buffer.put("M " + QuakeFormat.magnitude(main.magnitude), at: Point(x: x, y: y),
                        style: .role(.magnitude(MagnitudeBand(magnitude: main.magnitude)), [.bold]), maxWidth: area.maxX - x)
        x += buffer.put(" \(main.code)", at: Point(x: x, y: y), style: .role(.header, [.bold]), maxWidth: area.maxX - x)
        if model.isPending { buffer.put(" …", at: Point(x: x, y: y), style: .role(.dim), maxWidth: area.maxX - x) }
        y += 1
        line(QuakeFormat.absolute(main.time, in: display.zone) + " · " + SafeText.sanitize(main.place), .role(.dim))
        line(sequence.radiusLine, .plain)
        line(sequence.countLine, .plain)
        // Where the window ends, wrapped: the figures above and below hold only up to there.
        if let note = sequence.endNote {
            let characters = Array(note)
            for wrapped in NotesView.wrap(characters, width: area.width) {
                line(String(characters[wrapped.range]).trimmingCharacters(in: .whitespaces), .role(.warning))
            }
        }
        if let omori = sequence.omoriLine { line(omori, .role(.accent)) }
        if let background = sequence.backgroundLine { line(background, .role(.accent)) }
        for warning in sequence.warnings { line(warning, .role(.warning)) }
        // Where the forecast starts when not now, wrapped: its numbers are of then.
        for note in [sequence.forecastStartNote, sequence.forecastBackgroundNote].compactMap({ $0 }) {
            let characters = Array(note)
            for wrapped in NotesView.wrap(characters, width: area.width) {
                line(String(characters[wrapped.range]).trimmingCharacters(in: .whitespaces), .role(.warning))
            }
        }
        let chartHeight = area.maxY - y - forecastRows
        if chartHeight >= 4 {
            renderChart(sequence, in: Rect(x: area.x, y: y, width: area.width, height: chartHeight), into: &buffer)
            y += chartHeight
        }
        renderForecast(sequence, zone: display.zone, from: &y, in: area, into: &buffer)
    }

    /// `Forecast from 2024-05-06 09:41:07 UTC (Reasenberg & Jones 1989)` (`· data's end` when the
    /// store does not reach now, `· aftershocks only` beside a background, where they fit:
    /// sentences above the chart say so in full), the parameters, then
    /// `          next 1 day       next 7 days      next 30 days` and a row per magnitude: the
    /// number expected and the chance of one or more. Nothing when there is no forecast (a
    /// larger quake ends the sequence: the warnings say so).
    static func renderForecast(_ sequence: AftershockSequence, zone: TimeZone, from y: inout Int, in area: Rect, into buffer: inout CellBuffer) {
        guard y < area.maxY, let start = sequence.forecast.first?.start else { return }
        // The data's end and the background are said above the chart in full; the title marks
        // them where it has room, its authors first.
        var title = "Forecast from \(QuakeFormat.absolute(start, in: zone)) (Reasenberg & Jones 1989)"
        for mark in [sequence.forecastStart == .dataEnd ? " · data's end" : "", (sequence.omori?.background?.rate ?? 0) == 0 ? "" : " · aftershocks only"]
        where !mark.isEmpty && TextWidth.of(title + mark) <= area.width {
            title += mark
        }
        buffer.put(title, at: Point(x: area.x, y: y), style: .role(sequence.forecastStart == .dataEnd ? .warning : .header, [.bold]),
                   maxWidth: area.width)
        y += 1
        guard y < area.maxY else { return }
        // The generic parameters' authors are in the title above: named again where the line has room.
        let parameters = TextWidth.of(sequence.parametersLine) <= area.width ? sequence.parametersLine : sequence.parametersLine(naming: false)
        buffer.put(parameters, at: Point(x: area.x, y: y), style: .role(.dim), maxWidth: area.width)
        y += 1
        let label = 9
        let cell = max(17, min(20, (area.width - label) / AftershockSequence.forecastDays.count))
        guard y < area.maxY else { return }
        for (index, days) in AftershockSequence.forecastDays.enumerated() {
            buffer.put("next " + SequenceText.days(days), at: Point(x: area.x + label + index * cell, y: y), style: .role(.dim),
                       maxWidth: max(0, area.maxX - area.x - label - index * cell))
        }
        y += 1
        for magnitude in sequence.forecastMagnitudes where y < area.maxY {
            buffer.put("M ≥ " + QuakeFormat.magnitude(magnitude), at: Point(x: area.x, y: y),
                       style: .role(.magnitude(MagnitudeBand(magnitude: magnitude))), maxWidth: area.width)
            for (index, entry) in sequence.forecast(magnitude: magnitude).enumerated() {
                let text = TextWidth.pad(SequenceText.significant(entry.expected), to: 8, alignRight: true) + " "
                    + TextWidth.pad(SequenceText.percent(entry.probability), to: 7, alignRight: true)
                let at = area.x + label + index * cell
                buffer.put(text, at: Point(x: at, y: y), style: .plain, maxWidth: max(0, min(cell - 1, area.maxX - at)))
            }
            y += 1
        }
    }

    /// Aftershocks per day in each column's log-time span as bars on a log scale, the fitted
    /// Omori rate as `•` where it shows above them, decades of days along the bottom.
    static func renderChart(_ sequence: AftershockSequence, in rect: Rect, into buffer: inout CellBuffer) {
        var x = rect.x
        x += buffer.put("Aftershocks per day, log time", at: Point(x: x, y: rect.y), style: .role(.header, [.bold]), maxWidth: rect.width)
        if sequence.omori != nil { buffer.put("  • Omori fit, M ≥ Mc", at: Point(x: x, y: rect.y), style: .role(.header), maxWidth: rect.maxX - x) }
        let chart = Rect(x: rect.x + gutter, y: rect.y + 1, width: rect.width - gutter, height: rect.height - 2)
        let histogram = sequence.histogram
        guard chart.width >= 8, chart.height >= 1, let firstBin = histogram.firstIndex(where: { $0 > 0 }) else {
            if rect.height > 1 {
                buffer.put("No aftershock yet.", at: Point(x: rect.x, y: rect.y + 1), style: .role(.dim), maxWidth: rect.width)
            }
            return
        }
        // From the decade the first aftershock is in to the catalogue's end.
        let perDecade = LogTimeBins.perDecade
        let start = max(0, firstBin - ((firstBin + LogTimeBins.first - 1) % perDecade + perDecade) % perDecade)
        let bins = start ..< histogram.count
        // Each column spans an equal share of the bins (several columns a bin when they are few).
        func span(_ column: Int) -> Range<Int> {
            let low = bins.lowerBound + column * bins.count / chart.width
            let high = bins.lowerBound + max((column + 1) * bins.count / chart.width, column * bins.count / chart.width + 1)
            return low ..< min(high, bins.upperBound)
        }
        let rates: [Double?] = (0 ..< chart.width).map { sequence.rate(in: span($0)) }
        let fitted: [Double?] = (0 ..< chart.width).map { column in
            guard let omori = sequence.omori else { return nil }
            let range = span(column)
            guard !range.isEmpty else { return nil }
            let (from, to) = (LogTimeBins.edges(range.lowerBound).from, LogTimeBins.edges(range.upperBound - 1).to)
            // The fitted number of quakes at or above Mc in the span (with any background), per day.
            return omori.expected(from: from, to: to) / (to - from)
        }
        let shown = rates.compactMap { $0 }
        guard let highest = shown.max(), let lowest = shown.min() else { return }
        let top = (log10(highest)).rounded(.up), bottom = min(top - 1, (log10(lowest)).rounded(.down))
        let levels = chart.height * 8
        func eighths(_ rate: Double) -> Int { Int(((log10(rate) - bottom) / (top - bottom) * Double(levels)).rounded()) }
        for (column, rate) in rates.enumerated() {
            guard let rate else { continue }
            StatsView.verticalBar(eighths: max(1, eighths(rate)), x: chart.x + column, bottom: chart.maxY - 1, rows: chart.height,
                                  style: .role(.accent), into: &buffer)
        }
        for (column, rate) in fitted.enumerated() {
            guard let rate, rate > 0 else { continue }
            let level = eighths(rate)
            guard level >= 1, level <= levels else { continue }
            let point = Point(x: chart.x + column, y: chart.maxY - 1 - (level - 1) / 8)
            guard buffer[point.x, point.y].grapheme == " " else { continue }
            buffer.put("•", at: point, style: .role(.header, [.bold]))
        }
        // The rate axis: powers of ten at the top and bottom.
        buffer.put(TextWidth.pad(rateLabel(top), to: gutter - 1, alignRight: true), at: Point(x: rect.x, y: chart.y), style: .role(.dim))
        if chart.height > 1 {
            buffer.put(TextWidth.pad(rateLabel(bottom), to: gutter - 1, alignRight: true), at: Point(x: rect.x, y: chart.maxY - 1),
                       style: .role(.dim))
        }
        // The time axis: a label at each decade of days that fits.
        var freeFrom = chart.x
        for column in 0 ..< chart.width {
            let range = span(column)
            guard let bin = range.first, bin > 0, (bin + LogTimeBins.first - 1) % perDecade == 0,
                  column == 0 || span(column - 1).first != bin else { continue }
            let label = SequenceText.decade(LogTimeBins.edges(bin).from) + "d"
            let at = chart.x + column
            guard at >= freeFrom, at + TextWidth.of(label) <= rect.maxX else { continue }
            buffer.put(label, at: Point(x: at, y: chart.maxY), style: .role(.dim))
            freeFrom = at + TextWidth.of(label) + 1
        }
    }

    /// `1k/d`, `10/d`, `0.1/d` for a power of ten.
    static func rateLabel(_ exponent: Double) -> String {
        if exponent >= 6 { return String(format: "1e%.0f", exponent) }
        if exponent >= 3 { return SequenceText.decade(pow(10, exponent - 3)) + "k/d" }
        return SequenceText.decade(pow(10, exponent)) + "/d"
    }
}
