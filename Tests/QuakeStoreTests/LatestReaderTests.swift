import Foundation
@testable import QuakeModel
@testable import QuakeStore
import Testing

/// Issue 52: the one-slot background reader that the statistics, the map's density and the
/// results engine's count run on. Its rule, over a resource that only records what is done to it:
/// the newest job wins, an older one is interrupted (or never started) and never answered, and
/// `close` stops the running job and closes the resource.
@Suite struct LatestReaderTests {
    /// A resource that counts its interrupts and can hold a job until one comes.
    final class Probe: @unchecked Sendable {
        let name: String
        let interrupts = LockedValue(0)
        let closed = LockedValue(false)
        private let interrupted = DispatchSemaphore(value: 0)

        init(_ name: String) { self.name = name }

        func interrupt() {
            interrupts.withLock { $0 += 1 }
            interrupted.signal()
        }

        /// Waits (on the condition, within 20 s) until the probe is interrupted.
        func waitForInterrupt() -> Bool { interrupted.wait(timeout: .now() + 20) == .success }
    }

    /// A reader on the probe `first`, opening `opened-1`, `opened-2`, … when it holds none; every
    /// answer is written down as "generation: value on probe".
    final class Harness: @unchecked Sendable {
        let first = Probe("first")
        let reader: LatestReader<Probe>
        let answers = LockedValue<[String]>([])
        /// The generations whose body ran, in order.
        let ran = LockedValue<[Int]>([])
        private let answered = DispatchSemaphore(value: 0)
        private let started = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)

        init() {
            let opened = LockedValue(0)
            reader = LatestReader(label: "test.latest-reader", resource: first, open: {
                Probe("opened-\(opened.withLock { $0 += 1; return $0 })")
            }, interrupt: { $0.interrupt() }, close: { $0.closed.withLock { $0 = true } })
        }

        /// Submits a job answering `value`; `holding`: the job first waits until its probe is
        /// interrupted (and then still answers, as a job that misses its interrupt would), and
        /// `untilReleased`, then until `release()`.
        func submit(_ generation: Int, value: String, holding: Bool = false, untilReleased: Bool = false) {
            reader.submit(generation: generation, { [ran, started, released] probe, job in
                ran.withLock { $0.append(job.generation) }
                if holding {
                    started.signal()
                    _ = probe.waitForInterrupt()
                    if untilReleased { _ = released.wait(timeout: .now() + 20) }
                }
                return "\(value) on \(probe.name)"
            }, done: { [answers, answered] generation, result in
                answers.withLock { $0.append("\(generation): \((try? result.get()) ?? "\(result)")") }
                answered.signal()
            })
        }

        /// Lets a job held `untilReleased` end.
        func release() { released.signal() }

        /// Waits (within 20 s) until the holding job runs.
        func waitUntilStarted() -> Bool { started.wait(timeout: .now() + 20) == .success }

        /// Waits (within 20 s) until an answer comes, and returns every answer so far.
        func waitForAnswer() -> [String]? {
            answered.wait(timeout: .now() + 20) == .success ? answers.withLock { $0 } : nil
        }
    }

    @Test func theNewestJobWinsAndOlderOnesAreNeverAnswered() throws {
        let harness = Harness()
        harness.submit(1, value: "a", holding: true, untilReleased: true)
        #expect(harness.waitUntilStarted())
        harness.submit(2, value: "b")  // replaced by 3 before it starts
        harness.submit(3, value: "c")
        harness.release()
        #expect(harness.waitForAnswer() == ["3: c on first"])
        harness.reader.close()  // waits for the queue: nothing else is answered
        #expect(harness.answers.withLock { $0 } == ["3: c on first"])
        #expect(harness.ran.withLock { $0 } == [1, 3])
        #expect(harness.first.interrupts.withLock { $0 } == 2)
        #expect(harness.first.closed.withLock { $0 })
    }

    @Test func cancelDropsTheRunningJobAndTheReaderGoesOn() throws {
        let harness = Harness()
        defer { harness.reader.close() }
        harness.submit(1, value: "a", holding: true)
        #expect(harness.waitUntilStarted())
        harness.reader.cancel()
        harness.submit(2, value: "b")
        #expect(harness.waitForAnswer() == ["2: b on first"])
    }

    @Test func closeStopsTheRunningJobAndTakesNoMore() throws {
        let harness = Harness()
        harness.submit(1, value: "a", holding: true)
        #expect(harness.waitUntilStarted())
        harness.reader.close()
        #expect(harness.first.interrupts.withLock { $0 } == 1)
        #expect(harness.first.closed.withLock { $0 })
        harness.submit(2, value: "b")
        #expect(harness.answers.withLock { $0 }.isEmpty)
        #expect(harness.ran.withLock { $0 } == [1])
    }

    /// The resource is handed over only while no job runs; the next job then opens another,
    /// until one is given back.
    @Test func theResourceIsHandedOverWhenIdle() throws {
        let harness = Harness()
        defer { harness.reader.close() }
        harness.submit(1, value: "a", holding: true)
        #expect(harness.waitUntilStarted())
        #expect(harness.reader.takeResource() == nil)
        harness.submit(2, value: "b")
        #expect(harness.waitForAnswer() == ["2: b on first"])
        let taken = try #require(harness.reader.takeResource())
        #expect(taken === harness.first)
        harness.submit(3, value: "c")
        #expect(harness.waitForAnswer() == ["2: b on first", "3: c on opened-1"])
        let opened = try #require(harness.reader.takeResource())
        harness.reader.give(taken)
        harness.submit(4, value: "d")
        #expect(harness.waitForAnswer()?.last == "4: d on first")
        #expect(!opened.closed.withLock { $0 })  // handed over: the reader no longer closes it
    }
}
