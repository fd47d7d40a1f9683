import Foundation

/// A feed server whose answer the test changes between requests (issue 13): it serves
/// `all_day.geojson` from `directory` with `Last-Modified` (a 304 for an unchanged
/// `If-Modified-Since`), unless the file `directory/fault` says otherwise:
/// `500` (or any status), `429 SECONDS` (with `Retry-After`), or `truncated` (a 200 whose body
/// stops halfway). Each request is logged as `"GET /all_day.geojson HTTP/1.1" STATUS -`.
extension LocalHTTPServer {
    static let faultServer = #"""
    import email.utils, http.server, os, sys
    directory = sys.argv[2]
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            path = os.path.join(directory, os.path.basename(self.path.split('?')[0]))
            fault = ''
            try:
                fault = open(os.path.join(directory, 'fault')).read().strip()
            except OSError:
                pass
            if fault and fault != 'truncated':
                parts = fault.split()
                self.send_response(int(parts[0]))
                if len(parts) > 1:
                    self.send_header('Retry-After', parts[1])
                self.send_header('Content-Length', '0')
                self.end_headers()
                return
            if not os.path.isfile(path):
                self.send_error(404)
                return
            stamp = int(os.stat(path).st_mtime)
            since = self.headers.get('If-Modified-Since')
            if since and fault != 'truncated':
                try:
                    if stamp <= int(email.utils.parsedate_to_datetime(since).timestamp()):
                        self.send_response(304)
                        self.end_headers()
                        return
                except (TypeError, ValueError):
                    pass
            body = open(path, 'rb').read()
            self.send_response(200)
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', str(len(body)))
            self.send_header('Last-Modified', email.utils.formatdate(stamp, usegmt=True))
            self.end_headers()
            self.wfile.write(body[:len(body) // 2] if fault == 'truncated' else body)
        def log_message(self, format, *args):
            sys.stdout.write('"%s" %s -\n' % (self.requestline, args[1]))
            sys.stdout.flush()
    http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), Handler).serve_forever()
    """#

    /// Serves `directory` as described above, logging requests to `log`.
    public convenience init(feedsWithFaults directory: URL, log: String) throws {
        try self.init(directory: directory, output: log) { port in
            ["python3", "-c", Self.faultServer, String(port), directory.path]
        }
    }

    /// Sets (or with nil clears) the fault the next requests get.
    public func setFault(_ fault: String?) throws {
        let path = directory.appendingPathComponent("fault")
        if let fault { try Data(fault.utf8).write(to: path, options: .atomic) } else { try? FileManager.default.removeItem(at: path) }
    }
}

/// Small USGS GeoJSON feeds written from the format's published fields, for tests whose quakes
/// must be recent (alerts only ring for quakes of the last day).
public enum RecentFeed {
    public struct Quake: Sendable {
        public var code: String
        public var magnitude: Double
        public var latitude: Double
        public var longitude: Double
        public var place: String
        /// Minutes before now.
        public var minutesAgo: Double
        /// km.
        public var depth: Double

        public init(_ code: String, magnitude: Double, latitude: Double, longitude: Double, place: String,
                    minutesAgo: Double = 10, depth: Double = 10) {
            self.depth = depth
            self.code = code
            self.magnitude = magnitude
            self.latitude = latitude
            self.longitude = longitude
            self.place = place
            self.minutesAgo = minutesAgo
        }
    }

    /// A FeatureCollection of `quakes`, times relative to `now`.
    public static func geoJSON(_ quakes: [Quake], now: Date = Date()) -> String {
        let features = quakes.map { quake -> String in
            let time = Int64((now.timeIntervalSince1970 - quake.minutesAgo * 60) * 1000)
            return """
            {"type":"Feature","id":"\(quake.code)","properties":{"mag":\(quake.magnitude),"place":"\(quake.place)",\
            "time":\(time),"updated":\(time),"magType":"ml","type":"earthquake","status":"reviewed","tsunami":0,\
            "net":"us","ids":",\(quake.code),","sources":",us,","url":"https://earthquake.usgs.gov/earthquakes/eventpage/\(quake.code)","title":"M \(quake.magnitude) - \(quake.place)"},\
            "geometry":{"type":"Point","coordinates":[\(quake.longitude),\(quake.latitude),\(quake.depth)]}}
            """
        }
        return #"{"type":"FeatureCollection","metadata":{"generated":0,"title":"test"},"features":["#
            + features.joined(separator: ",") + "]}"
    }

    /// Writes the feed to `url` with the given modification time (the server's `Last-Modified`).
    public static func publish(_ quakes: [Quake], at url: URL, modified: Date) throws {
        try Data(geoJSON(quakes).utf8).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path)
    }
}

extension LocalHTTPServer {
    /// The statuses of the server's `GET /NAME` requests, in order, from its log
    /// (`"GET /all_day.geojson HTTP/1.1" 304 -` → `304`).
    public static func statuses(in log: URL, of name: String = "all_day.geojson") -> [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("\"GET /\(name)") }.compactMap { line in
            line.split(separator: "\"").last?.split(separator: " ").first.map(String.init)
        }
    }
}
