import QuakeModel
import CQuakeSQL

/// The statistics' part that needs the quakes one by one (issue 54, point 7): the list's magnitude
/// types and agencies, the seismic moment per day and hour, and b-positive, from one pass over the
/// digest instead of reading every row (7 s at 1,000,000 quakes through the time index).
struct DigestDetails {
    var composition: ListComposition
    /// In time order, the lower id first on equal times (as `ORDER BY time, id` reads the rows).
    var times: [Int64]
    /// NaN where a quake has no usable magnitude (`CatalogueEvents`' rule).
    var magnitudes: [Double]
    var positive: BPositive
}

/// The rows of a plan as the digest holds them, in time order (the lower id first on equal
/// times), with their kinds, regions and types named as `CatalogueEvents.append` names them: each
/// name interned in time order, so the first spelling met is the one kept, as appending the rows
/// one by one keeps it.
private struct DigestColumns {
    var ids: [Int64] = [], times: [Int64] = [], magnitudes: [Double] = []
    var depths: [Double] = [], latitudes: [Double] = [], longitudes: [Double] = []
    var types: [Int32] = [], agencies: [Int32] = [], regions: [Int32] = []
    var typeNames: [String] = [], agencyNames: [String] = [], regionNames: [String] = []
}

extension Connection {
    /// `DigestDetails` of the rows `plan` selects (`catalogueSummary` without declustering): every
    /// number equal to what the rows read in time order give (`CatalogueEvents`,
    /// `ListComposition(_:)`, `including(_:)`, `BPositive`). nil where the digest cannot answer.
    func catalogueDetailsFromDigest(_ plan: QueryPlan) throws(SQLiteError) -> DigestDetails? {
        guard let columns = try digestColumns(plan, locations: false) else { return nil }
        var typeCounts = [Int](repeating: 0, count: columns.typeNames.count)
        var typeTenths = [[Int: Int]](repeating: [:], count: columns.typeNames.count)
        var agencyCounts = [Int](repeating: 0, count: columns.agencyNames.count)
        var positive = BPositive()
        // Tenths per type counted in a dense array first: a dictionary update a row cost more than the pass.
        let tenthRange = MagnitudeFrequency.usableTenths, width = tenthRange.count
        var denseTenths = [Int](repeating: 0, count: columns.typeNames.count * width)
        for index in columns.times.indices {
            let type = Int(columns.types[index])
            typeCounts[type] += 1
            agencyCounts[Int(columns.agencies[index])] += 1
            let magnitude = columns.magnitudes[index]
            if !magnitude.isNaN, let tenth = MagnitudeFrequency.tenth(of: magnitude) {
                denseTenths[type * width + tenth - tenthRange.lowerBound] += 1
                positive.add(magnitude)
            }
        }
        for type in columns.typeNames.indices {
            for slot in 0 ..< width where denseTenths[type * width + slot] > 0 {
                typeTenths[type][slot + tenthRange.lowerBound] = denseTenths[type * width + slot]
            }
        }
        let composition = ListComposition(count: columns.times.count, typeNames: columns.typeNames, typeCounts: typeCounts,
                                          typeTenths: typeTenths, agencyNames: columns.agencyNames, agencyCounts: agencyCounts)
        return DigestDetails(composition: composition, times: columns.times, magnitudes: columns.magnitudes, positive: positive)
    }

    /// `catalogueEvents(of:)` from the digest: the same events (ids, times, epicentres, depths,
    /// usable magnitudes, types, agencies, regions, in the same order), without SQLite's cost a
    /// row; nil where the digest cannot answer `plan`.
    func catalogueEventsFromDigest(_ plan: QueryPlan) throws(SQLiteError) -> CatalogueEvents? {
        guard let c = try digestColumns(plan, locations: true) else { return nil }
        return CatalogueEvents(ids: c.ids, times: c.times, latitudes: c.latitudes, longitudes: c.longitudes, depths: c.depths,
                               magnitudes: c.magnitudes, types: c.types, typeNames: c.typeNames, agencies: c.agencies,
                               agencyNames: c.agencyNames, regions: c.regions, regionNames: c.regionNames)
    }

    /// One pass over the digest in C (`quaketui_digest_columns`), the rows sorted by time then id
    /// in memory (the chunks come in id order), the kinds named from `quake_digest_kind` and the
    /// regions from `quake_digest_text`. With `locations`, the epicentres and ids too.
    private func digestColumns(_ plan: QueryPlan, locations: Bool) throws(SQLiteError) -> DigestColumns? {
        guard let query = try SearchDigest.query(self, plan: plan, countingKind: nil) else { return nil }
        var kindNames: [UInt32: (type: String, agency: String)] = [:]
        let kinds = try prepare("SELECT id, magType, source FROM quake_digest_kind")
        while try kinds.step() {
            kindNames[UInt32(truncatingIfNeeded: kinds.int64(at: 0))] = (CatalogueEvents.typeName(kinds.text(at: 1)), kinds.text(at: 2))
        }
        var ids: [Int64] = [], times: [Int64] = [], magnitudes: [Double] = [], kindIDs: [UInt32] = []
        var depths: [Double] = [], regionIDs: [UInt32] = [], latitudes: [Double] = [], longitudes: [Double] = []
        let rows = Int(QUAKETUI_DIGEST_CHUNK)
        var chunkIDs = [Int64](repeating: 0, count: rows), chunkTimes = [Int64](repeating: 0, count: rows)
        var chunkMagnitudes = [Double](repeating: 0, count: rows), chunkKinds = [UInt32](repeating: 0, count: rows)
        var chunkDepths = [Double](repeating: 0, count: rows), chunkRegions = [UInt32](repeating: 0, count: rows)
        var chunkLatitudes = [Double](repeating: 0, count: rows), chunkLongitudes = [Double](repeating: 0, count: rows)
        let chunks = try SearchDigest.chunks(self, locations: locations || query.needsLocations, details: true)
        while try chunks.step() {
            try stopIfDue()
            let taken = DigestChunk.with(chunks) { chunk, _ in
                query.withC { query in
                    chunkIDs.withUnsafeMutableBufferPointer { i in chunkTimes.withUnsafeMutableBufferPointer { t in
                        chunkMagnitudes.withUnsafeMutableBufferPointer { m in chunkKinds.withUnsafeMutableBufferPointer { k in
                            chunkDepths.withUnsafeMutableBufferPointer { d in chunkRegions.withUnsafeMutableBufferPointer { r in
                                chunkLatitudes.withUnsafeMutableBufferPointer { la in chunkLongitudes.withUnsafeMutableBufferPointer { lo in
                                    Int(quaketui_digest_columns(chunk, query, i.baseAddress, t.baseAddress, m.baseAddress, k.baseAddress,
                                                                locations ? d.baseAddress : nil, locations ? r.baseAddress : nil,
                                                                locations ? la.baseAddress : nil, locations ? lo.baseAddress : nil))
                                } }
                            } }
                        } }
                    } }
                }
            }
            ids += chunkIDs[0 ..< taken]
            times += chunkTimes[0 ..< taken]
            magnitudes += chunkMagnitudes[0 ..< taken]
            kindIDs += chunkKinds[0 ..< taken]
            if locations {
                depths += chunkDepths[0 ..< taken]
                regionIDs += chunkRegions[0 ..< taken]
                latitudes += chunkLatitudes[0 ..< taken]
                longitudes += chunkLongitudes[0 ..< taken]
            }
        }
        // Time order, the lower id (the earlier position) first on equal times.
        var order = Array(0 ..< times.count)
        order.sort { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
        var columns = DigestColumns()
        columns.times = order.map { times[$0] }
        columns.magnitudes = order.map { magnitudes[$0].isNaN ? .nan : CatalogueEvents.usable(magnitudes[$0]) ?? .nan }
        // Names interned in time order: a kind's type and agency, a region's title.
        var typeOf: [UInt32: Int32] = [:], agencyOf: [UInt32: Int32] = [:]
        var typeIndex: [String: Int32] = [:], agencyIndex: [String: Int32] = [:]
        columns.types.reserveCapacity(order.count)
        columns.agencies.reserveCapacity(order.count)
        var lastKind: UInt32?, lastType: Int32 = 0, lastAgency: Int32 = 0
        for position in order {
            let kind = kindIDs[position]
            if kind != lastKind {
                if let type = typeOf[kind], let agency = agencyOf[kind] {
                    (lastType, lastAgency) = (type, agency)
                } else {
                    // A kind the table does not name (none: the digest and the table are of one
                    // snapshot) leaves the pass to the rows rather than count under a wrong name.
                    guard let names = kindNames[kind] else { return nil }
                    lastType = CatalogueEvents.intern(names.type, &typeIndex, &columns.typeNames)
                    lastAgency = CatalogueEvents.intern(names.agency, &agencyIndex, &columns.agencyNames)
                    (typeOf[kind], agencyOf[kind]) = (lastType, lastAgency)
                }
                lastKind = kind
            }
            columns.types.append(lastType)
            columns.agencies.append(lastAgency)
        }
        guard locations else { return columns }
        columns.ids = order.map { ids[$0] }
        columns.latitudes = order.map { latitudes[$0] }
        columns.longitudes = order.map { longitudes[$0] }
        columns.depths = order.map { depths[$0].isFinite ? depths[$0] : .nan }
        let title = try prepare("SELECT text FROM quake_digest_text WHERE id = ?")
        var regionOf: [UInt32: Int32] = [:], regionIndex: [String: Int32] = [:]
        columns.regions.reserveCapacity(order.count)
        for position in order {
            let region = regionIDs[position]
            if let known = regionOf[region] {
                columns.regions.append(known)
                continue
            }
            title.reset()
            try title.bind(Int64(region), at: 1)
            guard try title.step() else { return nil }
            let index = CatalogueEvents.intern(title.text(at: 0), &regionIndex, &columns.regionNames)
            regionOf[region] = index
            columns.regions.append(index)
        }
        return columns
    }
}
