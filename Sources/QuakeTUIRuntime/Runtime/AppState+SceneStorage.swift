import Foundation
import QuakeTUI
import QuakeScenes
import QuakeModel
import QuakeStore

/// The scene-storage keys of SPEC §4.1 (and the README's additions) read into and written from
/// `AppState` by the runtime: everything needed to draw the same screen again after a relaunch.
/// What they hold is `AppState.SceneValues`.
///
/// ```swift
/// var state = AppState(sceneID: session.id.rawValue, settings: settings)
/// let restored = state.restore(from: session.storage, now: nowMilliseconds)  // selection and scroll, for BrowserModel.restore
/// …
/// state.save(to: session.storage)                       // on every Effect.saveScene
/// ```
extension AppState {
    /// Reads every scene key into the state. Bad values were already reset by `SceneStorage`.
    /// `now` (ms since the epoch) is when the scene relaunches: `:since` filters count back from it.
    public mutating func restore(from storage: some SceneValueReading, now: Int64) -> RestoredSelection {
        let order = QuakeSortOrder(rawValue: storage.value(for: SceneKeys.sortOrder)) ?? .time
        let ascending = storage.value(for: SceneKeys.sortAscendingKey(for: order.rawValue))
        sort = QuakeSortDescriptor(order, ascending: ascending)
        search = LineEditor(text: storage.value(for: SceneKeys.searchText), cursor: storage.value(for: SceneKeys.searchCursor))
        isSearching = storage.value(for: SceneKeys.isSearching)
        collapsedSections = Set(storage.value(for: SceneKeys.collapsedSections))
        detailTab = DetailTab(rawValue: storage.value(for: SceneKeys.selectedTab)) ?? .detail
        if let draft = storage.value(for: SceneKeys.editDraft) {
            editor = NotesDraft(code: draft.code, text: draft.text, cursor: draft.cursor)
        }
        helpVisible = storage.value(for: SceneKeys.isHelpPresented)
        helpOffset = helpVisible ? storage.value(for: SceneKeys.helpOffset) : 0
        filters = storage.value(for: SceneKeys.filters)
        rowFilters = FilterCommand.rowFilters(filters, now: now, timeZone: settings.resolvedTimeZone, home: settings.home)
        commandHistory = storage.value(for: SceneKeys.commandHistory)
        live.seen = storage.value(for: SceneKeys.seenArrival).map(ArrivalCursor.init)
        live.looked = storage.value(for: SceneKeys.lastLooked).map(LiveState.Looked.init)
        nearHome = storage.value(for: SceneKeys.nearHome)
        messageLog = MessageLog(entries: storage.value(for: SceneKeys.messageLog))
        logVisible = storage.value(for: SceneKeys.isMessageLogPresented)
        logOffset = logVisible ? storage.value(for: SceneKeys.messageLogOffset) : 0
        commandLine = storage.value(for: SceneKeys.commandLine).map { CommandPrompt(text: $0.text, cursor: $0.cursor) }
        live.alerted = storage.value(for: SceneKeys.alertedQuakes)
        columnHeaders = storage.value(for: SceneKeys.showsColumnHeaders)
        statistics.isPresented = storage.value(for: SceneKeys.statsIsPresented)
        let declustering = Declustering(rawValue: storage.value(for: SceneKeys.declustering))
        decluster.method = declustering
        statistics.declustering = declustering
        map.zoom = MapZoom(rawValue: storage.value(for: SceneKeys.mapZoom)) ?? .world
        let mainshock = storage.value(for: SceneKeys.sequenceMainshock)
        sequence.mainshock = mainshock.isEmpty ? nil : mainshock
        let overlay = helpVisible || logVisible
        overlayFind = overlay ? storage.value(for: SceneKeys.overlayFind) : ""
        isOverlayFinding = overlay && storage.value(for: SceneKeys.isOverlayFinding)
        let selected = storage.value(for: SceneKeys.selectedQuake)
        let top = storage.value(for: SceneKeys.topQuake)
        let section = storage.value(for: SceneKeys.selectedSection)
        // Presented only if the selection survives the restore; BrowserModel checks that.
        detailPresented = storage.value(for: SceneKeys.detailIsPresented) && !selected.isEmpty
        return RestoredSelection(selectedCode: selected.isEmpty ? nil : selected, topCode: top.isEmpty ? nil : top,
                                 selectedSection: section.isEmpty ? nil : section,
                                 selectionLine: storage.value(for: SceneKeys.selectionLine))
    }

    /// Writes every scene key in one update (one encoding of the file; coalesced by
    /// `SceneStorage`, on disk within its delay).
    ///
    /// A notes draft too large for the scene file (`SceneStorage.maximumFileSize`: a 1 MB
    /// paste) does not keep the rest of the scene from being saved: it is saved without the
    /// draft, and the answer says so, for the status line (issue 57).
    /// - Returns: what was saved.
    @discardableResult
    public func save(to storage: SceneStorage) throws -> SceneSave {
        // A draft that alone fills the file is not encoded only to be refused, on every key.
        if let editor, editor.text.utf8.count >= SceneStorage.maximumFileSize {
            try save(to: storage, keepingDraft: false)
            return .withoutDraft(characters: editor.text.count)
        }
        do {
            try save(to: storage, keepingDraft: true)
            return .whole
        } catch let error as QuakeScenesError where error.code == .valueTooLarge {
            guard let editor else { throw error }
            // Still too large without the draft: the first error, naming the key that is.
            do { try save(to: storage, keepingDraft: false) } catch { throw error }
            return .withoutDraft(characters: editor.text.count)
        }
    }

    private func save(to storage: SceneStorage, keepingDraft: Bool) throws {
        try storage.update { batch in
            batch.set(sort.order.rawValue, for: SceneKeys.sortOrder)
            batch.set(sort.ascending, for: SceneKeys.sortAscending)
            batch.set(searchText, for: SceneKeys.searchText)
            batch.set(search.cursor, for: SceneKeys.searchCursor)
            batch.set(isSearching, for: SceneKeys.isSearching)
            batch.set(collapsedSections.sorted(), for: SceneKeys.collapsedSections)
            batch.set(selectedCode ?? "", for: SceneKeys.selectedQuake)
            batch.set(selectedSection ?? "", for: SceneKeys.selectedSection)
            batch.set(Optional(max(0, selectionLine)), for: SceneKeys.selectionLine)
            batch.set(topCode ?? "", for: SceneKeys.topQuake)
            batch.set(detailPresented, for: SceneKeys.detailIsPresented)
            batch.set(detailTab.rawValue, for: SceneKeys.selectedTab)
            batch.set(keepingDraft ? editor.map { EditDraft(code: $0.code, text: $0.text, cursor: $0.cursor) } : nil,
                      for: SceneKeys.editDraft)
            batch.set(helpVisible, for: SceneKeys.isHelpPresented)
            batch.set(helpVisible ? helpOffset : 0, for: SceneKeys.helpOffset)
            batch.set(filters, for: SceneKeys.filters)
            batch.set(commandHistory, for: SceneKeys.commandHistory)
            batch.set(live.seen?.seenArrival, for: SceneKeys.seenArrival)
            batch.set(live.looked?.lookedArrival, for: SceneKeys.lastLooked)
            batch.set(nearHome, for: SceneKeys.nearHome)
            batch.set(logVisible, for: SceneKeys.isMessageLogPresented)
            batch.set(logVisible ? logOffset : 0, for: SceneKeys.messageLogOffset)
            batch.set(savedMessageLog, for: SceneKeys.messageLog)
            batch.set(commandLine.map { CommandLineDraft(text: $0.text, cursor: $0.cursor) }, for: SceneKeys.commandLine)
            batch.set(live.alerted, for: SceneKeys.alertedQuakes)
            batch.set(columnHeaders, for: SceneKeys.showsColumnHeaders)
            batch.set(statistics.isPresented, for: SceneKeys.statsIsPresented)
            batch.set(decluster.method?.rawValue ?? "", for: SceneKeys.declustering)
            batch.set(map.zoom.rawValue, for: SceneKeys.mapZoom)
            batch.set(sequence.mainshock ?? "", for: SceneKeys.sequenceMainshock)
            let overlay = helpVisible || logVisible
            batch.set(overlay ? overlayFind : "", for: SceneKeys.overlayFind)
            batch.set(overlay && isOverlayFinding, for: SceneKeys.isOverlayFinding)
        }
    }
}

extension AppSettings {
    /// Writes every setting that differs from what `storage` holds (and only those, so a
    /// setting another process changed meanwhile is not put back).
    public func save(to storage: AppStorage) throws {
        let stored = AppSettings(storage)
        if minimumMagnitude != stored.minimumMagnitude { try storage.set(minimumMagnitude, for: AppKeys.minimumMagnitude) }
        if timeZone != stored.timeZone { try storage.set(timeZone.rawValue, for: AppKeys.timeZone) }
        if distanceUnit != stored.distanceUnit { try storage.set(distanceUnit.rawValue, for: AppKeys.distanceUnit) }
        if refreshFeed != stored.refreshFeed { try storage.set(refreshFeed, for: AppKeys.refreshFeed) }
    }

    /// The app-wide settings from `defaults.plist`.
    public init(_ storage: AppStorage) {
        self.init(minimumMagnitude: storage.value(for: AppKeys.minimumMagnitude),
                  timeZone: TimeZoneChoice(rawValue: storage.value(for: AppKeys.timeZone)) ?? .local,
                  distanceUnit: DistanceUnit(rawValue: storage.value(for: AppKeys.distanceUnit)) ?? .km,
                  refreshFeed: storage.value(for: AppKeys.refreshFeed))
        home = storage.value(for: AppKeys.home).map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        homeName = storage.value(for: AppKeys.home)?.name
        nearRadius = storage.value(for: AppKeys.nearRadius)
        // The automatic refresh honours the same override (AutoRefresher.schedule).
        let override = ProcessInfo.processInfo.environment["QUAKETUI_AUTO_REFRESH_INTERVAL"].flatMap(Double.init)
        autoRefreshInterval = override.flatMap { $0 > 0 ? $0 : nil } ?? storage.value(for: AppKeys.autoRefreshInterval)
    }
}

/// What `AppState.save(to:)` saved of the scene.
public enum SceneSave: Equatable, Sendable {
    /// Every key.
    case whole
    /// Every key but the notes draft, of `characters` characters, too large for the scene file:
    /// a relaunch will not bring it back; ctrl-s saves it to the store.
    case withoutDraft(characters: Int)

    /// What the status line says, nil when the whole scene was saved.
    public var message: String? {
        guard case .withoutDraft(let characters) = self else { return nil }
        return "The notes draft (\(CountFormat.grouped(characters)) characters) is too large to keep in the scene file "
            + "(\(SceneStorage.maximumFileSize / 1024) KiB), so a relaunch would not bring it back; the rest of the scene is saved. "
            + "ctrl-s saves the notes to the store"
    }
}
