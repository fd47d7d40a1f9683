/// The member names the GeoJSON reader acts on.
enum FeedKey: UInt8 {
    case unknown = 0
    case features, id, properties, geometry, coordinates
    case mag, place, time, updated, url, felt, alert, status, tsunami, sig, net, type, title, magType
    // The feed's metadata (seconds or milliseconds) and EMSC's seismicportal members.
    case metadata, generated, lastupdate, flynnRegion, unid, magtype, depth, sourceCatalog
    // GeoNet's quake API (`api.geonet.org.nz/quake`).
    case publicID, magnitude, locality, quality
    // ComCat's list of the ids associated with an event: its features' ids are ComCat's.
    case ids
}

/// Maps a ``PackedKey`` to a ``FeedKey`` with one multiply, one shift and one comparison:
/// a perfect hash into 64 slots, its multiplier found once at start-up. A feature has about
/// 26 members, so this runs some 30 times per quake and must cost next to nothing.
/// Immutable after `init`, hence `@unchecked Sendable`.
final class FeedKeyTable: @unchecked Sendable {
    private let keys: UnsafeMutablePointer<PackedKey>
    private let ids: UnsafeMutablePointer<UInt8>
    private let multiplier: UInt64

    static let geoJSON = FeedKeyTable([
        "features": .features, "id": .id, "properties": .properties, "geometry": .geometry,
        "coordinates": .coordinates, "mag": .mag, "place": .place, "time": .time, "updated": .updated,
        "url": .url, "felt": .felt, "alert": .alert, "status": .status, "tsunami": .tsunami, "sig": .sig,
        "net": .net, "type": .type, "title": .title, "magType": .magType,
        "metadata": .metadata, "generated": .generated, "lastupdate": .lastupdate, "flynn_region": .flynnRegion,
        "unid": .unid, "magtype": .magtype, "depth": .depth, "source_catalog": .sourceCatalog,
        "publicID": .publicID, "magnitude": .magnitude, "locality": .locality, "quality": .quality, "ids": .ids,
    ])

    init(_ entries: [String: FeedKey]) {
        keys = .allocate(capacity: 64)
        ids = .allocate(capacity: 64)
        let packed = entries.map { (PackedKey($0.key), $0.value) }
        var candidate: UInt64 = 0x9E37_79B9_7F4A_7C15
        while true {
            keys.initialize(repeating: .unknown, count: 64)
            ids.initialize(repeating: 0, count: 64)
            var collision = false
            for (key, id) in packed {
                let slot = Self.slot(key, candidate)
                if ids[slot] != 0 {
                    collision = true
                    break
                }
                keys[slot] = key
                ids[slot] = id.rawValue
            }
            if !collision { break }
            candidate = candidate &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        }
        multiplier = candidate
    }

    deinit {
        keys.deallocate()
        ids.deallocate()
    }

    @inline(__always) private static func slot(_ key: PackedKey, _ multiplier: UInt64) -> Int {
        Int(truncatingIfNeeded: ((key.lo ^ (key.hi &* 0x0100_0000_01B3)) &* multiplier) &>> 58)
    }

    @inline(__always) func lookup(_ key: PackedKey) -> FeedKey {
        let slot = Self.slot(key, multiplier)
        guard keys[slot] == key else { return .unknown }
        return unsafeBitCast(ids[slot], to: FeedKey.self)
    }
}
