import QuakeModel
/// The section index of a sectioned fetch, as a value: the sections in order, where each
/// starts among the flat offsets, which section a key names, and the total count.
///
/// Pure: no SQLite. The results controller builds one per fetch and, for a merge, derives the
/// next one from count deltas and the sections the changed rows brought (`applying`).
struct SectionIndex: Equatable {
    private(set) var sections: [QuakeSection] = []
    /// The flat offset of each section's first row.
    private(set) var starts: [Int] = []
    private var indexByKey: [SectionKey: Int] = [:]
    /// Rows in all sections.
    private(set) var count = 0

    init(_ sections: [QuakeSection] = []) {
        self.sections = sections
        starts.reserveCapacity(sections.count)
        for (index, section) in sections.enumerated() {
            starts.append(count)
            indexByKey[section.key] = index
            count += section.count
        }
    }

    /// The section and row within it of a flat offset in `0..<count`.
    func indexPath(forOffset offset: Int) -> (section: Int, row: Int) {
        precondition(offset >= 0 && offset < count, "offset \(offset) out of 0..<\(count)")
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return (low, offset - starts[low])
    }

    /// The flat offset of the first row of a section.
    func offset(ofSection section: Int) -> Int { starts[section] }

    /// The index of the section with `key`, or nil when it is not in the index.
    func index(of key: SectionKey) -> Int? { indexByKey[key] }

    /// The flat offsets of the section with `key`, or nil when it is not in the index.
    func range(of key: SectionKey) -> Range<Int>? {
        indexByKey[key].map { starts[$0]..<(starts[$0] + sections[$0].count) }
    }

    /// Where a section with `key` starts: its own first offset, or for a key with no section
    /// yet, where it would go (the rows of the sections that `precedes` puts before it).
    func start(of key: SectionKey, precedes: (SectionKey, SectionKey) -> Bool) -> Int {
        if let index = indexByKey[key] { return starts[index] }
        return sections.filter { precedes($0.key, key) }.reduce(0) { $0 + $1.count }
    }

    /// The next index after a merge: every section's count moved by its delta (a missing key is
    /// 0), sections left empty dropped, and `added` (sections whose keys are not in this index,
    /// counted by their delta alone) inserted where `precedes` puts them.
    /// `titles` replaces the titles of the sections it names.
    func applying(_ deltas: [SectionKey: Int], adding added: [QuakeSection], titles: [SectionKey: String] = [:],
                  precedes: (SectionKey, SectionKey) -> Bool) -> SectionIndex {
        var next: [QuakeSection] = []
        next.reserveCapacity(sections.count + added.count)
        for var section in sections {
            section.count += deltas[section.key] ?? 0
            if let title = titles[section.key] { section.title = title }
            if section.count > 0 { next.append(section) }
        }
        for var section in added where indexByKey[section.key] == nil {
            section.count = deltas[section.key] ?? 0
            guard section.count > 0 else { continue }
            let index = next.firstIndex { precedes(section.key, $0.key) } ?? next.endIndex
            next.insert(section, at: index)
        }
        return SectionIndex(next)
    }
}
