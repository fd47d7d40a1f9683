import Foundation
import QuakeScenes
import QuakeTestSupport
import Testing

/// The automatic refresh's timetable, its status file, and the one-refresher lease.
@Suite struct RefreshScheduleTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func successRunsEveryIntervalAndFailuresBackOff() {
        let schedule = RefreshSchedule(interval: 300)
        var status = RefreshStatus()
        #expect(schedule.isDue(status, at: Self.t0), "never run: due now")
        status = schedule.record(.imported, at: Self.t0, in: status)
        #expect(status.nextDue == Self.t0.addingTimeInterval(300) && status.lastSuccess == Self.t0 && status.failures == 0)
        #expect(!schedule.isDue(status, at: Self.t0.addingTimeInterval(299)))
        #expect(schedule.isDue(status, at: Self.t0.addingTimeInterval(300)))
        var waits: [TimeInterval] = []
        var now = Self.t0
        for _ in 0..<6 {
            now = status.nextDue!
            status = schedule.record(.failed, error: "offline", at: now, in: status)
            waits.append(status.nextDue!.timeIntervalSince(now))
        }
        #expect(waits == [300, 600, 1200, 2400, 3600, 3600])
        #expect(status.lastError == "offline" && status.lastSuccess == Self.t0)
        status = schedule.record(.notModified, at: now, in: status)
        #expect(status.failures == 0 && status.lastError == nil && status.nextDue == now.addingTimeInterval(300))
    }

    @Test func retryAfterIsHonoured() {
        let schedule = RefreshSchedule(interval: 60)
        let status = schedule.record(.throttled(retryAfter: 900), error: "HTTP 429", at: Self.t0, in: RefreshStatus())
        #expect(status.nextDue == Self.t0.addingTimeInterval(900))
        let short = schedule.record(.throttled(retryAfter: 5), at: Self.t0, in: RefreshStatus())
        #expect(short.nextDue == Self.t0.addingTimeInterval(60), "never sooner than the back-off")
        #expect(schedule.isDue(RefreshStatus(), at: Self.t0))
        var far = RefreshStatus()
        far.nextDue = Self.t0.addingTimeInterval(86_400 * 30)
        #expect(schedule.isDue(far, at: Self.t0), "a date beyond the longest wait is not trusted")
    }

    @Test func theStatusFileRoundTripsAndOneProcessHoldsTheLease() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = try StateDirectory(path: dir.path).prepared()
        var status = RefreshStatus()
        status.feed = "all_day"
        status.lastSuccess = Self.t0
        status.nextDue = Self.t0.addingTimeInterval(300)
        status.etag = "\"abc\""
        status.lastModified = "Tue, 14 Nov 2023 22:13:20 GMT"
        status.failures = 2
        status.pid = 42
        let file = RefreshStatusFile(state: state)
        try file.save(status)
        #expect(file.load() == status)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: state.refreshStatusPath))
        #expect(file.load() == RefreshStatus(), "a bad file reads as never refreshed")

        let first = try #require(try RefreshLease.tryAcquire(in: state))
        #expect(try RefreshLease.tryAcquire(in: state) == nil)
        first.release()
        let second = try RefreshLease.tryAcquire(in: state)
        #expect(second != nil)
        second?.release()
        // A copy of the released descriptor in a child another thread is spawning (here a second
        // descriptor, closed 30 ms later) is waited out, not taken for another process's lease.
        let fd = open(state.refreshLockPath, O_RDWR | O_CLOEXEC)
        try #require(fd >= 0)
        // Taking it here can wait on just that: a child another test is spawning right now.
        try #require(eventually { flock(fd, LOCK_EX | LOCK_NB) == 0 })
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) { close(fd) }
        let third = try RefreshLease.tryAcquire(in: state)
        #expect(third != nil)
        third?.release()
    }
}
