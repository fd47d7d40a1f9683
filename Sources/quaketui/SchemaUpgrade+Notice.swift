import QuakeModel
import QuakeStore

extension SchemaUpgrade {
    /// Stores smaller than this upgrade in well under a second: nothing is said.
    static let quietBelow = 100_000

    /// `Upgrading the store (about 1,000,000 quakes) from schema version 6 to 7: once, a few
    /// seconds per million quakes…`; nil for a small store.
    var notice: String? {
        guard quakes >= Self.quietBelow else { return nil }
        return "Upgrading the store (about \(CountFormat.quakes(quakes))) from schema version \(from) to \(to): "
            + "once, a few seconds per million quakes…"
    }

    /// Says a big store's upgrade on stderr as it begins (`PersistentContainer(directory:upgrading:)`):
    /// the browser has not set up the terminal yet, so the line shows in the pane.
    static func say(_ upgrade: SchemaUpgrade) {
        if let notice = upgrade.notice { printError(notice) }
    }
}
