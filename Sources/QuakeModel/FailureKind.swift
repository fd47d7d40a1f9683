/// What kind of failure ended a download or the import of a feed: the few words the status
/// line gives it, decided where the failure is known, never guessed from its sentence.
///
/// `quaketui-http` names the kind of a transport failure in its error line
/// (`{"error":"…","kind":"timedOut"}`, from the URLSession error or its own limits); `FeedError.kind`
/// gives the kind of every other failure (an HTTP status, a missing file, a broken feed); the
/// automatic refresh keeps ``token`` in `refresh.plist` (`lastErrorKind`) for every pane.
///
/// ```swift
/// FailureKind(token: "timedOut")?.words   // "timed out"
/// FailureKind.http(503).words             // "HTTP 503"
/// ```
public enum FailureKind: Sendable, Equatable, Hashable {
    /// The server answered with this status (not 2xx or 304).
    case http(Int)
    /// The connection was refused.
    case serverDown
    /// The host name could not be resolved.
    case dnsFailure
    /// No network at all.
    case offline
    /// The server did not answer, sent nothing for the stall limit, or was too slow.
    case timedOut
    /// The TLS handshake or the certificate failed.
    case tlsFailure
    /// The connection broke off (a reset) before the whole response came.
    case connectionReset
    /// A `file://` mirror's file does not exist.
    case noSuchFile
    /// The body is not a feed: truncated, malformed, not a catalogue (an HTML page), a bomb, or
    /// past the size a download may bring (`QUAKETUI_MAX_DOWNLOAD_MIB`); its sentence says which.
    case badFeed

    /// The status line's words: `HTTP 503`, `server down`, `timed out`, …
    public var words: String {
        switch self {
        case .http(let status): "HTTP \(status)"
        case .serverDown: "server down"
        case .dnsFailure: "DNS failure"
        case .offline: "offline"
        case .timedOut: "timed out"
        case .tlsFailure: "TLS failure"
        case .connectionReset: "connection reset"
        case .noSuchFile: "no such file"
        case .badFeed: "bad feed"
        }
    }

    /// Whether the network (or the server on it) was not reached: to a user, offline.
    public var isUnreachable: Bool {
        switch self {
        case .serverDown, .dnsFailure, .offline, .timedOut, .tlsFailure: true
        case .http, .connectionReset, .noSuchFile, .badFeed: false
        }
    }

    /// The kind as `quaketui-http` writes it and `refresh.plist` keeps it: `timedOut`, `http 503`.
    public var token: String {
        switch self {
        case .http(let status): "http \(status)"
        case .serverDown: "refused"
        case .dnsFailure: "dns"
        case .offline: "offline"
        case .timedOut: "timedOut"
        case .tlsFailure: "tls"
        case .connectionReset: "reset"
        case .noSuchFile: "noSuchFile"
        case .badFeed: "badFeed"
        }
    }

    /// The kind a ``token`` names; nil for any other text (a file from another version).
    public init?(token: String) {
        if token.hasPrefix("http "), let status = Int(token.dropFirst(5)), (100...999).contains(status) {
            self = .http(status)
            return
        }
        let named: [FailureKind] = [.serverDown, .dnsFailure, .offline, .timedOut, .tlsFailure, .connectionReset, .noSuchFile, .badFeed]
        guard let kind = named.first(where: { $0.token == token }) else { return nil }
        self = kind
    }
}
