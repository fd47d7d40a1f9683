import Foundation

/// The sequence after a mainshock (issue 54): the quakes within ``SequenceRadius`` of its
/// epicentre from its time until its window ends (``Ending``: the store's newest quake, the
/// first gap in the store's coverage, or the first larger quake), their rate on a log-time axis, the modified Omori law fitted to
/// those at or above the sequence's `Mc` (``OmoriFit``), and the Reasenberg & Jones (1989)
/// forecast from `now`: generic parameters until the sequence has ``ownParametersCount``
/// aftershocks at or above `Mc`, a fit and a b-value, its own from then on.
///
/// A pure value computed from the rows read (`Connection.aftershockSequence(of:now:)`), so that
/// `quaketui sequence` and the browser's view say the same.
///
/// ```swift
/// let sequence = AftershockSequence(mainshock: main, aftershocks: rows, end: newest, coverageGap: gap, now: now)
/// sequence.omori?.law.p          // nil (and `warnings` says why) until 50 quakes at or above Mc
/// sequence.parameters            // .generic or .sequence
/// sequence.forecast              // M ≥ 5, ≥ 6 and ≥ the mainshock over the next 1, 7, 30 days
/// ```
public struct AftershockSequence: Sendable, Equatable {
    /// The quake whose sequence this is.
    public struct Mainshock: Sendable, Equatable {
        public var code: String
        /// ms since the epoch.
        public var time: Int64
        public var magnitude: Double
        public var latitude: Double
        public var longitude: Double
        public var place: String

        public init(code: String, time: Int64, magnitude: Double, latitude: Double, longitude: Double, place: String) {
            (self.code, self.time, self.magnitude, self.latitude, self.longitude, self.place) = (code, time, magnitude, latitude, longitude, place)
        }
    }

    /// An aftershock as the sequence reads it.
    public struct Aftershock: Sendable, Equatable {
        /// ms since the epoch.
        public var time: Int64
        public var magnitude: Double?
        /// The magnitude's type (`ml`, `mw`), as the report gives it.
        public var magType: String?
        /// The quake's code, named when it is larger than the mainshock and ends the sequence.
        public var code: String?

        public init(time: Int64, magnitude: Double?, magType: String? = nil, code: String? = nil) {
            (self.time, self.magnitude, self.magType, self.code) = (time, magnitude, magType, code)
        }
    }

    /// Where the sequence's window, and so its count, histogram and Omori fit, ends: the
    /// earliest of the store's newest quake, the first gap in its coverage after the mainshock
    /// (``CatalogueCoverage``), and the first larger quake within the radius.
    public enum Ending: Sendable, Equatable {
        /// The store's newest quake: the catalogue's end, not the clock's.
        case catalogue
        /// The last quake before a gap in the store's coverage (``CatalogueCoverage``): after
        /// it the store holds no catalogue to count aftershocks in.
        case coverageGap(CatalogueCoverage.Gap)
        /// A quake within the radius larger than the mainshock (as shown, to a tenth): the
        /// quakes from it on are its sequence, not this one's (the mainshock was a foreshock).
        case largerQuake(code: String?, time: Int64, magnitude: Double)
    }

    /// Where the forecast starts.
    public enum ForecastStart: String, Sendable, Equatable {
        /// At `now`: the store covers time up to now (``CatalogueCoverage/reachesNow(count:oldest:newest:now:)``).
        case now
        /// Where the window ends: the time from the store's newest quake to now is a gap in its
        /// coverage, so the store cannot say what has happened since, and a forecast from now
        /// would be of a sequence it has not seen for that long.
        case dataEnd
    }

    /// Which parameters the forecast uses.
    public enum Parameters: String, Sendable, Equatable {
        /// Reasenberg & Jones's generic California values (``ReasenbergJones/generic``).
        case generic
        /// The sequence's own: its Omori fit's `c` and `p`, its b-value, `a` from its `K`.
        case sequence
    }

    /// One number of the forecast: aftershocks of `magnitude` or more in the `days` after `start`.
    public struct Forecast: Sendable, Equatable {
        /// ms since the epoch.
        public var start: Int64
        public var days: Double
        public var magnitude: Double
        public var expected: Double
        public var probability: Double
    }

    /// Aftershocks at or above `Mc` from which the sequence's own parameters replace the
    /// generic ones (Reasenberg & Jones 1989 weigh the two by their uncertainty; this switch is
    /// the rule, stated as a count).
    public static let ownParametersCount = 100
    /// The forecast's windows, in days from `now`: a day, a week, a month.
    public static let forecastDays: [Double] = [1, 7, 30]
    /// The fixed magnitudes forecast, before the mainshock's own.
    public static let forecastMagnitudes: [Double] = [5, 6]
    public static let msPerDay = 86_400_000.0

    public let mainshock: Mainshock
    public let radiusKm: Double
    /// The scaling that gave ``radiusKm``.
    public let radiusMethod: SequenceRadius.Method
    /// The aftershocks in the window (the mainshock not among them).
    public let count: Int
    /// ms since the epoch: where the window and the fit's observation period end (``ending`` says why).
    public let end: Int64
    public let ending: Ending
    /// The sequence's `Mc` by maximum curvature + 0.2 (as `stats`' default), nil without a
    /// usable magnitude.
    public let completeness: Double?
    /// Aftershocks at or above `completeness`.
    public let aboveCompleteness: Int
    /// The Omori fit of the aftershocks at or above `Mc`, beside the measured background when
    /// there is one; nil when it cannot be made (`warnings` says why).
    public let omori: OmoriFit?
    /// The background rate measured in the year before the mainshock (``SequenceBackground``),
    /// or why there is none; nil without an `Mc`.
    public let background: Result<SequenceBackground, SequenceBackground.Unmeasured>?
    /// The sequence's b-value above `Mc` (Aki–Utsu, Shi–Bolt error), nil with fewer than 50.
    public let bValue: (b: Double, error: Double)?
    public let parameters: Parameters
    /// The forecast's `a`, `b`, `p` and `c`.
    public let forecastModel: ReasenbergJones
    /// Empty when the window ends at a larger quake: its sequence's forecast is the one to read.
    public let forecast: [Forecast]
    /// Where the forecast starts; nil when there is none (a larger quake ends the window).
    public let forecastStart: ForecastStart?
    /// ms since the epoch: the clock's time the sequence was computed at.
    public let now: Int64
    /// Aftershocks per log-time bin (``LogTimeBins``), from the first bin to the one `end` is in.
    public let histogram: [Int]
    /// Sentences: why there is no fit, why the generic parameters still hold past 100.
    public let warnings: [String]

    /// The sequence of `mainshock` from `aftershocks` (every quake within its radius from its
    /// time on), in a store of `storeCount` quakes from `storeOldest` to `end` (its newest)
    /// whose coverage ends at `coverageGap` (``CatalogueCoverage``, nil for none), computed at
    /// the clock's `now`. The forecast starts at `now` when the store covers time up to it
    /// (``CatalogueCoverage/reachesNow(count:oldest:newest:now:)``), else where the window ends;
    /// there is none when a larger quake ends the window. The background is measured from
    /// `before` (the quakes within the radius in the year before the mainshock) when the store
    /// covers time from `coveredFrom` (nil: not before the mainshock; `coveredAfterGap` when that
    /// is the end of a gap in its coverage) through that year (``SequenceBackground``).
    public init(mainshock: Mainshock, aftershocks: [Aftershock], end: Int64, coverageGap: CatalogueCoverage.Gap? = nil,
                storeCount: Int = 0, storeOldest: Int64? = nil, before: [SequenceBackground.Quake] = [], coveredFrom: Int64? = nil,
                coveredAfterGap: Bool = false, now: Int64) {
        self.mainshock = mainshock
        self.now = now
        (radiusKm, radiusMethod) = SequenceRadius.choice(magnitude: mainshock.magnitude)
        let storeNewest = end
        let window = Self.window(mainshock, aftershocks, end: end, coverageGap: coverageGap)
        let aftershocks = window.aftershocks
        (self.end, ending) = (window.end, window.ending)
        let end = window.end
        count = aftershocks.count
        let days = { (time: Int64) in Double(time - mainshock.time) / Self.msPerDay }
        histogram = LogTimeBins.counts(aftershocks.map { days($0.time) }, end: days(end))

        var tenths: [Int: Int] = [:]
        for aftershock in aftershocks {
            if let magnitude = aftershock.magnitude, let tenth = MagnitudeBin.tenth(of: magnitude) { tenths[tenth, default: 0] += 1 }
        }
        let binned = BinnedCounts(tenths: tenths)
        let mcTenth = CompletenessMethod.maxc.completenessTenth(of: binned)
        completeness = mcTenth.map { Double($0) / 10 }
        var warnings: [String] = []
        var omori: OmoriFit?
        var background: Result<SequenceBackground, SequenceBackground.Unmeasured>?
        var bValue: (b: Double, error: Double)?
        var above = 0
        if let mcTenth {
            let times = aftershocks.compactMap { aftershock -> Double? in
                guard let magnitude = aftershock.magnitude, let tenth = MagnitudeBin.tenth(of: magnitude),
                      MagnitudeFrequency.usableTenths.contains(tenth), tenth >= mcTenth else { return nil }
                return days(aftershock.time)
            }
            above = times.count
            let mcText = String(format: "%.1f", Double(mcTenth) / 10)
            let measured = SequenceBackground.measure(mainshock: mainshock, quakes: before, coveredFrom: coveredFrom ?? mainshock.time,
                                                      afterGap: coveredAfterGap, mcTenth: mcTenth)
            background = measured
            let fixed = (try? measured.get()).map { OmoriFit.Background(rate: $0.rate, error: $0.error) }
            switch OmoriFit.fit(times, to: days(end), background: fixed) {
            case .success(let fit):
                omori = fit
                warnings += Self.unresolved(fit)
            case .failure(let failure):
                warnings.append(times.count < OmoriFit.minimumCount
                    ? "No Omori fit: \(CountFormat.quakes(times.count)) at or above the sequence's Mc \(mcText); a fit needs \(OmoriFit.minimumCount)."
                    : "No Omori fit: " + failure.message)
            }
            bValue = MagnitudeFrequency.fit(binned, above: mcTenth).map { ($0.b, $0.bError) }
            if let mixed = Self.mixedTypes(aftershocks, atOrAbove: mcTenth) {
                warnings.append("The aftershocks at or above Mc \(mcText) have \(mixed.count) magnitude types (\(ListComposition.shares(mixed))): "
                                + "Mc, the b-value and a forecast from them mix scales that are not one.")
            }
        } else if !binned.isEmpty, let failure = CompletenessMethod.maxc.failure(for: binned) {
            // Magnitudes, but no Mc from them (all in one bin, or Mc above every one).
            warnings.append("No Omori fit: the sequence has no Mc. " + failure)
        } else {
            warnings.append(aftershocks.isEmpty ? "No Omori fit: no aftershock yet."
                            : "No Omori fit: no aftershock has a usable magnitude, so the sequence has no Mc.")
        }
        aboveCompleteness = above
        self.omori = omori
        self.background = background
        self.bValue = bValue
        if above >= Self.ownParametersCount, let omori, let bValue, let mc = completeness {
            parameters = .sequence
            forecastModel = ReasenbergJones(omori.law, b: bValue.b, completeness: mc, mainshock: mainshock.magnitude)
        } else {
            parameters = .generic
            forecastModel = .generic
            if above >= Self.ownParametersCount, omori != nil, bValue == nil {
                warnings.append("The forecast keeps the generic parameters: the sequence has no b-value above its Mc.")
            } else if above >= Self.ownParametersCount, omori == nil {
                warnings.append("The forecast keeps the generic parameters: the sequence's own Omori fit could not be made.")
            }
        }
        let start: Int64
        if case .largerQuake(let code, let time, let magnitude) = ending {
            warnings.append("No forecast: this quake was a foreshock of the M \(MagnitudeBin.text(magnitude)) of \(SequenceText.minute(time)); "
                            + "that quake's sequence and forecast are the ones to read" + (code.map { " (`sequence \($0)`)." } ?? "."))
            self.warnings = warnings
            (forecast, forecastStart) = ([], nil)
            return
        } else if CatalogueCoverage.reachesNow(count: storeCount, oldest: storeOldest ?? storeNewest, newest: storeNewest, now: now) {
            (start, forecastStart) = (max(now, mainshock.time), .now)
        } else {
            (start, forecastStart) = (end, .dataEnd)
        }
        self.warnings = warnings
        let from = days(start)
        let model = forecastModel
        // The mainshock's row at its magnitude as shown (5.96 is `M ≥ 6.0`, one row with M 6).
        let shownMainshock = MagnitudeBin.tenth(of: mainshock.magnitude).map { Double($0) / 10 } ?? mainshock.magnitude
        forecast = (Self.forecastMagnitudes + [shownMainshock]).flatMap { magnitude in
            Self.forecastDays.map { span in
                Forecast(start: start, days: span, magnitude: magnitude,
                         expected: model.expected(magnitude: magnitude, mainshock: mainshock.magnitude, from: from, days: span),
                         probability: model.probability(magnitude: magnitude, mainshock: mainshock.magnitude, from: from, days: span))
            }
        }
    }

    /// The window: the aftershocks up to the coverage's end (the newest quake, or the last
    /// before `coverageGap`), then before the first of them larger than the mainshock, as shown
    /// to a tenth (in time order; on equal times, the first given).
    static func window(_ mainshock: Mainshock, _ aftershocks: [Aftershock], end: Int64,
                       coverageGap: CatalogueCoverage.Gap?) -> (aftershocks: [Aftershock], end: Int64, ending: Ending) {
        var covered = aftershocks
        var end = max(end, mainshock.time)
        var ending = Ending.catalogue
        if let coverageGap, coverageGap.from >= mainshock.time {
            covered = aftershocks.filter { $0.time <= coverageGap.from }
            (end, ending) = (coverageGap.from, .coverageGap(coverageGap))
        }
        end = max(end, covered.map(\.time).max() ?? end)
        let mainTenth = MagnitudeBin.tenth(of: mainshock.magnitude) ?? Int.max
        let larger = covered.indices.filter { index in
            covered[index].magnitude.flatMap(MagnitudeBin.tenth(of:)).map { $0 > mainTenth } ?? false
        }.min { (covered[$0].time, $0) < (covered[$1].time, $1) }
        guard let larger, let magnitude = covered[larger].magnitude else { return (covered, end, ending) }
        let quake = covered[larger]
        return (covered.filter { $0.time < quake.time }, quake.time, .largerQuake(code: quake.code, time: quake.time, magnitude: magnitude))
    }

    /// Sentences for the fit's parameters whose standard error is larger than their value: the
    /// data do not resolve them (zero is within one error). The background is measured, not
    /// fitted (its Poisson error is at most its value).
    static func unresolved(_ fit: OmoriFit) -> [String] {
        let items: [(name: String, value: Double, error: Double, unit: String)] = [
            ("K", fit.law.k, fit.kError, "/day"), ("c", fit.law.c, fit.cError, " d"), ("p", fit.law.p, fit.pError, "")]
        return items.filter { $0.error > abs($0.value) }.map {
            "The Omori fit's \($0.name) (\(UncertaintyFormat.string($0.value, $0.error))\($0.unit)) is not resolved by the data: its error is larger than its value."
        }
    }

    /// The magnitude types (lower case; `unknown` for none) of the aftershocks at or above the
    /// tenth `mcTenth`, largest share first, when there are two or more (as `stats` warns: issue 54).
    static func mixedTypes(_ aftershocks: [Aftershock], atOrAbove mcTenth: Int) -> [(name: String, count: Int)]? {
        var counts: [String: Int] = [:]
        for aftershock in aftershocks {
            guard let magnitude = aftershock.magnitude, let tenth = MagnitudeBin.tenth(of: magnitude),
                  MagnitudeFrequency.usableTenths.contains(tenth), tenth >= mcTenth else { continue }
            let type = aftershock.magType.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            counts[type.isEmpty ? "unknown" : type, default: 0] += 1
        }
        guard counts.count > 1 else { return nil }
        return counts.map { (name: $0.key, count: $0.value) }.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
    }

    public static func == (lhs: AftershockSequence, rhs: AftershockSequence) -> Bool {
        lhs.mainshock == rhs.mainshock && lhs.radiusKm == rhs.radiusKm && lhs.radiusMethod == rhs.radiusMethod
            && lhs.forecastStart == rhs.forecastStart && lhs.now == rhs.now && lhs.count == rhs.count && lhs.end == rhs.end && lhs.ending == rhs.ending && lhs.completeness == rhs.completeness
            && lhs.omori == rhs.omori && lhs.background == rhs.background && lhs.bValue?.b == rhs.bValue?.b && lhs.bValue?.error == rhs.bValue?.error
            && lhs.forecast == rhs.forecast && lhs.histogram == rhs.histogram && lhs.warnings == rhs.warnings
    }
}

/// Why a quake has no sequence to show, as a sentence (no such quake, no magnitude).
public struct SequenceUnavailable: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// The log-time axis of a sequence: ``perDecade`` bins a decade of days, the first from 0 to
/// `10^(first / perDecade)` days (about 9 s), every later one from `10^(i / perDecade)` to
/// `10^((i + 1) / perDecade)`.
public enum LogTimeBins {
    public static let perDecade = 10
    /// The first bin's upper edge as a power of ten in tenths: 10^−3.9 days, 11 s.
    public static let first = -39

    /// The bin of `days` (0 for anything before the first edge).
    public static func bin(of days: Double) -> Int {
        guard days > 0 else { return 0 }
        return max(0, Int((log10(days) * Double(perDecade)).rounded(.down)) - first + 1)
    }

    /// The edges of bin `index` in days.
    public static func edges(_ index: Int) -> (from: Double, to: Double) {
        let upper = pow(10, Double(first + index) / Double(perDecade))
        return (index == 0 ? 0 : pow(10, Double(first + index - 1) / Double(perDecade)), upper)
    }

    /// Counts per bin from bin 0 to the bin of `end`.
    static func counts(_ days: [Double], end: Double) -> [Int] {
        var counts = [Int](repeating: 0, count: bin(of: end) + 1)
        for day in days {
            let index = bin(of: day)
            if index < counts.count { counts[index] += 1 } else {
                counts += [Int](repeating: 0, count: index + 1 - counts.count)
                counts[index] += 1
            }
        }
        return counts
    }
}
