import Foundation

/// Declustering as the README states it, written again over a plain list of quakes with plain
/// loops (every pair looked at: no grid, no index), for the tests to compare quake by quake.
public enum IndependentDeclustering {
    public struct Quake: Equatable {
        /// ms since the epoch; the list is in time order, equal times in list order.
        public var time: Int64
        public var latitude: Double
        public var longitude: Double
        public var depth: Double?
        public var magnitude: Double?

        public init(time: Int64, latitude: Double, longitude: Double, depth: Double?, magnitude: Double?) {
            (self.time, self.latitude, self.longitude, self.depth, self.magnitude) = (time, latitude, longitude, depth, magnitude)
        }
    }

    static let day = 86_400_000.0

    /// Haversine on a sphere of 6371.0088 km.
    public static func epicentral(_ a: Quake, _ b: Quake) -> Double {
        let p1 = a.latitude * .pi / 180, p2 = b.latitude * .pi / 180
        let dp = p2 - p1, dl = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * 6371.0088 * asin(min(1, sqrt(h)))
    }

    static func hypocentral(_ a: Quake, _ b: Quake) -> Double {
        let e = epicentral(a, b)
        guard let da = a.depth, let db = b.depth else { return e }
        return (e * e + (da - db) * (da - db)).squareRoot()
    }

    /// Gardner–Knopoff: `true` for each quake kept.
    public static func gk(_ quakes: [Quake]) -> [Bool] {
        let n = quakes.count
        // Largest first; equal magnitudes, the earlier (lower index: the list is in time order).
        let order = (0 ..< n).filter { quakes[$0].magnitude != nil }
            .sorted { (quakes[$0].magnitude!, -$0) > (quakes[$1].magnitude!, -$1) }
        var taken = [Bool](repeating: false, count: n), removed = [Bool](repeating: false, count: n)
        for i in order {
            if taken[i] { continue }
            taken[i] = true
            let m = quakes[i].magnitude!
            let l = pow(10, 0.1238 * m + 0.983)
            let t = m >= 6.5 ? pow(10, 0.032 * m + 2.7389) : pow(10, 0.5409 * m - 0.547)
            for j in 0 ..< n where !taken[j] && quakes[j].magnitude != nil {
                let dt = Double(abs(quakes[j].time - quakes[i].time))
                if dt <= (t * day).rounded(.down), epicentral(quakes[i], quakes[j]) <= l {
                    taken[j] = true
                    removed[j] = true
                }
            }
        }
        return removed.map { !$0 }
    }

    /// Reasenberg as ZMAP's `declus.m` with the README's reading: `true` for each quake kept.
    public static func reasenberg(_ quakes: [Quake]) -> [Bool] {
        let n = quakes.count
        let tauMin = 1.0, tauMax = 10.0, p = 0.95, xk = 0.5, xmeff = 1.5, rfact = 10.0
        func r(_ m: Double) -> Double { 0.011 * pow(10, 0.4 * m) }
        // 0: in no cluster; clusters numbered from 1 in the order made.
        var clus = [Int](repeating: 0, count: n)
        var biggest: [Int: Int] = [:]
        var made = 0
        let usable = (0 ..< n).filter { quakes[$0].magnitude != nil }
        for i in usable {
            let mi = quakes[i].magnitude!
            let k1 = clus[i]
            var tau = tauMin
            if k1 != 0 {
                let big = biggest[k1]!
                if mi >= quakes[big].magnitude! {
                    biggest[k1] = i
                } else {
                    let tdiff = Double(quakes[i].time - quakes[big].time) / day
                    let dm = (1 - xk) * quakes[big].magnitude! - xmeff
                    tau = -log(1 - p) * tdiff / pow(10, (max(0, dm) - 1) * 2 / 3)
                    tau = min(max(tau, tauMin), tauMax)
                }
            }
            var linked: [Int] = []
            for j in usable where j > i {
                let dt = Double(quakes[j].time - quakes[i].time)
                if dt > (tau * day).rounded(.down) { continue }
                if k1 != 0 && clus[j] == k1 { continue }
                var near = hypocentral(quakes[i], quakes[j]) <= rfact * r(mi)
                if !near, tau > tauMin, k1 != 0 {
                    let big = biggest[k1]!
                    near = hypocentral(quakes[big], quakes[j]) <= r(quakes[big].magnitude!)
                }
                if near { linked.append(j) }
            }
            if linked.isEmpty { continue }
            var numbers = Set(linked.map { clus[$0] }.filter { $0 != 0 })
            if k1 != 0 { numbers.insert(k1) }
            var k: Int
            if let smallest = numbers.min() {
                k = smallest
            } else {
                made += 1
                k = made
                biggest[k] = i
            }
            if clus[i] == 0 { clus[i] = k }
            for other in numbers where other != k {
                for x in 0 ..< n where clus[x] == other { clus[x] = k }
                let a = biggest[k]!, b = biggest[other]!
                let ma = quakes[a].magnitude!, mb = quakes[b].magnitude!
                if mb > ma || (mb == ma && b < a) { biggest[k] = b }
            }
            for j in linked where clus[j] == 0 { clus[j] = k }
        }
        var keep = [Bool](repeating: true, count: n)
        for k in Set(clus) where k != 0 {
            let members = (0 ..< n).filter { clus[$0] == k }
            guard members.count > 1 else { continue }
            var best = members[0]
            for x in members where quakes[x].magnitude! > quakes[best].magnitude! { best = x }
            for x in members where x != best { keep[x] = false }
        }
        return keep
    }
}
