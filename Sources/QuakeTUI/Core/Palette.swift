/// How many colours a terminal can show, decided once at start-up.
public enum ColorDepth: String, Hashable, Sendable, CaseIterable {
    /// `NO_COLOR` is set: attributes only, even on a colour terminal.
    case noColor
    case monochrome
    case eight
    case sixteen
    case full256

    /// The depth for a terminal with `colors` colours, honouring `NO_COLOR` (any non-empty value).
    public static func detect(colors: Int, hasColors: Bool, environment: [String: String]) -> ColorDepth {
        if let value = environment["NO_COLOR"], !value.isEmpty { return .noColor }
        guard hasColors else { return .monochrome }
        switch colors {
        case 256...: return .full256
        case 16...: return .sixteen
        case 8...: return .eight
        default: return .monochrome
        }
    }
}

/// A style resolved for one colour depth: curses colour numbers (-1 = default) and attributes.
public struct ResolvedStyle: Hashable, Sendable {
    public var foreground: Int
    public var background: Int
    public var attributes: Style.Attributes

    public init(foreground: Int = -1, background: Int = -1, attributes: Style.Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }
}

/// Maps semantic colour roles to colours and attributes per depth: a pure function, so the
/// fallbacks are tested without a terminal.
public enum Palette {
    /// Resolves a style for a colour depth.
    ///
    /// Without colour (`monochrome`, `noColor`) roles become attributes: the selection is
    /// reverse video, headers and strong and major magnitudes bold (major also underlined),
    /// minor ones and dim text dim, errors bold; PAGER alerts rise from plain (green) through
    /// underlined (yellow) and bold (orange) to both (red).
    public static func resolve(_ style: Style, depth: ColorDepth) -> ResolvedStyle {
        var attributes = style.attributes
        switch depth {
        case .noColor, .monochrome:
            if let role = style.foreground { attributes.formUnion(monochromeAttributes(role)) }
            if style.background == .selection { attributes.insert(.reverse) }
            return ResolvedStyle(attributes: attributes)
        case .eight, .sixteen, .full256:
            let foreground = style.foreground.map { color(of: $0, depth: depth) } ?? -1
            var background = style.background.map { backgroundColor(of: $0, depth: depth) } ?? -1
            if depth == .eight, style.foreground == .magnitude(.minor) || style.foreground == .dim {
                attributes.insert(.dim)  // no grey among eight colours
            }
            if depth == .eight, style.foreground == .alert(.orange) {
                attributes.insert(.bold)  // orange and yellow are one colour among eight
            }
            if style.background == .selection, depth == .eight {
                background = 4  // blue
            }
            return ResolvedStyle(foreground: foreground, background: background, attributes: attributes)
        }
    }

    /// The attributes that stand in for a colour role without colour.
    static func monochromeAttributes(_ role: ColorRole) -> Style.Attributes {
        switch role {
        case .dim, .magnitude(.minor), .border, .land: [.dim]
        case .header, .accent, .error, .warning, .magnitude(.strong), .live, .success: [.bold]
        case .magnitude(.major), .epicentre: [.bold, .underline]
        case .selection: [.reverse]
        case .magnitude(.light), .alert(.green): []
        case .alert(.yellow): [.underline]
        case .alert(.orange): [.bold]
        case .alert(.red): [.bold, .underline]
        }
    }

    /// The foreground colour number of a role: curses' 0–7 on 8 colours, 0–15 on 16, the
    /// xterm 256 cube on 256.
    static func color(of role: ColorRole, depth: ColorDepth) -> Int {
        let (c8, c16, c256): (Int, Int, Int)
        switch role {
        case .accent: (c8, c16, c256) = (6, 14, 45)
        case .dim, .magnitude(.minor): (c8, c16, c256) = (7, 8, 244)
        case .selection: (c8, c16, c256) = (7, 15, 255)
        case .header: (c8, c16, c256) = (6, 14, 117)
        case .error: (c8, c16, c256) = (1, 9, 196)
        case .success, .live: (c8, c16, c256) = (2, 10, 77)
        case .warning: (c8, c16, c256) = (3, 11, 214)
        case .border: (c8, c16, c256) = (4, 8, 240)
        case .land: (c8, c16, c256) = (2, 2, 71)
        case .epicentre: (c8, c16, c256) = (1, 9, 196)
        case .magnitude(.light): (c8, c16, c256) = (-1, -1, -1)
        case .magnitude(.strong): (c8, c16, c256) = (3, 11, 214)
        case .magnitude(.major): (c8, c16, c256) = (1, 9, 196)
        // Eight and sixteen colours have no orange: the dark yellow stands in for it (beside
        // the bright yellow on sixteen), and orange is bold (`resolve`).
        case .alert(.green): (c8, c16, c256) = (2, 10, 34)
        case .alert(.yellow): (c8, c16, c256) = (3, 11, 226)
        case .alert(.orange): (c8, c16, c256) = (3, 3, 208)
        case .alert(.red): (c8, c16, c256) = (1, 9, 196)
        }
        switch depth {
        case .full256: return c256
        case .sixteen: return c16
        default: return c8
        }
    }

    /// The background colour number of a role (only the selection has one today).
    static func backgroundColor(of role: ColorRole, depth: ColorDepth) -> Int {
        switch (role, depth) {
        case (.selection, .full256): 24
        case (.selection, _): 4
        case (.header, .full256): 236
        case (.header, _): -1
        default: color(of: role, depth: depth)
        }
    }
}
