import Foundation

/// The scene-storage keys of SPEC §4.1, a public file format: never rename them.
///
/// ```swift
/// let code = storage.value(for: SceneKeys.selectedQuake)   // "" when nothing is selected
/// ```
public enum SceneKeys {
    /// The sort orders, in the order `s` cycles through them.
    public static let sortOrders = ["time", "magnitude", "region", "depth", "distance", "intensity"]
    /// The detail view's tabs, in order.
    public static let tabs = ["detail", "map", "notes", "reports"]

    /// `ContentView.selectedQuake`: code of the selected quake; "" for none.
    public static let selectedQuake = SceneKey<String>("ContentView.selectedQuake", default: "")
    /// `ContentView.sortOrder`: `time` (default), `magnitude`, `region`, `depth`, `distance` or `intensity` (from home;
    /// restored without a home, the browser falls back to `time` and says so).
    public static let sortOrder = SceneKey<String>("ContentView.sortOrder", default: "time",
                                                   isValid: { sortOrders.contains($0) })
    /// `ContentView.sortAscending`: the direction. Its default depends on the sort order, see
    /// ``defaultSortAscending(for:)``; read it with `storage.value(for:)` of
    /// ``sortAscendingKey(for:)`` to get the right default.
    public static let sortAscending = SceneKey<Bool>("ContentView.sortAscending", default: false)
    /// `ContentView.searchText`: the search field's text.
    public static let searchText = SceneKey<String>("ContentView.searchText", default: "")
    /// `ContentView.collapsedSections`: identifiers of collapsed sections.
    public static let collapsedSections = SceneKey<[String]>("ContentView.collapsedSections", default: [])
    /// `ContentView.topQuake`: code of the first visible row; "" for the top.
    public static let topQuake = SceneKey<String>("ContentView.topQuake", default: "")
    /// `ContentView.selectedSection`: identifier of the section whose header is selected; "" when
    /// a quake row is selected (then `selectedQuake` says which).
    public static let selectedSection = SceneKey<String>("ContentView.selectedSection", default: "")
    /// `ContentView.selectionLine`: the selection's line in the list pane (0 = its first line),
    /// so the list comes back at the same scroll offset; missing in files from before it existed.
    public static let selectionLine = SceneKey<Int?>("ContentView.selectionLine", default: nil,
                                                     isValid: { ($0 ?? 0) >= 0 && ($0 ?? 0) < 10_000 })
    /// `ContentView.isSearching`: the search field has focus (typing edits it).
    public static let isSearching = SceneKey<Bool>("ContentView.isSearching", default: false)
    /// `ContentView.searchCursor`: where typing inserts in the search, in characters; nil (files
    /// from before it existed) at the end.
    public static let searchCursor = SceneKey<Int?>("ContentView.searchCursor", default: nil,
                                                    isValid: { ($0 ?? 0) >= 0 && ($0 ?? 0) < 100_000 })
    /// `ContentView.isHelpPresented`: the help overlay is open.
    public static let isHelpPresented = SceneKey<Bool>("ContentView.isHelpPresented", default: false)
    /// `ContentView.helpOffset`: the first help entry shown on a terminal too short for all of them.
    public static let helpOffset = SceneKey<Int>("ContentView.helpOffset", default: 0,
                                                 isValid: { $0 >= 0 && $0 < 1_000 })
    /// `ContentView.overlayFind`: what `/` finds in the open help or message log (only the lines
    /// holding it show; "" for all).
    public static let overlayFind = SceneKey<String>("ContentView.overlayFind", default: "",
                                                     isValid: { $0.count <= 200 })
    /// `ContentView.isOverlayFinding`: that text is being typed.
    public static let isOverlayFinding = SceneKey<Bool>("ContentView.isOverlayFinding", default: false)
    /// `DetailView.isPresented`: whether the detail view is open.
    public static let detailIsPresented = SceneKey<Bool>("DetailView.isPresented", default: false)
    /// `DetailView.selectedTab`: `detail` (default), `map` or `notes`.
    public static let selectedTab = SceneKey<String>("DetailView.selectedTab", default: "detail",
                                                     isValid: { tabs.contains($0) })
    /// `MapView.zoom`: the Map tab's scale: `world` (default), `region` or `local`.
    public static let mapZoom = SceneKey<String>("MapView.zoom", default: "world",
                                                 isValid: { ["world", "region", "local"].contains($0) })
    /// `StatsView.isPresented`: whether the statistics view (`=`) is open.
    public static let statsIsPresented = SceneKey<Bool>("StatsView.isPresented", default: false)
    /// `SequenceView.mainshock`: the code of the quake whose sequence the sequence view (`A`)
    /// shows; "" while it is closed.
    public static let sequenceMainshock = SceneKey<String>("SequenceView.mainshock", default: "",
                                                           isValid: { $0.unicodeScalars.count <= 256 })
    /// `ContentView.declustering`: the list declustered (`:decluster gk`, issue 54): `gk`,
    /// `reasenberg`, or "" for every quake.
    public static let declustering = SceneKey<String>("ContentView.declustering", default: "",
                                                      isValid: { ["", "gk", "reasenberg"].contains($0) })
    /// `ContentView.nearHome`: the near-home filter (`~`): only quakes within `nearRadius` of `home`.
    public static let nearHome = SceneKey<Bool>("ContentView.nearHome", default: false)
    /// `EditView.draft`: an unsaved notes edit `{code, text, cursor}`; nil for none.
    public static let editDraft = SceneKey<EditDraft?>("EditView.draft", default: nil)
    /// `ContentView.seenArrival`: where the scene last looked at new quakes `{token, maxID}`;
    /// quakes inserted after it are marked new. nil for a scene that has not looked yet.
    public static let seenArrival = SceneKey<SeenArrival?>("ContentView.seenArrival", default: nil)
    /// `ContentView.lastLooked`: where arrivals stood, and when, the last time the scene showed
    /// them to someone looking `{token, maxID, time}`; what arrived after it is summarised when the
    /// scene comes back (a relaunch, focus after a while away). nil for a scene that has not looked yet.
    public static let lastLooked = SceneKey<LookedArrival?>("ContentView.lastLooked", default: nil)

    /// `ContentView.filters`: the `:` command line's active filters (`depth 0-70`, `since 24h`,
    /// `time 2025-01-01..2025-02-01`, `type !quarry blast`, `alert orange`, `felt`).
    public static let filters = SceneKey<[String]>("ContentView.filters", default: [],
                                                   isValid: { $0.count < 100 })
    /// `ContentView.commandHistory`: the command lines run in this scene, oldest first (at most 50).
    public static let commandHistory = SceneKey<[String]>("ContentView.commandHistory", default: [],
                                                          isValid: { $0.count <= 1_000 })

    /// `ContentView.isMessageLogPresented`: the message log (`L`) is open.
    public static let isMessageLogPresented = SceneKey<Bool>("ContentView.isMessageLogPresented", default: false)
    /// `ContentView.messageLogOffset`: how far the open log is scrolled from its newest line.
    public static let messageLogOffset = SceneKey<Int>("ContentView.messageLogOffset", default: 0,
                                                       isValid: { $0 >= 0 && $0 < 100_000 })
    /// `ContentView.messageLog`: the log's newest entries `{time, text, isError}`, oldest first (at
    /// most ``messageLogLimit``, each cut at ``messageLogTextLimit`` characters: the file stays small).
    public static let messageLog = SceneKey<[LoggedMessage]>("ContentView.messageLog", default: [],
                                                             isValid: { $0.count <= messageLogLimit })
    public static let messageLogLimit = 50
    public static let messageLogTextLimit = 300
    /// `ContentView.commandLine`: the `:` line being typed `{text, cursor}`; absent when closed.
    public static let commandLine = SceneKey<CommandLineDraft?>("ContentView.commandLine", default: nil,
                                                                isValid: { ($0?.text.count ?? 0) <= 1_000 })
    /// `ContentView.alertedQuakes`: codes of the quakes whose alert this scene has shown (newest
    /// last, at most ``alertedLimit``): a relaunch does not show them again.
    public static let alertedQuakes = SceneKey<[String]>("ContentView.alertedQuakes", default: [],
                                                         isValid: { $0.count <= alertedLimit })
    public static let alertedLimit = 200
    /// `ContentView.showsColumnHeaders`: the row naming the list's columns is on or off, as set
    /// with `c`; absent until then, when it shows on terminals of 20 rows or more.
    public static let showsColumnHeaders = SceneKey<Bool?>("ContentView.showsColumnHeaders", default: nil)

    /// Newest / largest first for `time` and `magnitude`, A→Z for `region` (SPEC §4.1), nearest first for `distance`.
    public static func defaultSortAscending(for sortOrder: String) -> Bool {
        sortOrder == "region" || sortOrder == "depth" || sortOrder == "distance"
    }

    /// `ContentView.sortAscending` with the default that fits `sortOrder`.
    public static func sortAscendingKey(for sortOrder: String) -> SceneKey<Bool> {
        SceneKey<Bool>(sortAscending.name, default: defaultSortAscending(for: sortOrder))
    }

    /// The name of every key above: the one list (``AppState`` saves each of them, which a
    /// test checks against this list).
    public static var names: [String] { checks.map(\.name) }

    /// Checks for every key above, applied when a scene file is loaded.
    static let checks: [KeyCheck] = [
        KeyCheck(selectedQuake), KeyCheck(sortOrder), KeyCheck(sortAscending), KeyCheck(searchText),
        KeyCheck(collapsedSections), KeyCheck(topQuake), KeyCheck(detailIsPresented),
        KeyCheck(selectedTab), KeyCheck(editDraft), KeyCheck(selectedSection), KeyCheck(selectionLine),
        KeyCheck(isSearching), KeyCheck(searchCursor), KeyCheck(isHelpPresented), KeyCheck(helpOffset),
        KeyCheck(filters), KeyCheck(commandHistory), KeyCheck(seenArrival), KeyCheck(nearHome),
        KeyCheck(isMessageLogPresented), KeyCheck(messageLogOffset), KeyCheck(messageLog), KeyCheck(commandLine),
        KeyCheck(alertedQuakes), KeyCheck(showsColumnHeaders), KeyCheck(statsIsPresented), KeyCheck(mapZoom),
        KeyCheck(sequenceMainshock), KeyCheck(lastLooked),
        KeyCheck(overlayFind), KeyCheck(isOverlayFinding), KeyCheck(declustering),
    ]
}
