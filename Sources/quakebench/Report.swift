import Foundation

/// One row of the results table.
struct Figure: Encodable {
    var name: String
    var n: Int
    var ours: Double
    var peer: Double?
    var peerName: String?
    var unit: String
    /// e.g. "≤ 1.25× peer", "≤ 100 ms".
    var target: String
    /// nil when the target has no pass/fail meaning here (reported, not gated).
    var met: Bool?

    var ratio: Double? { peer.map { ours / $0 } }

    enum CodingKeys: String, CodingKey { case name, n, ours, peer, peerName, unit, target, met, ratio }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(n, forKey: .n)
        try c.encode(ours, forKey: .ours)
        try c.encode(peer, forKey: .peer)
        try c.encode(peerName, forKey: .peerName)
        try c.encode(unit, forKey: .unit)
        try c.encode(target, forKey: .target)
        try c.encode(met, forKey: .met)
        try c.encode(ratio, forKey: .ratio)
    }
}

enum Report {
    static func format(_ value: Double, unit: String) -> String {
        switch unit {
        case "s": value < 1 ? String(format: "%.1f ms", value * 1000) : String(format: "%.2f s", value)
        case "MB": String(format: "%.1f MB", value)
        case "quakes/s": String(format: "%.0f/s", value)
        default: String(format: "%.3g %@", value, unit)
        }
    }

    static func table(_ figures: [Figure]) -> String {
        var rows = [["figure", "N", "ours", "peer", "ratio", "target", "met?"]]
        for f in figures {
            rows.append([
                f.name, f.n.formatted(), format(f.ours, unit: f.unit),
                f.peer.map { "\(format($0, unit: f.unit)) (\(f.peerName ?? ""))" } ?? "—",
                f.ratio.map { String(format: "%.2f×", $0) } ?? "—", f.target,
                f.met.map { $0 ? "yes" : "NO" } ?? "—",
            ])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max()! }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
