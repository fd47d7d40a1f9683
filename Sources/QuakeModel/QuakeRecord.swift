import Foundation

/// One earthquake as the feeds describe it: the feed-owned fields of the `Quake` entity.
///
/// Feed readers (`QuakeFeed`) produce these; the store's batch upsert consumes them.
/// User-owned fields (`notes`) are deliberately absent: imports never carry them.
///
/// ```swift
/// let quake = QuakeRecord(code: "us7000abcd", magnitude: 5.1, place: "105 km WNW of Höfn, Iceland",
///                         time: 1_700_000_000_000, updated: 1_700_000_100_000,
///                         latitude: 64.5, longitude: -17.2)
/// quake.region // "Iceland"
/// ```
public struct QuakeRecord: Sendable, Hashable {
    /// The feed feature `id`, e.g. `us7000abcd`; unique in the store.
    public var code: String
    public var magnitude: Double?
    public var magType: String?
    /// Human-readable location; empty when the feed has none (`null` or an empty CSV cell).
    public var place: String
    /// Origin time, milliseconds since 1970-01-01T00:00:00Z.
    public var time: Int64
    /// Last update of the event, milliseconds since the epoch; decides which version wins an upsert.
    public var updated: Int64
    public var latitude: Double
    public var longitude: Double
    /// Depth in kilometres (negative above sea level, as USGS reports it).
    public var depth: Double?
    public var status: String?
    public var type: String?
    public var tsunami: Int?
    public var felt: Int?
    public var alert: String?
    public var sig: Int?
    public var net: String?
    public var url: String?
    public var title: String?
    /// The agency the event comes from: `usgs` (the USGS feeds and ComCat), `emsc`, `iris`,
    /// `ingv`, `geofon`, … Codes of agencies other than USGS carry it as a prefix
    /// (`emsc:20240101_0000123`), so they never collide. Nil is read as `usgs`.
    public var source: String?

    public init(
        code: String, magnitude: Double? = nil, magType: String? = nil, place: String,
        time: Int64, updated: Int64, latitude: Double, longitude: Double, depth: Double? = nil,
        status: String? = nil, type: String? = nil, tsunami: Int? = nil, felt: Int? = nil,
        alert: String? = nil, sig: Int? = nil, net: String? = nil, url: String? = nil,
        title: String? = nil, source: String? = nil
    ) {
        self.code = code
        self.magnitude = magnitude
        self.magType = magType
        self.place = place
        self.time = time
        self.updated = updated
        self.latitude = latitude
        self.longitude = longitude
        self.depth = depth
        self.status = status
        self.type = type
        self.tsunami = tsunami
        self.felt = felt
        self.alert = alert
        self.sig = sig
        self.net = net
        self.url = url
        self.title = title
        self.source = source
    }

    /// Optional fields a feed format may not carry at all: USGS CSV has no `felt`, `alert`, `sig`,
    /// `tsunami`, `url` or `title`; FDSN text no `status` either. A record of such a feed has
    /// them nil without saying they are unknown, so an update keeps what the store holds for them
    /// (`WriteTransaction.upsert`): the CSV of a snapshot after its GeoJSON loses nothing.
    public struct Fields: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        public static let status = Fields(rawValue: 1 << 0)
        public static let type = Fields(rawValue: 1 << 1)
        public static let tsunami = Fields(rawValue: 1 << 2)
        public static let felt = Fields(rawValue: 1 << 3)
        public static let alert = Fields(rawValue: 1 << 4)
        public static let sig = Fields(rawValue: 1 << 5)
        public static let net = Fields(rawValue: 1 << 6)
        public static let url = Fields(rawValue: 1 << 7)
        public static let title = Fields(rawValue: 1 << 8)
        public static let magType = Fields(rawValue: 1 << 9)
        public static let depth = Fields(rawValue: 1 << 10)

        /// What only USGS's GeoJSON carries: its PAGER, DYFI and web fields.
        public static let summaryOnly: Fields = [.tsunami, .felt, .alert, .sig, .url, .title]
    }

    /// The region section key: the last comma-separated part of `place`, trimmed
    /// ("105 km WNW of Höfn, Iceland" → "Iceland"); a place without a comma is its own region,
    /// and an empty place has the region "Unknown". The abbreviations USGS writes for a US state
    /// or Mexico ("10 km N of Foo, CA") are spelled out (`spelledOutRegions`), so they share the
    /// section of the full name ("…, California"); a Flinn–Engdahl name goes under its country or
    /// sea (`RegionName.grouped`: "WESTERN TURKEY" → "Turkey").
    public var region: String { Self.region(ofPlace: place) }

    public static func region(ofPlace place: String) -> String {
        let part = lastPart(ofPlace: place)
        if part.utf8.count == 2, let name = spelledOutRegions[part] { return name }
        return groupedRegions.withLock { cache in
            if let region = cache[part] { return region }
            // A catalogue has a few thousand distinct regions; an import looks each up once.
            if cache.count >= 65_536 { cache.removeAll(keepingCapacity: true) }
            let region = RegionName.grouped(part)
            cache[part] = region
            return region
        }
    }

    /// `RegionName.grouped` of the last parts seen (it costs microseconds, an import calls it a row).
    private static let groupedRegions = LockedValue<[String: String]>([:])

    /// The last comma-separated part of `place`, trimmed; "Unknown" when it is empty.
    private static func lastPart(ofPlace place: String) -> String {
        // Fast path over the bytes (an import calls this per row): after the last comma, ASCII
        // spaces and tabs trimmed. Other whitespace at either end takes the general path.
        if let fast = place.utf8.withContiguousStorageIfAvailable({ bytes -> String? in
            var start = (bytes.lastIndex(of: UInt8(ascii: ",")) ?? -1) + 1
            var end = bytes.count
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            if start == end { return "Unknown" }
            guard bytes[start] < 0x80, bytes[end - 1] < 0x80 else { return nil }
            if start == 0 && end == bytes.count { return place }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }), let fast {
            return fast
        }
        let last = place.split(separator: ",", omittingEmptySubsequences: false).last ?? ""
        let trimmed = last.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "Unknown" : String(trimmed)
    }
}

extension QuakeRecord {
    /// The region abbreviations USGS place strings end with, and the name the same region has
    /// in the places that spell it out: the US states' postal codes ("…, CA" beside
    /// "…, California"), Puerto Rico and Mexico ("Mexicali, B.C., MX" beside "…, Mexico").
    /// Schema migration 7 respells the stored regions with the same table.
    public static let spelledOutRegions: [String: String] = [
        "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
        "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho",
        "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
        "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
        "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
        "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York", "NC": "North Carolina",
        "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
        "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas",
        "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia",
        "WI": "Wisconsin", "WY": "Wyoming", "PR": "Puerto Rico", "MX": "Mexico",
    ]
}
