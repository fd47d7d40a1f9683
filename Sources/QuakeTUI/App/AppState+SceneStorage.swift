import QuakeScenes
import QuakeStore

/// The scene-storage keys of SPEC §4.1 read into and written from `AppState`.
///
/// ```swift
/// var state = AppState(sceneID: session.id.rawValue, settings: settings)
/// let restored = state.restore(from: session.storage)   // selection and scroll, for BrowserModel.restore
/// …
/// state.save(to: session.storage)                       // on every Effect.saveScene
/// ```
extension AppState {
    /// What restoring needs after the results are fetched: the selected and first visible quake.
    public struct RestoredSelection: Equatable, Sendable {
        public var selectedCode: String?
        public var topCode: String?
    }

    /// Reads every scene key into the state. Bad values were already reset by `SceneStorage`.
    public mutating func restore(from storage: SceneStorage) -> RestoredSelection {
        let order = QuakeSortOrder(rawValue: storage.value(for: SceneKeys.sortOrder)) ?? .time
        let ascending = storage.value(for: SceneKeys.sortAscendingKey(for: order.rawValue))
        sort = QuakeSortDescriptor(order, ascending: ascending)
        searchText = storage.value(for: SceneKeys.searchText)
        collapsedSections = Set(storage.value(for: SceneKeys.collapsedSections))
        detailTab = DetailTab(rawValue: storage.value(for: SceneKeys.selectedTab)) ?? .detail
        if let draft = storage.value(for: SceneKeys.editDraft) {
            editor = NotesDraft(code: draft.code, text: draft.text, cursor: draft.cursor)
        }
        let selected = storage.value(for: SceneKeys.selectedQuake)
        let top = storage.value(for: SceneKeys.topQuake)
        // Presented only if the selection survives the restore; BrowserModel checks that.
        detailPresented = storage.value(for: SceneKeys.detailIsPresented) && !selected.isEmpty
        return RestoredSelection(selectedCode: selected.isEmpty ? nil : selected, topCode: top.isEmpty ? nil : top)
    }

    /// Writes every scene key (coalesced by `SceneStorage`, on disk within its delay).
    public func save(to storage: SceneStorage) throws {
        try storage.set(sort.order.rawValue, for: SceneKeys.sortOrder)
        try storage.set(sort.ascending, for: SceneKeys.sortAscending)
        try storage.set(searchText, for: SceneKeys.searchText)
        try storage.set(collapsedSections.sorted(), for: SceneKeys.collapsedSections)
        try storage.set(selectedCode ?? "", for: SceneKeys.selectedQuake)
        try storage.set(topCode ?? "", for: SceneKeys.topQuake)
        try storage.set(detailPresented, for: SceneKeys.detailIsPresented)
        try storage.set(detailTab.rawValue, for: SceneKeys.selectedTab)
        try storage.set(editor.map { EditDraft(code: $0.code, text: $0.text, cursor: $0.cursor) },
                        for: SceneKeys.editDraft)
    }
}

extension AppSettings {
    /// The app-wide settings from `defaults.plist`.
    public init(_ storage: AppStorage) {
        self.init(minimumMagnitude: storage.value(for: AppKeys.minimumMagnitude),
                  timeZone: TimeZoneChoice(rawValue: storage.value(for: AppKeys.timeZone)) ?? .local,
                  distanceUnit: DistanceUnit(rawValue: storage.value(for: AppKeys.distanceUnit)) ?? .km,
                  refreshFeed: storage.value(for: AppKeys.refreshFeed))
    }
}
