import QuakeModel

/// The Map tab's density (issue 32): while the Map tab shows, the list (order aside) counted
/// per cell of the window the tab draws, in the background; a new list, window or store asks
/// again with a new generation, and only the newest answer is kept.
extension BrowserState {
    /// `+` / `-`: the map one scale in or out around the selected quake.
    mutating func zoomMap(by step: Int) {
        self.map.zoom = self.map.zoom.stepped(step)
    }

    /// The answer to `Effect.computeDensity(_, _, generation)`: kept only for the newest generation.
    mutating func receiveDensity(generation: Int, _ grid: DensityGrid) {
        guard generation == self.map.generation, self.map.isPending else { return }
        self.map.isPending = false
        self.map.grid = grid
    }

    /// Whether the Map tab is on screen (its quake's row read or not).
    var showsMapTab: Bool { self.detailPresented && self.detailTab == .map }

    /// The window the Map tab draws now: nil while it does not show, or while the selected
    /// quake it centres on is still being read.
    var densityWindow: GridWindow? {
        guard showsMapTab, let code = self.selectedCode,
              let loaded = self.detail, loaded.code == code, let record = loaded.quake?.record else { return nil }
        return self.map.zoom.window(latitude: record.latitude, longitude: record.longitude)
    }

    /// After every action: `Effect.computeDensity` when the Map tab shows a list or window other
    /// than the one counted (or the store changed). The grid counted before stays, marked
    /// pending, until the new count replaces it: a map without dots in between would blink at
    /// every move of the region and local scales. A count the tab closed on stops
    /// (`Effect.cancelDensity`), and the tab asks again when it shows; one running while the
    /// tab waits for its quake's row goes on.
    mutating func densityReads(storeChanged: Bool) -> [Effect] {
        guard let window = densityWindow else {
            guard self.map.isPending, !showsMapTab else { return [] }
            self.map.isPending = false
            self.map.request = nil
            self.map.window = nil
            return [.cancelDensity]
        }
        // The list's quakes in any order; declustered when the list is (`AppState.request`).
        let request = SectionedFetchRequest(predicate: self.request.predicate, timeZone: self.request.timeZone)
        let changed = request != self.map.request || window != self.map.window
        guard changed || storeChanged else { return [] }
        self.map.request = request
        self.map.window = window
        self.map.generation += 1
        self.map.isPending = true
        return [.computeDensity(request, window: window, generation: self.map.generation)]
    }
}
