import QuakeModel
import Foundation

/// The sections of a `depth` sort: the bins of the statistics' depth histogram (`DepthBins`,
/// 10 km wide to 100 km, then 100 km wide, of the depth as shown, to a tenth of a km rounded half
/// up), and one section for an unknown depth, which sorts as the smallest (NULL is smallest in
/// SQLite, so the index `quake_depth` holds it first).
///
/// A band is keyed by its lower edge in km (`SectionKey.depth(10)` is 10–20 km, the depths shown
/// 10.0 … 19.9); its rows are `depth >= lower AND depth < upper` over the stored depth (`bounds`:
/// 9.95 and 19.95), which `DepthBins.from` agrees with exactly. The outermost bands are open: a
/// depth no quake has (a damaged feed's `1e300`) must still fall in a band whose range is not
/// empty, or counting would never get past it.
enum DepthBands {
    /// The lower edge of the deepest band, which holds every depth from it on (the Earth's
    /// radius is 6,371 km).
    static let deepest = 9_900.0
    /// The lower edge of the highest band, which holds every depth below its upper edge.
    static let highest = -1_000.0

    /// The section key of a row at `depth` km (nil: unknown).
    static func key(of depth: Double?) -> SectionKey {
        guard let depth, !depth.isNaN else { return .depth(nil) }
        return .depth(min(max(DepthBins.from(depth), highest), deepest))
    }

    /// The band of a row at `depth` km as the store counts it (`Schema.depthBucket`, `quake_count`
    /// kind 3, the digest's slots): its lower edge, `Schema.unknownDepth` for none.
    static func bucket(of depth: Double?) -> Int32 {
        guard case .depth(let lower?) = key(of: depth) else { return Int32(Schema.unknownDepth) }
        return Int32(lower)
    }

    /// The stored depths a band holds, `lower ..< upper` (infinite for the outermost bands).
    static func bounds(_ lower: Double) -> (lower: Double, upper: Double) {
        if lower <= highest { return (-.infinity, DepthBins.storedEdges(highest).upper) }
        if lower >= deepest { return (DepthBins.storedEdges(deepest).lower, .infinity) }
        return DepthBins.storedEdges(lower)
    }

    /// The stable identifier (saved with collapsed sections) and title of a band, in whole km as
    /// shown.
    static func section(_ lower: Double?) -> (key: SectionKey, id: String, title: String) {
        guard let lower else { return (.depth(nil), "depth-unknown", "depth unknown") }
        // `%.0f`, not `Int(_:)`, which traps past its range; `+ 0` makes -0 print as 0.
        func km(_ value: Double) -> String { String(format: "%.0f", value + 0) }
        let title = lower <= highest ? "< \(km(DepthBins.to(highest))) km deep"
            : lower >= deepest ? "≥ \(km(deepest)) km deep" : "\(km(lower))–\(km(DepthBins.to(lower))) km deep"
        return (.depth(lower), "depth-\(km(lower))", title)
    }
}

extension DepthBands: BandedColumn {
    static let name = "depth"
    static let sectionIdentifier = SectionIdentifier.depth
    static let blockLedSince = Schema.depthLedByBlock
    static let countingKind = 3
    /// The bands are many (10 km wide near the surface) and few hold rows: a walk seeks from one
    /// that does to the next along `quake_depth`.
    static let everyKnownBand: [SectionKey]? = nil

    static func value(of keys: RowKeys) -> Double? { keys.depth }
    static var digestKey: DigestAnchor.Key { .depth }

    static func bound(_ value: Double) -> RowKeys { .bound(depth: value, time: .min, id: .min) }

    /// The unknown depths' bucket is the smallest, as NULL sorts in SQLite.
    static func key(ofBucket bucket: SQLiteValue) -> SectionKey {
        let value = bucket.int64 ?? Int64(Schema.unknownDepth)
        return .depth(value == Schema.unknownDepth ? nil : Double(value))
    }

    static func label(_ key: SectionKey) -> SectionLabel { section(lower(key)) }

    static func rank(_ key: SectionKey) -> Double { lower(key) ?? -.infinity }

    static func edges(_ key: SectionKey) -> (lower: Double, upper: Double)? { lower(key).map(bounds) }

    private static func lower(_ key: SectionKey) -> Double? {
        guard case .depth(let lower) = key else { preconditionFailure("a depth key") }
        return lower
    }
}
