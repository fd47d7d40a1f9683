import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore

/// `quaketui open CODE|EVENT-URL [--scene ID] [--json]`: continue a "show this quake" activity
/// in a scene (SPEC §4.3, the `onContinueUserActivity` path).
enum OpenCommand {
    static let spec = CommandSpec(
        name: "open",
        abstract: "Show a quake in a scene: continue an activity from a code or event URL.",
        usage: ["open <code>|<event-url> [--scene <id>] [--json]"],
        discussion: """
            CODE is a quake code as 'list' prints it: a USGS event code (us7000abcd) or another
            agency's (iris:958596, emsc:20240101_0000123); EVENT-URL a USGS event page
            (https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd). The scene selects the
            quake and opens its detail view: within a second if a browser shows the scene now,
            otherwise the next time that scene starts.

            The scene is --scene ID, else $QUAKETUI_SCENE, else this tmux pane's scene
            (tmux-SESSION-WINDOW-PANE), else main — the scene 'quaketui' would open here.

            A code the store does not hold yet is still sent (a later import may bring it); the
            message says so and the exit status is 0. Anything that is neither a code nor an
            event URL is a usage error (status 64).

            --json prints {"code","scene","isOpen","pid","inStore"}.
            """,
        options: [
            .init(name: "scene", value: "ID", help: "The scene to show the quake in (see above for the default).",
                  completion: .scenes),
            CommandSpec.stateDir, CommandSpec.json,
        ],
        arguments: [.init(name: "code", help: "A quake code (us7000abcd, iris:958596) or a USGS event page URL.")])

    struct Report: Encodable {
        var code: String
        var scene: SceneID
        /// Whether a running browser shows the scene (it takes the activity within a second).
        var isOpen: Bool
        var pid: Int32?
        /// Whether the store holds the quake now.
        var inStore: Bool
        /// The code of the event `code` names, when that is another (a report of it, or a code
        /// ComCat merged into it): what the browser shows.
        var event: String?
    }

    static func run(_ arguments: ParsedArguments) throws {
        guard let target = arguments.positionals.first else {
            throw UsageError(message: "Say which quake to open: a code like us7000abcd or a USGS event page URL.",
                             command: spec)
        }
        // Both checks before touching the state directory: a typo changes nothing. A code not
        // shaped like one is still taken when the store holds it (looked up read-only).
        let isStored = { (code: String) -> Bool in
            let state = StateDirectory.resolve(option: arguments.value("state-dir"),
                                               environment: ProcessInfo.processInfo.environment,
                                               currentDirectory: FileManager.default.currentDirectoryPath)
            return (try? storeHolds(code, in: state)) ?? false
        }
        _ = try QuakeCode.parse(target, isStored: isStored)
        let identity = try SceneIdentity.resolve(option: arguments.value("scene"),
                                                 environment: ProcessInfo.processInfo.environment)
        let state = try arguments.stateDirectory()
        let summary = try ActivityCenter(state: state).open(target, in: identity.id, isStored: isStored)
        // The activity is sent: from here on a failure is a warning, never exit 1 (issue 29).
        var inStore = true
        var event: String?
        do {
            event = try storedEvent(summary.code, in: state)
            inStore = event != nil
        } catch {
            printError("Warning: sent \(summary.code), but could not look it up in the store: \(ErrorPresenter.report(error, storePath: state.storeURL.path).message)")
        }
        let report = Report(code: summary.code, scene: summary.scene, isOpen: summary.isOpen, pid: summary.pid,
                            inStore: inStore, event: event == summary.code ? nil : event)
        if arguments.has("json") { return try printJSON(report) }
        print(sentence(report))
    }

    /// Looks the code up without creating a store where there is none.
    private static func storeHolds(_ code: String, in state: StateDirectory) throws -> Bool {
        try storedEvent(code, in: state) != nil
    }

    /// The code of the event `code` names in the store (nil: none), without creating a store
    /// where there is none.
    private static func storedEvent(_ code: String, in state: StateDirectory) throws -> String? {
        guard FileManager.default.fileExists(atPath: state.storeURL.path) else { return nil }
        let container = try PersistentContainer(readingFrom: state.url, upgrading: SchemaUpgrade.say)
        defer { container.close() }
        do {
            return try container.viewContext.read { try $0.eventCode(naming: code) }
        } catch let error as SQLiteError {
            throw StoreError(error, path: state.storeURL.path)
        }
    }

    /// e.g. "sent us7000abcd to scene main, open in process 4242: it shows the quake within a second."
    static func sentence(_ report: Report) -> String {
        var text = "sent \(report.code)" + (report.event.map { " (the quake \($0))" } ?? "") + " to scene \(report.scene)"
        if report.isOpen {
            text += ", open in " + (report.pid.map { "process \($0)" } ?? "another process")
                + ": it shows the quake within a second"
        } else {
            text += ": it shows the quake the next time that scene starts ('quaketui --scene \(report.scene)')"
        }
        if !report.inStore {
            text += "; \(report.code) is not in the store yet, so import or refresh a feed that has it"
        }
        return text + "."
    }
}
