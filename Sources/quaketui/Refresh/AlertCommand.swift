import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// Carries out an alert once across every pane and process on the state directory: the first to
/// claim the quake in `alerts.plist` (``AlertLedger``) runs app storage's `alertCommand`, with the
/// quake as one `watch --json` object (plus `distanceKm` and `bearing` from home when a home is
/// set) and a newline on stdin. The others only show it.
///
/// ```swift
/// if alerts.claim(alert) { terminal.bell(); alerts.run(alert, command: command, container: container) }
/// ```
struct AlertCommand: Sendable {
    let ledger: AlertLedger

    init(state: StateDirectory) { ledger = AlertLedger(state: state) }

    /// True if no other pane or process had alerted for this quake (this one rings and runs).
    func claim(_ alert: AlertRule.Alert) -> Bool {
        (try? ledger.claim(alert.code, aliases: alert.aliases)) ?? false
    }

    /// The quake as the command reads it: `watch --json`'s object, one line, with its reports and
    /// what it predicts at `home`, and the alert's distance and bearing from home.
    static func json(_ alert: AlertRule.Alert, home: GeoPoint?, container: PersistentContainer) throws -> String? {
        let read = try container.viewContext.read { db -> (QuakeRecord, [QuakeRecord])? in
            guard let quake = try db.quake(code: alert.code) else { return nil }
            return (quake.record, try db.reports(ofEvent: quake.record.code))
        }
        guard let (quake, reports) = read else { return nil }
        return try QuakeJSON.arrival(quake, distanceKm: alert.distance, bearing: alert.bearing, home: home, reports: reports).line()
    }

    /// Runs `/bin/sh -c command` with `json` on stdin, in the background; its output is
    /// discarded (the terminal belongs to the browser). `onFailure` gets a sentence when the
    /// command cannot start or exits unsuccessfully.
    static func run(_ command: String, json: String, code: String, onFailure: @escaping @Sendable (String) -> Void) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        // Stdin is a file, not a pipe: a command that never reads it cannot block us, and no
        // write can raise SIGPIPE in the browser. The name goes as soon as the command has it open.
        let path = NSTemporaryDirectory() + "quaketui-alert-\(getpid())-\(UUID().uuidString).json"
        do {
            try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: path))
            defer { unlink(path) }
            guard let input = FileHandle(forReadingAtPath: path) else {
                throw CommandError("cannot read back \(path)")
            }
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try? input.close()
        } catch {
            onFailure("The alert command could not start: \(error). Check it with 'quaketui config alertCommand'.")
            return
        }
        DispatchQueue.global(qos: .utility).async {
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                onFailure("The alert command for quake \(code) exited with status \(process.terminationStatus). "
                          + "Try it by hand with the quake's JSON on stdin ('quaketui watch --json' prints it); "
                          + "'quaketui config alertCommand' shows it.")
            }
        }
    }
}
