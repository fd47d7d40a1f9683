import QuakeTime

/// Parses the USGS CSV time format, `2019-07-19T02:52:13.590Z`, into milliseconds since the epoch.
///
/// Accepts `T` or a space between date and time, optional seconds fraction (any number of
/// digits, truncated to milliseconds), and `Z`, `+HH:MM`, `-HH:MM`, `+HHMM` or nothing (UTC).
/// Hand-written (days-from-civil, Howard Hinnant's algorithm) because Foundation's
/// formatters cost microseconds per call. Returns nil for anything else.
func parseISO8601Milliseconds(_ s: UnsafePointer<UInt8>, _ n: Int) -> Int64? {
    var i = 0
    @inline(__always) func digits(_ count: Int) -> Int? {
        guard i + count <= n else { return nil }
        var v = 0
        for k in 0..<count {
            let d = s[i + k] &- 0x30
            guard d < 10 else { return nil }
            v = v * 10 + Int(d)
        }
        i += count
        return v
    }
    @inline(__always) func expect(_ c: UInt8) -> Bool {
        guard i < n, s[i] == c else { return false }
        i += 1
        return true
    }
    guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
          let day = digits(2) else { return nil }
    guard i < n, s[i] == UInt8(ascii: "T") || s[i] == UInt8(ascii: " ") else { return nil }
    i += 1
    guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2) else { return nil }
    var second = 0, millisecond = 0
    if expect(UInt8(ascii: ":")) {
        guard let sec = digits(2) else { return nil }
        second = sec
        if expect(UInt8(ascii: ".")) {
            var scale = 100, count = 0
            while i < n, s[i] &- 0x30 < 10 {
                millisecond += Int(s[i] &- 0x30) * scale
                scale /= 10
                count += 1
                i += 1
            }
            guard count > 0 else { return nil }
        }
    }
    var offsetMinutes = 0
    if i < n {
        if s[i] == UInt8(ascii: "Z") {
            i += 1
        } else if s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
            let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let hh = digits(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let mm = digits(2) else { return nil }
            offsetMinutes = sign * (hh * 60 + mm)
        }
    }
    guard i == n, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
        return nil
    }
    let days = CivilDate.days(year: year, month: month, day: day)
    let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
    return seconds * 1000 + Int64(millisecond)
}
