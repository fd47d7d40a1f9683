import Foundation

/// A deterministic catalogue for the fetch tests and benchmark, written as FDSN text: events
/// spread over `days` days from `start`, with a quiet gap (windows answered 204) and a dense
/// aftershock burst (windows that reach the service limit and must be halved).
public struct GeneratedCatalogue: Sendable {
    public struct Event: Sendable, Hashable {
        public var code: String
        public var time: Int64
        public var latitude: Double
        public var longitude: Double
        public var depth: Double
        public var magnitude: Double
    }

    public let events: [Event]
    public let start: Int64
    public let end: Int64

    /// - Parameters:
    ///   - burst: events packed into two days in the middle of the range.
    public init(count: Int, burst: Int = 0, start: Int64 = 1_672_531_200_000, days: Int = 400, seed: UInt64 = 14) {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let day: Int64 = 86_400_000
        let span = Int64(days) * day
        let gap = (start + span / 4)..<(start + span / 4 + 20 * day)
        let burstStart = start + span / 2
        var events: [Event] = []
        events.reserveCapacity(count)
        for i in 0..<count {
            var time: Int64
            if i < burst {
                time = burstStart + Int64(random() * Double(2 * day))
            } else {
                repeat { time = start + Int64(random() * Double(span)) } while gap.contains(time)
            }
            let magnitude = ((1.9 + 5.1 * pow(random(), 3)) * 10).rounded() / 10
            events.append(Event(code: String(format: "tc%08d", i + 1), time: time,
                                latitude: ((random() * 180 - 90) * 1e4).rounded() / 1e4,
                                longitude: ((random() * 360 - 180) * 1e4).rounded() / 1e4,
                                depth: (random() * 700 * 100).rounded() / 100, magnitude: min(7, magnitude)))
        }
        self.events = events.sorted { $0.time < $1.time }
        self.start = start
        end = start + span
    }

    /// The catalogue as an FDSN text file (13 columns, as USGS writes it).
    public func write(to url: URL) throws {
        var text = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName\n"
        text.reserveCapacity(events.count * 110)
        for e in events {
            let time = IndependentParse.isoString(milliseconds: e.time).dropLast()
            text += "\(e.code)|\(time)|\(e.latitude)|\(e.longitude)|\(e.depth)|tc|tc|tc|\(e.code)|ml|\(e.magnitude)|tc|Region \(e.code.suffix(2)), Testland\n"
        }
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    /// The FDSN filters, applied independently of quaketui and of the server.
    public struct Filter: Sendable {
        public var start: Int64
        public var end: Int64
        public var minMagnitude: Double?
        public var maxDepth: Double?
        /// West, south, east, north.
        public var box: [Double]?
        /// Latitude, longitude, radius in km.
        public var circle: [Double]?

        public init(start: Int64, end: Int64, minMagnitude: Double? = nil, maxDepth: Double? = nil,
                    box: [Double]? = nil, circle: [Double]? = nil) {
            self.start = start
            self.end = end
            self.minMagnitude = minMagnitude
            self.maxDepth = maxDepth
            self.box = box
            self.circle = circle
        }
    }

    public func filtered(_ f: Filter) -> [Event] {
        events.filter { e in
            guard e.time >= f.start, e.time <= f.end else { return false }
            if let m = f.minMagnitude, e.magnitude < m { return false }
            if let d = f.maxDepth, e.depth > d { return false }
            if let b = f.box, !(e.longitude >= b[0] && e.latitude >= b[1] && e.longitude <= b[2] && e.latitude <= b[3]) { return false }
            if let c = f.circle {
                // Haversine on a sphere of 6371.0088 km (the service gets degrees: km / 111.19492664).
                let r = 6371.0088, p1 = c[0] * .pi / 180, p2 = e.latitude * .pi / 180
                let dp = p2 - p1, dl = (e.longitude - c[1]) * .pi / 180
                let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
                if 2 * r * asin(min(1, sqrt(a))) > c[2] + 1e-6 { return false }
            }
            return true
        }
    }
}
