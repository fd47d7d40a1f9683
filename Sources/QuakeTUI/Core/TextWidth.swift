import QuakeModel
/// Display widths of text in terminal columns, without depending on the C locale.
///
/// `wcwidth` answers -1 for every non-ASCII character when the process runs in the `C` locale
/// (as tests do), so widths come from Unicode properties in the standard library and a table
/// of East Asian Wide and Fullwidth ranges: wide CJK and emoji take 2 columns, combining marks
/// and format characters 0.
public enum TextWidth {
    /// The columns a grapheme cluster takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        // Looking up `isEmoji` costs a search of the property tables: only a cluster with a
        // presentation selector needs it (digits are emoji too: `1️⃣`).
        let presents = character.unicodeScalars.contains { $0.value == 0xFE0F }
        var width = 0
        var sawEmojiBase = false
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F, sawEmojiBase { return 2 }  // emoji presentation selector
            let w = of(scalar)
            if presents, scalar.properties.isEmoji { sawEmojiBase = true }
            if w > width { width = w }
        }
        return width
    }

    /// The columns a single scalar takes when it starts a cluster or stands alone.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .surrogate: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul medial vowels, final consonants
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(value) ? 2 : 1
    }

    /// The columns a string takes.
    public static func of(_ text: some StringProtocol) -> Int {
        // ASCII (most of a list): a byte is a column, a control byte none (`\r\n`, the one
        // two-byte cluster, is two of them), without breaking the text into clusters.
        var columns = 0
        for byte in text.utf8 {
            guard byte < 0x80 else { return text.reduce(0) { $0 + of($1) } }
            if byte >= 0x20 && byte < 0x7F { columns += 1 }
        }
        return columns
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode 15, merged.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1AFF0...0x1B2FF,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
        0x1F260...0x1F265, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
        0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// Whether a code point is East Asian Wide or Fullwidth (binary search in `wideRanges`).
    static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if value < range.lowerBound {
                high = mid - 1
            } else if value > range.upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Cuts text to at most `width` columns, ending in `…` when something was cut; a wide
    /// character that would straddle the limit is dropped, never split.
    ///
    /// Measures what will be drawn: the text is sanitized first (a tab or line break becomes a
    /// space, escape sequences go), exactly as `CellBuffer.put` draws it, so a place with a tab
    /// is neither cut short nor given a stray `…`.
    public static func truncate(_ text: String, to width: Int, ellipsis: Bool = true) -> String {
        guard width > 0 else { return "" }
        let text = SafeText.sanitize(text)
        if of(text) <= width { return text }
        let budget = ellipsis ? width - 1 : width
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > budget { break }
            result.append(character)
            used += w
        }
        return ellipsis ? result + "…" : result
    }

    /// Pads text with spaces on the right (or left) to exactly `width` columns, truncating first.
    public static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let cut = truncate(text, to: width)
        let fill = String(repeating: " ", count: max(0, width - of(cut)))
        return alignRight ? fill + cut : cut + fill
    }
}
