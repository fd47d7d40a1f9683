import Foundation

/// Computes the expected records of a feed file with Foundation (JSONSerialization) and a
/// simple CSV splitter — independently of QuakeFeed. Shared by the reader tests and the
/// end-to-end import tests.
public enum IndependentParse {
    public static func expected(for url: URL) throws -> [CoreFields] {
        // Every format, and GeoJSON whose times are seconds (the legacy 2012 feed).
        try expectedAnyFormat(for: url)
    }

    /// Strips a JSONP wrapper `name( … )` (anything after the last `)` is ignored).
    public static func stripJSONP(_ data: Data) -> Data {
        guard let first = data.first, first != UInt8(ascii: "{"),
              let open = data.firstIndex(of: UInt8(ascii: "(")),
              let close = data.lastIndex(of: UInt8(ascii: ")")) else { return data }
        return data.subdata(in: (open + 1)..<close)
    }

    public static func geoJSON(_ data: Data) throws -> [CoreFields] {
        let object = try JSONSerialization.jsonObject(with: stripJSONP(data))
        guard let root = object as? [String: Any], let features = root["features"] as? [[String: Any]] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return features.compactMap { feature -> CoreFields? in
            guard let id = feature["id"] as? String,
                  let properties = feature["properties"] as? [String: Any],
                  let time = number(properties["time"]),
                  let geometry = feature["geometry"] as? [String: Any],
                  let coordinates = geometry["coordinates"] as? [Any], coordinates.count >= 2,
                  let lon = number(coordinates[0]), let lat = number(coordinates[1]) else { return nil }
            let updated = number(properties["updated"])
            return CoreFields(
                code: id, magnitude: number(properties["mag"])?.doubleValue,
                place: properties["place"] as? String ?? "",
                time: time.int64Value, updated: updated?.int64Value ?? time.int64Value,
                latitude: lat.doubleValue, longitude: lon.doubleValue,
                depth: coordinates.count > 2 ? number(coordinates[2])?.doubleValue : nil)
        }
    }

    private static func number(_ value: Any?) -> NSNumber? {
        // (No feed has booleans; on Linux an NSNumber 0 or 1 also casts to Bool, so do not test for it.)
        guard let n = value as? NSNumber, !(value is String) else { return nil }
        return n
    }

    // MARK: - CSV

    /// RFC 4180 rows of `bytes` (quotes, `""`, commas and newlines in quotes).
    public static func csvRows(_ bytes: [UInt8]) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var i = 0
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        while i < bytes.count {
            let c = bytes[i]
            i += 1
            if inQuotes {
                if c == quote {
                    if i < bytes.count, bytes[i] == quote { field.append(quote); i += 1 } else { inQuotes = false }
                } else {
                    field.append(c)
                }
            } else if c == quote {
                inQuotes = true
            } else if c == comma {
                endField()
            } else if c == lf || c == cr {
                if c == cr, i < bytes.count, bytes[i] == lf { i += 1 }
                endField()
                rows.append(row)
                row = []
            } else {
                field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { endField(); rows.append(row) }
        return rows.filter { !($0.count == 1 && $0[0].isEmpty) }
    }

    public static func csv(_ data: Data) throws -> [CoreFields] {
        let rows = csvRows(Array(data))
        guard let header = rows.first else { return [] }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        let iTime = column("time")!, iLat = column("latitude")!, iLon = column("longitude")!, iId = column("id")!
        let iDepth = column("depth"), iMag = column("mag"), iUpdated = column("updated"), iPlace = column("place")
        return rows.dropFirst().compactMap { row -> CoreFields? in
            func cell(_ i: Int?) -> String { i.flatMap { $0 < row.count ? row[$0] : nil } ?? "" }
            guard !cell(iId).isEmpty, let time = isoMilliseconds(cell(iTime)),
                  let lat = Double(cell(iLat)), let lon = Double(cell(iLon)) else { return nil }
            return CoreFields(code: cell(iId), magnitude: Double(cell(iMag)), place: cell(iPlace), time: time,
                              updated: isoMilliseconds(cell(iUpdated)) ?? time, latitude: lat, longitude: lon,
                              depth: Double(cell(iDepth)))
        }
    }

    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    /// Foundation's ISO-8601 parse, in milliseconds.
    public static func isoMilliseconds(_ text: String) -> Int64? {
        guard let date = (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text)) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// Formats milliseconds the way the USGS CSV does: `2019-07-19T02:52:13.590Z`.
    /// (Whole seconds through Foundation, the milliseconds appended exactly: formatting a
    /// fractional Date can truncate .893 to .892.)
    public static func isoString(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let fraction = milliseconds - seconds * 1000
        let whole = withoutFraction.format(Date(timeIntervalSince1970: Double(seconds)))
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// A time as `fetch --start`/`--end` take it: `isoString(milliseconds:)` without its `Z`
    /// (`2019-07-19T02:52:13.590`, read as UTC).
    public static func commandTime(milliseconds: Int64) -> String { String(isoString(milliseconds: milliseconds).dropLast()) }

    /// The whole second a time falls in, as `delete --before` takes it: `2019-07-19T02:52:13Z`
    /// (the milliseconds dropped towards the epoch, as `milliseconds / 1000` does).
    public static func commandTime(wholeSecondsOf milliseconds: Int64) -> String {
        withoutFraction.format(Date(timeIntervalSince1970: Double(milliseconds / 1000)))
    }
}
