import QuakeStore

/// The Map tab's density (issue 32): while the Map tab shows, the list (order aside) counted
/// per cell of the window the tab draws, in the background; a new list, window or store asks
/// again with a new generation, and only the newest answer is kept.
extension BrowserModel {
    /// `+` / `-`: the map one scale in or out around the selected quake.
    func zoomMap(by step: Int) {
        state.map.zoom = state.map.zoom.stepped(step)
    }

    /// The answer to `Effect.computeDensity(_, _, generation)`: kept only for the newest generation.
    func receiveDensity(generation: Int, _ grid: DensityGrid) {
        guard generation == state.map.generation, state.map.isPending else { return }
        state.map.isPending = false
        state.map.grid = grid
    }

    /// The window the Map tab draws now: nil while it does not show, or while the selected
    /// quake it centres on is still being read.
    var densityWindow: GridWindow? {
        guard state.detailPresented, state.detailTab == .map, let code = state.selectedCode,
              let loaded = state.detail, loaded.code == code, let record = loaded.quake?.record else { return nil }
        return state.map.zoom.window(latitude: record.latitude, longitude: record.longitude)
    }

    /// After every action: `Effect.computeDensity` when the Map tab shows a list or window other
    /// than the one counted (or the store changed). The grid counted before stays, marked
    /// pending, until the new count replaces it: a map without dots in between would blink at
    /// every move of the region and local scales.
    func densityReads(storeChanged: Bool) -> [Effect] {
        guard let window = densityWindow else { return [] }
        let request = StatisticsState.statisticsRequest(state.request)
        let changed = request != state.map.request || window != state.map.window
        guard changed || storeChanged else { return [] }
        state.map.request = request
        state.map.window = window
        state.map.generation += 1
        state.map.isPending = true
        return [.computeDensity(request, window: window, generation: state.map.generation)]
    }
}
