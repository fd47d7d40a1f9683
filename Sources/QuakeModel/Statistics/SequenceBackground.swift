import Foundation

/// The background rate of a sequence's region, measured before its mainshock and held fixed in
/// the Omori fit (``OmoriFit``): `μ = N_b / T_b`, the quakes at or above the sequence's `Mc`
/// within its radius in the ``spanDays`` before the mainshock, with the Poisson error
/// `√N_b / T_b`.
///
/// - The span is the year before the mainshock, and all of it must lie in time the store covers
///   (``CatalogueCoverage``): after its oldest quake and after the last gap in its coverage
///   before the mainshock. Otherwise there is no background, and ``Unmeasured`` says why.
/// - A quake of the year is not counted when it is in the sequence of an earlier, larger one: an
///   earlier quake of the year (within the radius) at least ``headAboveMc`` above `Mc` and larger
///   than it, as shown to a tenth, whose own sequence radius (``SequenceRadius``) reaches it, as
///   `sequence` reads a sequence. Such a quake is expected to bring about ten quakes at or above
///   `Mc` within the year by Reasenberg & Jones's generic parameters (`10^(−1.67 + 0.91 × 2)` times
///   `∫ from 0 to 365 of (t + 0.05)^−1.08 dt`, 11.4): a cluster, not the background. Smaller
///   quakes' sequences stay in the count, as the same ordinary clusters stay in the window. The
///   larger quake itself is counted.
///
/// ```swift
/// let background = SequenceBackground.measure(mainshock: main, quakes: year, coveredFrom: start, mcTenth: 27)
/// try background.get().rate      // quakes a day at or above Mc 2.7
/// ```
public struct SequenceBackground: Sendable, Equatable {
    /// A quake read before the mainshock.
    public struct Quake: Sendable, Equatable {
        /// ms since the epoch.
        public var time: Int64
        public var magnitude: Double?
        public var latitude: Double
        public var longitude: Double

        public init(time: Int64, magnitude: Double?, latitude: Double, longitude: Double) {
            (self.time, self.magnitude, self.latitude, self.longitude) = (time, magnitude, latitude, longitude)
        }
    }

    /// Why a sequence has no background term, as a sentence.
    public struct Unmeasured: Error, Sendable, Equatable {
        public let message: String
        public init(_ message: String) { self.message = message }
    }

    /// The span measured: the year before the mainshock (365.25 days).
    public static let spanDays = 365.25
    /// How far above `Mc`, in tenths, a quake's sequence is excluded from the count: 2 units.
    public static let headAboveMc = 20

    /// ms since the epoch: where the span starts and ends (the mainshock's time, not in it).
    public let from: Int64
    public let to: Int64
    /// The quakes at or above `Mc` within the radius in the span.
    public let inRadius: Int
    /// Those counted: not in the sequence of an earlier quake at least ``headAboveMc`` above `Mc`.
    public let count: Int

    /// The span in days.
    public var days: Double { Double(to - from) / AftershockSequence.msPerDay }
    /// `μ`, quakes a day.
    public var rate: Double { Double(count) / days }
    /// `√N_b / T_b`.
    public var error: Double { Double(count).squareRoot() / days }

    /// The background of `mainshock` from `quakes` (the store's quakes within its radius before
    /// it, from at least the span's start; others are ignored) in a store that covers time from
    /// `coveredFrom` (ms since the epoch: the later of its oldest quake and the end of its last
    /// coverage gap before the mainshock, `afterGap` when it is the gap's) to the mainshock, at or
    /// above the tenth `mcTenth`.
    public static func measure(mainshock: AftershockSequence.Mainshock, quakes: [Quake], coveredFrom: Int64, afterGap: Bool = false,
                               mcTenth: Int) -> Result<SequenceBackground, Unmeasured> {
        let span = Int64((spanDays * AftershockSequence.msPerDay).rounded())
        let from = mainshock.time - span
        guard coveredFrom <= from else {
            let held = SequenceText.duration(max(0, mainshock.time - coveredFrom))
            return .failure(Unmeasured("No background term: the store covers " + held + " before the mainshock"
                                       + (afterGap ? " (after a gap in its coverage)" : "")
                                       + "; a background needs the 365 days before it, all covered."))
        }
        let year = quakes.filter { $0.time >= from && $0.time < mainshock.time }.sorted { $0.time < $1.time }
        let tenths = year.map { $0.magnitude.flatMap(MagnitudeBin.tenth(of:)).flatMap { MagnitudeFrequency.usableTenths.contains($0) ? $0 : nil } }
        let above = year.indices.filter { tenths[$0].map { $0 >= mcTenth } ?? false }
        let counted = above.filter { j in
            let point = GeoPoint(latitude: year[j].latitude, longitude: year[j].longitude)
            return !above.contains { i in
                tenths[i]! >= mcTenth + headAboveMc && year[i].time < year[j].time && tenths[i]! > tenths[j]!
                    && GeoPoint(latitude: year[i].latitude, longitude: year[i].longitude).distance(to: point)
                    <= SequenceRadius.kilometres(magnitude: year[i].magnitude!)
            }
        }
        return .success(SequenceBackground(from: from, to: mainshock.time, inRadius: above.count, count: counted.count))
    }
}
