import Foundation
import QuakeScenes
import QuakeModel

/// New-quake marks, jumps between them and alerts (issue 13); see ``LiveState`` for what
/// "looked" means.
extension BrowserState {
    /// Takes in quakes that arrived; returns an `.alert` effect for each that meets the rule.
    mutating func receive(_ arrivals: QuakeArrivals) -> [Effect] {
        guard self.live.seen != nil else {
            // The scene's first look: everything stored so far counts as seen, and as shown.
            self.live.seen = arrivals.cursor
            self.live.readThrough = arrivals.cursor
            markLooked()
            return []
        }
        let isLaunch = self.live.readThrough == nil
        let newBefore = (self.live.newCodes, self.live.newTotal)
        defer {
            // `New quake 3 of 12` counted the new quakes of then: not the ones there are now.
            if (self.live.newCodes, self.live.newTotal) != newBefore, let report = self.status.newQuakeReport,
               self.status.message == report {
                self.status.message = nil
            }
        }
        if let revised = arrivals.revised { self.live.revisedCodes = revised }
        // Quakes deleted since: no longer marked, nor counted.
        self.live.newCodes.subtract(arrivals.removed)
        self.live.newTotal -= arrivals.removed.count
        var effects: [Effect] = []
        var alerts: [AlertRule.Alert] = []
        // An alert this scene has shown (before a relaunch, say, or under another code ComCat
        // merged into this one) is not shown again.
        func check(_ quake: QuakeRecord) {
            let aliases = arrivals.aliases[quake.code] ?? []
            guard !self.live.alerted.contains(quake.code), !aliases.contains(where: self.live.alerted.contains),
                  var alert = arrivals.rule.alert(for: quake, now: arrivals.now) else { return }
            alert.aliases = aliases
            alerts.append(alert)
            effects.append(.alert(alert))
            self.live.alerted.append(quake.code)
        }
        for quake in arrivals.quakes where !self.live.newCodes.contains(quake.code) {
            // Once some are counted but not marked, later ones are not marked either: the count
            // of rows from the first new one is then what holds them all.
            if !self.live.isOverflowing, self.live.newCodes.count < LiveState.maximumTracked {
                self.live.newCodes.insert(quake.code)
            }
            self.live.newTotal += 1
            check(quake)
        }
        // Past the quakes a read keeps, those that alert (counted in `count`, not marked).
        for quake in arrivals.untracked.alerting { check(quake) }
        self.live.newTotal += arrivals.count - arrivals.quakes.count
        if let first = arrivals.firstID { self.live.firstNewID = min(self.live.firstNewID ?? first, first) }
        if let total = arrivals.recountedTotal { self.live.newTotal = total }
        self.live.newTotal = max(self.live.newTotal, self.live.newCodes.count)
        self.live.alerted.removeFirst(max(0, self.live.alerted.count - SceneKeys.alertedLimit))
        self.live.readThrough = arrivals.cursor
        // The alert that matters most speaks (strongest shaking at home, then PAGER level, then
        // magnitude); the others go to the message log (`L`), and `n` walks the new quakes.
        // Every one of them rings and runs the command.
        let ranked = AlertRule.ranked(alerts)
        if let lead = ranked.first {
            let miles = self.settings.distanceUnit == .mi
            for other in ranked.dropFirst().reversed() {
                self.messageLog.append(other.sentence(miles: miles, homeName: arrivals.rule.homeName), isError: true, at: self.now)
            }
            self.status.message = lead.sentence(miles: miles, homeName: arrivals.rule.homeName)
                + (ranked.count > 1 ? " (+\(ranked.count - 1) more: L, n)" : "")
            self.status.isError = true
        }
        noteArrivals(arrivals, alerts: alerts, isLaunch: isLaunch)
        return effects
    }

    /// `a`: every quake read so far counts as seen; the marks and the header count go.
    mutating func markAllSeen() {
        let count = self.live.newCount
        self.live.seen = self.live.readThrough ?? self.live.seen
        self.live.newCodes = []
        self.live.revisedCodes = []
        self.live.newTotal = 0
        self.live.firstNewID = nil
        self.live.walk = nil
        self.status.message = count == 0 ? "No new quakes to mark seen"
            : "Marked \(CountFormat.count(count, "new quake")) seen"
    }

    /// `n` / `N`: asks the results for the next (or previous) new quake from the cursor,
    /// wrapping around (`ResultsQuery.Step.next`); `jumpToNewQuake(_:)` moves the cursor.
    mutating func jumpToNewQuake(forward: Bool) -> [Effect] {
        let walked = self.live.walk.map { Set($0.codes) }.flatMap { $0.isEmpty ? nil : $0 } ?? self.live.newCodes
        guard !walked.isEmpty else {
            self.status.message = self.live.newTotal == 0 ? "No new quakes; they are marked ● here as they arrive"
                : "\(CountFormat.count(self.live.newTotal, "new quake")), too many to mark one by one; a marks them seen"
            return []
        }
        let place: ListPlace = switch layout.line(at: self.cursorLine) {
        case .row(_, let offset)?: results.row(at: offset).map { .row(offset: offset, code: $0.code) } ?? .top
        case .header(let section)?: .header(section: section, start: results.offset(ofSection: section))
        case nil: .top
        }
        return queryResults(.next(among: walked.sorted(), from: place, forward: forward), purpose: .jumpToNew)
    }

    /// The cursor to the new quake `found`, and which of how many it is.
    mutating func jumpToNewQuake(_ found: FoundAmong?) {
        guard let found else {
            let clauses = narrowing.map(\.clause)
            self.status.message = clauses.isEmpty ? "None of the new quakes is in the list any more"
                : "The new quakes are not in the list: it shows only quakes that \(clauses.joined(separator: " and "))"
            return
        }
        jumpCursor(toOffset: found.offset)
        // Past the marked ones (a bulk import), `n` walks those and says how many are new in all;
        // after a summary, the quakes since the time it counted from.
        let marked = if let walk = self.live.walk, !walk.codes.isEmpty {
            (walk.count > walk.codes.count ? " marked" : "")
                + " since " + AwaySummary.time(walk.since, now: self.now, timeZone: self.settings.resolvedTimeZone)
                + (walk.count > walk.codes.count ? " (\(CountFormat.grouped(walk.count)) new)" : "")
        } else {
            self.live.isOverflowing ? " marked (\(CountFormat.grouped(self.live.newTotal)) new)" : ""
        }
        self.status.message = "New quake \(CountFormat.grouped(found.position)) of \(CountFormat.grouped(found.count))\(marked)"
        self.status.newQuakeReport = self.status.message
        self.status.isError = false
    }
}
