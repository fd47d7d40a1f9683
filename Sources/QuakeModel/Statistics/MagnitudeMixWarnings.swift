import Foundation

/// The warnings of a fit over a list that mixes what should not be mixed (issue 54), as sentences:
/// - **mixed types**: the quakes at or above `Mc` of the fit have more than one magnitude type
///   (`ml`, `mb`, `mww` … are different scales with different completeness; a b-value over a mix
///   of them is not a b-value): every type with its share, and the way to fit one;
/// - **two modes**: the distribution of the whole list is bimodal (`Bimodality`): the list mixes
///   catalogues of different completeness, and maximum curvature underestimates `Mc` on such a
///   list (Woessner & Wiemer 2005).
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
        if let modes = Bimodality(mfd.binned) {
            warnings.append("The magnitudes have two modes, near M \(String(format: "%.1f", Double(modes.modes.low) / 10)) "
                            + "and M \(String(format: "%.1f", Double(modes.modes.high) / 10)): the list mixes catalogues of "
                            + "different completeness, so one Mc and b describe neither (maximum curvature puts Mc at the "
                            + "lower mode). Narrow the list (--mag-type, --min-magnitude, a region) before reading the fit.")
        }
        return warnings
    }
}
