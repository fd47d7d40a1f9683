/// A position in the persistent history: every committed write transaction gets the next one.
public struct HistoryToken: RawRepresentable, Comparable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    /// Before every transaction.
    public static let zero = HistoryToken(rawValue: 0)
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// Where a reader of new quakes stands: the history token it has read through and the largest
/// row id it had seen then. Two integers, so a scene can keep it in its property list.
public struct ArrivalCursor: Hashable, Sendable, Codable {
    public var token: HistoryToken
    public var maxID: Int64

    public init(token: HistoryToken, maxID: Int64) {
        self.token = token
        self.maxID = maxID
    }
}


/// What an event already stored showed before its agencies changed (a report of another agency
/// joined it or one left, `Connection.forEachArrival(…, agencyChanges: true)`): the code of its
/// preferred report then, and how many agencies had reported it. `watch` prints it as
/// `(was [us7000m9g4], 1 ag)` and `"was"`.
public struct EarlierEvent: Hashable, Sendable {
    public var code: String
    public var agencies: Int
    public init(code: String, agencies: Int) {
        self.code = code
        self.agencies = agencies
    }
}
