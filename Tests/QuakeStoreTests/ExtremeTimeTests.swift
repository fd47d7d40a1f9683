import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 17, finding 1: a row with an extreme `time` (written before readers skipped them, or by
/// another writer) must not hang the day-section loop; every section holds its rows.
@Suite struct ExtremeTimeTests {
    static let extremes: [Int64] = [
        .min, .min + 1, -1_000_000_000_000_000, -377_705_116_800_001, QuakeRecord.supportedTimes.lowerBound - 1,
        QuakeRecord.supportedTimes.lowerBound, 0, QuakeRecord.supportedTimes.upperBound,
        QuakeRecord.supportedTimes.upperBound + 1, 20_000_000_000_000_000, .max - 1, .max,
    ]

    @Test(arguments: [TimeZone(identifier: "UTC")!, TimeZone(identifier: "Pacific/Kiritimati")!,
                      TimeZone(identifier: "America/Los_Angeles")!], [false, true])
    func daySectionsAdvancePastExtremeTimes(zone: TimeZone, ascending: Bool) throws {
        let store = try TestStore()
        defer { store.remove() }
        let records = Self.extremes.enumerated().map { QuakeRecord.fixture("x\($0.offset)", time: $0.element) }
            + [QuakeRecord.fixture("now", time: 1_700_000_000_000)]
        try store.upsert(records)
        let controller = try FetchedResultsController(
            container: store.container,
            request: SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.time, ascending: ascending), timeZone: zone))
        defer { controller.close() }
        #expect(controller.count == records.count)
        #expect(controller.sections.reduce(0) { $0 + $1.count } == records.count)
        #expect(Set(controller.sections.map(\.id)).count == controller.sections.count, "a section appears twice")
        let rows = try controller.rows(in: 0..<controller.count)
        let times = rows.map(\.time)
        #expect(times == (ascending ? times.sorted() : times.sorted(by: >)))
        #expect(controller.sections.first?.id == (ascending ? "before-0001" : "after-9999"))
    }

    @Test func everyDayHoldsItsTime() {
        for zone in ["UTC", "Pacific/Kiritimati", "Asia/Kathmandu", "America/St_Johns"] {
            let days = DayCalendar(timeZone: TimeZone(identifier: zone)!)
            for time in Self.extremes + stride(from: QuakeRecord.supportedTimes.lowerBound, to: 0, by: 86_400_000 * 36_523 + 1).map({ $0 }) {
                guard case .day(let start, let last) = days.day(containing: time).key else {
                    Issue.record("not a day"); continue
                }
                #expect(start <= time && time <= last, "\(zone) \(time): \(start)...\(last)")
            }
        }
    }

    /// The day a calendar keeps from its last answer is the day a fresh calendar answers: asked
    /// hour by hour across a year's clock changes (23- and 25-hour days), then at random.
    @Test func aKeptDayIsTheDayAFreshCalendarFinds() {
        for zone in ["Europe/London", "America/St_Johns", "Australia/Lord_Howe", "UTC"] {
            let timeZone = TimeZone(identifier: zone)!
            let kept = DayCalendar(timeZone: timeZone)
            var times = Array(stride(from: Int64(1_767_225_600_000), to: 1_798_761_600_000, by: 3_600_000 - 1))
            var state: UInt64 = 7
            for _ in 0..<2_000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1
                times.append(times[Int(state >> 33) % times.count] + Int64(state >> 50))
            }
            for time in times {
                let fresh = DayCalendar(timeZone: timeZone).day(containing: time)
                #expect(kept.key(containing: time) == fresh.key, "\(zone) \(time)")
                #expect(kept.day(containing: time) == fresh, "\(zone) \(time)")
            }
        }
    }

    @Test func supportedTimesAreTheFourDigitYears() {
        #expect(QuakeRecord.timeProblem(QuakeRecord.supportedTimes.lowerBound) == nil)
        #expect(QuakeRecord.timeProblem(253_402_300_799_999) == nil)
        #expect(QuakeRecord.timeProblem(253_402_300_800_000) == "\"time\" 253402300800000 is outside the supported years 0001…9999")
        #expect(QuakeRecord.timeProblem(-1_000_000_000_000_000, field: "updated")?.hasPrefix("\"updated\"") == true)
    }
}
