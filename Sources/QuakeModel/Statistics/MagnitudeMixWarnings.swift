import Foundation

/// The warnings of a fit over a list that mixes what should not be mixed (issue 54), as sentences:
/// - **mixed types**: the quakes at or above `Mc` of the fit have more than one magnitude type
///   (`ml`, `mb`, `mww` … are different scales with different completeness; a b-value over a mix
///   of them is not a b-value): every type with its share, and the way to fit one;
/// - **two modes**: the distribution of the whole list is bimodal (`Bimodality`): the list mixes
///   catalogues of different completeness, and one `Mc` describes neither (Woessner & Wiemer
///   2005). Where the `Mc` computed lies, below the valley between the modes (the fit runs over
///   both catalogues) or above it (the fit leaves the lower one out), is said of that `Mc`.
///
/// - **b-positive mixes types**: b-positive takes every usable magnitude, with no `Mc` cut, so
///   its types are counted over all of them: a difference between an `ml` and an `mb` is no
///   difference of magnitude.
/// - **one type, several agencies**: a type with a fit of its own (the list's, once the list is
///   of one type) whose quakes come from agencies other than its main one for 5 % or more: each
///   network computes its `md` or `ml` its own way and detects down to its own magnitude, so one
///   `Mc` and b may describe none of them. The agency is the preferred report's (`emsc`, `isc`),
///   or for ComCat's rows the network that contributed it (`ak`, `ci`, `nc`, `us`).
///
/// ```swift
/// MagnitudeMixWarnings.warnings(mfd, composition)   // [] or sentences
/// ```
public enum MagnitudeMixWarnings {
    public static func warnings(_ mfd: MagnitudeFrequency, _ composition: ListComposition?) -> [String] {
        var warnings: [String] = []
        if let fit = mfd.fit, let composition {
            let tenth = Int((fit.completeness * 10).rounded())
            let mixed = composition.types(atOrAbove: tenth)
            if mixed.count > 1 {
                warnings.append("The fit mixes \(mixed.count) magnitude types at or above Mc \(String(format: "%.1f", fit.completeness)) "
                                + "(\(ListComposition.shares(mixed))): a b-value needs one type. See the fit of each type, "
                                + "or fit one alone with --mag-type TYPE (:magtype TYPE in the browser).")
            }
        }
        if let composition {
            for part in composition.types {
                guard let agencies = severalAgencies(part), part.frequency(mfd.method).fit != nil else { continue }
                warnings.append("\(part.name) comes from \(agencies.count) agencies (\(ListComposition.shares(agencies))): each "
                                + "network's \(part.name) may differ in calibration and in the magnitude it detects down to, so one "
                                + "Mc and b of \(part.name) may describe none of them. Narrow the list to one network's region "
                                + "(--search, --near) before reading its fit.")
            }
        }
        if let modes = Bimodality(mfd.binned) {
            warnings.append("The magnitudes have two modes, near M \(String(format: "%.1f", Double(modes.modes.low) / 10)) "
                            + "and M \(String(format: "%.1f", Double(modes.modes.high) / 10)): the list mixes catalogues of "
                            + "different completeness, so one Mc and b describe neither\(mcSide(mfd, modes)). Narrow the list "
                            + "(--mag-type, --min-magnitude, a region) before reading the fit.")
        }
        return warnings
    }

    /// The agencies of magnitude type `part` (most first) where those besides its main one hold
    /// 5 % of its quakes or more; nil otherwise.
    public static func severalAgencies(_ part: ListComposition.Part) -> [(name: String, count: Int)]? {
        let agencies = part.agencies
        guard let main = agencies.first, agencies.count > 1, (part.count - main.count) * 20 >= part.count else { return nil }
        return agencies
    }

    /// The warning of a b-positive over several magnitude types, counted over every usable
    /// magnitude (what it uses); nil without an estimate or with one type.
    public static func positiveWarning(_ positive: BPositive?, _ composition: ListComposition?) -> String? {
        guard positive?.value != nil, let composition else { return nil }
        let usable = MagnitudeFrequency.usableTenths
        var types: [(name: String, count: Int)] = []
        for part in composition.types {
            var count = 0
            for (tenth, quakes) in part.tenths where usable.contains(tenth) { count += quakes }
            if count > 0 { types.append((part.name, count)) }
        }
        types.sort { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
        guard types.count > 1 else { return nil }
        return "b-positive mixes \(types.count) magnitude types (\(ListComposition.shares(types))): it takes every magnitude, "
            + "with no Mc cut, and a difference between two scales is no difference of magnitude. "
            + "Fit one type alone with --mag-type TYPE."
    }

    /// ` (Mc 1.4 by maxc is below the valley near M 2.9, with the lower mode: the fit runs over
    /// both catalogues)`, or above it with the upper mode, leaving the lower mode's quakes out;
    /// empty without an `Mc`.
    static func mcSide(_ mfd: MagnitudeFrequency, _ modes: Bimodality) -> String {
        guard let mc = mfd.completenessTenth else { return "" }
        let said = String(format: " (Mc %.1f by %@ is ", Double(mc) / 10, mfd.method.rawValue)
        let valley = String(format: "the valley near M %.1f", Double(modes.valley) / 10)
        if mc < modes.valley { return said + "below \(valley), with the lower mode: the fit runs over both catalogues)" }
        if mc == modes.valley { return said + "at \(valley): the fit runs over both catalogues)" }
        return said + "above \(valley), with the upper mode: the fit leaves out the lower mode's quakes)"
    }
}
