import Foundation

extension Coastlines {
    /// A shoreline vertex in tenths of a degree.
    struct Vertex: Hashable, Sendable {
        var longitude: Int16
        var latitude: Int16
    }

    /// The shorelines as polylines, decoded once on first use.
    static let polylines: [[Vertex]] = decode(encoded)

    /// Decodes the base64 Int16 pairs of `encoded`; separators start a new polyline.
    static func decode(_ text: String) -> [[Vertex]] {
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { return [] }
        var result: [[Vertex]] = []
        var current: [Vertex] = []
        data.withUnsafeBytes { raw in
            let count = raw.count / 4
            for index in 0..<count {
                let lon = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: Int16.self))
                let lat = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4 + 2, as: Int16.self))
                if lon == Int16.min, lat == Int16.min {
                    if !current.isEmpty { result.append(current) }
                    current = []
                } else {
                    current.append(Vertex(longitude: lon, latitude: lat))
                }
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
