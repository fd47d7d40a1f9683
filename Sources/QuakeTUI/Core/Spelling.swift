/// "Did you mean …?" for mistyped commands, options and values, as swift-argument-parser does:
/// the command line's and the browser's `:` line's one nearest-name rule.
public enum Spelling {
    /// The candidate closest to `typed` by edit distance, if it is close enough to be a typo:
    /// at most 2 edits (1 for words of up to 4 letters), or `typed` is a prefix of exactly one.
    public static func nearest(to typed: String, in candidates: [String]) -> String? {
        let word = typed.lowercased()
        guard !word.isEmpty else { return nil }
        let prefixed = candidates.filter { $0.hasPrefix(word) }
        if prefixed.count == 1 { return prefixed[0] }
        let limit = word.count <= 4 ? 1 : 2
        let scored = candidates.map { ($0, distance(word, $0.lowercased())) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// ` Did you mean 'list'?` for the candidate `nearest(to:in:)` picks, or "" when none is
    /// close: the ending of every command-line error about an unknown name (command, option,
    /// setting, feed). `spelled` writes the name as the user would type it (`--sort`).
    public static func didYouMean(_ typed: String, in candidates: [String],
                                  spelled: (String) -> String = { $0 }) -> String {
        nearest(to: typed, in: candidates).map { " Did you mean '\(spelled($0))'?" } ?? ""
    }

    /// The Damerau–Levenshtein (optimal string alignment) distance: a swap of two neighbours
    /// counts as one edit, so `lsit` is one edit from `list`.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[i - 2][j - 2] + 1)
                }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }
}
