import QuakeModel
import CQuakeSQL
import Foundation

/// The rows of a plan as the digest holds them, in time order (the lower id first on equal
/// times), with their kinds, regions and types named as `CatalogueEvents.append` names them: each
/// name interned in time order, so the first spelling met is the one kept, as appending the rows
/// one by one keeps it.
struct DigestColumns {
    var ids: [Int64] = [], times: [Int64] = [], magnitudes: [Double] = []
    var depths: [Double] = [], latitudes: [Double] = [], longitudes: [Double] = []
    var types: [Int32] = [], agencies: [Int32] = [], regions: [Int32] = []
    var typeNames: [String] = [], agencyNames: [String] = [], regionNames: [String] = []
}

extension Connection {
    /// `catalogueSummary(of:)` without declustering (`catalogueStatistics(of:)` with the list's
    /// types, agencies, moments per day and hour, and b-positive) in one pass over the digest: it
    /// counts, counts the types, agencies and bins, and puts each row's magnitude in its run of
    /// time (`MagnitudesInTimeOrder`, in the store's room); the counts go to `partial` at once (the
    /// view shows them while the runs are sorted and walked). Every number equals what the rows
    /// read in time order give (`CatalogueEvents`, `ListComposition(_:)`, `including(_:)`,
    /// `BPositive`); nil where the digest cannot answer.
    func catalogueSummaryFromDigest(_ plan: QueryPlan, timeZone: TimeZone,
                                    partial: ((CatalogueStatistics) -> Void)? = nil) throws(SQLiteError) -> (CatalogueStatistics, BPositive)? {
        guard let query = try SearchDigest.query(self, plan: plan, countingKind: nil) else { return nil }
        let kindNames = try digestKindNames()
        guard let room = try TimeRunRoom.read(self),
              let reader = DigestCompositionReader(kinds: kindNames.keys.sorted(), room: room) else { return nil }
        let counts = try catalogueStatistics(digest: query, timeZone: timeZone, composing: reader)
        guard !reader.anyFailed else { return nil }
        partial?(counts)
        // The runs that need their rows' milliseconds read them in a second pass (most stores: none).
        if reader.markRuns(timeZone: timeZone, dayRange: counts.dayRange(of:)) {
            let chunks = try SearchDigest.chunks(self, locations: query.needsLocations, details: true)
            while try chunks.step() {
                try stopIfDue()
                DigestChunk.with(chunks) { chunk, _ in
                    query.withC { query in reader.fillingMarks { order in quaketui_time_order_fill(chunk, query, order) } }
                }
            }
        }
        reader.sortRuns()
        guard !reader.anyFailed else { return nil }
        // The composition, counted per kind, then per type and agency name (its parts are ordered
        // by count and name, so the order names are met in does not matter).
        let tenthRange = MagnitudeFrequency.usableTenths, width = tenthRange.count
        var typeIndex: [String: Int32] = [:], agencyIndex: [String: Int32] = [:]
        var typeNames: [String] = [], agencyNames: [String] = []
        var typeCounts: [Int] = [], typeTenths: [[Int: Int]] = [], agencyCounts: [Int] = [], typeAgencies: [[Int: Int]] = []
        for (slot, kind) in reader.kinds.enumerated() where reader.kindCounts[slot] > 0 {
            guard let names = kindNames[kind] else { return nil }
            let type = Int(CatalogueEvents.intern(names.type, &typeIndex, &typeNames))
            let agency = Int(CatalogueEvents.intern(names.agency, &agencyIndex, &agencyNames))
            if type == typeCounts.count { typeCounts.append(0); typeTenths.append([:]); typeAgencies.append([:]) }
            if agency == agencyCounts.count { agencyCounts.append(0) }
            typeCounts[type] += Int(reader.kindCounts[slot])
            agencyCounts[agency] += Int(reader.kindCounts[slot])
            typeAgencies[type][agency, default: 0] += Int(reader.kindCounts[slot])
            for bin in 0 ..< width where reader.kindTenths[slot * width + bin] > 0 {
                typeTenths[type][bin + tenthRange.lowerBound, default: 0] += Int(reader.kindTenths[slot * width + bin])
            }
        }
        let composition = ListComposition(count: reader.taken, typeNames: typeNames, typeCounts: typeCounts,
                                          typeTenths: typeTenths, agencyNames: agencyNames, agencyCounts: agencyCounts,
                                          typeAgencies: typeAgencies)
        // The moments and b-positive in time order, each code's moment and bin looked up.
        var positive = BPositive()
        var moments = counts.momentSums()
        reader.walk(&moments, &positive)
        return (counts.including(composition, moments: moments), positive)
    }

    /// `catalogueEvents(of:)` from the digest: the same events (ids, times, epicentres, depths,
    /// usable magnitudes, types, agencies, regions, in the same order), without SQLite's cost a
    /// row; nil where the digest cannot answer `plan`.
    func catalogueEventsFromDigest(_ plan: QueryPlan) throws(SQLiteError) -> CatalogueEvents? {
        guard let query = try SearchDigest.query(self, plan: plan, countingKind: nil) else { return nil }
        let reader = DigestColumnReader(capacity: try keptQuakeCount())
        let chunks = try SearchDigest.chunks(self, locations: true, details: true)
        while try chunks.step() {
            try stopIfDue()
            DigestChunk.with(chunks) { chunk, _ in query.withC { query in reader.take(chunk, query) } }
        }
        guard let c = try reader.columns(self) else { return nil }
        return CatalogueEvents(ids: c.ids, times: c.times, latitudes: c.latitudes, longitudes: c.longitudes, depths: c.depths,
                               magnitudes: c.magnitudes, types: c.types, typeNames: c.typeNames, agencies: c.agencies,
                               agencyNames: c.agencyNames, regions: c.regions, regionNames: c.regionNames)
    }
}

/// The columns of the digest's rows a query takes, chunk by chunk (`quaketui_digest_columns`),
/// then put in time order (the lower id first on equal times: the chunks come in id order) with
/// their kinds, regions and types named (`columns`): what `catalogueEventsFromDigest` reads.
final class DigestColumnReader {
    private var ids: [Int64] = [], times: [Int64] = [], magnitudes: [Double] = [], kindIDs: [UInt32] = []
    private var depths: [Double] = [], regionIDs: [UInt32] = [], latitudes: [Double] = [], longitudes: [Double] = []
    private var chunkIDs, chunkTimes: [Int64], chunkMagnitudes, chunkDepths, chunkLatitudes, chunkLongitudes: [Double]
    private var chunkKinds, chunkRegions: [UInt32]

    /// `capacity`: how many rows may be taken (the store's), reserved so the columns grow without
    /// copies.
    init(capacity: Int) {
        ids.reserveCapacity(capacity)
        times.reserveCapacity(capacity)
        magnitudes.reserveCapacity(capacity)
        kindIDs.reserveCapacity(capacity)
        depths.reserveCapacity(capacity)
        regionIDs.reserveCapacity(capacity)
        latitudes.reserveCapacity(capacity)
        longitudes.reserveCapacity(capacity)
        let rows = Int(QUAKETUI_DIGEST_CHUNK)
        (chunkIDs, chunkTimes) = ([Int64](repeating: 0, count: rows), [Int64](repeating: 0, count: rows))
        (chunkMagnitudes, chunkDepths) = ([Double](repeating: 0, count: rows), [Double](repeating: 0, count: rows))
        (chunkLatitudes, chunkLongitudes) = ([Double](repeating: 0, count: rows), [Double](repeating: 0, count: rows))
        (chunkKinds, chunkRegions) = ([UInt32](repeating: 0, count: rows), [UInt32](repeating: 0, count: rows))
    }

    /// Adds the rows of `chunk` that `query` takes.
    func take(_ chunk: UnsafePointer<quaketui_digest_chunk>, _ query: UnsafePointer<quaketui_digest_query>) {
        let taken = chunkIDs.withUnsafeMutableBufferPointer { i in chunkTimes.withUnsafeMutableBufferPointer { t in
            chunkMagnitudes.withUnsafeMutableBufferPointer { m in chunkKinds.withUnsafeMutableBufferPointer { k in
                chunkDepths.withUnsafeMutableBufferPointer { d in chunkRegions.withUnsafeMutableBufferPointer { r in
                    chunkLatitudes.withUnsafeMutableBufferPointer { la in chunkLongitudes.withUnsafeMutableBufferPointer { lo in
                        Int(quaketui_digest_columns(chunk, query, i.baseAddress, t.baseAddress, m.baseAddress, k.baseAddress,
                                                    d.baseAddress, r.baseAddress, la.baseAddress, lo.baseAddress))
                    } }
                } }
            } }
        } }
        ids += chunkIDs[0 ..< taken]
        times += chunkTimes[0 ..< taken]
        magnitudes += chunkMagnitudes[0 ..< taken]
        kindIDs += chunkKinds[0 ..< taken]
        depths += chunkDepths[0 ..< taken]
        regionIDs += chunkRegions[0 ..< taken]
        latitudes += chunkLatitudes[0 ..< taken]
        longitudes += chunkLongitudes[0 ..< taken]
    }

    /// The rows taken in time order, the kinds named from `quake_digest_kind` and the regions
    /// from `quake_digest_text` (each name interned in time order, so the first spelling met is
    /// the one kept, as appending the rows one by one keeps it); nil where a name is missing.
    func columns(_ db: Connection) throws(SQLiteError) -> DigestColumns? {
        let kindNames = try db.digestKindNames()
        let order = timeOrder(times)
        func ordered<T>(_ column: [T]) -> [T] { order.map { $0.map { column[Int($0)] } } ?? column }
        var columns = DigestColumns()
        columns.times = ordered(times)
        columns.magnitudes = ordered(magnitudes)
        for index in columns.magnitudes.indices where !columns.magnitudes[index].isNaN {
            if CatalogueEvents.usable(columns.magnitudes[index]) == nil { columns.magnitudes[index] = .nan }
        }
        // Names interned in time order: a kind's type and agency, a region's title.
        var typeOf: [UInt32: Int32] = [:], agencyOf: [UInt32: Int32] = [:]
        var typeIndex: [String: Int32] = [:], agencyIndex: [String: Int32] = [:]
        columns.types.reserveCapacity(times.count)
        columns.agencies.reserveCapacity(times.count)
        var lastKind: UInt32?, lastType: Int32 = 0, lastAgency: Int32 = 0
        for kind in ordered(kindIDs) {
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
        columns.ids = ordered(ids)
        columns.latitudes = ordered(latitudes)
        columns.longitudes = ordered(longitudes)
        columns.depths = ordered(depths).map { $0.isFinite ? $0 : .nan }
        let title = try db.prepare("SELECT text FROM quake_digest_text WHERE id = ?")
        var regionOf: [UInt32: Int32] = [:], regionIndex: [String: Int32] = [:]
        columns.regions.reserveCapacity(times.count)
        for region in ordered(regionIDs) {
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

/// The rows' counts per kind and per kind and usable bin, and those with a usable magnitude placed
/// in time order (`quaketui_composition`): what `catalogueSummaryFromDigest`'s pass gathers beside
/// the counts, chunk by chunk.
final class DigestCompositionReader {
    /// The kinds by slot, and each kind id's slot (-1: none).
    let kinds: [UInt32]
    private var slots: [Int32]
    /// Rows per kind slot, and per kind slot and usable bin (`MagnitudeFrequency.usableTenths`).
    private(set) var kindCounts: [Int64], kindTenths: [Int64]
    /// Rows taken, with a usable magnitude or not.
    private(set) var taken = 0
    /// A row of a kind not among `kinds` was met (none: the digest and the table are of one snapshot).
    private(set) var failed = false
    /// The rows taken with a usable magnitude, placed in their runs of time.
    private var ordered: MagnitudesInTimeOrder

    /// The bins the C pass counts, `QUAKETUI_USABLE_TENTH_MIN` … `QUAKETUI_USABLE_TENTH_MAX`, and
    /// how many: `MagnitudeFrequency.usableTenths` (a test holds them equal).
    static let cTenths = Int(QUAKETUI_USABLE_TENTH_MIN) ... Int(QUAKETUI_USABLE_TENTH_MAX)
    static let cTenthCount = Int(QUAKETUI_USABLE_TENTHS)

    /// nil when `room` holds too many rows to address (`MagnitudesInTimeOrder`).
    init?(kinds: [UInt32], room: TimeRunRoom) {
        // Made here, never copied: a copy of the rows (10 MB at 5M) would be one more.
        guard let ordered = MagnitudesInTimeOrder(room) else { return nil }
        self.kinds = kinds
        self.ordered = ordered
        slots = [Int32](repeating: -1, count: Int(kinds.max().map { $0 + 1 } ?? 0))
        for (slot, kind) in kinds.enumerated() { slots[Int(kind)] = Int32(slot) }
        // One slot at least, so that C is given somewhere to count (it counts kinds where it is).
        kindCounts = [Int64](repeating: 0, count: max(1, kinds.count))
        kindTenths = [Int64](repeating: 0, count: max(1, kinds.count) * MagnitudeFrequency.usableTenths.count)
    }

    /// Whether a part failed: a kind without a slot, or a row its run had no room for.
    var anyFailed: Bool { failed || ordered.failed }

    /// Lets `body` gather up to a chunk's rows into the C view of the reader (nil once it failed).
    func composing(_ body: (UnsafeMutablePointer<quaketui_composition>?) -> Void) {
        guard !failed else { return body(nil) }
        var composition = quaketui_composition()
        ordered.placing { order in
            slots.withUnsafeBufferPointer { s in kindCounts.withUnsafeMutableBufferPointer { c in
                kindTenths.withUnsafeMutableBufferPointer { k in
                    composition = quaketui_composition(kindSlots: s.baseAddress, kindSlotCount: Int64(s.count),
                                                       kindCounts: c.baseAddress, kindTenths: k.baseAddress, order: order,
                                                       taken: 0, failed: 0)
                    body(&composition)
                }
            } }
        }
        taken += Int(composition.taken)
        failed = composition.failed != 0
    }

    /// Marks the runs whose rows' milliseconds a second pass must give (`MagnitudesInTimeOrder.markRuns`).
    func markRuns(timeZone: TimeZone, dayRange: (Int64) -> (start: Int64, end: Int64)) -> Bool {
        ordered.markRuns(timeZone: timeZone, dayRange: dayRange)
    }

    /// Lets `body` give the marked runs' milliseconds, a chunk at a time (`fillingMarks`).
    func fillingMarks(_ body: (UnsafeMutablePointer<quaketui_time_order>) -> Void) { ordered.fillingMarks(body) }

    /// Sorts each run of the rows placed (`MagnitudesInTimeOrder.sortRuns`).
    func sortRuns() { ordered.sortRuns() }

    /// Walks the rows in time order (`MagnitudesInTimeOrder.walk`), in place.
    func walk(_ sums: inout CatalogueStatistics.MomentSums, _ positive: inout BPositive) { ordered.walk(&sums, &positive) }
}

/// The positions of `times` in time order, the lower position (id) first on equal times; nil when
/// they are in it already (a store imported in time order): nothing to move.
private func timeOrder(_ times: [Int64]) -> [Int32]? {
    guard times.indices.dropFirst().contains(where: { times[$0 - 1] > times[$0] }) else { return nil }
    var order = [Int32](unsafeUninitializedCapacity: times.count) { buffer, count in
        HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
        for i in buffer.indices { buffer[i] = Int32(i) }
        count = buffer.count
    }
    order.sort { times[Int($0)] != times[Int($1)] ? times[Int($0)] < times[Int($1)] : $0 < $1 }
    return order
}

extension Connection {
    /// Each digest kind's magnitude type (as `CatalogueEvents` names it) and agency (ComCat's
    /// network where it has one: `SearchDigest.statisticsAgency`), by its id in `quake_digest_kind`.
    fileprivate func digestKindNames() throws(SQLiteError) -> [UInt32: (type: String, agency: String)] {
        var names: [UInt32: (type: String, agency: String)] = [:]
        let network = try SearchDigest.keepsNetworks(self) ? "network" : "''"
        let kinds = try prepare("SELECT id, magType, source, \(network) FROM quake_digest_kind")
        while try kinds.step() {
            names[UInt32(truncatingIfNeeded: kinds.int64(at: 0))] =
                (CatalogueEvents.typeName(kinds.text(at: 1)), SearchDigest.statisticsAgency(source: kinds.text(at: 2), network: kinds.text(at: 3)))
        }
        return names
    }
}

/// Transparent huge pages for a large array about to be filled: the kernel then maps its
/// reserved memory 2 MiB at a time instead of 4 KiB (a page fault each: 29,000 of them, a fifth
/// of `stats`' time at 5,000,000 quakes, before). Only advice (`madvise`): where the kernel
/// ignores it, nothing changes.
enum HugePages {
    static let size = 2 << 20

    /// Advises the whole 2 MiB pages within `memory`.
    static func advise(_ memory: UnsafeMutableRawBufferPointer) {
        guard memory.count >= 2 * size, let base = memory.baseAddress else { return }
        let start = (Int(bitPattern: base) + size - 1) / size * size
        let end = (Int(bitPattern: base) + memory.count) / size * size
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_HUGEPAGE)
    }
}
