import Foundation

/// Declustering (issue 54): which quakes of a list are background (independent) and which depend
/// on another one (foreshocks, aftershocks, swarm members), by one of two published methods. The
/// statistics, the timeline and `list` can then use the background alone.
///
/// Both methods take part only with the quakes that have a usable magnitude (M −5 … 10): a quake
/// without one opens no window, joins no cluster and is always kept. Distances are great-circle
/// (`GeoPoint.distance(to:)`, R = 6371.0088 km); times are the stored milliseconds, a day
/// 86,400,000 of them. "Within" includes the boundary.
///
/// ```swift
/// let result = Declustering.gk.decluster(events)
/// result.removed            // dependent quakes
/// events.keeping(result.keep)
/// ```
public enum Declustering: String, CaseIterable, Sendable, Equatable, Codable {
    /// Gardner & Knopoff (1974) windows, as `decluster` states it.
    case gk
    /// Reasenberg (1985) cluster linking, as `decluster` states it.
    case reasenberg

    /// What the view and the command line call it.
    public var title: String { self == .gk ? "Gardner–Knopoff 1974" : "Reasenberg 1985" }

    /// The background of `events`: `keep[i]` for every quake that is not dependent.
    ///
    /// **`gk`** — the window of a quake of magnitude M is L(M) = 10^(0.1238 M + 0.983) km and
    /// T(M) = 10^(0.5409 M − 0.547) days below M 6.5, 10^(0.032 M + 2.7389) days from M 6.5 (the
    /// fit of van Stiphout, Zhuang & Marsan 2012, CORSSA, to Gardner & Knopoff's table). The quakes
    /// are taken largest first (equal magnitudes: the earlier first; equal times too: the earlier
    /// stored row). A quake not removed yet is a mainshock: its window removes every quake not yet
    /// taken (neither a mainshock nor removed) within L(M) of its epicentre and within T(M) of its
    /// time, before it (foreshocks, the same window as Gardner & Knopoff treat them) or after it
    /// (aftershocks). Every quake a window can remove is no larger than its mainshock. A removed
    /// quake opens no window of its own (no chains).
    ///
    /// **`reasenberg`** — ZMAP's reading of Reasenberg (1985) (`declus.m`; van Stiphout et al. 2012),
    /// with its standard parameters: τmin = 1 day, τmax = 10 days, P = 0.95, xk = 0.5,
    /// xmeff = 1.5, rfact = 10, and the crack radius r(M) = 0.011 · 10^(0.4 M) km. Distances are
    /// hypocentral, √(epicentral² + Δdepth²), Δdepth 0 where a depth is unknown; no location
    /// error is subtracted. The quakes are taken in time order (equal times: the earlier stored
    /// row). For quake i:
    /// 1. its look-ahead τ: τmin when i is in no cluster, or when its magnitude is at least that
    ///    of its cluster's largest quake (i then becomes the largest); otherwise
    ///    τ = −ln(1 − P) · t / 10^((max(0, (1 − xk) Mₗ − xmeff) − 1) · 2/3), clamped to τmin … τmax,
    ///    with t the days since the cluster's largest quake of magnitude Mₗ;
    /// 2. the later quakes j (after i in that order, no more than τ after it) not in i's cluster are
    ///    linked to it when within rfact · r(Mᵢ) of i, or, when τ > τmin, within r(Mₗ) of the
    ///    cluster's largest quake;
    /// 3. with a link: the clusters of i and of the linked quakes become one, numbered by the
    ///    earliest made of them (a new one, largest quake i, when none of them is in a cluster);
    ///    its largest quake is the largest of the merged clusters' (equal magnitudes: the earlier);
    ///    the linked quakes in no cluster join it.
    /// The background is every quake in no cluster and, of each cluster, its largest member by
    /// magnitude (equal magnitudes: the earliest); the others are removed. (ZMAP replaces each
    /// cluster by an equivalent event of the summed moment; a list can only keep rows, so the
    /// largest is kept, as in van Stiphout et al. 2012's description of mainshock-based output.)
    public func decluster(_ events: CatalogueEvents, progress: ((Double) -> Void)? = nil) -> DeclusterResult {
        switch self {
        case .gk: GardnerKnopoff.decluster(events, progress: progress)
        case .reasenberg: Reasenberg.decluster(events, progress: progress)
        }
    }

    /// The distance in km between quakes `i` and `j`: epicentral, or hypocentral when `depth`.
    static func distance(_ events: CatalogueEvents, _ i: Int, _ j: Int, depth: Bool) -> Double {
        let epicentral = GeoPoint(latitude: events.latitudes[i], longitude: events.longitudes[i])
            .distance(to: GeoPoint(latitude: events.latitudes[j], longitude: events.longitudes[j]))
        guard depth else { return epicentral }
        let dz = events.depths[i] - events.depths[j]
        return dz.isNaN ? epicentral : (epicentral * epicentral + dz * dz).squareRoot()
    }

    static let day = 86_400_000.0

    /// `time ± days`, cut at the ends of Int64's times.
    static func span(_ time: Int64, before: Double, after: Double) -> ClosedRange<Int64> {
        func offset(_ days: Double) -> Int64 { Int64(min(9e18, (days * day).rounded(.down))) }
        let (low, lowOverflow) = time.subtractingReportingOverflow(offset(before))
        let (high, highOverflow) = time.addingReportingOverflow(offset(after))
        return (lowOverflow ? .min : low) ... (highOverflow ? .max : high)
    }
}

/// Which quakes of a list declustering keeps, and how many it removed.
public struct DeclusterResult: Sendable, Equatable {
    public let method: Declustering
    /// `keep[i]` for each quake of the events, in their order.
    public let keep: [Bool]
    /// The dependent quakes removed.
    public var removed: Int { keep.count - kept }
    public let kept: Int

    init(method: Declustering, keep: [Bool]) {
        self.method = method
        self.keep = keep
        kept = keep.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
}

/// `Declustering.gk`.
enum GardnerKnopoff {
    /// L(M) in km.
    static func distance(_ m: Double) -> Double { pow(10, 0.1238 * m + 0.983) }
    /// T(M) in days.
    static func days(_ m: Double) -> Double { m >= 6.5 ? pow(10, 0.032 * m + 2.7389) : pow(10, 0.5409 * m - 0.547) }

    static func decluster(_ events: CatalogueEvents, progress: ((Double) -> Void)?) -> DeclusterResult {
        let m = events.magnitudes
        let usable = (0 ..< events.count).filter { !m[$0].isNaN }
        let order = usable.sorted { m[$0] != m[$1] ? m[$0] > m[$1] : $0 < $1 }  // time order is index order
        // The grid forgets a quake once taken (a mainshock, or removed by a window): a later
        // window never looks at it again.
        var grid = EpicentreGrid(events, indices: usable)
        // 0: not taken yet, 1: mainshock, 2: removed.
        var state = [UInt8](repeating: 0, count: events.count)
        for (step, i) in order.enumerated() {
            if let progress, step % 4096 == 0 { progress(Double(step) / Double(order.count)) }
            guard state[i] == 0 else { continue }
            state[i] = 1
            grid.remove(i)
            let radius = distance(m[i]), window = days(m[i])
            let center = GeoPoint(latitude: events.latitudes[i], longitude: events.longitudes[i])
            grid.forEachRemaining(near: center, radiusKm: radius, in: Declustering.span(events.times[i], before: window, after: window)) { j in
                guard Declustering.distance(events, i, j, depth: false) <= radius else { return false }
                state[j] = 2
                return true
            }
        }
        return DeclusterResult(method: .gk, keep: state.map { $0 != 2 })
    }
}

/// `Declustering.reasenberg`.
enum Reasenberg {
    static let tauMin = 1.0, tauMax = 10.0, confidence = 0.95, xk = 0.5, xmeff = 1.5, rfact = 10.0

    /// The crack radius r(M) in km.
    static func radius(_ m: Double) -> Double { 0.011 * pow(10, 0.4 * m) }

    /// The look-ahead in days of a quake `days` after its cluster's largest quake of magnitude `largest`.
    static func lookAhead(days: Double, largest: Double) -> Double {
        let deltaM = (1 - xk) * largest - xmeff
        let tau = -log(1 - confidence) * days / pow(10, (max(deltaM, 0) - 1) * 2 / 3)
        return min(max(tau, tauMin), tauMax)
    }

    static func decluster(_ events: CatalogueEvents, progress: ((Double) -> Void)?) -> DeclusterResult {
        let m = events.magnitudes, times = events.times
        let usable = (0 ..< events.count).filter { !m[$0].isNaN }
        let grid = EpicentreGrid(events, indices: usable)
        var cluster = [Int](repeating: -1, count: events.count)
        var largest: [Int] = [], members: [[Int]] = []
        var seen = [Int](repeating: -1, count: events.count)
        for (step, i) in usable.enumerated() {
            if let progress, step % 4096 == 0 { progress(Double(step) / Double(usable.count)) }
            let own = cluster[i]
            var tau = tauMin
            if own >= 0 {
                let l = largest[own]
                if m[i] >= m[l] {
                    largest[own] = i
                } else {
                    tau = lookAhead(days: Double(times[i] - times[l]) / Declustering.day, largest: m[l])
                }
            }
            let window = Declustering.span(times[i], before: 0, after: tau)
            let r1 = rfact * radius(m[i])
            var linked: [Int] = []
            func consider(_ j: Int) {
                guard j > i, seen[j] != i, own < 0 || cluster[j] != own else { return }
                seen[j] = i
                if Declustering.distance(events, i, j, depth: true) <= r1 {
                    linked.append(j)
                } else if tau > tauMin, own >= 0,
                          Declustering.distance(events, largest[own], j, depth: true) <= radius(m[largest[own]]) {
                    linked.append(j)
                }
            }
            grid.forEach(near: GeoPoint(latitude: events.latitudes[i], longitude: events.longitudes[i]), radiusKm: r1, in: window, consider)
            if tau > tauMin, own >= 0 {
                let l = largest[own]
                grid.forEach(near: GeoPoint(latitude: events.latitudes[l], longitude: events.longitudes[l]), radiusKm: radius(m[l]),
                             in: window, consider)
            }
            guard !linked.isEmpty else { continue }
            var merging = Set(linked.map { cluster[$0] }.filter { $0 >= 0 })
            if own >= 0 { merging.insert(own) }
            let target: Int
            if let first = merging.min() {
                target = first
            } else {
                target = members.count
                members.append([])
                largest.append(i)
            }
            if cluster[i] < 0 {
                cluster[i] = target
                members[target].append(i)
            }
            for other in merging where other != target {
                for member in members[other] { cluster[member] = target }
                members[target] += members[other]
                members[other] = []
                let (a, b) = (largest[target], largest[other])
                if m[b] > m[a] || (m[b] == m[a] && b < a) { largest[target] = b }
            }
            for j in linked where cluster[j] < 0 {
                cluster[j] = target
                members[target].append(j)
            }
        }
        var keep = [Bool](repeating: true, count: events.count)
        for group in members where group.count > 1 {
            let kept = group.min { m[$0] != m[$1] ? m[$0] > m[$1] : $0 < $1 }!
            for member in group where member != kept { keep[member] = false }
        }
        return DeclusterResult(method: .reasenberg, keep: keep)
    }
}
