import Foundation
import QuakeModel
import QuakeStore

/// The fields every format carries, for comparing readers with independent parses.
public struct CoreFields: Equatable, CustomStringConvertible {
    public var code: String
    public var magnitude: Double?
    public var place: String
    public var time: Int64
    public var updated: Int64
    public var latitude: Double
    public var longitude: Double
    public var depth: Double?

    public init(code: String, magnitude: Double?, place: String, time: Int64, updated: Int64,
                latitude: Double, longitude: Double, depth: Double?) {
        self.code = code
        self.magnitude = magnitude
        self.place = place
        self.time = time
        self.updated = updated
        self.latitude = latitude
        self.longitude = longitude
        self.depth = depth
    }

    public init(_ r: QuakeRecord) {
        self.init(code: r.code, magnitude: r.magnitude, place: r.place, time: r.time, updated: r.updated,
                  latitude: r.latitude, longitude: r.longitude, depth: r.depth)
    }

    /// Equal, allowing doubles a relative error of 1e-12: swift-corelibs-foundation's
    /// JSONSerialization does not round decimals correctly (20.4836 comes out as
    /// 20.483599999999996, several ulps off), while the reader matches `Double(String)`
    /// exactly (see NumberTests, which checks that without the tolerance).
    public func matches(_ other: CoreFields) -> Bool {
        func close(_ a: Double, _ b: Double) -> Bool { a == b || abs(a - b) <= 1e-12 * max(1, abs(a)) }
        func close(_ a: Double?, _ b: Double?) -> Bool {
            switch (a, b) {
            case (nil, nil): return true
            case let (a?, b?): return close(a, b)
            default: return false
            }
        }
        return code == other.code && place == other.place && time == other.time && updated == other.updated
            && close(magnitude, other.magnitude) && close(latitude, other.latitude)
            && close(longitude, other.longitude) && close(depth, other.depth)
    }

    public var description: String {
        "\(code) M\(magnitude.map { "\($0)" } ?? "nil") \(place) t=\(time) u=\(updated) (\(latitude), \(longitude), \(depth.map { "\($0)" } ?? "nil"))"
    }
}
