import Foundation

/// Test-time conversions of real feeds: to USGS CSV, to gzip, and replicated to any size.
public enum FeedConversion {
    /// The USGS CSV columns, in the feed's order.
    public static let csvHeader = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,horizontalError,depthError,magError,magNst,status,locationSource,magSource"

    /// Writes the features of a GeoJSON feed as USGS CSV (the fields CSV carries).
    public static func csv(fromGeoJSON data: Data) throws -> String {
        let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        var lines = [csvHeader]
        for feature in root["features"] as! [[String: Any]] {
            let p = feature["properties"] as! [String: Any]
            let c = (feature["geometry"] as! [String: Any])["coordinates"] as! [Any]
            func text(_ value: Any?) -> String {
                switch value {
                case let n as NSNumber: return "\(n)"
                case let s as String: return s.contains(",") || s.contains("\"") ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
                default: return ""
                }
            }
            func isoTime(_ value: Any?) -> String {
                guard let ms = (value as? NSNumber)?.int64Value else { return "" }
                return IndependentParse.isoString(milliseconds: ms)
            }
            let cells = [isoTime(p["time"]), text(c[1]), text(c[0]), text(c.count > 2 ? c[2] : nil), text(p["mag"]), text(p["magType"]),
                         text(p["nst"]), text(p["gap"]), text(p["dmin"]), text(p["rms"]), text(p["net"]), text(feature["id"]),
                         isoTime(p["updated"]), text(p["place"]), text(p["type"]), "", "", "", "", text(p["status"]), "", ""]
            lines.append(cells.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func gzip(_ file: URL, to output: URL) throws {
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: output.path])
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", file.path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
    }

    /// Writes a feed of `count` features made from the real ones, with new ids and times.
    public static func replicate(_ source: URL, count: Int, to output: URL) throws {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as! [String: Any]
        let features = root["features"] as! [[String: Any]]
        let lines = try features.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let ids = features.map { $0["id"] as! String }
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: output.path])
        }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        var buffer = #"{"type":"FeatureCollection","features":["#
        for i in 0..<count {
            let k = i % lines.count
            buffer += (i == 0 ? "\n" : ",\n") + lines[k].replacingOccurrences(of: "\"\(ids[k])\"", with: "\"rep\(i)\"")
            if buffer.utf8.count > 1 << 20 { handle.write(Data(buffer.utf8)); buffer = "" }
        }
        buffer += "]}\n"
        handle.write(Data(buffer.utf8))
    }
}
