/// A position in terminal columns and rows, origin at the top left.
public struct Point: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A terminal size in columns and rows.
public struct Size: Hashable, Sendable {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// A rectangle of cells; empty when either side is zero or negative.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The rectangle covering a whole terminal.
    public init(_ size: Size) { self.init(x: 0, y: 0, width: size.columns, height: size.rows) }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether a cell lies inside.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The rectangle shrunk by `dx` columns on each side and `dy` rows on top and bottom.
    public func inset(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// Splits off the top `rows` rows: (top, rest).
    public func splitTop(_ rows: Int) -> (Rect, Rect) {
        let top = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: top), Rect(x: x, y: y + top, width: width, height: height - top))
    }

    /// Splits off the bottom `rows` rows: (rest, bottom).
    public func splitBottom(_ rows: Int) -> (Rect, Rect) {
        let bottom = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: height - bottom),
                Rect(x: x, y: maxY - bottom, width: width, height: bottom))
    }

    /// Splits off the left `columns` columns: (left, rest).
    public func splitLeft(_ columns: Int) -> (Rect, Rect) {
        let left = min(max(0, columns), width)
        return (Rect(x: x, y: y, width: left, height: height), Rect(x: x + left, y: y, width: width - left, height: height))
    }

    /// A rectangle of at most `width`×`height` centred inside this one.
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width)
        let ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }

    /// One row of this rectangle, relative to its top.
    public func row(_ index: Int) -> Rect { Rect(x: x, y: y + index, width: width, height: 1) }
}
