/// Proleptic Gregorian dates and days since 1970-01-01, both ways, by arithmetic (Howard Hinnant,
/// "chrono-Compatible Low-Level Date Algorithms", `days_from_civil` and `civil_from_days`): for the
/// places that read or write dates without Foundation's calendar and formatters, which cost
/// microseconds a call (feeds' ISO 8601 times, FDSN query times, day sections' labels, property lists' dates).
public enum CivilDate {
    /// Days since 1970-01-01 of `year`-`month`-`day`.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` after 1970-01-01.
    public static func date(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, doy - (153 * mp + 2) / 5 + 1)
    }

    /// `yyyy-MM-dd` of the day `days` after 1970-01-01.
    public static func isoDate(days: Int64) -> String {
        let (year, month, day) = date(days: days)
        return "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))"
    }

    /// `yyyy-MM-ddTHH:mm:ss` (UTC) of the second `seconds` after 1970-01-01T00:00:00.
    public static func isoDateTime(seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let second = seconds - days * 86_400
        return "\(isoDate(days: days))T\(digits(second / 3_600, 2)):\(digits(second / 60 % 60, 2)):\(digits(second % 60, 2))"
    }

    /// `value` in at least `width` digits (`digits(7, 2)` is `07`), its sign first.
    public static func digits(_ value: Int64, _ width: Int) -> String {
        let text = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
