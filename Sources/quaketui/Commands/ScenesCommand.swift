import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore

/// `quaketui scenes [list|rm ID...|rm --all|prune --older-than DAYS] [--json]`: the saved scenes.
enum ScenesCommand {
    static let spec = CommandSpec(
        name: "scenes",
        abstract: "List, remove or prune saved scenes (one per pane).",
        usage: ["scenes [list|rm <id>...|rm --all|prune --older-than <days>] [--json]"],
        discussion: """
            Every browser shows one scene and keeps its selection, sort, search and detail tab in
            STATE/scenes/ID.plist. 'list' (the default) shows each scene's ID, when it was last
            used, its selected quake and the process that has it open, if any.

            'rm ID...' deletes those scenes' state, as 'Q' does in the browser; 'rm --all' deletes
            every scene. A scene open in a running browser is not removed: rm says which process
            has it and exits with status 1 (quit that browser first). An invalid or unknown ID is
            a usage error (status 64) and nothing is removed.

            'prune --older-than DAYS' deletes the scenes not used for DAYS days (a decimal number
            of days); open scenes are kept, and prune names them ('kept 1 open scene: ID (process
            PID)'); with nothing to remove it says so.

            --json prints {"scenes":[{"id","lastUsed","selectedQuake","sortOrder","selectedTab",
            "isOpen","pid"}]} for list and {"removed":[ID…],"refused":[{"id","pid"}]} for rm and prune.
            """,
        options: [
            .init(name: "all", value: nil, help: "With rm: remove every scene that is not open."),
            .init(name: "older-than", value: "DAYS", help: "With prune: remove scenes not used for DAYS days."),
            CommandSpec.stateDir, CommandSpec.json,
        ],
        arguments: [
            .init(name: "action", help: "list (the default), rm or prune.", completion: .values(["list", "rm", "prune"])),
            .init(name: "id", help: "With rm: the scenes to remove.", completion: .scenes, isRepeating: true),
        ])

    struct ListReport: Encodable {
        var scenes: [SceneSummary]
    }

    static func run(_ arguments: ParsedArguments) throws {
        var positionals = arguments.positionals
        let action = positionals.isEmpty ? "list" : positionals.removeFirst()
        let json = arguments.has("json")
        if action != "rm", arguments.has("all") {
            throw UsageError(message: "--all goes with 'scenes rm'.", command: spec)
        }
        if action != "prune", arguments.value("older-than") != nil {
            throw UsageError(message: "--older-than goes with 'scenes prune'.", command: spec)
        }
        switch action {
        case "list":
            if let extra = positionals.first {
                throw UsageError(message: "Unexpected argument '\(extra)'.", command: spec)
            }
            let state = try arguments.existingStateDirectory(requiringStore: false)
            let scenes = try SceneCatalogue(state: state).list()
            if json { return try printJSON(ListReport(scenes: scenes)) }
            let settings = try AppStorage(state: state, preparing: false)
            try settings.requireReadable()
            printTable(scenes, timeZone: ListCommand.timeZone(settings.value(for: AppKeys.timeZone)))
        case "rm":
            switch (arguments.has("all"), positionals.isEmpty) {
            case (true, false): throw UsageError(message: "Give either scene IDs or --all, not both.", command: spec)
            case (false, true): throw UsageError(message: "Say which scenes to remove: rm <id>... or rm --all.", command: spec)
            default: break
            }
            // Check every ID before touching anything, so a typo removes nothing.
            for id in positionals { _ = try SceneID(validating: id) }
            let catalogue = SceneCatalogue(state: try arguments.stateDirectory())
            let summary = arguments.has("all") ? try catalogue.removeAll() : try catalogue.remove(positionals)
            if json { try printJSON(summary) } else { printRemoval(summary, verb: "removed", none: summary.refused.isEmpty ? "no scenes to remove" : nil) }
            if !summary.refused.isEmpty { throw CommandError(refusal(summary.refused)) }
        case "prune":
            if let extra = positionals.first {
                throw UsageError(message: "Unexpected argument '\(extra)'.", command: spec)
            }
            guard let text = arguments.value("older-than") else {
                throw UsageError(message: "Say how old: prune --older-than <days>.", command: spec)
            }
            guard let days = Double(text), days.isFinite, days >= 0 else {
                throw UsageError(message: "'\(text)' is not a number of days; use e.g. 30 or 0.5.", command: spec)
            }
            let summary = try SceneCatalogue(state: try arguments.stateDirectory()).prune(olderThanDays: days)
            if json { return try printJSON(summary) }
            // Open scenes are kept, not an error (status 0); the report names them on stdout.
            printRemoval(summary, verb: "pruned", none: summary.refused.isEmpty ? "no scenes unused for \(text) days" : "no scenes pruned")
            if !summary.refused.isEmpty {
                print("kept \(CountFormat.count(summary.refused.count, "open scene")): "
                      + summary.refused.map { "\($0.id) (" + ($0.pid.map { "process \($0)" } ?? "another process") + ")" }.joined(separator: ", "))
            }
        default:
            throw UsageError(message: "Unknown scenes action '\(action)'; use list, rm or prune.", command: spec)
        }
    }

    /// `ID  LAST USED  SELECTED QUAKE  OPEN IN`, one scene a line.
    private static func printTable(_ scenes: [SceneSummary], timeZone: TimeZone) {
        guard !scenes.isEmpty else {
            print("No scenes yet: each 'quaketui' browser saves its scene when it starts.")
            return
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let header = ["ID", "LAST USED", "SELECTED QUAKE", "OPEN IN"]
        let rows = scenes.map { scene in
            [scene.id.rawValue, scene.lastUsed.map(formatter.string(from:)) ?? "—", scene.selectedQuake ?? "—",
             scene.isOpen ? scene.pid.map { "process \($0)" } ?? "a process" : "—"]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            print(cells.joined(separator: "  "))
        }
    }

    /// `removed 2 scenes: a, b`, or `none` (if any) when nothing was removed.
    private static func printRemoval(_ summary: SceneRemovalSummary, verb: String, none: String?) {
        if summary.removed.isEmpty {
            if let none { print(none) }
            return
        }
        print("\(verb) \(CountFormat.count(summary.removed.count, "scene")): " + summary.removed.map(\.rawValue).joined(separator: ", "))
    }

    /// "scene left is open in process 4242; …" (the presenter capitalizes it)
    private static func refusal(_ refused: [SceneRemovalSummary.Refusal]) -> String {
        let scenes = refused.map { "\($0.id) is open in " + ($0.pid.map { "process \($0)" } ?? "another process") }
        return "scene " + scenes.joined(separator: ", scene ") + "; not removed: quit that browser first, or press Q there to close the scene."
    }
}
