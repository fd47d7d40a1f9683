import Foundation

/// How `quaketui sequence` and the browser's sequence view (`A`) write a sequence's numbers:
/// one place, so both say the same.
extension AftershockSequence {
    /// `Radius 40.7 km (Wells & Coppersmith 1994 rupture length)`, the floor's reason, or the
    /// scaling used above Wells & Coppersmith's data and whether the magnitude is past its own.
    public var radiusLine: String {
        String(format: "Radius %.1f km", radiusKm) + " (" + radiusMethodText + ")"
    }

    /// What the radius is, in words: `Wells & Coppersmith 1994 rupture length`, ….
    public var radiusMethodText: String {
        let magnitude = MagnitudeBin.text(mainshock.magnitude)
        switch radiusMethod {
        case .wellsCoppersmith: return "Wells & Coppersmith 1994 rupture length"
        case .minimum: return "the least; Wells & Coppersmith 1994 give less"
        case .wellsCoppersmithTop:
            return "Wells & Coppersmith 1994 rupture length at M 8.1, the top of their data; M \(magnitude) is above it, "
                + "and Strasser et al. 2010's subduction-interface length is less"
        case .strasserInterface:
            return "Strasser et al. 2010 subduction-interface rupture length: M \(magnitude) is above Wells & Coppersmith's M 8.1"
                + (mainshock.magnitude > SequenceRadius.strasserTop ? ", and above the M 9.4 of Strasser's data too: extrapolated" : "")
        }
    }

    /// A sentence when the mainshock's magnitude is outside the range the radius's scaling was
    /// fitted to (`--json`'s `radiusNote`); nil within it.
    public var radiusNote: String? {
        switch radiusMethod {
        case .wellsCoppersmith, .minimum: return nil
        case .wellsCoppersmithTop, .strasserInterface: return "The radius is the " + radiusMethodText + "."
        }
    }

    /// `312 aftershocks · Mc 2.2 · 201 at or above`.
    public var countLine: String {
        var line = CountFormat.count(count, "aftershock")
        if let completeness { line += String(format: " · Mc %.1f (maxc) · ", completeness) + CountFormat.grouped(aboveCompleteness) + " at or above" }
        return line
    }

    /// Where the window ends and why, when it ends before the store's newest quake: `The
    /// sequence ends 2019-07-19 00:41 UTC: no quake is stored for 6.0 years after that, …` or
    /// `The sequence ends at the M 7.1 of 2019-07-06 03:19 UTC, a larger quake: …`; nil otherwise.
    public var endNote: String? {
        switch ending {
        case .catalogue: return nil
        case .coverageGap(let gap):
            return "The sequence ends \(SequenceText.minute(gap.from)): no quake is stored for \(SequenceText.duration(gap.to - gap.from)) "
                + "after that, too long for the store's rate to be chance, so the count and the fit end there."
        case .largerQuake(let code, let time, let magnitude):
            return "The sequence ends at the M \(MagnitudeBin.text(magnitude)) of \(SequenceText.minute(time)), a larger quake: "
                + (code.map { "its own sequence is `sequence \($0)`" } ?? "the quakes from it on are its own sequence")
                + ", and its forecast is the one to read: this one gives none."
        }
    }

    /// `catalogue`, `gap` or `largerQuake`: what ended the window, as `--json` names it.
    public var endingName: String {
        switch ending {
        case .catalogue: "catalogue"
        case .coverageGap: "gap"
        case .largerQuake: "largerQuake"
        }
    }

    /// `Omori K 61 ± 7.2/day · c 0.052 ± 0.011 d · p 1.10 ± 0.032` (the aftershocks' rate,
    /// beside any background: ``backgroundLine``), nil without a fit.
    public var omoriLine: String? {
        guard let omori else { return nil }
        return "Omori K " + UncertaintyFormat.string(omori.law.k, omori.kError) + "/day · c "
            + UncertaintyFormat.string(omori.law.c, omori.cError) + " d · p " + UncertaintyFormat.string(omori.law.p, omori.pError)
    }

    /// The background beside the fit and how it was measured, in one line: `Background μ 0.058 ±
    /// 0.013/day, fixed: 21 quakes at or above Mc 4.7 within the radius in the year before the
    /// mainshock (3 more in the sequences of earlier M 6.7+ quakes, not counted)`, or why there is none
    /// (``SequenceBackground/Unmeasured``); nil when no fit was tried (fewer than 50 at or above `Mc`).
    public var backgroundLine: String? {
        guard aboveCompleteness >= OmoriFit.minimumCount, let background else { return nil }
        switch background {
        case .failure(let unmeasured): return unmeasured.message
        case .success(let measured):
            let mc = completeness.map { String(format: "%.1f", $0) } ?? ""
            let others = measured.inRadius - measured.count
            let head = String(format: "%.1f", Double(MagnitudeBin.tenth(of: completeness ?? 0) ?? 0) / 10 + Double(SequenceBackground.headAboveMc) / 10)
            let notCounted = others > 0 ? " (\(CountFormat.grouped(others)) more in the sequences of earlier M \(head)+ quakes, not counted)" : ""
            guard measured.count > 0 else {
                return "Background μ 0/day: no quake at or above Mc \(mc) within the radius in the year before the mainshock" + notCounted
            }
            return "Background μ " + UncertaintyFormat.string(measured.rate, measured.error) + "/day, fixed: "
                + (measured.count == 1 ? "1 quake" : "\(CountFormat.grouped(measured.count)) quakes")
                + " at or above Mc \(mc) within the radius in the year before the mainshock" + notCounted
        }
    }

    /// The sentence beside a forecast whose sequence has a background: the numbers are the
    /// aftershocks' alone. nil without a background.
    public var forecastBackgroundNote: String? {
        guard let background = omori?.background, background.rate > 0, let mc = completeness, !forecast.isEmpty else { return nil }
        return "The numbers are aftershocks only: the background of " + SequenceText.significant(background.rate)
            + String(format: " a day at or above Mc %.1f comes besides.", mc)
    }

    /// Where the forecast starts, as the table's title says it: `from 2026-12-02T09:59:50.903Z`
    /// or `from 2019-07-19T02:52:…Z, where the data end, 7.4 years before now`; nil without one.
    public var forecastStartNote: String? {
        guard let start = forecast.first?.start, let forecastStart else { return nil }
        switch forecastStart {
        case .now: return nil
        case .dataEnd:
            return "The forecast starts " + SequenceText.minute(start) + ", where the sequence's data end, "
                + SequenceText.duration(now - start) + " before now: the store does not cover time up to now (nothing is stored "
                + "after its newest quake for far too long for its rate to be chance), so these are the numbers expected then, not now."
        }
    }

    /// `Reasenberg & Jones's (1989) generic California parameters: a -1.67 b 0.91 p 1.08 c 0.050 d`,
    /// or `the sequence's own parameters: …`.
    public var parametersLine: String { parametersLine(naming: true) }

    /// ``parametersLine``, the generic ones named without their authors when `naming` is false
    /// (`generic California parameters: …`, under a title that names them).
    public func parametersLine(naming: Bool) -> String {
        let model = forecastModel
        let which = parameters == .sequence ? "the sequence's own parameters"
            : (naming ? "Reasenberg & Jones's (1989) generic California parameters" : "generic California parameters")
        return which + String(format: ": a %.2f b %.2f p %.2f c %@ d", model.a, model.b, model.p, SequenceText.significant(model.c))
    }

    /// Aftershocks per day in log-time bins `bins` (of ``histogram``): their count over the days
    /// they span, the last cut at the catalogue's end (a bin it ends in was watched only so long).
    public func rate(in bins: Range<Int>) -> Double? {
        guard !bins.isEmpty, bins.upperBound <= histogram.count else { return nil }
        let count = bins.reduce(0) { $0 + histogram[$1] }
        let endDays = Double(end - mainshock.time) / Self.msPerDay
        let from = LogTimeBins.edges(bins.lowerBound).from, to = min(LogTimeBins.edges(bins.upperBound - 1).to, endDays)
        guard count > 0, to > from else { return nil }
        return Double(count) / (to - from)
    }

    /// The forecast's entries of one magnitude, in the order of ``forecastDays``.
    public func forecast(magnitude: Double) -> [Forecast] { forecast.filter { $0.magnitude == magnitude } }

    /// The forecast's magnitudes, in order (5, 6, the mainshock's).
    public var forecastMagnitudes: [Double] {
        forecast.map(\.magnitude).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }
}

/// Numbers of a forecast as people read them.
public enum SequenceText {
    /// Two significant digits (or `digits`): `4.9e-05`, `0.012`, `1.2`, `12`, `1,200`.
    public static func significant(_ value: Double, digits: Int = 2) -> String {
        guard value.isFinite, value > 0 else { return value == 0 ? "0" : "\(value)" }
        if value < 0.001 { return String(format: "%.\(digits - 1)e", value) }
        let magnitude = Int(log10(value).rounded(.down))
        if magnitude >= digits - 1 {
            let unit = pow(10, Double(magnitude - digits + 1))
            return CountFormat.grouped(Int((value / unit).rounded() * unit))
        }
        var places = digits - 1 - magnitude
        if (value * pow(10, Double(places))).rounded() >= pow(10, Double(digits)) { places -= 1 }
        return String(format: "%.\(max(0, places))f", value)
    }

    /// A log-time bin's days as a table names them, `12.6–15.8`: three significant digits (two
    /// put 12.59 and 15.85 at `13–16`), the last bin ending where the catalogue does.
    public static func binDays(_ bin: Int, endDays: Double) -> String {
        let edges = LogTimeBins.edges(bin)
        return significant(edges.from, digits: 3) + "–" + significant(min(edges.to, max(edges.from, endDays)), digits: 3)
    }

    /// A probability in per cent, two significant digits, with `< 0.1 %` and `> 99 %` at the ends.
    public static func percent(_ probability: Double) -> String {
        if probability < 0.001 { return "< 0.1 %" }
        if probability > 0.99 { return "> 99 %" }
        return significant(probability * 100) + " %"
    }

    /// A power of ten of days or a rate on an axis: `0.001`, `1`, `1000`.
    public static func decade(_ value: Double) -> String { String(format: "%g", value) }

    /// `2019-07-06 03:19 UTC`: a time (ms since the epoch) to the minute, in UTC.
    public static func minute(_ time: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: (Double(time) / 1000).rounded(.down)))
    }

    /// A span of `ms` as people say it: `6.0 years`, `3.2 days`, `5.1 hours`, `42 minutes`.
    public static func duration(_ ms: Int64) -> String {
        let days = Double(ms) / 86_400_000
        if days >= 365.25 { return String(format: "%.1f years", days / 365.25) }
        if days >= 1 { return String(format: "%.1f days", days) }
        if days * 24 >= 1 { return String(format: "%.1f hours", days * 24) }
        return String(format: "%.0f minutes", days * 1_440)
    }

    /// `1 day`, `7 days`, `30 days`.
    public static func days(_ days: Double) -> String {
        days == 1 ? "1 day" : String(format: "%g days", days)
    }
}
