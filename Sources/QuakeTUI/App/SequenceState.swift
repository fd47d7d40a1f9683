import QuakeModel

/// The sequence view (`A`, issue 54): which mainshock's sequence it shows, and the sequence as
/// last computed in the background (`Effect.computeSequence` → `Action.sequenceComputed`).
///
/// As the statistics view's (`StatisticsState`), every request carries a generation and an
/// answer for any other than the newest is dropped.
public struct SequenceState: Equatable, Sendable {
    /// `SequenceView.mainshock`: the code of the quake whose sequence the view shows; nil while
    /// the view is closed (scene state).
    public var mainshock: String?
    /// The generation of the newest request (0: none asked yet).
    public var generation = 0
    /// The mainshock the newest computation is for; nil while the view has never asked.
    public var requested: String?
    /// The sequence of `requested` once computed; nil until then (the view draws `…`).
    public var result: AftershockSequence?
    /// A computation for `generation` is running: the view shows `result` (the same
    /// mainshock's, before the store changed) marked `…`.
    public var isPending = false
    /// Why the last computation gave no sequence (no such quake, no magnitude, a failed read).
    public var failure: String?

    public init() {}

    /// Whether the view is open.
    public var isPresented: Bool { mainshock != nil }
}
