import QuakeModel

/// The Map tab's scale (`+` / `-`, scene state `MapView.zoom`): the whole world, a region
/// (20° of latitude, 40° of longitude) or the local area (2° by 4°) around the selected quake.
public enum MapZoom: String, CaseIterable, Sendable, Equatable {
    case world, region, local

    /// Degrees of latitude the map spans (nil: the world).
    public var latitudeSpan: Double? {
        switch self {
        case .world: nil
        case .region: 20
        case .local: 2
        }
    }

    /// The side of a counted cell: about a braille dot of a wide pane at this scale.
    var cellDegrees: Double {
        switch self {
        case .world: 1
        case .region: 0.2
        case .local: 0.02
        }
    }

    /// The scale one step in (`+`) or out (`-`), staying at the ends.
    func stepped(_ step: Int) -> MapZoom {
        let all = Self.allCases
        return all[max(0, min(all.count - 1, all.firstIndex(of: self)! + step))]
    }

    /// The window counted for a map of this scale around a point (the world ignores it).
    func window(latitude: Double, longitude: Double) -> GridWindow {
        guard let span = latitudeSpan else { return .world(cellDegrees: cellDegrees) }
        return .around(latitude: latitude, longitude: longitude, latitudeSpan: span, cellDegrees: cellDegrees)
    }
}

/// The Map tab's density of the list (issue 32): the scale, and the grid counted in the
/// background (`Effect.computeDensity` → `Action.densityComputed`), newest generation only.
public struct MapDensityState: Equatable, Sendable {
    /// `MapView.zoom` (scene state).
    public var zoom: MapZoom = .world
    public var generation = 0
    /// The list (order aside) and window of the newest request; nil before the first.
    public var request: SectionedFetchRequest?
    public var window: GridWindow?
    /// The counted grid: of `request` and `window` once answered, or, while a newer count runs
    /// (`isPending`), the one before it (drawn until replaced, whatever its window or list).
    public var grid: DensityGrid?
    public var isPending = false

    public init() {}
}
