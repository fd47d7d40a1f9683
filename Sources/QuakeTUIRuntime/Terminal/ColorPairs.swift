import QuakeTUI
import CNcursesw

/// Curses colour pairs for resolved styles, allocated on first use and cached.
struct ColorPairs {
    let depth: ColorDepth
    private var pairs: [Pair: Int16] = [:]
    private var cache: [Style: (attr_t, Int16)] = [:]

    private struct Pair: Hashable {
        var foreground: Int
        var background: Int
    }

    init(depth: ColorDepth) { self.depth = depth }

    /// The curses attributes and pair number for a style (via `Palette.resolve`).
    /// The corresponding C function is `init_pair`.
    mutating func attributes(for style: Style) -> (attr_t, Int16) {
        if let cached = cache[style] { return cached }
        let resolved = Palette.resolve(style, depth: depth)
        var attributes = quaketui_A_NORMAL()
        if resolved.attributes.contains(.bold) { attributes |= quaketui_A_BOLD() }
        if resolved.attributes.contains(.dim) { attributes |= quaketui_A_DIM() }
        if resolved.attributes.contains(.reverse) { attributes |= quaketui_A_REVERSE() }
        if resolved.attributes.contains(.underline) { attributes |= quaketui_A_UNDERLINE() }
        var pairNumber: Int16 = 0
        if resolved.foreground >= 0 || resolved.background >= 0 {
            let pair = Pair(foreground: resolved.foreground, background: resolved.background)
            if let existing = pairs[pair] {
                pairNumber = existing
            } else if pairs.count + 1 < min(Int(quaketui_COLOR_PAIRS()), Int(Int16.max)) {
                pairNumber = Int16(pairs.count + 1)
                if init_pair(pairNumber, Int16(pair.foreground), Int16(pair.background)) == ERR {
                    pairNumber = 0  // an unsupported colour: fall back to the default pair
                }
                pairs[pair] = pairNumber
            }
        }
        cache[style] = (attributes, pairNumber)
        return (attributes, pairNumber)
    }
}
