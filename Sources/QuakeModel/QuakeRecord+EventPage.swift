/// A quake's event page, and the quakes that have none: those of the bundled sample.
extension QuakeRecord {
    /// Every code of the bundled sample (`SampleCatalogue`) starts with this; no USGS event id does
    /// (those are a network code and 8–10 characters, `us6000rka0`).
    public static let sampleCodePrefix = "sample"

    /// Whether this quake comes from the bundled sample: invented, so it has no event page anywhere.
    public var isSample: Bool { code.hasPrefix(Self.sampleCodePrefix) }

    /// The page `o` opens and `y` copies: the feed's URL when it is http(s) without control
    /// characters or spaces (a feed's `file:` or `javascript:` link is never opened); nil for a
    /// sample quake, whose link (in stores made before the sample dropped them) leads nowhere.
    public var eventPage: String? {
        guard !isSample, let url else { return nil }
        let lower = url.lowercased()
        let isWeb = lower.hasPrefix("https://") || lower.hasPrefix("http://")
        return isWeb && !url.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == " " } ? url : nil
    }
}
