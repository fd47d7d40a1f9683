import Foundation
import QuakeScenes
import QuakeStore

/// New-quake marks, jumps between them and alerts (issue 13); see ``LiveState`` for what
/// "looked" means.
extension BrowserState {
    /// Takes in quakes that arrived; returns an `.alert` effect for each that meets the rule.
    mutating func receive(_ arrivals: QuakeArrivals) -> [Effect] {
        guard self.live.seen != nil else {
            // The scene's first look: everything stored so far counts as seen.
            self.live.seen = arrivals.cursor
            self.live.readThrough = arrivals.cursor
            return []
        }
        var effects: [Effect] = []
        var alerts: [AlertRule.Alert] = []
        for quake in arrivals.quakes where !self.live.newCodes.contains(quake.code) {
            if self.live.newCodes.count < LiveState.maximumTracked {
                self.live.newCodes.insert(quake.code)
            } else {
                self.live.isOverflowing = true
            }
            // An alert this scene has shown (before a relaunch, say) is not shown again.
            if !self.live.alerted.contains(quake.code), let alert = arrivals.rule.alert(for: quake, now: arrivals.now) {
                alerts.append(alert)
                effects.append(.alert(alert))
                self.live.alerted.append(quake.code)
            }
        }
        self.live.alerted.removeFirst(max(0, self.live.alerted.count - SceneKeys.alertedLimit))
        if arrivals.isTruncated { self.live.isOverflowing = true }
        self.live.readThrough = arrivals.cursor
        // The strongest alert of the batch speaks; every one of them rings and runs the command.
        if let loudest = alerts.max(by: { ($0.magnitude ?? -.infinity) < ($1.magnitude ?? -.infinity) }) {
            self.status.message = loudest.sentence(miles: self.settings.distanceUnit == .mi,
                                                    homeName: arrivals.rule.homeName)
                + (alerts.count > 1 ? " (+\(alerts.count - 1) more)" : "")
            self.status.isError = true
        }
        return effects
    }

    /// `a`: every quake read so far counts as seen; the marks and the header count go.
    mutating func markAllSeen() {
        let count = self.live.newCount
        self.live.seen = self.live.readThrough ?? self.live.seen
        self.live.newCodes = []
        self.live.isOverflowing = false
        self.status.message = count == 0 ? "No new quakes to mark seen"
            : "Marked \(CountFormat.count(count, "new quake")) seen"
    }

    /// `n` / `N`: finds the new quakes in the list (`Effect.queryResults`; a day of a feed is
    /// a few hundred), then `jumpToNewQuake(forward:offsets:)` moves the cursor.
    mutating func jumpToNewQuake(forward: Bool) -> [Effect] {
        guard !self.live.newCodes.isEmpty else {
            self.status.message = "No new quakes; they are marked ● here as they arrive"
            return []
        }
        return queryResults(.locate, locate: self.live.newCodes.sorted(), purpose: .jumpToNew(forward: forward))
    }

    /// The cursor to the next (or previous) of the new quakes at `offsets` (sorted), wrapping around.
    mutating func jumpToNewQuake(forward: Bool, offsets: [Int]) {
        guard let first = offsets.first, let last = offsets.last else {
            self.status.message = "The new quakes are hidden by the search or the magnitude filter"
            return
        }
        let target: Int
        switch layout.line(at: self.cursorLine) {
        case .row(_, let offset)?:
            target = forward ? offsets.first { $0 > offset } ?? first : offsets.last { $0 < offset } ?? last
        case .header(let section)?:
            let start = results.offset(ofSection: section)
            target = forward ? offsets.first { $0 >= start } ?? first : offsets.last { $0 < start } ?? last
        case nil:
            target = forward ? first : last
        }
        jumpCursor(toOffset: target)
        let index = offsets.firstIndex(of: target)! + 1
        self.status.message = "New quake \(CountFormat.grouped(index)) of \(CountFormat.grouped(offsets.count))"
        self.status.isError = false
    }
}
