import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore

/// `quaketui sequence CODE [--json]`: the sequence after a quake (issue 54) — its aftershocks
/// within the Wells & Coppersmith rupture length, the Omori fit and the Reasenberg & Jones
/// forecast — as the browser's `A` view shows it.
enum SequenceCommand {
    static let spec = CommandSpec(
        name: "sequence",
        abstract: "Print the sequence after a quake: aftershocks, the Omori fit and the Reasenberg & Jones forecast.",
        usage: ["sequence <code>|<event-url> [--json]"],
        discussion: """
            The sequence is every quake of the store (whatever the browser's filters) at or after
            the mainshock's time whose epicentre lies within L km of its own: up to M 8.1 the
            surface rupture length of Wells & Coppersmith (1994, all slip types),
            log10 L = -3.22 + 0.69 M, never less than 10 km; above M 8.1 (past their data) the
            subduction-interface length of Strasser et al. (2010), log10 L = -2.477 + 0.585 M,
            never less than Wells & Coppersmith's at M 8.1. Its Mc is maximum curvature + 0.2
            over the aftershocks' magnitudes. The window ends at the newest quake in the store
            (counted), or earlier, said in a line: at the last quake before the first gap between
            stored quakes after the mainshock far too long for the store's rate to be chance (a
            Poisson process at the rate of the rest of the store would have one so long with a
            chance below 1e-20), or at the first larger quake within the radius (not counted),
            whose own sequence the later quakes are. With 50 or more at or above Mc, the modified
            Omori law K / (t + c)^p (t in days) is fitted to their times by maximum likelihood
            from the mainshock to the window's end, beside a constant background mu held fixed
            when the store covers the year before the mainshock: mu = N / T, N the quakes at or
            above Mc within the radius in that year (less those in the sequence of an earlier
            quake 2 or more above Mc), error sqrt(N) / T; else alone, said in a line. The errors
            of K, c and p are from the inverse Fisher information (Ogata 1983). The forecast
            (Reasenberg & Jones 1989) of aftershocks (a background is not in it) gives the
            number of aftershocks of M 5, 6 and the mainshock's magnitude or more expected in the
            next 1, 7 and 30 days, N = 10^(a + b (Mm - M)) times the integral of (t + c)^-p, and
            the probability of at least one, 1 - exp(-N): from now when the store covers time up
            to now (the time since its newest quake is not a gap by the rule above), else from
            where the window ends, said in a line; none when a larger quake ends the window. It
            uses Reasenberg & Jones's (1989) generic California parameters a = -1.67, b = 0.91,
            p = 1.08, c = 0.05 days until the sequence has 100 aftershocks at or above its Mc, a
            fit and a b-value; then its own (p and c of the fit, b by Aki-Utsu above Mc,
            a = log10 K - b (Mm - Mc)).

            --json prints {"mainshock","radiusKm","radiusMethod","radiusNote","count","end":{"time",
            "by","gapDays","largerQuake","note"},"mc","aboveMc","b","bError","omori":{"K","c","p",
            "KError","cError","pError","mu","muError"} or null,"background":{"from","to","days",
            "count","notCounted"} or null,"backgroundNote","model":{"a","b","p","c"},
            "forecast":[{"start","days","magnitude","expected","probability"}],"forecastFrom",
            "forecastNote","parameters":"generic"|"sequence","warnings":[sentence]}; count is the
            aftershocks in the window (not the mainshock), end its end (an ISO time), by
            "catalogue", "gap" or "largerQuake", gapDays, largerQuake (a code) and note (the
            sentence) null where they do not apply, radiusMethod "wellsCoppersmith", "minimum",
            "wellsCoppersmithTop" or "strasserInterface" and radiusNote a sentence when the
            magnitude is past Wells & Coppersmith's data, mc, b and bError null when there is
            none, mu and muError null without a background (backgroundNote says why; background
            the year it was counted in and the quakes counted and not), model the forecast's
            parameters, K per day and c in days, start an ISO time, forecastFrom "now" or
            "dataEnd" (null and forecast [] when a larger quake ends the window), forecastNote
            the sentences printed under the forecast or null.
            """,
        options: [CommandSpec.stateDir, CommandSpec.json],
        arguments: [.init(name: "code", help: "The mainshock: a quake code (us7000abcd) or a USGS event page URL.")])

    static func run(_ arguments: ParsedArguments) throws {
        guard let target = arguments.positionals.first else {
            throw UsageError(message: "Say which quake's sequence to print: a code like us7000abcd or a USGS event page URL.",
                             command: spec)
        }
        let state = try arguments.existingStateDirectory()
        let container = try PersistentContainer(readingFrom: state.url, upgrading: SchemaUpgrade.say)
        defer { container.close() }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let code = try QuakeCode.parse(target) { code in (try? container.viewContext.read { try $0.quake(code: code) != nil }) ?? false }
        let result = try container.viewContext.read { db in try db.aftershockSequence(of: code, now: now) }
        let sequence: AftershockSequence
        switch result {
        case .success(let found): sequence = found
        case .failure(let unavailable): throw CommandError(unavailable.message)
        }
        if arguments.has("json") { return try printJSON(Report(sequence)) }
        print(text(sequence), terminator: "")
    }

    // MARK: JSON

    struct Report: Encodable {
        struct Omori: Encodable {
            var K: Double
            var c: Double
            var p: Double
            var KError: Double
            var cError: Double
            var pError: Double
            /// The background rate a day held fixed in the fit and its Poisson error; null when the
            /// law was fitted alone.
            @NullIfNone var mu: Double?
            @NullIfNone var muError: Double?
        }
        /// The span before the mainshock the background was counted in, and the counts.
        struct Background: Encodable {
            var from: String
            var to: String
            var days: Double
            /// The quakes counted (`mu` is count / days).
            var count: Int
            /// Quakes at or above Mc within the radius in the span in the sequence of an earlier
            /// quake 2 or more above Mc, not counted.
            var notCounted: Int
        }
        struct Forecast: Encodable {
            var start: String
            var days: Double
            var magnitude: Double
            var expected: Double
            var probability: Double
        }
        struct End: Encodable {
            var time: String
            var by: String
            @NullIfNone var gapDays: Double?
            @NullIfNone var largerQuake: String?
            @NullIfNone var note: String?
        }
        struct Model: Encodable {
            var a: Double
            var b: Double
            var p: Double
            var c: Double
        }
        var mainshock: String
        var radiusKm: Double
        var radiusMethod: String
        @NullIfNone var radiusNote: String?
        var count: Int
        var end: End
        @NullIfNone var mc: Double?
        var aboveMc: Int
        @NullIfNone var b: Double?
        @NullIfNone var bError: Double?
        @NullIfNone var omori: Omori?
        /// How `omori.mu` was measured: the span before the mainshock and the counts; null without one.
        @NullIfNone var background: Background?
        /// The table's line: the background and how it was measured, or why there is none.
        @NullIfNone var backgroundNote: String?
        var model: Model
        var forecast: [Forecast]
        @NullIfNone var forecastFrom: String?
        @NullIfNone var forecastNote: String?
        var parameters: String
        var warnings: [String]

        init(_ sequence: AftershockSequence) {
            mainshock = sequence.mainshock.code
            radiusKm = sequence.radiusKm
            radiusMethod = sequence.radiusMethod.rawValue
            radiusNote = sequence.radiusNote
            count = sequence.count
            var gapDays: Double?, larger: String?
            switch sequence.ending {
            case .catalogue: break
            case .coverageGap(let gap): gapDays = gap.days
            case .largerQuake(let code, _, _): larger = code
            }
            end = End(time: ISO8601Format.string(milliseconds: sequence.end), by: sequence.endingName,
                      gapDays: gapDays, largerQuake: larger, note: sequence.endNote)
            mc = sequence.completeness
            aboveMc = sequence.aboveCompleteness
            (b, bError) = (sequence.bValue?.b, sequence.bValue?.error)
            let law = sequence.forecastModel
            model = Model(a: law.a, b: law.b, p: law.p, c: law.c)
            omori = sequence.omori.map {
                Omori(K: $0.law.k, c: $0.law.c, p: $0.law.p, KError: $0.kError, cError: $0.cError, pError: $0.pError,
                      mu: $0.background?.rate, muError: $0.background?.error)
            }
            backgroundNote = sequence.backgroundLine
            background = sequence.backgroundLine == nil ? nil : (try? sequence.background?.get()).map {
                Background(from: ISO8601Format.string(milliseconds: $0.from), to: ISO8601Format.string(milliseconds: $0.to),
                           days: $0.days, count: $0.count, notCounted: $0.inRadius - $0.count)
            }
            forecast = sequence.forecast.map {
                Forecast(start: ISO8601Format.string(milliseconds: $0.start), days: $0.days,
                         magnitude: $0.magnitude, expected: $0.expected, probability: $0.probability)
            }
            forecastFrom = sequence.forecastStart?.rawValue
            let notes = [sequence.forecastStartNote, sequence.forecastBackgroundNote].compactMap { $0 }
            forecastNote = notes.isEmpty ? nil : notes.joined(separator: " ")
            parameters = sequence.parameters.rawValue
            warnings = sequence.warnings
        }
    }

    // MARK: Text

    /// The mainshock, the radius and counts, the fit (or why not), the forecast table, the
    /// warnings, then the aftershocks per day in each log-time bin that has any.
    static func text(_ sequence: AftershockSequence) -> String {
        let main = sequence.mainshock
        let time = ISO8601Format.string(milliseconds: main.time)
        var lines = ["Sequence of M \(MagnitudeBin.text(main.magnitude)) \(main.code) · \(time) · \(main.place)"]
        lines.append(sequence.radiusLine)
        lines.append(sequence.countLine)
        if let note = sequence.endNote { lines.append(note) }
        if let omori = sequence.omoriLine { lines.append(omori + " (Ogata 1983)") }
        if let background = sequence.backgroundLine { lines.append(background) }
        lines += sequence.warnings.map { "Warning: \($0)" }
        lines.append("")
        if let first = sequence.forecast.first {
            let start = ISO8601Format.string(milliseconds: first.start)
            let whence = sequence.forecastStart == .dataEnd ? ", where the data end, \(SequenceText.duration(sequence.now - first.start)) before now" : ""
            lines.append("Forecast (Reasenberg & Jones 1989) from \(start)\(whence): the number expected (the chance of one or more)")
            lines.append("with " + sequence.parametersLine)
            lines.append(forecastTable(sequence).joined(separator: "\n"))
            if let note = sequence.forecastStartNote { lines.append(note) }
            if let note = sequence.forecastBackgroundNote { lines.append(note) }
            lines.append("")
        }
        lines.append("Days after        aftershocks      per day")
        let endDays = Double(sequence.end - main.time) / AftershockSequence.msPerDay
        for (index, count) in sequence.histogram.enumerated() where count > 0 {
            let label = SequenceText.binDays(index, endDays: endDays)
            let countText = CountFormat.grouped(count), rate = sequence.rate(in: index ..< index + 1).map { SequenceText.significant($0) } ?? ""
            lines.append(label.padding(toLength: 16, withPad: " ", startingAt: 0) + "  " + String(repeating: " ", count: max(0, 11 - countText.count))
                         + countText + "  " + String(repeating: " ", count: max(0, 11 - rate.count)) + rate)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `          next 1 day        next 7 days       next 30 days` and a row per magnitude:
    /// the number expected and the probability of at least one.
    static func forecastTable(_ sequence: AftershockSequence) -> [String] {
        let width = 20
        var lines = ["         " + AftershockSequence.forecastDays.map { ("next " + SequenceText.days($0)).padding(toLength: width, withPad: " ", startingAt: 0) }.joined()]
        for magnitude in sequence.forecastMagnitudes {
            let cells = sequence.forecast(magnitude: magnitude).map {
                (right(SequenceText.significant($0.expected), 8) + " " + right(SequenceText.percent($0.probability), 7))
                    .padding(toLength: width, withPad: " ", startingAt: 0)
            }
            lines.append("M ≥ \(MagnitudeBin.text(magnitude))  " + cells.joined())
        }
        return lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    private static func right(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
