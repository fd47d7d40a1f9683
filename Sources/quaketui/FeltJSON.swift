import QuakeModel

/// `intensityAtHome` and `sArrivalSeconds` as `list --json` and `watch --json` write them: the
/// predicted intensity to one decimal (1.0–10.0, `FeltIntensity.oneDecimal`) and the S-wave
/// arrival in seconds after the origin (to one decimal), each `null` when there is none (no home,
/// no magnitude, or farther than 1,000 km for the arrival).
struct FeltJSON {
    let felt: FeltIntensity?

    init(_ felt: FeltIntensity?) { self.felt = felt }

    func encode<Key: CodingKey>(to c: inout KeyedEncodingContainer<Key>, intensity: Key, arrival: Key) throws {
        try c.encode(felt?.oneDecimal, forKey: intensity)  // null, not omitted
        try c.encode(felt?.sArrivalSeconds, forKey: arrival)
    }
}
