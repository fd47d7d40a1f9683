import Foundation
import QuakeModel

/// The sequence view's update (issue 54): `A` opens the sequence of the selected quake (or
/// closes the view when it shows that quake's already); while it is open, a change in the
/// store computes it again (new aftershocks, a newer forecast), and only the newest answer is kept.
extension BrowserState {
    /// `A`: the selected quake's sequence, in the pane the detail view and the statistics share
    /// (they give way to it); `A` again on the same quake, or `Esc`, closes it.
    mutating func toggleSequence() {
        guard let code = self.selectedCode, case .row = layout.line(at: self.cursorLine), self.sequence.mainshock != code else {
            self.sequence.mainshock = nil
            return
        }
        self.sequence.mainshock = code
        self.detailPresented = false
        self.statistics.isPresented = false
    }

    /// `Esc` while the view is open.
    mutating func closeSequence() { self.sequence.mainshock = nil }

    /// The answer to `Effect.computeSequence(_, _, generation)`: kept only for the newest generation.
    mutating func receiveSequence(generation: Int, _ outcome: Result<AftershockSequence, SequenceUnavailable>) {
        guard generation == self.sequence.generation, self.sequence.isPending else { return }
        self.sequence.isPending = false
        switch outcome {
        case .success(let sequence):
            self.sequence.result = sequence
            self.sequence.failure = nil
        case .failure(let failure):
            self.sequence.result = nil
            self.sequence.failure = failure.message
        }
    }

    /// After every action: `Effect.computeSequence` when the view opened on another mainshock
    /// (the result is dropped) or the store changed (it stays, marked pending, until the new one
    /// arrives); the view closing stops a computation running (`Effect.cancelSequence`).
    mutating func sequenceReads(storeChanged: Bool) -> [Effect] {
        guard let code = self.sequence.mainshock else {
            guard self.sequence.isPending || self.sequence.requested != nil else { return [] }
            let wasPending = self.sequence.isPending
            self.sequence.isPending = false
            self.sequence.requested = nil
            self.sequence.result = nil
            self.sequence.failure = nil
            return wasPending ? [.cancelSequence] : []
        }
        let changed = code != self.sequence.requested
        guard changed || storeChanged else { return [] }
        if changed {
            self.sequence.result = nil
            self.sequence.failure = nil
        }
        self.sequence.requested = code
        self.sequence.generation += 1
        self.sequence.isPending = true
        let now = Int64((self.now.timeIntervalSince1970 * 1000).rounded(.down))
        return [.computeSequence(code: code, now: now, generation: self.sequence.generation)]
    }

    /// The computation a restored open view waits for (after `restore`, as `resumeStatistics`),
    /// its forecast from `now`: no action has come yet to bring the time.
    public mutating func resumeSequence(at now: Date) -> [Effect] {
        self.now = now
        return sequenceReads(storeChanged: false)
    }
}
