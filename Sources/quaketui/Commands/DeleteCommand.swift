import Foundation
import QuakeFeed
import QuakeStore

/// `quaketui delete (--all | --before DATE) [--json]`: batch delete without loading rows.
enum DeleteCommand {
    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete every quake, or those that happened before a date.",
        usage: ["delete (--all | --before <date>) [--json]"],
        discussion: """
            DATE is an ISO-8601 date (2024-05-01, midnight UTC) or date and time
            (2024-05-01T12:00:00Z). Notes of deleted quakes are deleted with them.
            """,
        options: [
            .init(name: "all", value: nil, help: "Delete every quake."),
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
        let container = try PersistentContainer(directory: try arguments.stateDirectory().url)
        defer { container.close() }
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
            printError("Warning: the quakes were deleted, but counting those left failed: \(ErrorPresenter.report(error).message)")
        }
        if arguments.has("json") { return try printJSON(Report(deleted: deleted, remaining: remaining)) }
        print("deleted \(CountFormat.quakes(deleted))" + (remaining.map { " (\(CountFormat.grouped($0)) left)" } ?? ""))
    }

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
