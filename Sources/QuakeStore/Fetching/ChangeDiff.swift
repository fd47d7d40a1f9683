import QuakeModel
/// What a listed merge changed in the results, as a value: the changed rows that matched before
/// (with their old keys) and after (with their new ones). From them it derives the sections'
/// count deltas, each row's old place within its section, and — given every changed row's old
/// and new flat offset and the section indexes before and after — the `ResultChanges`.
///
/// Pure: the results controller reads the keys, ranks and region titles from SQLite and hands
/// them in.
struct ChangeDiff {
    /// Every changed code (a merge reports them all, whether or not they match).
    let codes: Set<String>
    /// The changed rows that were in the results, with the keys they had then.
    let oldMatched: [String: RowKeys]
    /// The changed rows that are in the results now, with their keys now.
    let newMatched: [String: RowKeys]

    /// How many rows each section gains (positive) or loses (negative).
    func countDeltas(sectionOf: (RowKeys) -> SectionKey) -> [SectionKey: Int] {
        var deltas: [SectionKey: Int] = [:]
        for keys in oldMatched.values { deltas[sectionOf(keys), default: 0] -= 1 }
        for keys in newMatched.values { deltas[sectionOf(keys), default: 0] += 1 }
        return deltas
    }

    /// The sections the rows now in the results fall in.
    func newSectionKeys(sectionOf: (RowKeys) -> SectionKey) -> Set<SectionKey> {
        Set(newMatched.values.map(sectionOf))
    }

    /// The changed rows of each section, old and new, in section order: what `OldPlaces` counts
    /// through. Each row's section is computed once, so a merge of n changes costs n log n, not
    /// n² (a fetch that replaced the bundled sample merged 1,558 changes in seconds before).
    func oldPlaces(sectionOf: (RowKeys) -> SectionKey,
                   precedes: @escaping (RowKeys, RowKeys) -> Bool) -> OldPlaces {
        func bySection(_ rows: [String: RowKeys]) -> [SectionKey: [RowKeys]] {
            Dictionary(grouping: rows.values, by: sectionOf).mapValues { $0.sorted(by: precedes) }
        }
        return OldPlaces(new: bySection(newMatched), old: bySection(oldMatched), precedes: precedes)
    }

    /// Where a row that was in the results sat within its old section.
    struct OldPlaces {
        let new: [SectionKey: [RowKeys]]
        let old: [SectionKey: [RowKeys]]
        let precedes: (RowKeys, RowKeys) -> Bool

        /// From `nowBefore` — the rows of section `key` sorting before `keys` (a row's old keys)
        /// in the store as it is now: less the changed rows that now sort before it there, plus
        /// those that sorted before it there before.
        func place(of keys: RowKeys, in key: SectionKey, nowBefore: Int) -> Int {
            nowBefore - countBefore(keys, in: new[key] ?? []) + countBefore(keys, in: old[key] ?? [])
        }

        /// How many of `sorted` precede `keys`: the first index not preceding it.
        private func countBefore(_ keys: RowKeys, in sorted: [RowKeys]) -> Int {
            var low = 0, high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(sorted[middle], keys) { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// The flat offsets after the merge of rows whose offsets before it are `held` (the rows a
    /// controller held: no count needed to place the selection again), given each changed row's
    /// offset before (`oldRank`) and after (`newRank`), as `changes` takes them. An unchanged row
    /// keeps its place among the unchanged rows; a changed one is at its new rank, or gone.
    func places(of held: [String: Int], oldRank: [String: Int], newRank: [String: Int]) -> [String: Int] {
        let oldRanks = oldRank.values.sorted(), newRanks = newRank.values.sorted()
        var places: [String: Int] = [:]
        for (code, offset) in held {
            if codes.contains(code) {
                places[code] = newRank[code]
                continue
            }
            // Its place among the unchanged rows, then past every changed row now at or before it.
            var place = offset - oldRanks.prefix { $0 < offset }.count
            for rank in newRanks {
                guard rank <= place else { break }
                place += 1
            }
            places[code] = place
        }
        return places
    }

    /// The changes, from each changed row's flat offset before (`oldRank`, for the rows of
    /// `oldMatched`) and after (`newRank`, for those of `newMatched`), and the section indexes
    /// before and after. A row in both is a move when its place among the unchanged rows
    /// differs, otherwise an update.
    func changes(oldRank: [String: Int], newRank: [String: Int], old: SectionIndex, new: SectionIndex) -> ResultChanges {
        var changes = ResultChanges(codes: codes)
        changes.sectionsDeleted = old.sections.indices.filter { new.index(of: old.sections[$0].key) == nil }
        changes.sectionsInserted = new.sections.indices.filter { old.index(of: new.sections[$0].key) == nil }
        // How many changed rows came before a rank: its first index among the sorted ranks.
        func order(_ ranks: [String: Int]) -> [Int: Int] {
            Dictionary(ranks.values.sorted().enumerated().map { ($1, $0) }, uniquingKeysWith: min)
        }
        let oldOrder = order(oldRank), newOrder = order(newRank)
        for code in codes {
            switch (oldRank[code], newRank[code]) {
            case (let from?, nil): changes.deleted.append(from)
            case (nil, let to?): changes.inserted.append(to)
            case (let from?, let to?):
                let changedBeforeOld = oldOrder[from]!
                let changedBeforeNew = newOrder[to]!
                if from - changedBeforeOld == to - changedBeforeNew {
                    changes.updated.append(.init(from: from, to: to))
                } else {
                    changes.moved.append(.init(from: from, to: to))
                }
            case (nil, nil): break
            }
        }
        changes.deleted.sort()
        changes.inserted.sort()
        changes.moved.sort { $0.to < $1.to }
        changes.updated.sort { $0.to < $1.to }
        return changes
    }
}
