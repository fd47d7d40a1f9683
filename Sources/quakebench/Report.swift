import Foundation

/// One row of the results table: our median (and worst) beside the peer's median.
struct Figure: Encodable {
    var name: String
    var n: Int
    var ours: Double
    /// The worst of our samples (the scene-durability target is about the maximum).
    var ourMax: Double?
    /// How many samples the median is of.
    var samples: Int
    var peer: Double?
    var peerName: String?
    var unit: String
    /// e.g. "≤ 1.25× peer", "≤ 100 ms".
    var target: String
    /// nil when there is nothing to judge (no peer, no samples, or reported only).
    var met: Bool?
    /// Why a figure is missing or how to read it.
    var note: String?

    init(name: String, n: Int, ours: Double, ourMax: Double? = nil, samples: Int, peer: Double? = nil,
         peerName: String? = nil, unit: String, target: String, met: Bool?, note: String? = nil) {
        self.name = name
        self.n = n
        self.ours = ours
        self.ourMax = ourMax
        self.samples = samples
        self.peer = peer
        self.peerName = peer == nil ? nil : peerName
        self.unit = unit
        self.target = target
        self.met = met
        self.note = note
    }

    var ratio: Double? { peer.flatMap { $0 > 0 ? ours / $0 : nil } }

    enum CodingKeys: String, CodingKey { case name, n, ours, ourMax, samples, peer, peerName, unit, target, met, ratio, note }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(n, forKey: .n)
        try c.encode(ours.isNaN ? nil : ours, forKey: .ours)
        try c.encode(ourMax.flatMap { $0.isNaN ? nil : $0 }, forKey: .ourMax)
        try c.encode(samples, forKey: .samples)
        try c.encode(peer, forKey: .peer)
        try c.encode(peerName, forKey: .peerName)
        try c.encode(unit, forKey: .unit)
        try c.encode(target, forKey: .target)
        try c.encode(met, forKey: .met)
        try c.encode(ratio, forKey: .ratio)
        try c.encode(note, forKey: .note)
    }
}

enum Report {
    static func format(_ value: Double, unit: String) -> String {
        if value.isNaN { return "—" }
        switch unit {
        case "s": return value < 0.001 ? String(format: "%.2f ms", value * 1000)
            : value < 1 ? String(format: "%.1f ms", value * 1000) : String(format: "%.2f s", value)
        case "MB": return String(format: "%.1f MB", value)
        case "×": return String(format: "%.2f×", value)
        default: return String(format: "%.3g %@", value, unit)
        }
    }

    /// A Markdown table (it reads as plain text too), so BENCHMARKS.md can quote it as printed.
    static func table(_ figures: [Figure]) -> String {
        var rows = [["figure", "N", "ours (median)", "max", "runs", "peer (median)", "ratio", "target", "met?"]]
        for f in figures {
            rows.append([
                f.name, f.n.formatted(), format(f.ours, unit: f.unit), f.ourMax.map { format($0, unit: f.unit) } ?? "",
                String(f.samples),
                f.peer.map { "\(format($0, unit: f.unit)) (\(f.peerName ?? "")\(f.note.map { "; \($0)" } ?? ""))" }
                    ?? (f.note.map { "— (\($0))" } ?? "—"),
                f.ratio.map { String(format: "%.2f×", $0) } ?? "—", f.target,
                f.met.map { $0 ? "yes" : "NO" } ?? "—",
            ])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max()! }
        var lines = rows.map { row in
            "| " + zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        lines.insert("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|", at: 1)
        return lines.joined(separator: "\n")
    }
}
