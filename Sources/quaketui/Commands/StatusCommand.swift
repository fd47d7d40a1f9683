import Foundation
import QuakeFeed
import QuakeModel
import QuakeScenes
import QuakeStore
import QuakeTUI

/// `quaketui status [--format FMT]`: one short line for tmux's `status-right`.
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Print one short line about the quake that matters now (for tmux's status-right).",
        usage: ["status [--format <text>] [--at <time>]"],
        discussion: """
            Prints the alert of the last 24 hours with the strongest shaking predicted at home
            (then the highest PAGER level, then the largest magnitude), else the largest quake
            of the last hour within alertRadius of home (300 km when unset), as one line:
            M5.6 21 km N · VI · 3m. Prints nothing when there is nothing to say, or while the
            store holds the bundled sample. An alert is a quake that meets alertMagnitude,
            alertRadius or alertIntensity ('quaketui config'), by its origin time.

            It only reads: the settings and the store, never the network, and never waits on a
            lock (a store busy that instant prints nothing; the next refresh answers). Its query
            is a range of the store's time index, so its cost is the quakes of the last 24
            hours, not the store's size. In ~/.tmux.conf:

              set -g status-interval 15
              set -g status-right '#(quaketui status)'

            --format takes text with placeholders:
            \(StatusSummary.placeholders.map { "  \($0.0)  \($0.1)" }.joined(separator: "\n"))
            A '#' in a place or code is doubled (tmux shows '##' as '#'), so a feed's text
            cannot style the line. Any other '%' is refused (a usage error). The default is '\(StatusSummary.defaultFormat(hasHome: true))' with a home, '\(StatusSummary.defaultFormat(hasHome: false))' without.
            """,
        options: [
            .init(name: "format", value: "TEXT", help: "The line's layout, with placeholders (see above)."),
            .init(name: "at", value: "TIME", help: "Answer as if it were TIME (ISO 8601, e.g. 2026-01-01T00:00:00Z) instead of now."),
            CommandSpec.stateDir,
        ])

    /// `--format`'s text, each `%` checked against `StatusSummary.placeholders` (nil without it).
    /// - Throws: `UsageError` naming the first `%` that is not a placeholder (`%x`, or a `%`
    ///   that ends the text) and listing the placeholders, rather than printing it as it is.
    static func format(from arguments: ParsedArguments) throws(UsageError) -> String? {
        guard let format = arguments.value("format") else { return nil }
        let known = StatusSummary.placeholders.map(\.0)
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%" else { continue }
            let next = characters.next()
            let placeholder = "%" + (next.map(String.init) ?? "")
            guard !known.contains(placeholder) else { continue }
            let what = next == nil ? "'%' at the end" : "'\(SafeText.sanitize(placeholder))'"
            throw UsageError(message: "--format: \(what) is not a placeholder; use "
                             + known.dropLast().joined(separator: ", ") + " or " + (known.last ?? "") + ".", command: spec)
        }
        return format
    }

    static func run(_ arguments: ParsedArguments) throws {
        let format = try format(from: arguments)
        var now = Date()
        // A quake a little after now: an agency's clock ahead of this one's. None at `--at`, which
        // answers as of that instant.
        var ahead: Int64 = 60_000
        if let text = arguments.value("at") {
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions.insert(.withFractionalSeconds)
            guard let date = ISO8601DateFormatter().date(from: text) ?? fractional.date(from: text) else {
                throw UsageError(message: "'\(SafeText.sanitize(text))' is not a time; use ISO 8601 such as 2026-01-01T00:00:00Z.",
                                 command: spec)
            }
            now = date
            ahead = 0
        }
        let state = try arguments.existingStateDirectory()
        let settings = try AppStorage(state: state, preparing: false)
        try settings.requireReadable()
        let summary = StatusSummary(rule: AlertRule(settings), now: now, miles: settings.value(for: AppKeys.distanceUnit) == "mi")
        let path = state.url.appendingPathComponent(PersistentContainer.fileName).path
        let quakes: [QuakeRecord]
        do {
            // Read-only, and no busy timeout: a lock held that instant is a blank line, not a wait.
            let db = try PersistentContainer.openReader(path: path, busyMilliseconds: 0)
            defer { db.close() }
            if try SampleCatalogue.isSample(db) { return }
            let at = Int64((now.timeIntervalSince1970 * 1000).rounded())
            quakes = try db.quakes(from: at - Int64(StatusSummary.alertWindow * 1000), through: at + ahead,
                                   meeting: summary.candidates)
        } catch let error as SQLiteError where error.isBusy {
            return
        } catch let error as SQLiteError {
            throw StoreError(error, path: path)
        }
        let line = summary.line(for: quakes, format: format)
        if !line.isEmpty { print(line) }
    }
}
