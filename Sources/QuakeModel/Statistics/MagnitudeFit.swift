import Foundation

/// Everything `quaketui stats` says of a list's magnitudes (issue 54): the Gutenberg–Richter fit
/// by the chosen method of `Mc`, the bootstrap's errors, b-positive when it was computed, and the
/// warnings (sentences) where a number cannot be given or needs a caveat.
///
/// ```swift
/// let (statistics, positive) = try db.catalogueSummary(of: request)
/// let fit = MagnitudeFit(statistics.magnitudes.using(.gft95), positive: positive)
/// fit.lines      // "Mc 2.4 (gft95), bootstrap σ 0.061 …"
/// fit.warnings   // [] or sentences
/// ```
public struct MagnitudeFit: Sendable, Equatable {
    public let mfd: MagnitudeFrequency
    public let bootstrap: MagnitudeBootstrap
    /// b-positive, nil where it was not computed (the browser's view).
    public let positive: BPositive?
    /// The list's magnitude types and agencies, nil where they were not read.
    public let composition: ListComposition?

    public init(_ mfd: MagnitudeFrequency, positive: BPositive? = nil, composition: ListComposition? = nil) {
        self.mfd = mfd
        self.bootstrap = MagnitudeBootstrap(mfd)
        self.positive = positive
        self.composition = composition
    }

    /// The warnings of what the list mixes (`MagnitudeMixWarnings`): the fit's types, two modes,
    /// and b-positive's types (over every magnitude it uses).
    public var mixWarnings: [String] {
        MagnitudeMixWarnings.warnings(mfd, composition) + [MagnitudeMixWarnings.positiveWarning(positive, composition)].compactMap { $0 }
    }

    /// `Mc 2.4 (maxc), bootstrap σ 0.061`, `b 0.952 ± 0.031 (Shi–Bolt), ± 0.028 (bootstrap of 200)`, … or
    /// nothing where there is no fit (`warnings` says why).
    public var lines: [String] {
        var lines: [String] = []
        if let fit = mfd.fit {
            // Mc is a bin (0.1 apart): shown as one, its bootstrap σ beside it to two digits.
            var mc = String(format: "Mc %.1f", fit.completeness) + " (\(mfd.method.rawValue))"
            if let error = bootstrap.completenessError {
                mc += error > 0 ? ", bootstrap σ " + UncertaintyFormat.error(error) : ", the same in every bootstrap resample"
            }
            var b = "b " + UncertaintyFormat.string(fit.b, fit.bError) + " (Shi–Bolt)"
            if let error = bootstrap.bError { b += ", ± " + UncertaintyFormat.error(error) + " (bootstrap of \(bootstrap.samples))" }
            lines.append(mc + "   " + b)
            lines.append(String(format: "a %.2f   n %@ at or above Mc", fit.a, CountFormat.grouped(fit.n)))
        }
        if let positive, let value = positive.value {
            lines.append("b-positive " + UncertaintyFormat.string(value.b, value.bError)
                         + " (\(CountFormat.grouped(positive.count)) successive differences of "
                         + String(format: "%.1f", BPositive.threshold) + " or more)")
        }
        return lines
    }

    /// Sentences: why there is no fit, the quakes without a usable magnitude, resamples that
    /// gave no fit, why there is no b-positive.
    public var warnings: [String] {
        var warnings: [String] = []
        if let why = mfd.why { warnings.append(why) }
        if mfd.unusable > 0 {
            warnings.append("\(CountFormat.quakes(mfd.unusable)) of the list \(mfd.unusable == 1 ? "has" : "have") no usable "
                            + "magnitude (none, or one outside M -5 to 10) and \(mfd.unusable == 1 ? "is" : "are") in no bin.")
        }
        if mfd.fit != nil, bootstrap.samples < MagnitudeBootstrap.resamples {
            warnings.append("Only \(bootstrap.samples) of the \(MagnitudeBootstrap.resamples) bootstrap resamples gave a "
                            + "b-value; the bootstrap errors are over those.")
        }
        if let why = positive?.why { warnings.append(why) }
        return warnings + mixWarnings
    }
}
