import Foundation

/// Where `import` and `refresh` read from: a path, `-`, or a URL (http, https, file).
public enum FeedLocation: Equatable, Sendable {
    case path(String)
    case standardInput
    case url(URL)

    /// Interprets a command-line argument.
    public init(argument: String) {
        if argument == "-" { self = .standardInput; return }
        if let url = URL(string: argument), let scheme = url.scheme?.lowercased() {
            switch scheme {
            case "http", "https": self = .url(url); return
            case "file": self = .path(url.path); return
            default: break
            }
        }
        self = .path(argument)
    }

    /// The USGS summary feed names: `{significant,4.5,2.5,1.0,all}_{hour,day,week,month}`.
    public static let summaryFeeds: [String] = ["significant", "4.5", "2.5", "1.0", "all"].flatMap { size in
        ["hour", "day", "week", "month"].map { "\(size)_\($0)" }
    }

    /// The URL of a USGS summary feed. `QUAKETUI_FEED_BASE_URL` replaces the USGS base (tests
    /// point it at a local server or a `file://` folder).
    public static func summaryFeedURL(_ feed: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base = environment["QUAKETUI_FEED_BASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary"
        return URL(string: base.hasSuffix("/") ? base + "\(feed).geojson" : base + "/\(feed).geojson")!
    }

    /// Opens a reader for this location; `agency` names the agency of every event
    /// (`import --agency`), nil decides it from the content (``FeedAgency``).
    public func openReader(timeout: TimeInterval = 30, agency: String? = nil) throws(FeedError) -> FeedReader {
        switch self {
        case .path(let path):
            return try FeedReader(source: FeedSource(argument: path), name: path == "-" ? "<stdin>" : path, agency: agency)
        case .standardInput: return try FeedReader(source: .standardInput, name: "<stdin>", agency: agency)
        case .url(let url):
            let stream = try HTTPByteStream(url: url, timeout: timeout)
            return try FeedReader(source: .stream(stream), name: url.absoluteString, agency: agency)
        }
    }
}
