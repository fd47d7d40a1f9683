/// Where `n` / `N` start from in a list: a quake's row, or a section's header.
public enum ListPlace: Equatable, Sendable {
    case row(offset: Int, code: String)
    /// The header of section `section`, whose first row is at `start`.
    case header(section: Int, start: Int)
    case top
}

/// The next (or previous) of some quakes in a list, as `n` / `N` find it: its flat offset, its
/// position among them in list order (from 1) and how many of them the list holds.
public struct FoundAmong: Equatable, Sendable {
    public var offset: Int
    public var position: Int
    public var count: Int

    public init(offset: Int, position: Int, count: Int) {
        self.offset = offset
        self.position = position
        self.count = count
    }

    /// Which of `sorted` (in list order) comes next from a place: going forward the first after
    /// it, else the first (wrapping around); going back the last before it, else the last.
    /// `before` / `after` say where an element sorts from the place.
    package static func pick<T>(_ sorted: [T], forward: Bool, before: (T) -> Bool, after: (T) -> Bool) -> Int? {
        guard !sorted.isEmpty else { return nil }
        return forward ? sorted.firstIndex(where: after) ?? 0 : sorted.lastIndex(where: before) ?? sorted.count - 1
    }

    /// The next of the quakes at flat `offsets` (any order) from `place`, going `forward` (or
    /// back), wrapping around: for results that locate each quake (a provisional window, an
    /// order ranked row by row).
    package static func among(offsets: [Int], from place: ListPlace, forward: Bool) -> FoundAmong? {
        let offsets = offsets.sorted()
        let (before, after): ((Int) -> Bool, (Int) -> Bool) = switch place {
        case .row(let offset, _): ({ $0 < offset }, { $0 > offset })
        case .header(_, let start): ({ $0 < start }, { $0 >= start })
        case .top: ({ _ in false }, { _ in true })
        }
        return pick(offsets, forward: forward, before: before, after: after).map {
            FoundAmong(offset: offsets[$0], position: $0 + 1, count: offsets.count)
        }
    }
}
