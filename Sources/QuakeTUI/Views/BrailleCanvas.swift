/// A bitmap of 2×4 dots per terminal cell, drawn as braille characters (U+2800…U+28FF).
struct BrailleCanvas {
    let columns: Int
    let rows: Int
    private var bits: [UInt8]

    init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        bits = Array(repeating: 0, count: self.columns * self.rows)
    }

    var pixelWidth: Int { columns * 2 }
    var pixelHeight: Int { rows * 4 }

    /// Dot bits by (x, y) inside a cell, per the braille pattern numbering.
    static let dotBits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    /// Sets one dot; outside the canvas does nothing.
    mutating func set(x: Int, y: Int) {
        guard x >= 0, y >= 0, x < pixelWidth, y < pixelHeight else { return }
        bits[(y / 4) * columns + x / 2] |= Self.dotBits[x % 2][y % 4]
    }

    /// Draws a line between two dots (Bresenham).
    mutating func line(from a: (x: Int, y: Int), to b: (x: Int, y: Int)) {
        var x = a.x
        var y = a.y
        let dx = abs(b.x - a.x)
        let dy = -abs(b.y - a.y)
        let sx = a.x < b.x ? 1 : -1
        let sy = a.y < b.y ? 1 : -1
        var error = dx + dy
        while true {
            set(x: x, y: y)
            if x == b.x, y == b.y { return }
            let e2 = 2 * error
            if e2 >= dy { error += dy; x += sx }
            if e2 <= dx { error += dx; y += sy }
        }
    }

    /// The braille character of a cell, nil when no dot is set.
    func character(column: Int, row: Int) -> Character? {
        let value = bits[row * columns + column]
        guard value != 0 else { return nil }
        return Character(Unicode.Scalar(0x2800 + UInt32(value))!)
    }
}
