import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

@Suite struct SceneLeaseTests {
    @Test func aSecondOwnerOfAnExplicitSceneFailsNamingTheFirstsPID() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let identity = SceneIdentity(id: try SceneID(validating: "left"), source: .option)
        let first = try SceneLease.acquire(identity, in: state)
        let error = #expect(throws: QuakeScenesError.self) { try SceneLease.acquire(identity, in: state) }
        #expect(error?.code == .sceneInUse)
        #expect(error?.pid == getpid())
        #expect(error?.description.hasPrefix("Scene left is open in process \(getpid())") == true)
        first.release()
        let again = try SceneLease.acquire(identity, in: state)
        #expect(again.id == identity.id)
    }

    /// A child that another thread is spawning holds a copy of a released lease's descriptor
    /// (and so its flock) until its `exec` closes it. The lock file names this process, which
    /// holds no lease on it: taking the scene waits that moment out instead of failing with
    /// "open in process <our own PID>". Here a second descriptor stands in for the child's.
    @Test func aLockNamingThisProcessWithoutALeaseIsWaitedOut() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let identity = SceneIdentity(id: try SceneID(validating: "left"), source: .option)
        try SceneLease.acquire(identity, in: state).release()
        let path = state.sceneLockPath(identity.id)
        let fd = open(path, O_RDWR | O_CLOEXEC)
        try #require(fd >= 0)
        // The very case under test can delay this: a child another test is spawning may hold a
        // copy of the released lease's descriptor until its exec (stress run a-4, session 15).
        try #require(eventually { flock(fd, LOCK_EX | LOCK_NB) == 0 })
        let closed = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) {
            close(fd)
            closed.signal()
        }
        let lease = try SceneLease.acquire(identity, in: state)
        #expect(lease.id == identity.id)
        closed.wait()
        // A lease this process really holds still refuses a second one at once.
        #expect(throws: QuakeScenesError.self) { try SceneLease.acquire(identity, in: state) }
    }

    @Test func theLockFileHoldsTheOwnersPID() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let lease = try SceneLease.acquire(SceneIdentity(id: .main, source: .fallback), in: state)
        #expect(SceneLease.holderPID(of: .main, in: state) == getpid())
        #expect(SceneLease.holder(of: .main, in: state) == getpid())
        lease.release()
        #expect(SceneLease.holder(of: .main, in: state) == nil)
    }

    /// Stress run b-2 of session 40: a child that another test was spawning held a copy of the
    /// lease's descriptor, and the scene stayed held after its release until that child's `exec`.
    @Test func aReleaseFreesTheSceneEvenWhileAChildHoldsACopyOfItsDescriptor() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        try state.prepared()
        // The lease's own mechanism (`SceneLease.tryAcquire` is this and its ID), whose descriptor the child copies.
        let lock = try #require(try FileLock.acquireUnlessHeld(state.sceneLockPath(.main)))
        let childsCopy = lock.duplicatedDescriptor()
        try #require(childsCopy >= 0)
        defer { close(childsCopy) }
        #expect(SceneLease.holder(of: .main, in: state) == getpid())
        lock.unlock()
        #expect(SceneLease.holder(of: .main, in: state) == nil)
    }

    @Test func aDerivedSceneMovesOnToTheNextNumber() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let identity = SceneIdentity(id: try SceneID(validating: "tmux-w-0-1"), source: .tmux)
        let first = try SceneLease.acquire(identity, in: state)
        let second = try SceneLease.acquire(identity, in: state)
        let third = try SceneLease.acquire(identity, in: state)
        #expect([first.id.rawValue, second.id.rawValue, third.id.rawValue] == ["tmux-w-0-1", "tmux-w-0-1-2", "tmux-w-0-1-3"])
        second.release()
        let fourth = try SceneLease.acquire(identity, in: state)
        #expect(fourth.id.rawValue == "tmux-w-0-1-2")
    }

    @Test func aSceneHeldByAnotherProcessIsRefusedUntilThatProcessDies() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let ready = dir.path + "/ready"
        let child = try launchChild("scene-hold", state: state, scene: "shared", ready: ready, logDirectory: dir.path)
        defer { child.kill() }
        try child.waitForFile(ready, timeout: 30)

        let explicit = SceneIdentity(id: try SceneID(validating: "shared"), source: .option)
        let error = #expect(throws: QuakeScenesError.self) { try SceneLease.acquire(explicit, in: state) }
        #expect(error?.pid == child.pid)
        #expect(error?.description.contains("Scene shared is open in process \(child.pid)") == true)

        let derived = try SceneLease.acquire(SceneIdentity(id: explicit.id, source: .tmux), in: state)
        #expect(derived.id.rawValue == "shared-2")

        child.kill()   // the kernel drops the flock of a killed process
        let after = try SceneLease.acquire(explicit, in: state)
        #expect(after.id.rawValue == "shared")
    }
}
