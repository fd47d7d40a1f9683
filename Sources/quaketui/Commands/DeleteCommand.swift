import Foundation
import QuakeFeed
import QuakeModel
import QuakeStore

/// `quaketui delete (--all [--yes] | --before DATE) [--json]`: batch delete without loading rows.
/// `--all` asks first on a terminal (`y` deletes); a script says `--yes`.
enum DeleteCommand {
    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete every quake, or those that happened before a date.",
        usage: ["delete (--all [--yes] | --before <date>) [--json]"],
        discussion: """
            DATE is an ISO-8601 date (2024-05-01, midnight UTC), a date and time
            (2024-05-01T12:00:00Z), or a span before now as fetch takes it (30d, 12h,
            2w, 10y). Notes of deleted quakes are deleted with them.
            --all asks on the terminal first (y deletes, anything else keeps
            them); without a terminal it needs --yes.
            """,
        options: [
            .init(name: "all", value: nil, help: "Delete every quake (asks first on a terminal)."),
            .init(name: "yes", value: nil, help: "With --all: delete without asking (for scripts)."),
            .init(name: "before", value: "DATE", help: "Delete quakes whose origin time is before DATE (2024-05-01, or 30d ago)."),
            CommandSpec.stateDir, CommandSpec.json,
        ])

    struct Report: Encodable {
        var deleted: Int
        /// nil when counting them failed after the delete committed (a warning says so).
        var remaining: Int?
    }

    static func run(_ arguments: ParsedArguments) throws {
        let before = try arguments.value("before").map { text throws(UsageError) in try parseDate(text) }
        switch (arguments.has("all"), before) {
        case (true, .some): throw UsageError(message: "Give either --all or --before, not both.", command: spec)
        case (false, nil): throw UsageError(message: "Say what to delete: --all or --before <date>.", command: spec)
        default: break
        }
        let askFirst = arguments.has("all") && !arguments.has("yes")
        if askFirst, isatty(STDIN_FILENO) != 1 {
            throw UsageError(message: "delete --all asks before deleting every quake, and there is no terminal to ask on: "
                             + "add --yes to delete them all without asking.", command: spec)
        }
        let writableState = try arguments.stateDirectory()
        let container = try PersistentContainer(directory: writableState.url, upgrading: SchemaUpgrade.say)
        container.preferAgencies(state: writableState)
        defer { container.close() }
        if askFirst {
            let stored = try container.viewContext.read { try $0.quakeCount() }
            if stored > 0, !confirm(stored) {
                if arguments.has("json") { return try printJSON(Report(deleted: 0, remaining: stored)) }
                return print("Nothing deleted (\(quakes(stored)) kept).")
            }
        }
        container.onLockWait = WriteLockWait.say
        let context = try container.newBackgroundContext(author: "delete")
        defer { context.close() }
        let deleted = try deleteInBatches(before: before, with: context)
        // Committed: whatever fails after this is a warning, and the command succeeds (issue 29).
        var remaining: Int?
        do {
            remaining = try container.viewContext.read { try $0.quakeCount() }
        } catch {
            let error = (error as? SQLiteError).map { StoreError($0, path: container.url.path) } ?? error
            let report = ErrorPresenter.report(error)
            ErrorPresenter.log(report, context: "delete")
            let what = (error as? StoreError)?.confirmingDamage().whatFailed ?? report.message
            printError("Warning: the delete is committed (\(CountFormat.quakes(deleted)) deleted); only counting the quakes left failed: "
                       + "\(what). Nothing needs to be run again.")
        }
        if arguments.has("json") { return try printJSON(Report(deleted: deleted, remaining: remaining)) }
        print("deleted \(CountFormat.quakes(deleted))" + (remaining.map { " (\(CountFormat.grouped($0)) left)" } ?? ""))
    }

    /// Deletes the quakes, the oldest first, in batches of about 0.2 s of the write lock each
    /// (`BackgroundContext.performInBatches`), so that a notes save or another command waits
    /// for one batch, never for the whole delete (issue 57: 23 s at a million quakes).
    ///
    /// Each batch commits whole. A delete stopped between two (a kill, a failure) leaves the
    /// store as a delete before some earlier time would have: the oldest quakes gone, none
    /// newer than one it kept; running the command again finishes it.
    /// - Throws: the failed batch's error, saying how many were deleted before it.
    static func deleteInBatches(before: Date?, with context: BackgroundContext) throws -> Int {
        // A batch begins once the one before it has committed.
        var committed = 0, pending = 0
        do {
            return try context.performInBatches { tx, rows in
                committed += pending
                pending = 0
                let done = try tx.deleteOldestQuakes(before: before, limit: rows)
                let more = done == rows
                if !more { try SampleCatalogue.forgetIfDeleted(in: tx) }
                pending = done
                return (done, more)
            }
        } catch var error as StoreError where committed > 0 {
            error.kept = "The \(CountFormat.quakes(committed)) deleted before it (the oldest) stay deleted, the rest were not"
            throw error
        }
    }

    /// Asks on the terminal whether to delete all `stored` quakes: `y` (or `yes`) confirms,
    /// anything else, end of input included, does not (as the browser's `Q` asks).
    private static func confirm(_ stored: Int) -> Bool {
        printPrompt("Delete all \(quakes(stored)) and their notes? y deletes, anything else keeps them: ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }

    private static func quakes(_ count: Int) -> String { "\(count.formatted()) \(count == 1 ? "quake" : "quakes")" }

    /// `--before`: a date, a date and time, or a span before now (`30d`), as `fetch --start`
    /// reads them (`FDSNQuery.time`: one reading of a time on the command line).
    static func parseDate(_ text: String, now: Date = Date()) throws(UsageError) -> Date {
        do {
            let ms = try FDSNQuery.time(text, now: Int64(now.timeIntervalSince1970 * 1000))
            return Date(timeIntervalSince1970: Double(ms) / 1000)
        } catch {
            throw UsageError(message: error.description.prefix(1).uppercased() + error.description.dropFirst() + ".", command: spec)
        }
    }
}
