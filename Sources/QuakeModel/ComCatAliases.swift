/// What one ComCat download says about the codes that name one earthquake.
///
/// ComCat (USGS's catalogue) gives an event the ids of every network that reported it: the
/// feature `nn00743624` lists `,nn00743603,us6000a6su,nn00743624,` in its `ids`. When ComCat
/// merges two events it has published apart, the one that goes on is listed with the other's
/// id, and the other is no longer published. A store that imported the older download keeps
/// both, 1 km and the same second apart: one earthquake shown and counted twice.
///
/// The store keeps each alias with the time the download was generated
/// (`WriteTransaction.mergeComCatAliases`): a newer download decides over an older one, so that
/// importing two downloads in either order leaves the same quakes.
public struct ComCatAliases: Sendable, Equatable {
    /// `alias` is listed among the `ids` of the event `code` (the feature's id).
    public struct Alias: Sendable, Hashable {
        public var alias: String
        public var code: String

        public init(alias: String, code: String) {
            self.alias = alias
            self.code = code
        }
    }

    /// Every other code a feature listed, in the download's order.
    public var aliases: [Alias]
    /// When the download was generated (`metadata.generated`), ms since the epoch; nil when it
    /// does not say (then any download that says when it was made decides over it).
    public var generated: Int64?

    public init(aliases: [Alias] = [], generated: Int64? = nil) {
        self.aliases = aliases
        self.generated = generated
    }

    /// Whether a download generated at `a` is newer than one generated at `b`: one that does
    /// not say when it was made is older than every one that does.
    public static func isNewer(_ a: Int64?, than b: Int64?) -> Bool {
        guard let a else { return false }
        guard let b else { return true }
        return a > b
    }

    /// The codes in a ComCat `ids` value (`,nn00743603,us6000a6su,nn00743624,`) other than
    /// `code` itself, each once, in order; spaces and tabs around a code are not part of it.
    public static func others(inIDs ids: String, of code: String) -> [String] {
        var others: [String] = []
        var utf8 = ids.utf8[...]
        // Byte by byte: Foundation's trimming was a sixth of parsing a feed of ComCat events.
        while !utf8.isEmpty {
            let end = utf8.firstIndex(of: UInt8(ascii: ",")) ?? utf8.endIndex
            var item = utf8[utf8.startIndex..<end]
            while let first = item.first, first == 0x20 || first == 0x09 { item = item.dropFirst() }
            while let last = item.last, last == 0x20 || last == 0x09 { item = item.dropLast() }
            if !item.isEmpty, !item.elementsEqual(code.utf8) {
                let other = String(Substring(item))
                if !others.contains(other) { others.append(other) }
            }
            utf8 = end == utf8.endIndex ? utf8[end...] : utf8[utf8.index(after: end)...]
        }
        return others
    }
}
