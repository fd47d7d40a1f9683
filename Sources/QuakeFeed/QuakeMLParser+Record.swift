import QuakeModel
import QuakeStore

/// The record of one finished QuakeML event: its origin (inside the event, or beside it in
/// BED-RT), its magnitude (flagged, else ``MagnitudePreference``'s), its agency and code
/// (``FeedAgency``), and the check that no two events of the file (within the last
/// ``QuakeMLParser/rememberedCodes`` codes) share a code.
extension QuakeMLParser {
    /// The record of a finished event, or a skip; fails when its code is another event's.
    func finish(_ e: Event, index: Int, skips: inout SkipLog) throws(FeedError) -> QuakeRecord? {
        switch makeRecord(e) {
        case .success(let record):
            if let other = seen[record.code] {
                if other.time != record.time || other.latitude != record.latitude || other.longitude != record.longitude {
                    throw FeedError(
                        code: .ambiguousCode, name: input.name, line: e.line, column: 1,
                        message: "the events at lines \(other.line) and \(e.line) both get the code \(record.code) but have different origins "
                            + "(\(e.publicID.isEmpty ? "no publicID" : "publicID \(e.publicID)")), so importing would merge two earthquakes into one",
                        hint: "nothing was imported; the file's event IDs do not tell its events apart — import the events separately or fix their publicIDs")
                }
            } else {
                remember(record.code, (record.time, record.latitude, record.longitude, e.line))
            }
            return record
        case .failure(let reason):
            skips.add(SkippedFeature(index: index, line: e.line, reason: reason.reason))
            return nil
        }
    }

    struct Skip: Error { let reason: String }

    func makeRecord(_ e: Event) -> Result<QuakeRecord, Skip> {
        let origin = e.origins.first { $0.publicID == e.preferredOriginID }
            ?? e.preferredOriginID.flatMap { looseOrigins[$0] } ?? e.origins.first
            ?? e.originReferences.lazy.compactMap { self.looseOrigins[$0] }.first
        guard let origin else { return .failure(Skip(reason: "the event has no origin")) }
        guard let time = origin.time else {
            return .failure(Skip(reason: origin.timeText.map { "origin time \"\($0)\" is not an ISO-8601 date" } ?? "the origin has no time"))
        }
        if let problem = QuakeRecord.timeProblem(time, field: "origin time") { return .failure(Skip(reason: problem)) }
        // A creation time outside the years the store takes is metadata lost, not the event.
        // SC3ML's `modificationTime` (the event's last change) first: QuakeML has none.
        let updated = [e.modificationTime, e.creationTime, origin.creationTime].lazy.compactMap { $0 }
            .first { QuakeRecord.supportedTimes.contains($0) } ?? time
        guard let latitude = origin.latitude, let longitude = origin.longitude else {
            return .failure(Skip(reason: "the origin has no latitude and longitude"))
        }
        guard (-90...90).contains(latitude) else { return .failure(Skip(reason: "latitude \(latitude) is outside -90…90")) }
        guard (-180...180).contains(longitude) else { return .failure(Skip(reason: "longitude \(longitude) is outside -180…180")) }
        let magnitude = chooseMagnitude(e, origin: origin)
        guard let (agency, id) = identity(e, origin: origin) else { return .failure(Skip(reason: "the event has no publicID")) }
        let code = FeedAgency.code(id, agency: agency)
        let regionName: String? = e.descriptions.first { $0.type == "region name" }?.text
        let flinnEngdahl: String? = e.descriptions.first { $0.type == "Flinn-Engdahl region" }?.text
        let place: String = regionName ?? flinnEngdahl ?? e.descriptions.first?.text ?? ""
        let depth = origin.depthMetres.flatMap { $0.isFinite ? (depthInKilometres ? $0 : $0 / 1000) : nil }
        let value = magnitude?.value.flatMap { $0.isFinite ? $0 : nil }
        if let problem = QuakeRecord.magnitudeProblem(value) ?? QuakeRecord.depthProblem(depth) { return .failure(Skip(reason: problem)) }
        var record = QuakeRecord(
            code: code, magnitude: value, magType: magnitude?.type,
            place: place, time: time, updated: updated,
            latitude: latitude, longitude: longitude, depth: depth, status: origin.status, type: e.type,
            net: e.eventSource)
        record.source = agency
        return .success(record)
    }

    /// The flagged magnitude (in the event, beside it in BED-RT, in an origin in SC3ML), else
    /// ``MagnitudePreference``'s choice among the event's and, in SC3ML, its origin's.
    func chooseMagnitude(_ e: Event, origin: Origin) -> Magnitude? {
        if let id = e.preferredMagnitudeID {
            if let m = e.magnitudes.first(where: { $0.publicID == id }) ?? looseMagnitudes[id] { return m }
        }
        var candidates = e.magnitudes + origin.magnitudes
        for id in e.magnitudeReferences where !candidates.contains(where: { $0.publicID == id }) {
            if let m = looseMagnitudes[id] { candidates.append(m) }
        }
        if candidates.count <= 1 { return candidates.first }
        return MagnitudePreference.choose(candidates.lazy.map { (value: $0.value, type: $0.type) }).map { candidates[$0] }
            ?? candidates.first
    }

    /// The agency and the agency's own event id.
    func identity(_ e: Event, origin: Origin) -> (String, String)? {
        if let source = e.eventSource, let id = e.eventID, !source.isEmpty, !id.isEmpty {
            return (agencyOverride ?? "usgs", source + id)
        }
        if e.publicID.isEmpty, let id = e.dataID, !id.isEmpty { return (agencyOverride ?? "usgs", id) }
        let publicID = e.publicID
        guard !publicID.isEmpty else { return nil }
        let id = FeedAgency.eventID(fromPublicID: publicID)
        if let override = agencyOverride { return (override, id) }
        // SC3ML ids are plain (`gfz2024abcd`): only one written as a URI (`smi:…`, `quakeml:…`,
        // as QuakeML requires) names an authority; else the agencyID does.
        if isSC3ML, !(publicID.hasPrefix("smi:") || publicID.hasPrefix("quakeml:")) {
            guard let agency = e.agencyID.flatMap(FeedAgency.fromName) ?? origin.agencyID.flatMap(FeedAgency.fromName) else {
                unattributed += 1
                return (FeedAgency.neutral, id)
            }
            return (agency, id)
        }
        // One service writes one authority (`smi:service.iris.edu/…`): look its agency up once.
        let bytes = publicID.utf8
        let authority = bytes.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") }
        let fromAuthority: String?
        if let cached = cachedAgency, cached.authority.elementsEqual(authority) {
            fromAuthority = cached.agency
        } else {
            fromAuthority = FeedAgency.fromPublicID(publicID)
            cachedAgency = (Array(authority), fromAuthority)
        }
        guard let agency = fromAuthority ?? e.agencyID.flatMap(FeedAgency.fromName) ?? origin.agencyID.flatMap(FeedAgency.fromName)
            ?? e.dataSource.flatMap(FeedAgency.fromName) else {
            unattributed += 1
            return (FeedAgency.neutral, id)
        }
        return (agency, id)
    }
}
