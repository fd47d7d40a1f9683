import Foundation
import QuakeFeed
import QuakeScenes
import QuakeModel
import QuakeStore

/// `quaketui info [--json]`: where the store is and what it holds.
enum InfoCommand {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Show the store's path, counts, time span, sizes and scenes.",
        usage: ["info [--json]"],
        discussion: """
            'sample' says whether the store holds the bundled sample catalogue (synthetic data
            shown on first use) rather than imported feeds; 'quaketui refresh' or 'quaketui
            import' replaces it. 'digest' says whether searches, filters, the map and the
            statistics read the store's digest (current) or use SQL: behind after another
            program wrote to the store (until quaketui's next write), unheld when a row has a
            value it cannot hold, none in a store no quaketui has opened for writing. 'scenes'
            lists the saved scenes (see 'quaketui scenes').
            """,
        options: [CommandSpec.stateDir, CommandSpec.json])

    struct Report: Encodable {
        var stateDirectory: String
        var store: String
        var quakes: Int
        var withNotes: Int
        var oldest: Date?
        var newest: Date?
        var storeBytes: Int64
        var walBytes: Int64
        var schemaVersion: Int
        var historyToken: Int64
        /// The digest's state: "current", "behind", "unheld" or "none" (`DigestState`).
        var digest: String
        /// Rows written by another program that the digest does not hold yet (0 unless "behind").
        var digestBehindRows: Int
        /// Whether the store holds the bundled sample catalogue rather than real data.
        var sample: Bool
        var sceneCount: Int
        /// Scene IDs, sorted.
        var scenes: [String]
    }

    static func run(_ arguments: ParsedArguments) throws {
        let state = try arguments.existingStateDirectory()
        let container = try PersistentContainer(readingFrom: state.url, upgrading: SchemaUpgrade.say)
        defer { container.close() }
        let (stats, sample, digest) = try container.viewContext.read { db in
            (try db.statistics(), try SampleCatalogue.isSample(db), try db.digestState())
        }
        let scenes = try SceneCatalogue(state: state).list()
        let report = Report(
            stateDirectory: state.path, store: container.path, quakes: stats.quakeCount,
            withNotes: stats.withNotes, oldest: stats.oldest, newest: stats.newest,
            storeBytes: fileSize(container.path), walBytes: fileSize(container.path + "-wal"),
            schemaVersion: stats.schemaVersion, historyToken: stats.historyToken.rawValue,
            digest: Self.name(of: digest), digestBehindRows: { if case .behind(let rows) = digest { rows } else { 0 } }(),
            sample: sample, sceneCount: scenes.count, scenes: scenes.map(\.id.rawValue))
        if arguments.has("json") { return try printJSON(report) }
        let source = sample
            ? "the bundled sample catalogue (not real data); run 'quaketui refresh' for the live feed"
            : report.quakes == 0 ? "none yet; run 'quaketui refresh' or 'quaketui import FILE'" : "imported feeds"
        // A few scenes by name; many as a count (`quaketui scenes` lists them, one a line).
        let open = scenes.filter(\.isOpen).count
        let sceneLine = scenes.isEmpty ? "none"
            : scenes.count > ScenesCommand.inlineLimit
            ? "\(CountFormat.grouped(scenes.count)) (\(CountFormat.grouped(open)) open); 'quaketui scenes' lists them"
            : "\(scenes.count): " + scenes.map { scene in
                scene.id.rawValue + (scene.isOpen ? " (open" + (scene.pid.map { " in process \($0)" } ?? "") + ")" : "")
            }.joined(separator: ", ")
        let span = if let oldest = report.oldest, let newest = report.newest {
            "\(iso(oldest)) → \(iso(newest))"
        } else { "—" }
        print("""
            state directory  \(report.stateDirectory)
            store            \(report.store)
            quakes           \(CountFormat.grouped(report.quakes)) (\(CountFormat.grouped(report.withNotes)) with notes)
            data             \(source)
            time span        \(span)
            size             \(byteCount(report.storeBytes)) + \(byteCount(report.walBytes)) WAL
            schema           version \(report.schemaVersion), history token \(report.historyToken)
            digest           \(Self.sentence(for: digest))
            scenes           \(sceneLine)
            """)
    }

    private static func name(of digest: DigestState) -> String {
        switch digest {
        case .current: "current"
        case .behind: "behind"
        case .unheld: "unheld"
        case .absent: "none"
        }
    }

    private static func sentence(for digest: DigestState) -> String {
        switch digest {
        case .current: "current: searches, filters, the map and the statistics read it"
        case .behind(let rows):
            "behind by \(CountFormat.grouped(rows)) rows another program wrote: SQL until quaketui's next write (any import or refresh)"
        case .unheld: "none: a quake has a value it cannot hold (a time stored as text?); searches use SQL"
        case .absent: "none: searches use SQL until quaketui opens the store for writing"
        }
    }

    private static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    private static func byteCount(_ bytes: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes), unit = 0
        while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f %@", value, units[unit])
    }

    private static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
