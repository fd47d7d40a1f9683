/// Where each part of the screen goes for a terminal size: computed, never assumed, and
/// shared by rendering and hit-testing so a click lands on what was drawn.
public struct ScreenLayout: Sendable, Equatable {
    /// Below this the screen shows "Terminal too small" instead of the browser.
    public static let minimumSize = Size(columns: 40, rows: 10)
    /// From this width list and detail sit side by side.
    public static let sideBySideColumns = 120

    public var size: Size
    public var isTooSmall: Bool
    public var header: Rect
    /// The list pane; nil when the detail covers the body (narrow terminal, detail open).
    public var list: Rect?
    /// The row above the list naming its columns (`ContentView.showsColumnHeaders`); nil when off
    /// or when the list has no room for it (fewer than two lines).
    public var columnHeaders: Rect?
    /// The detail pane (tab bar included); nil when closed.
    public var detail: Rect?
    /// The column between list and detail when side by side.
    public var separator: Rect?
    public var status: Rect

    /// The layout for a terminal size, with or without the detail view, and with or without a
    /// row of column headers above the list (taken from the list's height).
    public init(size: Size, detailPresented: Bool, columnHeaders: Bool = false) {
        self.size = size
        let screen = Rect(size)
        isTooSmall = size.columns < Self.minimumSize.columns || size.rows < Self.minimumSize.rows
        let (header, rest) = screen.splitTop(1)
        let (_, status) = rest.splitBottom(1)
        let body = Self.body(of: screen)
        self.header = header
        self.status = status
        guard !isTooSmall else {
            list = nil
            detail = nil
            separator = nil
            return
        }
        if !detailPresented {
            list = body
            detail = nil
            separator = nil
        } else if size.columns >= Self.sideBySideColumns {
            let listWidth = max(50, size.columns * 45 / 100)
            let (left, right) = body.splitLeft(listWidth)
            let (line, detailRect) = right.splitLeft(1)
            list = left
            separator = line
            detail = detailRect
        } else {
            list = nil
            separator = nil
            detail = body
        }
        if columnHeaders, let pane = list, pane.height > 1 {
            (self.columnHeaders, list) = pane.splitTop(1)
        }
    }

    /// The rows between the header line and the status line: the list and detail share it, and
    /// an overlay (`?`, `L`) covers no more than it, so the header and the status line's hints stay.
    public static func body(of screen: Rect) -> Rect { screen.splitTop(1).1.splitBottom(1).0 }

    /// The least margin, in columns and rows on each side, an overlay leaves around itself: a
    /// narrower strip of the list beside or below a box is a sliver, so the box takes that whole
    /// side of the body instead.
    static let overlayMargin = (columns: 6, rows: 2)

    /// Where an overlay of `width` × `height` goes on `screen`: centred in the body (``body(of:)``)
    /// with a clear margin of the list around it, or, on an axis where that margin would be a
    /// sliver (or the box does not fit), the body's whole width or height.
    public static func overlayBox(width: Int, height: Int, in screen: Rect) -> Rect {
        let body = body(of: screen)
        let w = body.width - width >= 2 * overlayMargin.columns ? width : body.width
        let h = body.height - height >= 2 * overlayMargin.rows ? height : body.height
        return body.centered(width: w, height: h)
    }

    /// The statistics view (`=`) has the detail's pane: no tab bar.
    public var showsStatistics = false
    /// The sequence view (`A`) has the detail's pane: no tab bar.
    public var showsSequence = false

    /// The layout a model is drawn with.
    public init(_ model: ScreenModel) {
        self.init(size: model.size, detailPresented: model.detail != nil || model.statistics != nil || model.sequence != nil,
                  columnHeaders: model.showsColumnHeaders)
        showsStatistics = model.statistics != nil
        showsSequence = model.sequence != nil
    }

    /// How many list lines fit: the app fetches this many for `ListModel.lines`.
    public var listRows: Int { list?.height ?? 0 }

    /// The detail's tab bar row.
    public var tabBar: Rect? { showsStatistics || showsSequence ? nil : detail.map { $0.splitTop(1).0 } }

    /// The detail's content below the tab bar.
    public var detailContent: Rect? { detail.map { $0.splitTop(1).1 } }

    /// Column ranges of each tab label in the tab bar, left to right.
    public var tabRanges: [(tab: DetailTab, columns: Range<Int>)] {
        guard let bar = tabBar else { return [] }
        var x = bar.x + 1
        var ranges: [(DetailTab, Range<Int>)] = []
        for (index, tab) in DetailTab.allCases.enumerated() {
            let label = Self.tabLabel(tab, index: index)
            let width = TextWidth.of(label)
            ranges.append((tab, x..<min(x + width, bar.maxX)))
            x += width + 1
        }
        return ranges
    }

    /// A tab's label in the bar: ` 1 Detail `.
    static func tabLabel(_ tab: DetailTab, index: Int) -> String { " \(index + 1) \(tab.title) " }
}

/// What a mouse position points at.
public enum HitTarget: Sendable, Equatable {
    /// A list line, as an index into `ListModel.lines`.
    case listLine(Int)
    /// A tab in the detail's tab bar.
    case tab(DetailTab)
    case header
    case status
    case detail
    case nothing
}

extension ScreenLayout {
    /// What is at a column and row, given how many list lines are shown.
    public func hitTest(x: Int, y: Int, listLineCount: Int) -> HitTarget {
        let point = Point(x: x, y: y)
        guard !isTooSmall else { return .nothing }
        if header.contains(point) { return .header }
        if status.contains(point) { return .status }
        if let list, list.contains(point) {
            let index = y - list.y
            return index < listLineCount ? .listLine(index) : .nothing
        }
        if let bar = tabBar, bar.contains(point) {
            for (tab, columns) in tabRanges where columns.contains(x) { return .tab(tab) }
            return .detail
        }
        if let detail, detail.contains(point) { return .detail }
        return .nothing
    }
}

extension Screen {
    /// What is at a column and row of the frame drawn for `model`.
    public static func hitTest(_ model: ScreenModel, x: Int, y: Int) -> HitTarget {
        ScreenLayout(model).hitTest(x: x, y: y, listLineCount: model.list.lines.count)
    }
}
