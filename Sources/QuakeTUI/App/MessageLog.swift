import Foundation
import QuakeScenes

/// Every one-shot message the status line showed (notices, errors, refresh results), with its
/// time: a message replaced by the next one, or cut at the pane's width, can be read whole with
/// `L` (as k9s and lazygit keep theirs). Kept for the session, the newest last; the newest
/// entries are also scene state (`ContentView.messageLog`), so an open log comes back as it was.
public struct MessageLog: Equatable, Sendable {
    /// One message and when it was shown: the value the scene stores, too.
    public typealias Entry = LoggedMessage

    /// The oldest entries go first past this many.
    public static let limit = 500

    public private(set) var entries: [Entry] = []

    public init() {}

    /// A log holding `entries` (restored from `ContentView.messageLog`), the newest last.
    public init(entries: [Entry]) {
        self.entries = Array(entries.suffix(Self.limit))
    }

    public mutating func append(_ text: String, isError: Bool, at time: Date) {
        entries.append(Entry(time: time, text: text, isError: isError))
        if entries.count > Self.limit { entries.removeFirst(entries.count - Self.limit) }
    }
}
