import Foundation
import Glibc
import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// The browser's wake-up pipe: a wake makes `poll(2)` return at once, any number of wakes never
/// blocks the waker, and draining leaves the loop to sleep again.
@Suite struct WakeUpPipeTests {
    static func isReadable(_ pipe: WakeUpPipe, waitingMilliseconds: Int32 = 0) -> Bool {
        var fd = pollfd(fd: pipe.readDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, waitingMilliseconds) == 1
    }

    @Test func aWakeFromAnotherThreadEndsAWaitAndDrainingEndsTheWakeUp() throws {
        let pipe = try WakeUpPipe()
        #expect(!Self.isReadable(pipe))
        DispatchQueue.global().async { pipe.wake() }
        // Blocks until the other thread writes; the 10 s bound is only a guard against a hang.
        #expect(Self.isReadable(pipe, waitingMilliseconds: 10_000))
        pipe.drain()
        #expect(!Self.isReadable(pipe))
    }

    @Test func aBurstOfWakesNeverBlocksTheWaker() throws {
        let pipe = try WakeUpPipe()
        // Far more than a pipe holds (64 KiB): the writes past that fail with EAGAIN, not block.
        for _ in 0..<100_000 { pipe.wake() }
        #expect(Self.isReadable(pipe))
        pipe.drain()
        #expect(!Self.isReadable(pipe))
    }

    @Test func childProcessesDoNotInheritThePipe() throws {
        let pipe = try WakeUpPipe()
        for fd in [pipe.readDescriptor, pipe.writeDescriptor] {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
            #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
        }
    }
}
