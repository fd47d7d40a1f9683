import Foundation
import QuakeModel

/// What the statistics view (`=`) shows: the list's statistics as last computed, whether newer
/// ones are being computed, and why the last computation failed.
public struct StatisticsModel: Sendable, Equatable {
    /// nil until the first computation for this list finishes: every part is drawn as `…`.
    public var statistics: CatalogueStatistics?
    /// A newer computation is running (the store changed): the title ends in `…`.
    public var isPending: Bool
    /// How much of the pending computation's declustering is done (0…1), when it reported it:
    /// the title says `declustering 43 %`.
    public var progress: Double?
    public var failure: String?
    /// The declustering asked for (`:decluster`), nil for the whole list: the title before the
    /// first answer.
    public var declustering: Declustering?
    /// How `Mc` is estimated (`:mc`).
    public var method: CompletenessMethod

    public init(statistics: CatalogueStatistics?, isPending: Bool = false, progress: Double? = nil, failure: String? = nil,
                declustering: Declustering? = nil, method: CompletenessMethod = .maxc) {
        self.declustering = declustering
        self.statistics = statistics
        self.isPending = isPending
        self.progress = progress
        self.failure = failure
        self.method = method
    }

    init(_ state: StatisticsState) {
        self.init(statistics: state.result, isPending: state.isPending, progress: state.progress, failure: state.failure,
                  declustering: state.resultDeclustering, method: state.method)
    }
}

/// The statistics view (issue 32): the magnitude–frequency distribution with its
/// Gutenberg–Richter fit, the timeline, the depth histogram and the top regions of the list,
/// stacked in the detail's pane (side by side with the list from 120 columns, over it below).
enum StatsView {
    static func render(_ model: StatisticsModel, display: DisplaySettings, in rect: Rect, into buffer: inout CellBuffer) {
        let area = Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: rect.height)
        guard area.width >= 10, area.height >= 2 else { return }
        let stats = model.statistics
        var x = area.x
        // Before the first answer, the title says what is being computed.
        let background = stats.map { $0.declustered != nil } ?? (model.declustering != nil)
        let title = background ? "Statistics of the background" : "Statistics of the list"
        x += buffer.put(title, at: Point(x: x, y: area.y), style: .role(.header, [.bold]), maxWidth: area.width)
        let count = stats.map { "  \(QuakeFormat.count($0.count)) \($0.count == 1 ? "quake" : "quakes")" } ?? "  …"
        x += buffer.put(count, at: Point(x: x, y: area.y), style: .role(.accent, [.bold]), maxWidth: area.maxX - x)
        // Numbers of the store before its last change stay, marked provisional (next to the
        // count, so a narrow pane still shows it) until the new ones come; with how far the
        // declustering is when it said so.
        if model.isPending, stats != nil { x += buffer.put(" …", at: Point(x: x, y: area.y), style: .role(.dim), maxWidth: area.maxX - x) }
        if model.isPending, let progress = model.progress {
            let text = "  declustering \(Int((progress * 100).rounded(.down))) %"
            x += buffer.put(text, at: Point(x: x, y: area.y), style: .role(.dim), maxWidth: area.maxX - x)
        }
        if let declustered = stats?.declustered {
            let text = "  (\(declustered.method.title): \(QuakeFormat.count(declustered.removed)) dependent removed)"
            x += buffer.put(text, at: Point(x: x, y: area.y), style: .role(.dim), maxWidth: area.maxX - x)
        }
        let (fitText, fitStyle) = fitLine(model)
        buffer.put(fitText, at: Point(x: area.x, y: area.y + 1), style: fitStyle, maxWidth: area.width)
        var top = 2
        if let stats, let composition = stats.composition {
            let text = "Types " + ListComposition.shares(composition.types.map { ($0.name, $0.count) }, limit: 5)
                + "   Agencies " + ListComposition.shares(composition.agencies.map { ($0.name, $0.count) }, limit: 3)
            buffer.put(text, at: Point(x: area.x, y: area.y + top), style: .role(.dim), maxWidth: area.width)
            top += 1
            if let warning = mixWarning(stats, method: model.method) {
                buffer.put(warning, at: Point(x: area.x, y: area.y + top), style: .role(.warning), maxWidth: area.width)
                top += 1
            }
        }

        let rest = area.splitTop(top).1
        let sections = heights(for: rest.height)
        var (mfdRect, below) = rest.splitTop(sections.mfd)
        let timelineRect: Rect
        (timelineRect, below) = below.splitTop(sections.timeline)
        if mfdRect.height >= 3 { MagnitudeChart.render(stats, method: model.method, in: mfdRect, into: &buffer) }
        if timelineRect.height >= 3 { TimelineChart.render(stats, in: timelineRect, into: &buffer) }
        guard below.height >= 2 else { return }
        let (depthRect, regionRect): (Rect, Rect)
        if below.width >= 60 {
            let split = below.splitLeft(below.width * 2 / 5)
            depthRect = split.0
            regionRect = Rect(x: split.1.x + 2, y: split.1.y, width: split.1.width - 2, height: split.1.height)
        } else {
            (depthRect, regionRect) = below.splitTop(below.height / 2)
        }
        renderDepths(stats, in: depthRect, into: &buffer)
        renderRegions(stats, in: regionRect, into: &buffer)
    }

    /// `Mc 2.5 (maxc) · b 1.02 ± 0.034 · a 6.12 · n 4,321 at or above Mc` (the error to two
    /// significant digits, the b-value to the same place), or why there is no b-value.
    static func fitLine(_ model: StatisticsModel) -> (String, Style) {
        if let failure = model.failure { return ("Not computed: \(failure)", .role(.error)) }
        guard let stats = model.statistics else { return ("Mc …  b …  a …  n …", .role(.dim)) }
        let mfd = stats.magnitudes.using(model.method)
        if let fit = mfd.fit {
            let text = String(format: "Mc %.1f (%@) · b %@ · a %.2f · n %@ at or above Mc", fit.completeness, mfd.method.rawValue,
                              UncertaintyFormat.string(fit.b, fit.bError), fit.a, QuakeFormat.count(fit.n))
            return (text, .role(.accent))
        }
        // The reason names Mc where there is one.
        return ("No b-value (\(mfd.method.rawValue)): " + (mfd.why ?? ""), .role(.warning))
    }

    /// `Warning: the fit mixes 9 magnitude types · two modes (M 1.2, M 4.4); :magtype TYPE fits one`,
    /// or, once the fit is of one type, `Warning: its ml comes from 2 agencies (emsc 70 %, usgs
    /// 30 %); a region fits one network`; nil when the list mixes nothing (`MagnitudeMixWarnings` says it
    /// in full in `stats`).
    static func mixWarning(_ stats: CatalogueStatistics, method: CompletenessMethod) -> String? {
        let mfd = stats.magnitudes.using(method)
        var parts: [String] = [], advice = ":magtype TYPE fits one type"
        if let fit = mfd.fit, let composition = stats.composition {
            let mixed = composition.types(atOrAbove: Int((fit.completeness * 10).rounded()))
            if mixed.count > 1 {
                parts.append("the fit mixes \(mixed.count) magnitude types")
            } else if let type = mixed.first, let part = composition.types.first(where: { $0.name == type.name }),
                      let agencies = MagnitudeMixWarnings.severalAgencies(part) {
                parts.append("its \(type.name) comes from \(agencies.count) agencies (\(ListComposition.shares(agencies, limit: 3)))")
                advice = "a region fits one network"
            }
        }
        if let modes = Bimodality(mfd.binned) {
            parts.append(String(format: "two modes (M %.1f, M %.1f)", Double(modes.modes.low) / 10, Double(modes.modes.high) / 10))
        }
        guard !parts.isEmpty else { return nil }
        return "Warning: " + parts.joined(separator: " · ") + "; " + advice
    }

    /// Rows for the magnitude chart, the timeline and the two lists below, for `rows` in all.
    static func heights(for rows: Int) -> (mfd: Int, timeline: Int, bottom: Int) {
        guard rows >= 9 else { return (rows, 0, 0) }
        var mfd = max(5, rows * 2 / 5), timeline = max(4, rows * 3 / 10)
        var bottom = rows - mfd - timeline
        if bottom < 3 {
            mfd += bottom
            bottom = 0
        }
        // A tall pane gives the lists what they can show and the charts the rest.
        let wanted = 12
        if bottom > wanted {
            let spare = bottom - wanted
            mfd += spare / 2
            timeline += spare - spare / 2
            bottom = wanted
        }
        return (mfd, timeline, bottom)
    }

    // MARK: Depths and regions

    static func renderDepths(_ stats: CatalogueStatistics?, in rect: Rect, into buffer: inout CellBuffer) {
        buffer.put("Depth (km)", at: Point(x: rect.x, y: rect.y), style: .role(.header, [.bold]), maxWidth: rect.width)
        guard let stats else { return dots(in: rect, into: &buffer) }
        var rows = stats.depthBins.map { (String(format: "%.0f–%.0f", $0.from, $0.to), $0.count) }
        let room = rect.height - 1
        if rows.count > room, room >= 1 {
            // The deepest bins that do not fit share the last line.
            let bins = stats.depthBins
            let rest = bins[(room - 1)...].reduce(0) { $0 + $1.count }
            rows = Array(rows.prefix(room - 1)) + [(String(format: "≥%.0f", bins[room - 1].from), rest)]
        }
        bars(rows, in: rect.splitTop(1).1, into: &buffer)
    }

    static func renderRegions(_ stats: CatalogueStatistics?, in rect: Rect, into buffer: inout CellBuffer) {
        buffer.put("Top regions", at: Point(x: rect.x, y: rect.y), style: .role(.header, [.bold]), maxWidth: rect.width)
        guard let stats else { return dots(in: rect, into: &buffer) }
        bars(stats.topRegions(max(0, rect.height - 1)).map { ($0.region, $0.count) }, in: rect.splitTop(1).1, into: &buffer)
    }

    static func dots(in rect: Rect, into buffer: inout CellBuffer) {
        guard rect.height > 1 else { return }
        buffer.put("…", at: Point(x: rect.x, y: rect.y + 1), style: .role(.dim))
    }

    /// One line a row: the label, a bar scaled to the largest count, the count.
    static func bars(_ rows: [(String, Int)], in rect: Rect, into buffer: inout CellBuffer) {
        guard !rect.isEmpty else { return }
        let counts = rows.map { QuakeFormat.count($0.1) }
        let countWidth = counts.map(\.count).max() ?? 0
        let labelWidth = min(rect.width / 2, rows.map { TextWidth.of($0.0) }.max() ?? 0)
        let barWidth = rect.width - labelWidth - countWidth - 2
        let largest = max(1, rows.map(\.1).max() ?? 1)
        for (index, (row, count)) in zip(rows, counts).enumerated() where index < rect.height {
            let y = rect.y + index
            buffer.put(TextWidth.pad(TextWidth.truncate(row.0, to: labelWidth), to: labelWidth), at: Point(x: rect.x, y: y),
                       style: .role(.dim))
            let eighths = barWidth > 0 ? max(row.1 > 0 ? 1 : 0, row.1 * barWidth * 8 / largest) : 0
            let bar = String(repeating: "█", count: eighths / 8) + (eighths % 8 > 0 ? String(horizontalEighths[eighths % 8]) : "")
            let x = rect.x + labelWidth + 1
            let written = buffer.put(bar, at: Point(x: x, y: y), style: .role(.accent), maxWidth: max(0, barWidth))
            buffer.put(count, at: Point(x: x + written + (written > 0 ? 1 : 0), y: y), style: .plain,
                       maxWidth: rect.maxX - x - written)
        }
    }

    /// `▏▎▍▌▋▊▉`: a horizontal bar's last cell in eighths (index 1…7).
    static let horizontalEighths = Array(" ▏▎▍▌▋▊▉")
    /// `▁▂▃▄▅▆▇█`: a vertical bar's top cell in eighths (index 1…8).
    static let verticalEighths = Array(" ▁▂▃▄▅▆▇█")

    /// A vertical bar of `eighths` eighths of a cell, from the bottom row of `column` up.
    static func verticalBar(eighths: Int, x: Int, bottom: Int, rows: Int, style: Style, into buffer: inout CellBuffer) {
        var left = min(eighths, rows * 8)
        var y = bottom
        while left > 0 {
            buffer.put(String(verticalEighths[min(8, left)]), at: Point(x: x, y: y), style: style)
            left -= 8
            y -= 1
        }
    }
}
