import Foundation
import Synchronization
import QuakeModel
import QuakeStore

/// An independent, in-memory computation of a sectioned fetch: what the store must return.
/// Deliberately written without the store's SQL or comparators.
public enum ExpectedResults {
    public struct Section: Equatable, CustomStringConvertible {
        public var id: String
        public var codes: [String]
        public var description: String { "\(id)(\(codes.count))" }
        public init(id: String, codes: [String]) {
            self.id = id
            self.codes = codes
        }
    }

    /// Case- and diacritic-insensitive, plus the letters without a combining mark that a
    /// person types in ASCII (SPEC: "mexico" finds "México"; "sindirgi" finds "Sındırgı").
    public static func fold(_ s: String) -> String {
        if let known = folds.withLock({ $0[s] }) { return known }
        var folded = s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        for (letter, ascii) in [("ı", "i"), ("ł", "l"), ("ø", "o"), ("đ", "d"), ("ð", "d"), ("ħ", "h"), ("ŧ", "t"),
                                ("ß", "ss"), ("æ", "ae"), ("œ", "oe"), ("þ", "th")] {
            folded = folded.replacingOccurrences(of: letter, with: ascii)
        }
        folds.withLock { $0[s] = folded }
        return folded
    }

    /// Each text folded once: the same places come back in every test of a real feed, and
    /// Foundation's folding is the slowest step of these expectations.
    private static let folds = Mutex<[String: String]>([:])

    /// A search's words, each with the names it also stands for (issue 53): a word that is part
    /// of a name in one of `PlaceSpellings.groups` (three characters or more) also finds that
    /// group's other names. Written apart from `PlaceSearch`: split on whitespace, tested with `contains`.
    public static func placeWords(_ search: String) -> [[String]] {
        fold(search).components(separatedBy: .whitespacesAndNewlines).filter { !$0.isEmpty }.map { word in
            guard word.count >= 3 else { return [word] }
            return [word] + PlaceSpellings.groups.filter { $0.contains { $0.contains(word) } }.flatMap { $0 }
        }
    }

    /// Whether a folded place holds one name of every word (every place, without words), or, for
    /// a word (three characters or more) of a US state's or Mexico's name, ends with its postal
    /// code after a comma, as USGS writes "…, CA" (`QuakeRecord.spelledOutRegions`), spaces
    /// after it aside.
    public static func placeHolds(_ place: String, _ words: [[String]]) -> Bool {
        words.allSatisfy { names in
            names.contains { place.contains($0) } || names[0].count >= 3 && QuakeRecord.spelledOutRegions.contains { code, name in
                String(place.reversed().drop { $0 == " " }.reversed()).hasSuffix(", " + code.lowercased()) && name.lowercased().contains(names[0])
            }
        }
    }

    /// Great-circle distance in km, written apart from `GeoPoint`: the haversine in its
    /// `atan2` form (Sinnott 1984, "Virtues of the Haversine"), on the same mean radius.
    public static func kilometres(fromLatitude lat1: Double, longitude lon1: Double, toLatitude lat2: Double, longitude lon2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let h = pow(sin(dLat / 2), 2) + cos(lat1 * rad) * cos(lat2 * rad) * pow(sin(dLon / 2), 2)
        return 6371.0088 * 2 * atan2(h.squareRoot(), (1 - h).squareRoot())
    }

    /// The Modified Mercalli intensity Allen, Wald & Worden (2012) predict (hypocentral model,
    /// J. Seismol. 16:409–433, equation 1 and table 2), written apart from `FeltIntensity` from
    /// the paper's form: ln as log base e through `Foundation.log`, the two distance terms as
    /// one expression, R = √(Δ² + h²) with Δ from `kilometres`, and no nearer than 6 km (ETH's
    /// `fct_GMPE_Allen2012`: "all distances <= 6km will be set equal to 6km"). Nil without a
    /// magnitude.
    public static func intensity(magnitude: Double?, epicentralKm: Double, depthKm: Double?) -> Double? {
        guard let m = magnitude else { return nil }
        let h = depthKm ?? 0
        let r = max(6, (epicentralKm * epicentralKm + h * h).squareRoot())
        let rm = -0.209 + 2.042 * exp(m - 5)
        let far = r > 50 ? 0.078 * log(r / 50) : 0
        return 2.085 + 1.428 * m - 1.402 * log((r * r + rm * rm).squareRoot()) + far
    }

    /// The latitude due north of (`latitude`, `longitude`) at which a quake of `magnitude` at
    /// `depthKm` is predicted (`intensity`, the paper's equation) at `target` there: bisection
    /// on the latitude, the value falling as the distance grows, up to 89°N. Each probe measures
    /// the distance the store will (`kilometres` to that very latitude), so the value at the
    /// returned latitude is `target` to about 1e-12; nil when `target` is out of reach (past the
    /// value at the epicentre, or below the value at 89°N).
    ///
    /// Tests use it to place quakes exactly where a rounding matters (a value of 4.47, shown
    /// `IV` but 4.5 to one decimal) and write what must be shown as literals beside them.
    public static func latitude(northOf latitude: Double, longitude: Double, magnitude: Double, depthKm: Double,
                                intensity target: Double) -> Double? {
        func value(_ lat: Double) -> Double {
            intensity(magnitude: magnitude, epicentralKm: kilometres(fromLatitude: latitude, longitude: longitude,
                                                                     toLatitude: lat, longitude: longitude), depthKm: depthKm)!
        }
        var (near, far) = (latitude, 89.0)
        guard value(near) >= target, value(far) <= target else { return nil }
        for _ in 0..<200 {
            let middle = (near + far) / 2
            guard middle > near && middle < far else { break }
            if value(middle) >= target { near = middle } else { far = middle }
        }
        return near
    }

    /// The one-decimal value and whole intensity shown for `value`, each rounded from `value`
    /// itself (issue 55: "the nearest whole intensity", "the equation's value to one decimal"),
    /// the one clamped to 1.0–10.0, the other to I–X. Not an independent check of the rounding:
    /// `IntensityTests.theWholeIntensityIsTheNearestToTheEquationsValue` holds literal answers.
    public static func shown(_ value: Double) -> (oneDecimal: Double, whole: Int) {
        let tenths = min(100, max(10, (value * 10).rounded(.toNearestOrAwayFromZero)))
        return (tenths / 10, Int(min(10, max(1, value.rounded(.toNearestOrAwayFromZero)))))
    }

    /// The magnitude as the list shows it, in tenths, worked out apart from `MagnitudeBin`: the
    /// catalogue's digits (the double's shortest decimal text) rounded half up to a tenth in
    /// decimal arithmetic: 2.95 → 30, 2.9499999999999997 → 29, -0.05 → 0.
    public static func shownTenths(_ magnitude: Double) -> Int {
        // Below `Decimal`'s smallest exponent (a depth of -5e-324 km): a tenth of 0.
        if abs(magnitude) < 1e-9 { return 0 }
        let scaled = Decimal(string: "\(magnitude)")! * 10 + Decimal(string: "0.5")!
        var truncated = Decimal(), value = scaled
        NSDecimalRound(&truncated, &value, 0, .down)
        if truncated > scaled { truncated -= 1 }
        return NSDecimalNumber(decimal: truncated).intValue
    }

    /// Whether `magnitude` is shown at `minimum` or more (`2.47` shows `2.5`: at 2.5 or more).
    public static func isShown(_ magnitude: Double?, atLeast minimum: Double) -> Bool {
        guard let magnitude else { return false }
        return Decimal(shownTenths(magnitude)) / 10 >= Decimal(string: "\(minimum)")!
    }

    /// - Parameters:
    ///   - distanceFrom: the point of a `distance` order (bands `distance-0` … `distance-4` at
    ///     100, 300, 1,000, 3,000 of `kmPerUnit`), and of `within` (a radius in km).
    public static func sections(_ records: [QuakeRecord], search: String = "", minimumMagnitude: Double? = nil,
                                order: QuakeSortOrder, ascending: Bool, timeZone: TimeZone,
                                distanceFrom: (latitude: Double, longitude: Double)? = nil, within: Double? = nil,
                                kmPerUnit: Double = 1) -> [Section] {
        let words = placeWords(search)
        func km(_ r: QuakeRecord) -> Double {
            guard let p = distanceFrom else { return 0 }
            return kilometres(fromLatitude: p.latitude, longitude: p.longitude, toLatitude: r.latitude, longitude: r.longitude)
        }
        func felt(_ r: QuakeRecord) -> Double? {
            distanceFrom == nil ? nil : intensity(magnitude: r.magnitude, epicentralKm: km(r), depthKm: r.depth)
        }
        let matching = records.filter { record in
            if let minimumMagnitude, !isShown(record.magnitude, atLeast: minimumMagnitude) { return false }
            if let within, km(record) > within { return false }
            return words.isEmpty || placeHolds(fold(record.place), words)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let dayFormatter = DateFormatter()
        dayFormatter.locale = Locale(identifier: "en_US_POSIX")
        dayFormatter.timeZone = timeZone
        dayFormatter.dateFormat = "yyyy-MM-dd"
        func sectionID(_ r: QuakeRecord) -> String {
            switch order {
            case .time: return dayFormatter.string(from: Date(timeIntervalSince1970: Double(r.time) / 1000))
            case .magnitude:
                guard let m = r.magnitude else { return "unknown" }
                let tenths = shownTenths(m)
                return tenths >= 60 ? "M 6+" : tenths < 10 ? "M <1" : "M \(tenths / 10)"
            case .region: return fold(r.region)
            case .depth:
                // Written apart from `DepthBins`: the largest edge at or below the depth as shown
                // (in tenths of a km, `shownTenths`), edges every 10 km below 100 and every 100 km
                // from 100; one open band from 9,900 km and one below -990 km.
                guard let d = r.depth else { return "depth-unknown" }
                if d >= 10_000 { return "depth-9900" }  // beyond the open bands' edges (and `Decimal`'s range)
                if d < -1_000 { return "depth--1000" }
                let t = shownTenths(d)
                if t >= 99_000 { return "depth-9900" }
                if t < -9_900 { return "depth--1000" }
                var edge = 1_000
                if t < 1_000 { while edge > t { edge -= 100 } } else { while edge + 1_000 <= t { edge += 1_000 } }
                return "depth-\(edge / 10)"
            case .distance:
                let units = km(r) / kmPerUnit
                return "distance-\([100.0, 300, 1_000, 3_000].filter { units >= $0 }.count)"
            case .intensity:
                guard let value = felt(r) else { return "intensity-unknown" }
                return "intensity-\(shown(value).whole)"
            }
        }
        // Records inserted in order get ids 1, 2, 3…: ties break by insertion index.
        let indexed = Array(matching.enumerated())
        let regions = order == .region ? matching.map { Array(fold($0.region).utf8) } : []
        let sorted = indexed.sorted { a, b in
            let (x, y) = (a.element, b.element)
            switch order {
            case .time:
                return ascending ? (x.time, a.offset) < (y.time, b.offset) : (x.time, a.offset) > (y.time, b.offset)
            case .magnitude:
                let xm = x.magnitude ?? -.infinity, ym = y.magnitude ?? -.infinity
                return ascending ? (xm, x.time, a.offset) < (ym, y.time, b.offset) : (xm, x.time, a.offset) > (ym, y.time, b.offset)
            case .region:
                let xr = regions[a.offset], yr = regions[b.offset]
                if xr != yr { return ascending ? xr.lexicographicallyPrecedes(yr) : yr.lexicographicallyPrecedes(xr) }
                return (x.time, a.offset) > (y.time, b.offset)
            case .depth:
                let xd = x.depth ?? -.infinity, yd = y.depth ?? -.infinity
                return ascending ? (xd, x.time, a.offset) < (yd, y.time, b.offset) : (xd, x.time, a.offset) > (yd, y.time, b.offset)
            case .distance:
                return ascending ? (km(x), a.offset) < (km(y), b.offset) : (km(x), a.offset) > (km(y), b.offset)
            case .intensity:
                let xi = felt(x) ?? -.infinity, yi = felt(y) ?? -.infinity
                return ascending ? (xi, a.offset) < (yi, b.offset) : (xi, a.offset) > (yi, b.offset)
            }
        }
        var result: [Section] = []
        for (_, record) in sorted {
            let id = sectionID(record)
            if result.last?.id == id { result[result.count - 1].codes.append(record.code) }
            else { result.append(Section(id: id, codes: [record.code])) }
        }
        return result
    }

    /// A varied data set: times over 20 days, magnitudes incl. null and negative, accented and
    /// comma-less places, identical times.
    public static func variedRecords(count: Int, seed: UInt64 = 42) -> [QuakeRecord] {
        var rng = SeededGenerator(seed: seed)
        let places = ["10 km N of Höfn, Iceland", "5 km SSE of México City, Mexico", "Fiji region", "near São Paulo, Brazil",
                      "12 km W of Anchorage, Alaska", "3km NE of Cobb, CA", "Kermadec Islands, New Zealand",
                      "100% weird \"quoted\" (place), Ísland", "south of the Fiji Islands", "", "Sındırgı, Turkey",
                      "8 km E of Volcano, Hawaii", "Off the coast of ALASKA"]
        return (0..<count).map { i in
            let place = places[Int.random(in: 0..<places.count, using: &rng)]
            let magnitude: Double? = Int.random(in: 0..<15, using: &rng) == 0 ? nil : Double(Int.random(in: -10...78, using: &rng)) / 10
            let time = 1_700_000_000_000 + Int64.random(in: 0..<(20 * 86_400_000), using: &rng) / 60_000 * 60_000
            return QuakeRecord(code: "v\(i)", magnitude: magnitude, place: place, time: time, updated: time,
                               latitude: 1, longitude: 2, depth: 3)
        }
    }
}

/// A small deterministic generator for reproducible test data: the store's SplitMix64 (the
/// statistics' bootstrap generator), the same numbers as the copy that stood here.
public typealias SeededGenerator = SplitMix64
