import QuakeModel

/// A frame: `width`×`height` cells that views draw into and the terminal diffs and presents.
///
/// Everything written goes through `SafeText.sanitize` and is measured by `TextWidth`, so a
/// wide character never spills past the right edge and an escape sequence never reaches a cell.
public struct CellBuffer: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// Row-major cells; `cells[y * width + x]`.
    public private(set) var cells: [Cell]

    /// A blank buffer.
    public init(width: Int, height: Int, fill: Cell = .blank()) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: fill, count: self.width * self.height)
    }

    /// A blank buffer the size of a terminal.
    public init(size: Size) { self.init(width: size.columns, height: size.rows) }

    public var size: Size { Size(columns: width, rows: height) }
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at a column and row; traps outside the buffer.
    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
    }

    /// Writes one cell, repairing any wide character it cuts in half.
    public mutating func set(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let index = y * width + x
        let old = cells[index]
        if old.isContinuation, x > 0, cells[index - 1].width == 2 {
            cells[index - 1] = .blank(cells[index - 1].style)
        }
        if old.width == 2, x + 1 < width, cell.width != 2 {
            cells[index + 1] = .blank(cells[index + 1].style)
        }
        cells[index] = cell
        if cell.width == 2 {
            if x + 1 < width {
                let next = cells[index + 1]
                if next.width == 2, x + 2 < width { cells[index + 2] = .blank(cells[index + 2].style) }
                cells[index + 1] = .continuation(cell.style)
            } else {
                cells[index] = .blank(cell.style)
            }
        }
    }

    /// Writes text from `point`, clipped to `maxWidth` columns and the right edge; returns the
    /// columns written. With `ellipsis`, text that does not fit ends in `…`.
    @discardableResult
    public mutating func put(_ text: String, at point: Point, style: Style = .plain,
                             maxWidth: Int? = nil, ellipsis: Bool = true) -> Int {
        guard point.y >= 0, point.y < height, point.x < width else { return 0 }
        let limit = min(maxWidth ?? Int.max, width - max(0, point.x))
        guard limit > 0 else { return 0 }
        let safe = SafeText.sanitize(text)
        let fitted = ellipsis ? TextWidth.truncate(safe, to: limit) : safe
        var x = point.x
        for character in fitted {
            let w = TextWidth.of(character)
            if w == 0 { continue }
            if x + w > point.x + limit {
                // A wide character straddling the edge: blank its first column instead.
                if x < point.x + limit { set(.blank(style), x: x, y: point.y); x += 1 }
                break
            }
            if x >= 0 { set(Cell(String(character), width: w, style: style), x: x, y: point.y) }
            x += w
        }
        return x - point.x
    }

    /// Fills a rectangle with blanks (or a character) in a style.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let clipped = rect.intersection(bounds)
        let cell = Cell(String(character), width: 1, style: style)
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX { set(cell, x: x, y: y) }
        }
    }

    /// Changes the style of every cell in a rectangle, keeping the characters.
    public mutating func restyle(_ rect: Rect, _ transform: (Style) -> Style) {
        let clipped = rect.intersection(bounds)
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX { cells[y * width + x].style = transform(cells[y * width + x].style) }
        }
    }
}

extension Rect {
    /// The overlap of two rectangles, empty when they do not meet.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(x, other.x)
        let y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
