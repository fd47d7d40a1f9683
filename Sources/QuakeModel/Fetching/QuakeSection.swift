import Foundation
import QuakeTime

/// One section of a sectioned fetch: its stable identifier, title and row count.
public struct QuakeSection: Hashable, Sendable {
    /// Stable across launches (saved in `ContentView.collapsedSections`): `2024-05-01`, `M 5`, a folded region.
    public let id: String
    public package(set) var title: String
    public package(set) var count: Int
    package let key: SectionKey
    /// The section of a provisional window: `count` is only the rows read so far, the real one
    /// is being counted (`ResultsEngine`).
    public package(set) var isCountPending = false
    /// The section of a provisional window whose counts arrived before its rows' order (a
    /// distance sort): the rows of the whole result in it, while `count` stays the rows the
    /// window holds (what the layout lays out). nil for every other section.
    public package(set) var totalCount: Int?

    package init(id: String, title: String, count: Int, key: SectionKey, isCountPending: Bool = false, totalCount: Int? = nil) {
        self.id = id
        self.title = title
        self.count = count
        self.key = key
        self.isCountPending = isCountPending
        self.totalCount = totalCount
    }
}

/// What bounds a section in SQL: a day of `time`, a magnitude bucket, or one `regionKey`.
package enum SectionKey: Hashable, Sendable {
    /// `start ... last` in ms since the epoch, both included (so a day can end at `Int64.max`).
    case day(start: Int64, last: Int64)
    /// Whole-magnitude bucket: 6 is `M 6+`, 0 is `M <1` (negatives included), nil is `unknown`.
    case magnitude(Int?)
    case region(String)
    /// A depth band by its lower edge in km (`DepthBands`); nil is an unknown depth.
    case depth(Double?)
    /// A distance band `lowerKm ..< upperKm` from the request's reference (`upperKm` may be infinite).
    case distance(lowerKm: Double, upperKm: Double)

    /// The whole magnitude a row is sectioned under, as shown (`MagnitudeBin.whole(of:)`).
    package static func bucket(of magnitude: Double?) -> Int? { MagnitudeBin.whole(of: magnitude) }

    package static func magnitudeTitle(_ bucket: Int?) -> String {
        switch bucket {
        case nil: "unknown"
        case 0: "M <1"
        case 6: "M 6+"
        case let k?: "M \(k)"
        }
    }
}
