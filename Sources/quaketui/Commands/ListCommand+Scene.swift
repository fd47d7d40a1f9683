import Foundation
import QuakeModel
import QuakeScenes
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// `list --scene ID`: what a scene's pane shows (issue 56.11), read from its saved keys and the
/// app settings the way a relaunch of the scene reads them (`AppState.restore(from:now:)`), and
/// asked for with the pane's own request (`AppState.request`).
extension ListCommand {
    /// The options that choose what is listed, which a scene decides itself.
    static let sceneDecides = ["sort", "ascending", "descending", "search", "min-magnitude", "min-intensity", "near", "radius",
                               "decluster"] + FilterFlags.flags.map(\.flag)

    static func runScene(_ text: String, _ arguments: ParsedArguments, limit: Int) throws {
        if let other = sceneDecides.first(where: { arguments.value($0) != nil || arguments.has($0) }) {
            throw UsageError(message: "--scene lists what the scene shows, with its own filters and sort; drop --\(other), "
                             + "or drop --scene and give the filters yourself.", command: spec)
        }
        let id = try SceneID(validating: text)
        let state = try arguments.resolvedStateDirectory()
        let settings = try AppStorage(state: state, preparing: false)
        try settings.requireReadable()
        let scene = try sceneState(id, in: state, settings: AppSettings(settings),
                                   now: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
        try arguments.requireStore(in: state)
        try list(scene.request, origin: scene.settings.home, home: scene.settings.home, in: state, limit: limit, declustering: nil, arguments: arguments) { container in
            let stored = try container.viewContext.read { try $0.statistics().quakeCount }
            guard stored > 0 else {
                return "The store is empty. Run 'quaketui refresh' to download the USGS month feed, or 'quaketui import FILE'."
            }
            return "Scene \(id) shows none of the \(CountFormat.grouped(stored)) stored quakes: \(narrowing(scene))."
        }
    }

    /// Scene `id` as a relaunch restores it: its `request` is what its pane asks for.
    /// - Throws: ``QuakeScenesError`` `sceneNotFound` for a scene the state directory knows nothing of.
    static func sceneState(_ id: SceneID, in state: StateDirectory, settings: AppSettings, now: Int64) throws -> AppState {
        var scene = AppState(sceneID: id.rawValue, settings: settings)
        switch try SavedScene.read(id, in: state) {
        case .unknown:
            throw QuakeScenesError(.sceneNotFound, path: state.scenesPath, sceneID: id.rawValue)
        case .pending(let quake):
            printError("Scene \(id) has not started yet (\(quake.map { "'quaketui open' sent it \(SafeText.sanitize($0))" } ?? "a quake waits for it")): "
                       + "it will show the whole list, as listed here.")
        case .saved(let saved):
            _ = scene.restore(from: saved, now: now)
        }
        return scene
    }

    /// What narrows a scene's list, for the sentence of an empty one.
    private static func narrowing(_ scene: AppState) -> String {
        var parts: [String] = []
        if !scene.searchText.isEmpty { parts.append("the search '\(SafeText.sanitize(scene.searchText))'") }
        if let minimum = scene.settings.minimumMagnitude { parts.append("M \(MagnitudeBin.threshold(minimum)) and up (m)") }
        if !scene.filters.isEmpty { parts.append(scene.filters.map { ":" + SafeText.sanitize($0) }.joined(separator: ", ")) }
        if scene.nearHome { parts.append("near home (~)") }
        return parts.isEmpty ? "it filters nothing" : "it keeps only " + parts.joined(separator: ", ")
    }
}
