import Foundation

/// The real USGS feed snapshots in `../shared/data/usgs` (read in place, never copied into the repo).
public enum SharedData {
    /// The repository root, found from this source file's location.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data/usgs` beside the checkout (or `$QUAKETUI_SHARED_DATA`).
    public static let usgsDirectory: URL = {
        if let env = ProcessInfo.processInfo.environment["QUAKETUI_SHARED_DATA"] {
            return URL(fileURLWithPath: env, isDirectory: true)
        }
        return repositoryRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/data/usgs", isDirectory: true)
    }()

    /// `../shared/data/other`: QuakeML and FDSN text samples.
    public static var otherDirectory: URL {
        usgsDirectory.deletingLastPathComponent().appendingPathComponent("other", isDirectory: true)
    }

    /// Every catalogue file in `../shared/data/other`, sorted by name.
    public static func otherFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: otherDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".xml") || $0.hasSuffix(".txt") }.sorted()
            .map { otherDirectory.appendingPathComponent($0) }
    }

    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: usgsDirectory.appendingPathComponent("SOURCES.md").path)
    }

    public static func url(_ name: String) -> URL { usgsDirectory.appendingPathComponent(name) }

    /// Every feed file (GeoJSON, GeoJSONP, CSV), sorted by name.
    public static func feedFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: usgsDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".geojson") || $0.hasSuffix(".geojsonp") || $0.hasSuffix(".csv") }
            .sorted().map(url)
    }
}
