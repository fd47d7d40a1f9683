import Foundation
import QuakeTestSupport

/// Computes the expected records of a feed file with Foundation (JSONSerialization) and a
/// simple CSV splitter — independently of QuakeFeed.
enum IndependentParse {
    static func expected(for url: URL) throws -> [CoreFields] {
        let data = try Data(contentsOf: url)
        return url.pathExtension == "csv" ? try csv(data) : try geoJSON(data)
    }

    /// Strips a JSONP wrapper `name( … )` (anything after the last `)` is ignored).
    static func stripJSONP(_ data: Data) -> Data {
        guard let first = data.first, first != UInt8(ascii: "{"),
              let open = data.firstIndex(of: UInt8(ascii: "(")),
              let close = data.lastIndex(of: UInt8(ascii: ")")) else { return data }
        return data.subdata(in: (open + 1)..<close)
    }

    static func geoJSON(_ data: Data) throws -> [CoreFields] {
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

    /// RFC 4180 rows of `text` (quotes, `""`, commas and newlines in quotes).
    static func csvRows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var iterator = Array(text.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if c == "\"" {
                    if let n = iterator.next() {
                        if n == "\"" { field.unicodeScalars.append("\"") } else { inQuotes = false; pending = n }
                    } else { inQuotes = false }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" {
                inQuotes = true
            } else if c == "," {
                row.append(field); field = ""
            } else if c == "\n" || c == "\r" {
                if c == "\r", let n = iterator.next(), n != "\n" { pending = n }
                row.append(field); field = ""
                rows.append(row); row = []
            } else {
                field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows.filter { !($0.count == 1 && $0[0].isEmpty) }
    }

    static func csv(_ data: Data) throws -> [CoreFields] {
        let rows = csvRows(String(decoding: data, as: UTF8.self))
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

    nonisolated(unsafe) private static let isoFormatter: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()
    nonisolated(unsafe) private static let isoFormatterNoFraction = ISO8601DateFormatter()
    private static let lock = NSLock()

    static func isoMilliseconds(_ text: String) -> Int64? {
        lock.lock()
        defer { lock.unlock() }
        guard let date = isoFormatter.date(from: text) ?? isoFormatterNoFraction.date(from: text) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// Formats milliseconds the way the USGS CSV does: `2019-07-19T02:52:13.590Z`.
    static func isoString(milliseconds: Int64) -> String {
        lock.lock()
        defer { lock.unlock() }
        return isoFormatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
