import QuakeModel

/// The header row: `quaketui │ 1,234 quakes │ sort time ↓ │ /tokyo │ M ≥ 2.5 │ scene main`.
enum HeaderView {
    static func render(_ header: HeaderModel, in rect: Rect, into buffer: inout CellBuffer) {
        guard !rect.isEmpty else { return }
        let bar = Style(foreground: .header, background: nil, attributes: [.reverse])
        buffer.fill(rect, style: bar)
        var x = rect.x
        func segment(_ text: String, _ style: Style) {
            guard x < rect.maxX else { return }
            x += buffer.put(text, at: Point(x: x, y: rect.y), style: style, maxWidth: rect.maxX - x)
        }
        let separator = " │ "
        let arrow = header.ascending ? "↑" : "↓"
        let total = header.isCountPending ? "… quakes" : CountFormat.quakes(header.count)
        var parts = [total, "sort \(header.sortOrder.rawValue) \(arrow)"]
        if header.newCount > 0 { parts.insert("\(QuakeFormat.count(header.newCount)) new", at: 1) }
        if let minimum = header.minimumMagnitude { parts.append("M ≥ \(MagnitudeBin.threshold(minimum))") }
        if let near = header.nearHome { parts.append(near) }
        if let declustering = header.declustering { parts.append(declustering) }
        if !header.filters.isEmpty { parts.append(":" + header.filters.joined(separator: " · ")) }
        let search = header.isSearching || !header.searchText.isEmpty
            ? TextWidth.of(separator) + 1 + TextWidth.of(header.searchText) + (header.isSearching ? 1 : 0) : 0
        let leftWidth = TextWidth.of(" \(header.title)") + parts.reduce(0) { $0 + TextWidth.of(separator + $1) } + search
        // Right side first: badges (sample data, offline) are never cut; the scene gets only the
        // room that what narrows the list leaves (it goes first on a narrow pane); the rest
        // shrinks around both.
        let badges = header.badges
        let badgeWidth = min(badges.reduce(0) { $0 + TextWidth.of($1) + 2 }, max(0, rect.width * 2 / 3))
        let right = " scene \(header.sceneID) "
        // Cut to a stub (`scen…`) it would say nothing: then it is left out.
        let room = max(0, rect.width - badgeWidth - leftWidth)
        let rightWidth = TextWidth.of(right) <= room ? TextWidth.of(right) : (room >= 12 ? room : 0)
        let leftLimit = rect.maxX - rightWidth - badgeWidth
        segment(" \(header.title)", bar.with(.bold))
        for part in parts where x < leftLimit {
            x += buffer.put(separator + part, at: Point(x: x, y: rect.y), style: bar, maxWidth: leftLimit - x)
        }
        if header.isSearching || !header.searchText.isEmpty, x < leftLimit {
            x += buffer.put(separator, at: Point(x: x, y: rect.y), style: bar, maxWidth: leftLimit - x)
            let text = Array(header.searchText), at = min(header.searchCursor ?? text.count, text.count)
            let field = "/" + (header.isSearching ? String(text[..<at]) + "▏" + String(text[at...]) : header.searchText)
            let style = header.isSearching ? Style(foreground: .accent, attributes: [.bold]) : bar.with(.bold)
            x += buffer.put(field, at: Point(x: x, y: rect.y), style: style, maxWidth: leftLimit - x)
        }
        var bx = leftLimit + 1
        for badge in badges where bx < leftLimit + badgeWidth {
            bx += buffer.put(badge, at: Point(x: bx, y: rect.y), style: Style(foreground: .accent, attributes: [.bold]),
                             maxWidth: leftLimit + badgeWidth - bx) + 2
        }
        buffer.put(right, at: Point(x: leftLimit + badgeWidth, y: rect.y), style: bar, maxWidth: rightWidth)
    }
}
