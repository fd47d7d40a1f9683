/// What a filter's value is checked against before it runs (`:type`, `:magtype`, `--type`,
/// `--mag-type`): a value no stored quake has is refused, naming those there are, rather than
/// answered with an empty list.
public enum StoredValues: String, Sendable, Equatable {
    /// The event types stored quakes have (`earthquake`, `quarry blast`), lower case.
    case eventTypes
    /// The magnitude types stored quakes have (`ml`, `mww`), lower case.
    case magnitudeTypes

    /// What the filter tests of these values, or nil for a filter of other values.
    public func value(of filter: RowFilter) -> String? {
        switch (self, filter) {
        case (.eventTypes, .eventType(let type, _)): type
        case (.magnitudeTypes, .magnitudeType(let type)): type
        default: nil
        }
    }

    /// The values a filter is checked against, nil for a filter that is not.
    public static func checked(by filter: RowFilter) -> StoredValues? {
        [.eventTypes, .magnitudeTypes].first { $0.value(of: filter) != nil }
    }
}
