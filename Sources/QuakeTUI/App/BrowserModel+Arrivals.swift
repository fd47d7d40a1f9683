import Foundation
import QuakeScenes
import QuakeStore

/// New-quake marks, jumps between them and alerts (issue 13); see ``LiveState`` for what
/// "looked" means.
extension BrowserModel {
    /// Takes in quakes that arrived; returns an `.alert` effect for each that meets the rule.
    func receive(_ arrivals: QuakeArrivals) -> [Effect] {
        guard state.live.seen != nil else {
            // The scene's first look: everything stored so far counts as seen.
            state.live.seen = arrivals.cursor
            state.live.readThrough = arrivals.cursor
            return []
        }
        var effects: [Effect] = []
        var alerts: [AlertRule.Alert] = []
        for quake in arrivals.quakes where !state.live.newCodes.contains(quake.code) {
            if state.live.newCodes.count < LiveState.maximumTracked {
                state.live.newCodes.insert(quake.code)
            } else {
                state.live.isOverflowing = true
            }
            // An alert this scene has shown (before a relaunch, say) is not shown again.
            if !state.live.alerted.contains(quake.code), let alert = arrivals.rule.alert(for: quake, now: arrivals.now) {
                alerts.append(alert)
                effects.append(.alert(alert))
                state.live.alerted.append(quake.code)
            }
        }
        state.live.alerted.removeFirst(max(0, state.live.alerted.count - SceneKeys.alertedLimit))
        if arrivals.isTruncated { state.live.isOverflowing = true }
        state.live.readThrough = arrivals.cursor
        // The strongest alert of the batch speaks; every one of them rings and runs the command.
        if let loudest = alerts.max(by: { ($0.magnitude ?? -.infinity) < ($1.magnitude ?? -.infinity) }) {
            state.status.message = loudest.sentence(miles: state.settings.distanceUnit == .mi,
                                                    homeName: arrivals.rule.homeName)
                + (alerts.count > 1 ? " (+\(alerts.count - 1) more)" : "")
            state.status.isError = true
        }
        return effects
    }

    /// `a`: every quake read so far counts as seen; the marks and the header count go.
    func markAllSeen() {
        let count = state.live.newCount
        state.live.seen = state.live.readThrough ?? state.live.seen
        state.live.newCodes = []
        state.live.isOverflowing = false
        state.status.message = count == 0 ? "No new quakes to mark seen"
            : "Marked \(CountFormat.count(count, "new quake")) seen"
    }

    /// `n` / `N`: the cursor to the next (or previous) new quake the list shows, wrapping around.
    func jumpToNewQuake(forward: Bool) throws {
        guard !state.live.newCodes.isEmpty else {
            state.status.message = "No new quakes; they are marked ● here as they arrive"
            return
        }
        // One lookup per new quake: a day of a feed is a few hundred.
        let offsets = try state.live.newCodes.compactMap { try results.offset(ofCode: $0) }.sorted()
        guard let first = offsets.first, let last = offsets.last else {
            state.status.message = "The new quakes are hidden by the search or the magnitude filter"
            return
        }
        let target: Int
        switch layout.line(at: state.cursorLine) {
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
        state.status.message = "New quake \(CountFormat.grouped(index)) of \(CountFormat.grouped(offsets.count))"
        state.status.isError = false
    }

}
