import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Day sections' identifiers and titles (`DayCalendar.day(containing:)`) are made by arithmetic
/// on the local date, not by `DateFormatter`: they read exactly as the formatters write them, in
/// zones with daylight saving, quarter-hour offsets, a skipped day and days starting at 01:00,
/// from before the Gregorian reform to the year 9999.
struct DayCalendarTests {
    static let zones = ["UTC", "America/Los_Angeles", "Asia/Kathmandu", "Pacific/Apia", "America/Santiago",
                        "Australia/Lord_Howe", "Asia/Tehran", "Pacific/Kiritimati", "Europe/Dublin", "America/St_Johns"]

    @Test(arguments: zones)
    func labelsReadAsTheFormattersWriteThem(_ zone: String) {
        let timeZone = TimeZone(identifier: zone)!
        let days = DayCalendar(timeZone: timeZone)
        func formatter(_ format: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
            formatter.dateFormat = format
            return formatter
        }
        let id = formatter("yyyy-MM-dd"), title = formatter("EEEE, d MMMM yyyy")
        var generator = SeededGenerator(seed: UInt64(zone.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        // Every day of 2011 (Apia skipped 30 December), around the reform, and random times up to 9999.
        var times: [Int64] = stride(from: Int64(1_293_800_000_000), to: 1_325_500_000_000, by: 3_600_000 * 7).map { $0 }
        times += stride(from: Int64(-12_219_292_800_000 - 86_400_000 * 3), to: -12_219_292_800_000 + 86_400_000 * 3, by: 3_600_000).map { $0 }
        times += (0..<2_000).map { _ in Int64.random(in: QuakeRecord.supportedTimes, using: &generator) }
        for time in times {
            let day = days.day(containing: time)
            guard case .day(let start, _) = day.key else { Issue.record("not a day: \(time)"); continue }
            let interval = days.calendar.dateInterval(of: .day, for: Date(timeIntervalSince1970: Double(time) / 1000))!
            #expect(Int64((interval.start.timeIntervalSince1970 * 1000).rounded()) == start || start == QuakeRecord.supportedTimes.lowerBound)
            #expect(day.id == id.string(from: interval.start), "\(zone) \(time)")
            #expect(day.title == title.string(from: interval.start), "\(zone) \(time)")
        }
    }
}
