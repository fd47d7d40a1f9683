import Foundation
import QuakeModel

/// While you were away (issue 55): when a scene comes back — every relaunch, and its pane
/// regaining focus after `LiveState.awayAfter` (10 minutes) or more without it — one status line
/// says what arrived since the scene last showed arrivals to someone looking
/// (`Since 02:14: 38 new, largest M 6.1 Vanuatu, 1 near home (IV)`), and `n` walks those quakes.
/// An alert among them takes the status line first; the summary then waits in `L`. Nothing is
/// said when nothing arrived.
///
/// Looking means the pane has focus, or the terminal never said otherwise (focus reports, mode
/// 1004, come in as `Action.focusChanged`). The mark of what the scene has shown
/// (`ContentView.lastLooked`) moves on with every arrival read while it is looked at, when focus
/// goes and when the scene comes back; the time is the action's (`now`), never the clock's.
extension BrowserState {
    /// The mark moves to what has been read, at `now` (to the whole second, as it is saved).
    mutating func markLooked() {
        guard let cursor = self.live.readThrough ?? self.live.looked?.cursor else { return }
        self.live.looked = LiveState.Looked(cursor: cursor,
                                           time: Date(timeIntervalSince1970: self.now.timeIntervalSince1970.rounded(.down)))
    }

    /// `Action.focusChanged`: focus going starts counting what arrives; focus coming back after
    /// `awayAfter` or more is a coming back, and sooner only moves the mark.
    mutating func changeFocus(_ gained: Bool) {
        if !gained {
            guard self.live.hasFocus else { return }
            markLooked()
            self.live.hasFocus = false
            self.live.focusLostAt = self.now
            self.live.away = AwaySummary(since: self.live.looked?.time ?? self.now)
            return
        }
        let wasAway = self.live.focusLostAt.map { self.now.timeIntervalSince($0) >= self.live.awayAfter } ?? false
        self.live.hasFocus = true
        self.live.focusLostAt = nil
        if wasAway {
            comeBack()
        } else {
            self.live.away = nil
            markLooked()
        }
    }

    /// Takes in what arrived (`receive`, after its marks and alerts) for the summary: at a
    /// relaunch (`isLaunch`) the quakes after the mark, said at once; without focus, counted; with
    /// focus, the mark moves on. A walk after a summary takes in what arrives after it.
    mutating func noteArrivals(_ arrivals: QuakeArrivals, alerts: [AlertRule.Alert], isLaunch: Bool) {
        if var walk = self.live.walk {
            let before = walk.codes.count
            walk.codes.removeAll { arrivals.removed.contains($0) }
            walk.count -= before - walk.codes.count
            for quake in arrivals.quakes where walk.codes.count < LiveState.maximumTracked { walk.codes.append(quake.code) }
            walk.count = max(walk.codes.count, walk.count + arrivals.count)
            self.live.walk = walk
        }
        self.live.away?.remove(arrivals.removed)
        if isLaunch {
            // A scene file from before the mark existed: the scene looks now, and says nothing.
            guard let looked = self.live.looked else { return markLooked() }
            var away = AwaySummary(since: looked.time)
            let since = arrivals.sinceLooked ?? (arrivals.quakes, arrivals.count)
            away.add(since.quakes, count: since.count, home: self.settings.home, nearRadius: self.settings.nearRadius)
            let untracked = arrivals.sinceLooked == nil ? arrivals.untracked : arrivals.untrackedSinceLooked
            away.add(untracked: untracked.summary)
            let codes = Set(away.codes).union(untracked.alerting.map(\.code))
            away.alerts = alerts.filter { codes.contains($0.code) }
            self.live.away = away
            comeBack()
        } else if !self.live.hasFocus, var away = self.live.away {
            away.add(arrivals.quakes, count: arrivals.count, home: self.settings.home, nearRadius: self.settings.nearRadius)
            away.add(untracked: arrivals.untracked.summary)
            away.alerts += alerts
            self.live.away = away
        } else {
            markLooked()
        }
    }

    /// The scene comes back: the summary of what arrived while it was away, if anything did, on
    /// the status line — or, when some of it alerted, the alert that matters most there and the
    /// summary in the log — and `n` walks those quakes. The mark moves to now.
    mutating func comeBack() {
        defer {
            self.live.away = nil
            markLooked()
        }
        guard let away = self.live.away,
              let sentence = away.sentence(homeName: self.settings.homeName, now: self.now, timeZone: self.settings.resolvedTimeZone)
        else { return }
        self.live.walk = away.codes.isEmpty ? nil : LiveState.Walk(codes: away.codes, since: away.since, count: away.count)
        let ranked = AlertRule.ranked(away.alerts)
        if let lead = ranked.first {
            // The alerts were logged as they came: the summary joins them, the lead speaks again.
            self.messageLog.append(sentence, isError: false, at: self.now)
            self.status.message = lead.sentence(miles: self.settings.distanceUnit == .mi, homeName: self.settings.homeName)
                + (ranked.count > 1 ? " (+\(ranked.count - 1) more: L, n)" : "")
            self.status.isError = true
        } else {
            self.status.message = sentence
            self.status.isError = false
        }
    }
}
