/// The quakes declustering keeps (the background), as a row filter carries them
/// (`RowFilter.declustered`, issue 54): a bitmap of row ids, the method that kept them, and how
/// many quakes it declustered. A value: the browser's update holds it and puts it in its
/// request; the store's SQL binds the bitmap (`quaketui_in_bitmap(id, ?)`) and its Swift test
/// reads the same bits, so no id set hides anywhere else.
///
/// ```swift
/// let kept = DeclusteredSet(method: .gk, keptIDs: [3, 9, 12], declustered: 5)
/// kept.contains(9)   // true
/// ```
///
/// Two sets are equal when they keep the same ids by the same method out of as many quakes; the
/// bitmap is compared only when the rest agrees (equal copies share storage and compare at once).
public struct DeclusteredSet: Hashable, Sendable {
    /// How the background was found.
    public let method: Declustering
    /// Bit `id % 8` of byte `id / 8` set for each kept row id.
    public let bitmap: [UInt8]
    /// Ids kept (the background's size).
    public let keptCount: Int
    /// Quakes declustered (the list before declustering): `keptCount` of them were kept.
    public let declusteredCount: Int

    /// The set keeping `keptIDs` (row ids ≥ 0) of `declustered` quakes.
    public init(method: Declustering, keptIDs: some Sequence<Int64>, declustered: Int) {
        var bitmap: [UInt8] = []
        var count = 0
        for id in keptIDs where id >= 0 {
            let byte = Int(id / 8)
            if byte >= bitmap.count { bitmap.append(contentsOf: repeatElement(0, count: max(byte + 1 - bitmap.count, bitmap.count / 2))) }
            let bit = UInt8(1) << UInt8(id % 8)
            if bitmap[byte] & bit == 0 { count += 1 }
            bitmap[byte] |= bit
        }
        while bitmap.last == 0 { bitmap.removeLast() }
        self.method = method
        self.bitmap = bitmap
        keptCount = count
        declusteredCount = declustered
    }

    /// The background of `events` that `result` (of `method`) keeps.
    public init(method: Declustering, events: CatalogueEvents, result: DeclusterResult) {
        self.init(method: method, keptIDs: zip(events.ids, result.keep).lazy.filter(\.1).map(\.0), declustered: events.count)
    }

    /// Whether row `id` is kept.
    public func contains(_ id: Int64) -> Bool {
        guard id >= 0, id / 8 < Int64(bitmap.count) else { return false }
        return (bitmap[Int(id / 8)] >> UInt8(id % 8)) & 1 == 1
    }

    /// Dependent quakes left out.
    public var removed: Int { declusteredCount - keptCount }

    public static func == (lhs: DeclusteredSet, rhs: DeclusteredSet) -> Bool {
        lhs.method == rhs.method && lhs.keptCount == rhs.keptCount && lhs.declusteredCount == rhs.declusteredCount
            && lhs.bitmap == rhs.bitmap
    }

    /// The method and counts only: hashing the bitmap (125 KB at a million quakes) on every
    /// request comparison would cost more than it tells.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(keptCount)
        hasher.combine(declusteredCount)
    }
}
