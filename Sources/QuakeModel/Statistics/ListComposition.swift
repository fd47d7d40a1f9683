import Foundation

/// What a list mixes (issue 54): its magnitude types and agencies with their shares, and each
/// type's magnitude–frequency distribution, from which a fit per type is made by the same
/// methods as the list's (`MagnitudeFrequency`). Counts every quake of the events; a quake
/// without a type counts under `unknown`, one without a usable magnitude in its type's count but
/// in none of its bins.
///
/// ```swift
/// let composition = ListComposition(events)
/// composition.types.first?.name        // "ml"
/// composition.types.first?.share       // 0.62
/// composition.types.first?.frequency(.maxc).fit?.b
/// ```
public struct ListComposition: Sendable, Equatable {
    /// A magnitude type or an agency, with how many quakes of the list have it.
    public struct Part: Sendable, Equatable {
        public let name: String
        public let count: Int
        /// `count` over the list's quakes.
        public let share: Double
        /// Quakes per 0.1 bin (whole tenths), for a magnitude type; empty for an agency.
        public let tenths: [Int: Int]
        /// Quakes per agency, for a magnitude type (the agency of each quake's preferred report);
        /// empty for an agency.
        public let agencyCounts: [String: Int]

        /// `agencyCounts`, most first (equal counts: by name).
        public var agencies: [(name: String, count: Int)] {
            agencyCounts.map { ($0.key, $0.value) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        }

        /// The type's distribution and fit with `Mc` by `method`.
        public func frequency(_ method: CompletenessMethod = .maxc) -> MagnitudeFrequency {
            MagnitudeFrequency(tenths: tenths, count: count, method: method)
        }
    }

    /// Most quakes first (equal counts: by name).
    public let types: [Part]
    /// Most quakes first (equal counts: by name).
    public let agencies: [Part]
    public let count: Int

    public init(_ events: CatalogueEvents) {
        var typeCounts = [Int](repeating: 0, count: events.typeNames.count)
        var typeTenths = [[Int: Int]](repeating: [:], count: events.typeNames.count)
        var agencyCounts = [Int](repeating: 0, count: events.agencyNames.count)
        var typeAgencies = [[Int: Int]](repeating: [:], count: events.typeNames.count)
        for i in 0 ..< events.count {
            let type = Int(events.types[i]), agency = Int(events.agencies[i])
            typeCounts[type] += 1
            if !events.magnitudes[i].isNaN, let tenth = MagnitudeBin.tenth(of: events.magnitudes[i]) {
                typeTenths[type][tenth, default: 0] += 1
            }
            agencyCounts[agency] += 1
            typeAgencies[type][agency, default: 0] += 1
        }
        self.init(count: events.count, typeNames: events.typeNames, typeCounts: typeCounts, typeTenths: typeTenths,
                  agencyNames: events.agencyNames, agencyCounts: agencyCounts, typeAgencies: typeAgencies)
    }

    /// The composition of `count` quakes counted by the caller: per magnitude type (distinct
    /// names, as ``CatalogueEvents`` interns them) its quakes and their usable magnitudes' tenths,
    /// per agency its quakes, and per type its quakes per agency (by index into `agencyNames`).
    /// The pass over the store's digest counts so, without the rows.
    package init(count: Int, typeNames: [String], typeCounts: [Int], typeTenths: [[Int: Int]],
                 agencyNames: [String], agencyCounts: [Int], typeAgencies: [[Int: Int]]) {
        self.count = count
        let total = max(1, count)
        func ordered(_ names: [String], _ counts: [Int], _ tenths: [[Int: Int]]?, _ agencies: [[Int: Int]]?) -> [Part] {
            names.indices.filter { counts[$0] > 0 }
                .map { index in
                    let byAgency = agencies.map { Dictionary(uniqueKeysWithValues: $0[index].map { (agencyNames[$0.key], $0.value) }) }
                    return Part(name: names[index], count: counts[index], share: Double(counts[index]) / Double(total),
                                tenths: tenths?[index] ?? [:], agencyCounts: byAgency ?? [:])
                }
                .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
        }
        types = ordered(typeNames, typeCounts, typeTenths, typeAgencies)
        agencies = ordered(agencyNames, agencyCounts, nil, nil)
    }

    /// Whether every magnitude of the list is a moment magnitude (`Mw…`, `AgencyPreference.isMoment`):
    /// only then is the summed moment `10^(1.5 M + 9.1)` the list's moment, not a moment taken
    /// as if each magnitude were Mw.
    public var magnitudesAreMoment: Bool {
        types.allSatisfy { $0.tenths.isEmpty || AgencyPreference.isMoment($0.name) }
    }

    /// The types of the quakes in bin `tenth` and above, with their counts, most first.
    public func types(atOrAbove tenth: Int) -> [(name: String, count: Int)] {
        types.map { part in (part.name, part.tenths.reduce(0) { $0 + ($1.key >= tenth ? $1.value : 0) }) }
            .filter { $0.1 > 0 }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    }

    /// `ml 62 %, mb 30 %, md 8 %`: the parts' shares in whole percent (`< 1 %` for a small one
    /// that is not none), at most `limit` of them and `…`.
    public static func shares(_ parts: [(name: String, count: Int)], limit: Int = 4) -> String {
        let total = max(1, parts.reduce(0) { $0 + $1.count })
        var text = parts.prefix(limit).map { "\($0.name) \(percent(Double($0.count) / Double(total)))" }.joined(separator: ", ")
        if parts.count > limit { text += ", …" }
        return text
    }

    /// `62 %`, `< 1 %`, `> 99 %`, `100 %`: a share that is not all is never said to be all (nor
    /// one that is some, none).
    public static func percent(_ share: Double) -> String {
        if share > 0 && share < 0.005 { return "< 1 %" }
        if share < 1 && share >= 0.995 { return "> 99 %" }
        return "\(Int((share * 100).rounded())) %"
    }
}
