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

    /// Where a row that was in the results sat within its old section, from `nowBefore` — the
    /// rows of that section sorting before its old keys in the store as it is now: less the
    /// changed rows that now sort before it there, plus those that sorted before it there before.
    func oldPlace(of keys: RowKeys, nowBefore: Int, sectionOf: (RowKeys) -> SectionKey,
                  precedes: (RowKeys, RowKeys) -> Bool) -> Int {
        let key = sectionOf(keys)
        return nowBefore
            - newMatched.values.filter { sectionOf($0) == key && precedes($0, keys) }.count
            + oldMatched.values.filter { sectionOf($0) == key && precedes($0, keys) }.count
    }

    /// The changes, from each changed row's flat offset before (`oldRank`, for the rows of
    /// `oldMatched`) and after (`newRank`, for those of `newMatched`), and the section indexes
    /// before and after. A row in both is a move when its place among the unchanged rows
    /// differs, otherwise an update.
    func changes(oldRank: [String: Int], newRank: [String: Int], old: SectionIndex, new: SectionIndex) -> ResultChanges {
        var changes = ResultChanges(codes: codes)
        changes.sectionsDeleted = old.sections.indices.filter { new.index(of: old.sections[$0].key) == nil }
        changes.sectionsInserted = new.sections.indices.filter { old.index(of: new.sections[$0].key) == nil }
        for code in codes {
            switch (oldRank[code], newRank[code]) {
            case (let from?, nil): changes.deleted.append(from)
            case (nil, let to?): changes.inserted.append(to)
            case (let from?, let to?):
                let changedBeforeOld = oldRank.values.filter { $0 < from }.count
                let changedBeforeNew = newRank.values.filter { $0 < to }.count
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
