/// Whether a frame waits for the new-quake marks (issue 52: nothing on screen that is not true).
/// A merge of other processes' commits moves the list and the header's total; the arrivals read
/// after it, on a reader of its own, moves the ● marks and `N new`. A frame drawn between the two
/// would show rows without their marks, and a total that counts quakes `N new` does not. So a
/// frame not drawn for a key waits while the marks are behind the store (a commit noted and not
/// merged yet, or an arrivals read running), `longest` at most each time: a key is never held,
/// and a read slower than that is drawn as it stands.
///
/// A value on the loop's clock (seconds, monotonic), as ``MergePace`` is.
///
/// ```swift
/// var wait = ArrivalsWait()
/// if !wait.holdsFrame(at: now, marksBehind: reading || pace.isPending, afterKey: tookKey) { draw() }
/// ```
public struct ArrivalsWait: Sendable, Equatable {
    /// The most a frame waits: 300 new quakes at 5,000,000 are read in 7 ms.
    public static let longest = 0.25

    /// When the marks fell behind (nil: they are not).
    private var since: Double?

    public init() {}

    /// Whether the frame due at `now` waits; `marksBehind`: the store is ahead of the marks;
    /// `afterKey`: a key was handled in this turn of the loop (its frame is drawn at once).
    public mutating func holdsFrame(at now: Double, marksBehind: Bool, afterKey: Bool) -> Bool {
        guard marksBehind, !afterKey else {
            since = nil
            return false
        }
        let began = since ?? now
        since = began
        return now - began < Self.longest
    }

    /// How long the loop may sleep before a held frame is drawn anyway (nil: none is held).
    public func milliseconds(untilDrawAt now: Double) -> Int? {
        guard let since, now - since < Self.longest else { return nil }
        return Int(((since + Self.longest - now) * 1000).rounded(.up))
    }
}
