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
            DATE is an ISO-8601 date (2024-05-01, midnight UTC) or date and time
            (2024-05-01T12:00:00Z). Notes of deleted quakes are deleted with them.
            --all asks on the terminal first (y deletes, anything else keeps
            them); without a terminal it needs --yes.
            """,
        options: [
            .init(name: "all", value: nil, help: "Delete every quake (asks first on a terminal)."),
            .init(name: "yes", value: nil, help: "With --all: delete without asking (for scripts)."),
            .init(name: "before", value: "DATE", help: "Delete quakes whose origin time is before DATE."),
            CommandSpec.stateDir, CommandSpec.json,
        ])

    struct Report: Encodable {
        var deleted: Int
        /// nil when counting them failed after the delete committed (a warning says so).
        var remaining: Int?
    }

    static func run(_ arguments: ParsedArguments) throws {
        let before = try arguments.value("before").map(parseDate)
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
        let container = try PersistentContainer(directory: try arguments.stateDirectory().url, upgrading: SchemaUpgrade.say)
        defer { container.close() }
        if askFirst {
            let stored = try container.viewContext.read { try $0.quakeCount() }
            if stored > 0, !confirm(stored) {
                if arguments.has("json") { return try printJSON(Report(deleted: 0, remaining: stored)) }
                return print("Nothing deleted (\(quakes(stored)) kept).")
            }
        }
        let context = try container.newBackgroundContext(author: "delete")
        defer { context.close() }
        let deleted = try context.performAndWait { tx in
            let deleted = try tx.deleteQuakes(before: before)
            try SampleCatalogue.forgetIfDeleted(in: tx)
            return deleted
        }
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

    /// Asks on the terminal whether to delete all `stored` quakes: `y` (or `yes`) confirms,
    /// anything else, end of input included, does not (as the browser's `Q` asks).
    private static func confirm(_ stored: Int) -> Bool {
        printPrompt("Delete all \(quakes(stored)) and their notes? y deletes, anything else keeps them: ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }

    private static func quakes(_ count: Int) -> String { "\(count.formatted()) \(count == 1 ? "quake" : "quakes")" }

    static func parseDate(_ text: String) throws(UsageError) -> Date {
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        for formatter in [plain, full, day] {
            if let date = formatter.date(from: text) { return date }
        }
        throw UsageError(message: "'\(text)' is not a date; use 2024-05-01 or 2024-05-01T12:00:00Z.", command: spec)
    }
}
