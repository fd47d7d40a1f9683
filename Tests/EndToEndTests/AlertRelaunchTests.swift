import Foundation
import Glibc
import QuakeTestSupport
import Testing

/// Issue 28.4 in a real terminal: an alert this scene showed is not shown again when the pane
/// is relaunched after `kill -9` (the relaunch reads the same arrivals again), and the message
/// log left open on it comes back as it was, whole screen.
@Suite(.waitsOnProcesses, .serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct AlertRelaunchTests {
    @Test func anAlertIsShownOnceAndTheLogOpenOnItComesBack() throws {
        let pane = try BrowserPane(columns: 150, rows: 40, scene: "alert")
        defer { pane.close() }
        _ = try pane.settle()
        #expect(try QuaketuiBinary.run(["config", "alertMagnitude", "4"], stateDirectory: pane.dir.url).status == 0)
        let feed = pane.dir.appending("new.geojson")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try HostileInputTests.collection([HostileInputTests.feature("alert1", time: "\(now - 60_000)",
                                                                    place: "12 km SW of Alertville, Chile")])
            .write(to: feed, atomically: true, encoding: .utf8)
        #expect(try QuaketuiBinary.run(["import", feed.path], stateDirectory: pane.dir.url).status == 0)
        let alert = "ALERT M 4.5 12 km SW of Alertville, Chile"
        try pane.tmux.waitForScreen(pane.target, timeout: 20, "the alert") { $0.status.message == alert }
        try pane.send(.keys(["L"]))
        let left = try pane.settle()
        #expect(Screen(left).overlay?.entries.first == alert, "the log shows the alert:\n\(left)")

        for quitting in [false, true] {
            if quitting {
                try pane.send(.keys(["Escape"]))
                _ = try pane.settle()
            }
            try RestoreWalkEndToEndTests.end(pane, quitting: quitting)
            try pane.launch()
            let screen = try pane.settle()
            #expect(Screen(screen).status.message?.hasPrefix("ALERT") != true, "shown again after \(quitting ? "q" : "kill -9"):\n\(screen)")
            if !quitting {
                #expect(RestoreWalkEndToEndTests.masked(screen) == RestoreWalkEndToEndTests.masked(left),
                        "left:\n\(left)\nrelaunched:\n\(screen)")
            }
        }
    }
}
