import Foundation

/// The quakes of a list as columns, in time order (the earlier stored row first on equal
/// times): what declustering, the magnitude types and agencies, and the moment per bin read
/// (issue 54). A plain value: the store fills it (`Connection.catalogueEvents(of:)`), tests
/// build it by hand.
///
/// ```swift
/// var events = CatalogueEvents()
/// events.append(id: 1, time: 0, latitude: 35, longitude: 139, depth: 10, magnitude: 5.1,
///               type: "mww", agency: "usgs", region: "Japan")
/// ```
public struct CatalogueEvents: Sendable, Equatable {
    /// The store's row ids (what `list --decluster` keeps).
    public private(set) var ids: [Int64] = []
    /// ms since the epoch, never decreasing.
    public private(set) var times: [Int64] = []
    public private(set) var latitudes: [Double] = []
    public private(set) var longitudes: [Double] = []
    /// km; NaN where unknown.
    public private(set) var depths: [Double] = []
    /// NaN where there is no usable magnitude (none, or outside M −5 … 10).
    public private(set) var magnitudes: [Double] = []
    /// Indices into `typeNames` (the feed's `magType`, lower-cased; `unknown` where it has none).
    public private(set) var types: [Int32] = []
    public private(set) var typeNames: [String] = []
    /// Indices into `agencyNames` (the row's `source`: `usgs`, `emsc`, …).
    public private(set) var agencies: [Int32] = []
    public private(set) var agencyNames: [String] = []
    /// Indices into `regionNames` (the region section key).
    public private(set) var regions: [Int32] = []
    public private(set) var regionNames: [String] = []
    private var typeIndex: [String: Int32] = [:]
    private var agencyIndex: [String: Int32] = [:]
    private var regionIndex: [String: Int32] = [:]

    /// The name a quake without a magnitude type is counted under.
    public static let unknownType = "unknown"

    public init() {}

    public var count: Int { times.count }

    /// Adds the next quake in time order. A magnitude outside M −5 … 10 (or NaN) is kept as
    /// none, as the statistics count it; the type is lower-cased (`Mww` is `mww`).
    public mutating func append(id: Int64, time: Int64, latitude: Double, longitude: Double, depth: Double?,
                                magnitude: Double?, type: String?, agency: String, region: String) {
        precondition(times.last.map { $0 <= time } ?? true, "events are added in time order")
        ids.append(id)
        times.append(time)
        latitudes.append(latitude)
        longitudes.append(longitude)
        depths.append(depth.flatMap { $0.isFinite ? $0 : nil } ?? .nan)
        magnitudes.append(magnitude.flatMap(Self.usable) ?? .nan)
        types.append(Self.intern(Self.typeName(type), &typeIndex, &typeNames))
        agencies.append(Self.intern(agency, &agencyIndex, &agencyNames))
        regions.append(Self.intern(region, &regionIndex, &regionNames))
    }

    /// The events of columns already in time order and interned, as `append` would leave them:
    /// `depths` NaN where unknown, `magnitudes` NaN where not usable, `types`, `agencies` and
    /// `regions` indices into their names (each name once, types as `typeName(_:)` gives them).
    /// The pass over the store's digest builds them so, without a `String` a row.
    package init(ids: [Int64], times: [Int64], latitudes: [Double], longitudes: [Double], depths: [Double], magnitudes: [Double],
                 types: [Int32], typeNames: [String], agencies: [Int32], agencyNames: [String], regions: [Int32], regionNames: [String]) {
        precondition([times.count, latitudes.count, longitudes.count, depths.count, magnitudes.count, types.count,
                      agencies.count, regions.count].allSatisfy { $0 == ids.count })
        (self.ids, self.times, self.latitudes, self.longitudes, self.depths, self.magnitudes) = (ids, times, latitudes, longitudes, depths, magnitudes)
        (self.types, self.typeNames, self.agencies, self.agencyNames, self.regions, self.regionNames) =
            (types, typeNames, agencies, agencyNames, regions, regionNames)
        typeIndex = Dictionary(typeNames.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { first, _ in first })
        agencyIndex = Dictionary(agencyNames.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { first, _ in first })
        regionIndex = Dictionary(regionNames.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The name a feed's `magType` is counted under: trimmed and lower-cased, ``unknownType``
    /// where there is none.
    package static func typeName(_ type: String?) -> String {
        type.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.flatMap { $0.isEmpty ? nil : $0 } ?? unknownType
    }

    /// `magnitude` when the statistics can bin it (`MagnitudeFrequency.usableTenths`), else nil.
    package static func usable(_ magnitude: Double) -> Double? {
        guard let tenth = MagnitudeBin.tenth(of: magnitude), MagnitudeFrequency.usableTenths.contains(tenth) else { return nil }
        return magnitude
    }

    /// The number of `name` in `names` (appended the first time), `index` finding it again.
    package static func intern(_ name: String, _ index: inout [String: Int32], _ names: inout [String]) -> Int32 {
        if let found = index[name] { return found }
        let new = Int32(names.count)
        names.append(name)
        index[name] = new
        return new
    }

    /// The events whose `keep` is true, in the same order.
    public func keeping(_ keep: [Bool]) -> CatalogueEvents {
        precondition(keep.count == count)
        var kept = CatalogueEvents()
        for i in 0 ..< count where keep[i] {
            kept.append(id: ids[i], time: times[i], latitude: latitudes[i], longitude: longitudes[i],
                        depth: depths[i].isNaN ? nil : depths[i], magnitude: magnitudes[i].isNaN ? nil : magnitudes[i],
                        type: typeNames[Int(types[i])], agency: agencyNames[Int(agencies[i])], region: regionNames[Int(regions[i])])
        }
        return kept
    }

    /// The statistics of these events, as `Connection.catalogueStatistics(of:)` counts a list.
    public func statistics(timeZone: TimeZone) -> CatalogueStatistics {
        var statistics = CatalogueStatistics(timeZone: timeZone)
        for i in 0 ..< count {
            statistics.add(magnitude: magnitudes[i].isNaN ? nil : magnitudes[i], depth: depths[i].isNaN ? nil : depths[i],
                           time: times[i], region: regionNames[Int(regions[i])])
        }
        statistics.settle()
        return statistics
    }

    public static func == (lhs: CatalogueEvents, rhs: CatalogueEvents) -> Bool {
        lhs.ids == rhs.ids && lhs.times == rhs.times && lhs.latitudes == rhs.latitudes && lhs.longitudes == rhs.longitudes
            && zip(lhs.depths, rhs.depths).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
            && zip(lhs.magnitudes, rhs.magnitudes).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
            && lhs.types.map { lhs.typeNames[Int($0)] } == rhs.types.map { rhs.typeNames[Int($0)] }
            && lhs.agencies.map { lhs.agencyNames[Int($0)] } == rhs.agencies.map { rhs.agencyNames[Int($0)] }
            && lhs.regions.map { lhs.regionNames[Int($0)] } == rhs.regions.map { rhs.regionNames[Int($0)] }
    }
}
