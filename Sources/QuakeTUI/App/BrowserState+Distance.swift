import QuakeModel

/// Home and distance in the browser: `@` sets home to the selected quake, `~` toggles the
/// near-home filter, and the `distance` sort joins the `s` cycle while a home is set.
extension AppState {
    /// Whether the near-home filter applies: switched on in this scene and a home is set.
    public var isNearHomeActive: Bool { nearHome && settings.home != nil }

    /// Adds what home means to a request: the distance sort's reference (home, in the display
    /// unit), with `~` on the near-home row filter, and `:intensity` measured from the home of
    /// now (set or moved since the filter was typed; without a home it filters nothing).
    func addDistance(to request: inout SectionedFetchRequest) {
        let home = settings.home
        request.predicate.rowFilters = request.predicate.rowFilters.compactMap { filter in
            guard case .intensity(let whole, _) = filter else { return filter }
            return home.map { .intensity(atLeast: whole, home: $0) }
        }
        if let home, !request.predicate.rowFilters.contains(where: { if case .intensity = $0 { true } else { false } }),
           let text = filters.first(where: { FilterCommand.kind(of: $0) == "intensity" }),
           case .success(.filter(_, _, let filter)) = FilterCommand.parse(text, now: 0, home: home) {
            request.predicate.rowFilters.append(filter)  // typed, or restored, before a home was set
        }
        guard let home else { return }
        request.distanceReference = DistanceReference(origin: home, unit: settings.distanceUnit == .mi ? .mi : .km)
        if nearHome { request.predicate.rowFilters.append(.near(home, radiusKm: settings.nearRadius)) }
    }

    /// A `distance` sort with no home (restored from a scene file, or home removed from
    /// defaults.plist meanwhile) becomes a `time` sort; returns what the status line says then.
    package mutating func fallBackFromDistanceSortWithoutHome() -> String? {
        guard sort.order.needsHome, settings.home == nil else { return nil }
        let order = sort.order.rawValue
        sort = QuakeSortDescriptor(.time)
        return "Sorted by time: the \(order) sort needs a home (press @ on a quake, or run 'quaketui config home LAT,LON')"
    }
}

extension BrowserState {
    /// `@`: home becomes the selected quake's epicentre (replacing any home; a named one after a
    /// question), here at once and in every pane through app storage, once the quake is read
    /// (`Effect.readQuake`).
    mutating func setHomeToSelection() -> [Effect] {
        guard let code = self.selectedCode else {
            selectAQuakeForHome()
            return []
        }
        return [.readQuake(code: code, for: .setHome)]
    }

    private mutating func selectAQuakeForHome() {
        self.status.message = "Select a quake first: @ sets home to the selected quake's location"
        self.status.isError = true
    }

    /// The quake `@` was pressed on, as stored (nil: gone from the store).
    mutating func setHome(code: String, _ quake: StoredQuake?) -> [Effect] {
        guard let quake else {
            selectAQuakeForHome()
            return []
        }
        let home = GeoPoint(latitude: quake.record.latitude, longitude: quake.record.longitude)
        // A named home was set on purpose (`config home NAME …`): one key does not lose it unasked.
        if let name = self.settings.homeName, !name.isEmpty {
            ask(.replaceNamedHome(name: name, code: code, home: home))
            return []
        }
        return replaceHome(with: home, epicentreOf: code)
    }

    /// Home moved to `home`, the epicentre of `code`, without a name (the name was of the old home).
    mutating func replaceHome(with home: GeoPoint, epicentreOf code: String) -> [Effect] {
        self.settings.home = home
        self.settings.homeName = nil
        let refetch = refetchKeepingSelection()
        self.status.message = "Home set to \(QuakeFormat.coordinates(latitude: home.latitude, longitude: home.longitude))"
            + " (the epicentre of \(code)); distances, ~ and the distance sort measure from there"
        return refetch + [.saveHome(home)]
    }

    /// `~`: only quakes within `nearRadius` of home, or all again; without a home, says how to set one.
    mutating func toggleNearHome() -> [Effect] {
        guard self.settings.home != nil else {
            self.status.message = "No home set: press @ on a quake, or run 'quaketui config home LAT,LON'"
            self.status.isError = true
            return []
        }
        self.nearHome.toggle()
        let refetch = refetchKeepingSelection()
        self.status.message = self.nearHome ? "Showing quakes \(withinNearRadius)" : "Showing quakes at any distance"
        return refetch
    }

    /// What home is called on screen: its name, else `home`.
    var homeLabel: String { QuakeFormat.homeLabel(self.settings.homeName) }

    /// `within 300 km of Aksaray`: what `~` keeps.
    var withinNearRadius: String {
        "within \(QuakeFormat.homeDistance(kilometres: self.settings.nearRadius, unit: self.settings.distanceUnit)) of \(homeLabel)"
    }
}
