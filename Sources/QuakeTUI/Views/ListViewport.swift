/// Scrolling arithmetic for the list: which flat line is at the top so the selection stays visible.
public enum ListViewport {
    /// The top line that keeps `selected` visible in `rows` rows, moving as little as possible
    /// from `currentTop`, with `margin` lines of context above and below when there is room.
    public static func top(selected: Int, currentTop: Int, rows: Int, totalLines: Int, margin: Int = 2) -> Int {
        guard rows > 0, totalLines > 0 else { return 0 }
        let maximumTop = max(0, totalLines - rows)
        let margin = min(margin, max(0, (rows - 1) / 2))
        var top = min(max(0, currentTop), maximumTop)
        if selected < top + margin { top = selected - margin }
        if selected > top + rows - 1 - margin { top = selected - rows + 1 + margin }
        return min(max(0, top), maximumTop)
    }

    /// The top line after a page up (`pages` < 0) or down, and the selection it carries along.
    public static func page(selected: Int, top: Int, rows: Int, totalLines: Int, pages: Int) -> (selected: Int, top: Int) {
        guard totalLines > 0, rows > 0 else { return (0, 0) }
        let step = max(1, rows - 1) * pages
        let newSelected = min(max(0, selected + step), totalLines - 1)
        let newTop = min(max(0, top + step), max(0, totalLines - rows))
        return (newSelected, ListViewport.top(selected: newSelected, currentTop: newTop, rows: rows, totalLines: totalLines))
    }
}
