import Foundation

/// A local FDSN event service (`/fdsnws/event/1/query`, `format=text`) over a catalogue file,
/// with the service limit and injected failures the fetch tests need.
///
/// It implements `starttime`/`endtime` (both included), `minmagnitude`/`maxmagnitude`,
/// `mindepth`/`maxdepth`, `minlatitude`…`maxlongitude`, `latitude`/`longitude`/`maxradius`
/// (degrees), `limit` and `nodata`: a query matching more than `limit` events without a
/// `limit` parameter is refused with 413; with one, the first `limit` events (by time) are
/// sent; no match is 204. Every request is logged as one JSON line (``requests``).
extension LocalHTTPServer {
    /// A failure injected at a given request number (1-based).
    public enum Fault: Sendable {
        case status(Int, retryAfter: Int?, message: String)
        /// A 200 whose body stops halfway (Content-Length says more; the connection closes).
        case truncated
    }

    /// One request the server answered.
    public struct Request: Sendable, Equatable {
        public var number: Int
        public var start: String
        public var end: String
        public var status: Int
        public var count: Int
        public var userAgent: String
    }

    /// Serves `catalogue` (FDSN text with a header line) from a fresh directory `directory`.
    public convenience init(fdsnCatalogue catalogue: URL, limit: Int, faults: [Int: Fault] = [:], in directory: URL) throws {
        // The same server quakebench's fetch row uses.
        let script = SharedData.repositoryRoot.appendingPathComponent("Benchmarks/peers/fdsnws_server.py")
        var plan: [String: [String: Any]] = [:]
        for (number, fault) in faults {
            switch fault {
            case .status(let status, let retryAfter, let message):
                var entry: [String: Any] = ["status": status, "message": message]
                if let retryAfter { entry["retry_after"] = retryAfter }
                plan[String(number)] = entry
            case .truncated:
                plan[String(number)] = ["truncate": true]
            }
        }
        let faultsFile = directory.appendingPathComponent("faults.json")
        try JSONSerialization.data(withJSONObject: plan).write(to: faultsFile)
        let log = directory.appendingPathComponent("requests.jsonl")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        try self.init(directory: directory, output: directory.appendingPathComponent("server-output.txt").path) { port in
            ["python3", script.path, catalogue.path, String(port), String(limit), faultsFile.path, log.path]
        }
    }

    /// The requests answered so far, in order.
    public var requests: [Request] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("requests.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Request(number: object["n"] as? Int ?? 0, start: object["start"] as? String ?? "",
                           end: object["end"] as? String ?? "", status: object["status"] as? Int ?? 0,
                           count: object["count"] as? Int ?? 0, userAgent: object["ua"] as? String ?? "")
        }
    }

    public var fdsnBaseURL: String { "\(baseURL)/fdsnws/event/1/query" }

}
