import Foundation
import QuakeModel

/// The magnitude–frequency chart: quakes per 0.1 bin as bars on a log count axis, the
/// cumulative count `N(≥M)` as `•`, the Gutenberg–Richter line `log10 N = a − bM` above `Mc`
/// as `·`, and `Mc` marked `▲` under the axis.
enum MagnitudeChart {
    static let gutter = 5

    /// `Mc` and the fit by `method` (`:mc`, ``StatisticsState/method``).
    static func render(_ stats: CatalogueStatistics?, method: CompletenessMethod = .maxc, in rect: Rect, into buffer: inout CellBuffer) {
        var x = rect.x
        x += buffer.put("Magnitude–frequency", at: Point(x: x, y: rect.y), style: .role(.header, [.bold]), maxWidth: rect.width)
        x += buffer.put("  █ per 0.1", at: Point(x: x, y: rect.y), style: .role(.accent), maxWidth: rect.maxX - x)
        x += buffer.put("  • N(≥M)", at: Point(x: x, y: rect.y), style: .role(.header), maxWidth: rect.maxX - x)
        x += buffer.put("  · G-R fit", at: Point(x: x, y: rect.y), style: .role(.warning), maxWidth: rect.maxX - x)
        buffer.put("  ▲ Mc", at: Point(x: x, y: rect.y), style: .role(.success), maxWidth: rect.maxX - x)
        guard let stats else { return StatsView.dots(in: rect, into: &buffer) }
        let mfd = stats.magnitudes.using(method)
        guard let low = mfd.tenths.keys.min(), let high = mfd.tenths.keys.max() else {
            buffer.put("No quake of the list has a magnitude.", at: Point(x: rect.x, y: rect.y + 1), style: .role(.dim),
                       maxWidth: rect.width)
            return
        }
        let chart = Rect(x: rect.x + gutter, y: rect.y + 1, width: rect.width - gutter, height: rect.height - 2)
        guard chart.width >= 4, chart.height >= 1 else { return }
        // One column a bin, or several bins a column when they do not fit.
        let binCount = high - low + 1
        let perColumn = (binCount + chart.width - 1) / chart.width
        let columnWidth = max(1, min(3, chart.width / ((binCount + perColumn - 1) / perColumn)))
        let columns = (binCount + perColumn - 1) / perColumn
        let total = mfd.tenths.values.reduce(0, +)
        let decades = max(1, Int(log10(Double(total)).rounded(.up)))
        let levels = chart.height * 8
        /// The level (in eighths of a row above the axis) of a count on the log axis; a count
        /// of 1 stands one eighth high so that it shows.
        func level(_ value: Double) -> Int {
            guard value >= 1, value.isFinite else { return 0 }
            return max(1, Int((log10(value) / Double(decades) * Double(levels)).rounded()))
        }
        let bottom = chart.maxY - 1
        let fit = mfd.fit
        var cumulative = total
        var cells: [(x: Int, tenth: Int, count: Int, cumulative: Int)] = []
        for column in 0..<columns {
            let first = low + column * perColumn
            let tenths = first..<min(high + 1, first + perColumn)
            let count = tenths.reduce(0) { $0 + (mfd.tenths[$1] ?? 0) }
            cells.append((chart.x + column * columnWidth, first, count, cumulative))
            cumulative -= count
        }
        for cell in cells {
            for offset in 0..<columnWidth {
                StatsView.verticalBar(eighths: level(Double(cell.count)), x: cell.x + offset, bottom: bottom,
                                      rows: chart.height, style: .role(.accent), into: &buffer)
            }
        }
        if let fit {
            for cell in cells where Double(cell.tenth) / 10 >= fit.completeness - 0.001 {
                let expected = pow(10, fit.a - fit.b * Double(cell.tenth) / 10)
                let row = bottom - (level(expected) - 1) / 8
                guard expected >= 1, expected.isFinite, row >= chart.y, buffer[cell.x, row].grapheme == " " else { continue }
                buffer.put("·", at: Point(x: cell.x, y: row), style: .role(.warning, [.bold]))
            }
        }
        for cell in cells where cell.cumulative > 0 {
            let row = bottom - (level(Double(cell.cumulative)) - 1) / 8
            buffer.put("•", at: Point(x: cell.x, y: max(chart.y, row)), style: .role(.header, [.bold]))
        }
        // The count axis: 1, 10, 100, … where they fall.
        var lastRow = Int.max
        for power in 0...decades {
            let row = bottom - (level(pow(10, Double(power))) - 1) / 8
            guard row < lastRow, row >= chart.y else { continue }
            buffer.put(TextWidth.pad(countLabel(power), to: gutter - 1, alignRight: true), at: Point(x: rect.x, y: row),
                       style: .role(.dim))
            lastRow = row
        }
        // The magnitude axis: Mc, then whole magnitudes where they fit.
        var taken = IndexSet()
        if let mc = mfd.completenessTenth, let cell = cells.last(where: { $0.tenth <= mc }) {
            let text = String(format: "▲%.1f", Double(mc) / 10)
            buffer.put(text, at: Point(x: cell.x, y: chart.maxY), style: .role(.success, [.bold]))
            taken.insert(integersIn: cell.x - 1..<cell.x + TextWidth.of(text) + 1)
        }
        for cell in cells where cell.tenth.isMultiple(of: 10) || cell.tenth == low {
            let text = String(format: cell.tenth == low ? "M%.1f" : "%.0f", Double(cell.tenth) / 10)
            let span = cell.x..<cell.x + TextWidth.of(text)
            guard !taken.intersects(integersIn: span), span.upperBound <= rect.maxX else { continue }
            buffer.put(text, at: Point(x: cell.x, y: chart.maxY), style: .role(.dim))
            taken.insert(integersIn: cell.x - 1..<span.upperBound + 1)
        }
    }

    /// `1`, `10`, `100`, `1k` … for 10^power.
    static func countLabel(_ power: Int) -> String {
        switch power {
        case 0..<3: String(Int(pow(10, Double(power))))
        case 3..<6: "\(Int(pow(10, Double(power - 3))))k"
        default: "\(Int(pow(10, Double(power - 6))))M"
        }
    }
}
