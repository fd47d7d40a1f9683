import QuakeModel
/// How a cell looks, in semantic colour roles the terminal maps to its colour depth.
///
/// Views never pick colour numbers: they say what a cell *is* (`.magnitude(.major)`,
/// `.selection`) and `Palette` decides what that means on a 256-, 16-, 8-colour or monochrome
/// terminal, or under `NO_COLOR`.
public struct Style: Hashable, Sendable {
    /// Text attributes independent of colour.
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Attributes(rawValue: 1 << 0)
        public static let reverse = Attributes(rawValue: 1 << 1)
        public static let underline = Attributes(rawValue: 1 << 2)
        public static let dim = Attributes(rawValue: 1 << 3)
    }

    /// The foreground role, nil for the terminal's default.
    public var foreground: ColorRole?
    /// The background role, nil for the terminal's default.
    public var background: ColorRole?
    public var attributes: Attributes

    public init(foreground: ColorRole? = nil, background: ColorRole? = nil, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's default look.
    public static let plain = Style()

    /// A style with the given foreground role.
    public static func role(_ role: ColorRole, _ attributes: Attributes = []) -> Style {
        Style(foreground: role, attributes: attributes)
    }

    /// This style on the selection background (the highlighted list row).
    public var selected: Style {
        var copy = self
        copy.background = .selection
        return copy
    }

    /// This style with extra attributes.
    public func with(_ extra: Attributes) -> Style {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }
}

/// What a colour means; `Palette` maps each role to a colour for one terminal depth.
public enum ColorRole: Hashable, Sendable {
    case accent
    case dim
    case selection
    case header
    case error
    case success
    case warning
    case border
    case live
    case land
    case epicentre
    case magnitude(MagnitudeBand)
    /// A PAGER alert level (the list's mark, issue 31).
    case alert(AlertLevel)
}

/// The USGS PAGER alert levels, in rising order, coloured as PAGER colours them.
public enum AlertLevel: String, CaseIterable, Hashable, Sendable {
    case green, yellow, orange, red

    /// The level a feed names (any case); nil for no level or one PAGER does not have.
    public init?(feed: String?) {
        guard let feed, let level = AlertLevel(rawValue: feed.lowercased()) else { return nil }
        self = level
    }
}

/// Magnitude colour bands: small quakes fade, large ones stand out.
public enum MagnitudeBand: Int, CaseIterable, Hashable, Sendable, Comparable {
    /// Below 2.5 or unknown: dim.
    case minor
    /// 2.5 ..< 4.5: normal.
    case light
    /// 4.5 ..< 6: yellow/orange.
    case strong
    /// 6 and above: red and bold.
    case major

    /// The band of a magnitude; an unknown magnitude is minor.
    public init(magnitude: Double?) {
        guard let magnitude else {
            self = .minor
            return
        }
        // By the magnitude as shown (`MagnitudeBin`): M 2.47 shows `2.5` and is light, as M 2.5 is.
        guard let tenth = MagnitudeBin.tenth(of: magnitude) else {
            self = magnitude > 0 ? .major : .minor
            return
        }
        switch tenth {
        case ..<25: self = .minor
        case ..<45: self = .light
        case ..<60: self = .strong
        default: self = .major
        }
    }

    public static func < (lhs: MagnitudeBand, rhs: MagnitudeBand) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The style of a magnitude in this band, bold from `.major` up.
    public var style: Style {
        switch self {
        case .minor: Style(foreground: .magnitude(.minor), attributes: [])
        case .light: Style(foreground: .magnitude(.light))
        case .strong: Style(foreground: .magnitude(.strong), attributes: [.bold])
        case .major: Style(foreground: .magnitude(.major), attributes: [.bold])
        }
    }
}
