import Foundation
import QuakeScenes
import QuakeModel

/// What a scene's storage keys hold (SPEC §4.1 and the README's additions), as values: a change
/// of `sceneValues` means a save is due. The runtime reads and writes them
/// (`Runtime/AppState+SceneStorage.swift`).
extension AppState {
    /// What restoring needs after the results are fetched: the selected row (a quake, or a
    /// section header) and where it was on screen.
    public struct RestoredSelection: Equatable, Sendable {
        public var selectedCode: String?
        public var topCode: String?
        /// The section whose header was selected, if the cursor was on a header.
        public var selectedSection: String?
        /// The selection's line in the list pane; nil for scene files from before it was saved.
        public var selectionLine: Int?

        public init(selectedCode: String? = nil, topCode: String? = nil, selectedSection: String? = nil,
                    selectionLine: Int? = nil) {
            self.selectedCode = selectedCode
            self.topCode = topCode
            self.selectedSection = selectedSection
            self.selectionLine = selectionLine
        }
    }

    /// The scene keys' values as this state would write them; a change means a save is due.
    public struct SceneValues: Equatable, Sendable {
        var sort: QuakeSortDescriptor
        var searchText: String
        var searchCursor: Int
        var isSearching: Bool
        var collapsedSections: Set<String>
        var selectedCode: String?
        var selectedSection: String?
        var selectionLine: Int
        var topCode: String?
        var detailPresented: Bool
        var detailTab: DetailTab
        /// `EditView.draft`: code, text and cursor (not the editor's transient flags).
        var draft: [String]?
        var helpVisible: Bool
        var helpOffset: Int
        var filters: [String]
        var commandHistory: [String]
        var nearHome: Bool
        /// `ContentView.seenArrival`.
        var seenArrival: ArrivalCursor? = nil
        /// `ContentView.lastLooked`.
        var lastLooked: LiveState.Looked? = nil
        var logVisible = false
        var logOffset = 0
        /// `ContentView.messageLog` while the log is open (the newest entries, cut as saved): a
        /// message logged with the log closed waits for the next save (opening the log is one),
        /// so a message alone does not write the scene file.
        var messageLog: [LoggedMessage] = []
        var commandLine: CommandLineDraft? = nil
        var alerted: [String] = []
        var columnHeaders: Bool? = nil
        var statsPresented = false
        var mapZoom = MapZoom.world
        var sequenceMainshock: String? = nil
        var overlayFind = ""
        var isOverlayFinding = false
        /// `ContentView.declustering`.
        var declustering: Declustering? = nil
    }

    public var sceneValues: SceneValues {
        SceneValues(sort: sort, searchText: searchText, searchCursor: search.cursor, isSearching: isSearching, collapsedSections: collapsedSections,
                    selectedCode: selectedCode, selectedSection: selectedSection, selectionLine: selectionLine,
                    topCode: topCode, detailPresented: detailPresented, detailTab: detailTab,
                    draft: editor.map { [$0.code, $0.text, String($0.cursor)] },
                    helpVisible: helpVisible, helpOffset: helpVisible ? helpOffset : 0,
                    filters: filters, commandHistory: commandHistory, nearHome: nearHome, seenArrival: live.seen, lastLooked: live.looked,
                    logVisible: logVisible, logOffset: logVisible ? logOffset : 0, messageLog: logVisible ? savedMessageLog : [],
                    commandLine: commandLine.map { CommandLineDraft(text: $0.text, cursor: $0.cursor) },
                    alerted: live.alerted, columnHeaders: columnHeaders, statsPresented: statistics.isPresented, mapZoom: map.zoom,
                    sequenceMainshock: sequence.mainshock,
                    overlayFind: helpVisible || logVisible ? overlayFind : "",
                    isOverlayFinding: (helpVisible || logVisible) && isOverlayFinding,
                    declustering: decluster.method)
    }

    /// The message log's newest entries as `ContentView.messageLog` keeps them (to the whole
    /// second, as a property list's dates are).
    package var savedMessageLog: [LoggedMessage] {
        messageLog.entries.suffix(SceneKeys.messageLogLimit).map {
            LoggedMessage(time: Date(timeIntervalSince1970: $0.time.timeIntervalSince1970.rounded(.down)), text: String($0.text.prefix(SceneKeys.messageLogTextLimit)), isError: $0.isError)
        }
    }
}
