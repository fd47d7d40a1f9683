extension CellBuffer {
    /// The frame as plain text, one string per row, trailing spaces kept (for snapshots).
    public var lines: [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width {
                let cell = self[x, y]
                if !cell.isContinuation { line += cell.grapheme }
            }
            return line
        }
    }

    /// The frame as plain text with trailing spaces trimmed, rows joined by newlines.
    public var text: String {
        lines.map { line in
            var trimmed = Substring(line)
            while trimmed.last == " " { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }.joined(separator: "\n")
    }

    /// The style layer: one letter per column naming the foreground role
    /// (see `Style.code`), for checking colours beside a text snapshot.
    public var styleText: String {
        (0..<height).map { y in
            String((0..<width).map { x in self[x, y].style.code })
        }.joined(separator: "\n")
    }

    /// The text of one row (no trimming).
    public func line(_ y: Int) -> String { lines[y] }
}

extension Style {
    /// A one-letter code for the style layer: `.` plain, `d` dim, `a` accent, `s` selection
    /// background, `h` header, `e` error, `g` success, `w` warning, `b` border, `l` live,
    /// `L` land, `X` epicentre, `0`–`3` magnitude bands (minor … major), `G` `Y` `O` `R` PAGER
    /// alert levels.
    public var code: Character {
        switch foreground {
        case nil: background == .selection ? "s" : (attributes.contains(.reverse) ? "r" : ".")
        case .dim?: "d"
        case .accent?: "a"
        case .selection?: "s"
        case .header?: "h"
        case .error?: "e"
        case .success?: "g"
        case .warning?: "w"
        case .border?: "b"
        case .live?: "l"
        case .land?: "L"
        case .epicentre?: "X"
        case .magnitude(let band)?: Character(String(band.rawValue))
        case .alert(let level)?: Character(level.rawValue.prefix(1).uppercased())
        }
    }
}
