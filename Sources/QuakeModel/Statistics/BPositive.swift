import Foundation

/// The b-positive estimator (van der Elst 2021, JGR 126, e2020JB021027): b from the positive
/// differences between the magnitudes of successive quakes, which stays right while the
/// catalogue's completeness changes (early in an aftershock sequence) because a quake that
/// follows a detected one of lower magnitude is detected too.
///
/// The details the paper leaves open, as done here:
/// - the quakes are the list's with a usable magnitude (M −5 … 10), in time order (the earlier
///   row first on equal times), binned to 0.1 as the histogram (`MagnitudeBin.tenth(of:)`);
///   no `Mc` cut: the differences are the point;
/// - a difference `m′ = Mᵢ₊₁ − Mᵢ` counts when `m′ ≥ δ` with ``threshold`` δ = 0.2: two bins,
///   so that the rounding of either magnitude (±0.05) cannot turn no difference into one;
/// - `b⁺ = log10(e) / (mean(m′) − (δ − 0.05))`, Aki–Utsu on the differences with the
///   correction for 0.1 bins, and its error by Shi & Bolt (1982) over the differences;
/// - fewer than ``minimumCount`` differences give no estimate.
///
/// ```swift
/// var estimate = BPositive()
/// for m in magnitudesInTimeOrder { estimate.add(m) }
/// estimate.value?.b
/// ```
public struct BPositive: Sendable, Equatable {
    /// δ in tenths: differences of 0.2 and more count.
    public static let thresholdTenths = 2
    public static var threshold: Double { Double(thresholdTenths) / 10 }
    /// The fewest differences an estimate is made from (as the fit: 50).
    public static let minimumCount = CompletenessMethod.minimumFitCount

    private var previous: Int?
    /// The differences kept, their sum and the sum of their squares, in whole tenths (exact).
    public private(set) var count = 0
    private var sum = 0
    private var squares = 0

    public init() {}

    /// Adds the next quake's magnitude in time order; nil or an unusable one is skipped.
    public mutating func add(_ magnitude: Double?) {
        guard let magnitude, let tenth = MagnitudeBin.tenth(of: magnitude) else { return }
        add(tenth: tenth)
    }

    /// `add(_:)` with the magnitude's bin (`MagnitudeBin.tenth(of:)`) found by the caller.
    public mutating func add(tenth: Int) {
        guard MagnitudeFrequency.usableTenths.contains(tenth) else { return }
        if let previous, tenth - previous >= Self.thresholdTenths {
            let difference = tenth - previous
            count += 1
            sum += difference
            squares += difference * difference
        }
        previous = tenth
    }

    /// The last bin and the differences kept, their sum and squares: what a walk in C carries.
    package var parts: (previous: Int?, count: Int, sum: Int, squares: Int) {
        get { (previous, count, sum, squares) }
        set { (previous, count, sum, squares) = newValue }
    }

    /// b⁺ and its Shi–Bolt error; nil with fewer than ``minimumCount`` differences.
    public var value: (b: Double, bError: Double)? {
        guard count >= Self.minimumCount else { return nil }
        let n = Double(count)
        let mean = Double(sum) / n / 10
        let variance = max(0, Double(squares) / 100 - n * mean * mean)
        let b = log10(M_E) / (mean - (Self.threshold - 0.05))
        return (b, 2.30 * b * b * (variance / (n * (n - 1))).squareRoot())
    }

    /// Why there is no estimate, in a sentence; nil when there is one.
    public var why: String? {
        guard value == nil else { return nil }
        return "No b-positive: \(CountFormat.grouped(count)) of the successive magnitude differences are "
            + "\(String(format: "%.1f", Self.threshold)) or more; it needs \(Self.minimumCount)."
    }

    public static func == (lhs: BPositive, rhs: BPositive) -> Bool {
        (lhs.previous, lhs.count, lhs.sum, lhs.squares) == (rhs.previous, rhs.count, rhs.sum, rhs.squares)
    }
}

extension CatalogueEvents {
    /// b-positive of these quakes, in their (time) order.
    public var bPositive: BPositive {
        var estimate = BPositive()
        for magnitude in magnitudes { estimate.add(magnitude.isNaN ? nil : magnitude) }
        return estimate
    }
}
