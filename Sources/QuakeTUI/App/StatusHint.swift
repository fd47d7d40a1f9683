/// A key's short hint on the status line (`j/k move`), carried by the table entry that binds the
/// key (`KeyBinding.hints`), so the status line, like `?`, says only what the table binds. The
/// status line shows the hints of the mode that has the keys (`StatusLineView.hintMode`), as many
/// as fit its width.
///
/// ```swift
/// StatusHint("j/k", "move", in: .list, priority: 1)
/// StatusHint("?", "help", in: .list, .detail, place: .kept)
/// ```
public struct StatusHint: Sendable, Equatable {
    /// Where a hint goes on the line and when it gives way.
    public enum Place: Sendable, Equatable {
        /// With the mode's other hints, left to right from priority 1; when the line is short, the
        /// highest number gives way first.
        case priority(Int)
        /// Last on the line, whatever else gives way, and beside a message too (`? help`, the key
        /// to every other key).
        case kept
        /// Only beside a message cut at the line's width, before the kept hints (`L whole message`).
        case besideCutMessage
    }

    /// The keys as the line spells them: a key's name (`Enter`, `ctrl-w`), `j/k` for either,
    /// `↑↓` or `←→` for a pair of arrows, `1-3` for a run of digits (a test reads them back).
    public var keys: String
    public var action: String
    /// The modes whose status line shows it; the keys mean the entry's action there.
    public var modes: [KeyMode]
    public var place: Place
    /// Only while the detail view shows this tab (`e edit` on Notes).
    public var tab: DetailTab?

    public init(_ keys: String, _ action: String, in modes: KeyMode..., priority: Int, tab: DetailTab? = nil) {
        self.init(keys, action, modes: modes, place: .priority(priority), tab: tab)
    }

    public init(_ keys: String, _ action: String, in modes: KeyMode..., place: Place) {
        self.init(keys, action, modes: modes, place: place, tab: nil)
    }

    init(_ keys: String, _ action: String, modes: [KeyMode], place: Place, tab: DetailTab?) {
        self.keys = keys
        self.action = action
        self.modes = modes
        self.place = place
        self.tab = tab
    }

    /// Whether the line shows it in `mode`, the detail view (if any) on `tab`.
    public func isShown(in mode: KeyMode, tab: DetailTab?) -> Bool {
        modes.contains(mode) && (self.tab == nil || self.tab == tab)
    }
}
