import Foundation
import QuakeTestSupport
import QuakeTime
import Testing
@testable import QuakeScenes

/// The plist watchers are woken by the kernel (issue 11: an idle browser makes no wake-ups), and
/// fall back to polling where the kernel cannot wake them.
@Suite struct FileWatcherTests {
    /// Kernel events no other test shares (kept for the process, as `DirectoryEvents` asks).
    static let ownEvents = DirectoryEvents()

    @Test func anAtomicReplaceWakesTheWatcherAndOtherNamesDoNot() throws {
        let dir = try TemporaryDirectory(prefix: "watcher")
        defer { dir.remove() }
        let path = dir.path + "/refresh.plist"
        let seen = Counter()
        let watcher = FileWatcher(path: path, watching: .kernelEvents(fallback: .seconds(3600))) { seen.increment() }
        watcher.start()
        defer { watcher.stop() }
        #expect(watcher.usesKernelEvents)

        // Events come in order, so once the watched file's change is reported, a report for
        // the other names (had there been one) would already have been counted.
        try Data("other".utf8).write(to: dir.appending("activity.plist"))
        try Data("temp".utf8).write(to: dir.appending(".refresh.plist.tmp"))
        try Data("one".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        #expect(eventually(timeout: 20) { seen.value >= 1 })
        #expect(seen.value == 1)

        try Data("two".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        #expect(eventually(timeout: 20) { seen.value == 2 }, "an hour-long fallback poll cannot have done this")
        try FileManager.default.removeItem(atPath: path)
        #expect(eventually(timeout: 20) { seen.value == 3 }, "a deletion is a change too")
    }

    /// A file written in place (`echo … > defaults.plist`, an editor) is reported once its
    /// writer closes it, never while it is empty or half-written: reading it then would set a
    /// good file aside as corrupt (found by the stress run: a test's `Data.write` was caught
    /// between its truncation and its bytes).
    ///
    /// The watcher has a kernel event queue of its own: the process's, shared with every other
    /// test, can overflow under load, and then every watcher must look (it was seen once).
    @Test func aFileWrittenInPlaceIsReportedOnceItsWriterClosesIt() throws {
        let dir = try TemporaryDirectory(prefix: "watcher")
        defer { dir.remove() }
        let path = dir.path + "/defaults.plist"
        var first = try InPlaceFile(path, truncating: true)
        try first.write("old contents")
        first.close()
        let seen = Collected<String>()
        let events = try #require(Self.ownEvents)
        let watcher = FileWatcher(path: path, watching: .kernelEvents(fallback: .seconds(3600)), events: events) {
            seen.append((try? String(contentsOfFile: path, encoding: .utf8)) ?? "<unreadable>")
        }
        watcher.start()
        defer { watcher.stop() }
        watcher.settle()  // its first look at the file is behind it
        let marker = Counter()
        let other = FileWatcher(path: dir.path + "/marker", watching: .kernelEvents(fallback: .seconds(3600)), events: events) {
            marker.increment()
        }
        other.start()
        defer { other.stop() }

        var handle = try InPlaceFile(path, truncating: true)
        try handle.write("new ")
        // Events come in order: once the marker's change is heard, the truncation and the
        // half write before it have been heard too, had the watcher listened to them.
        try Data("1".utf8).write(to: dir.appending("marker"), options: .atomic)
        #expect(eventually(timeout: 20) { marker.value == 1 })
        #expect(seen.values.isEmpty, "reported while half-written: \(seen.values)")
        try handle.write("contents")
        handle.close()
        #expect(eventually(timeout: 20) { !seen.values.isEmpty })
        #expect(seen.values == ["new contents"])
    }

    @Test func watchersOfOneDirectoryShareItsWatchAndOutliveEachOther() throws {
        let dir = try TemporaryDirectory(prefix: "watcher")
        defer { dir.remove() }
        let first = Counter(), second = Counter()
        let a = FileWatcher(path: dir.path + "/a.plist", watching: .kernelEvents(fallback: .seconds(3600))) { first.increment() }
        let b = FileWatcher(path: dir.path + "/b.plist", watching: .kernelEvents(fallback: .seconds(3600))) { second.increment() }
        a.start()
        b.start()
        defer { b.stop() }
        try Data("1".utf8).write(to: dir.appending("a.plist"), options: .atomic)
        try Data("1".utf8).write(to: dir.appending("b.plist"), options: .atomic)
        #expect(eventually(timeout: 20) { first.value == 1 && second.value == 1 })

        a.stop()
        try Data("2".utf8).write(to: dir.appending("a.plist"), options: .atomic)
        try Data("2".utf8).write(to: dir.appending("b.plist"), options: .atomic)
        #expect(eventually(timeout: 20) { second.value == 2 }, "stopping one watcher left the other's watch in place")
        #expect(first.value == 1, "a stopped watcher reports nothing")
    }

    @Test func aLostDirectoryFallsBackToPolling() throws {
        let dir = try TemporaryDirectory(prefix: "watcher")
        defer { dir.remove() }
        let state = dir.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let seen = Counter()
        let watcher = FileWatcher(path: state + "/defaults.plist", watching: .kernelEvents(fallback: .milliseconds(50))) {
            seen.increment()
        }
        watcher.start()
        defer { watcher.stop() }
        #expect(watcher.usesKernelEvents)

        try FileManager.default.removeItem(atPath: state)
        #expect(eventually(timeout: 20) { !watcher.usesKernelEvents })
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try Data("back".utf8).write(to: URL(fileURLWithPath: state + "/defaults.plist"), options: .atomic)
        #expect(eventually(timeout: 20) { seen.value >= 1 }, "the polls see the file in the new directory")
    }

    @Test func aDirectoryThatCannotBeWatchedIsPolled() throws {
        let dir = try TemporaryDirectory(prefix: "watcher")
        defer { dir.remove() }
        let missing = dir.path + "/not-yet"
        let seen = Counter()
        let watcher = FileWatcher(path: missing + "/refresh.plist", watching: .kernelEvents(fallback: .milliseconds(50))) {
            seen.increment()
        }
        watcher.start()
        defer { watcher.stop() }
        #expect(!watcher.usesKernelEvents)
        try FileManager.default.createDirectory(atPath: missing, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: missing + "/refresh.plist"), options: .atomic)
        #expect(eventually(timeout: 20) { seen.value == 1 })
    }

    @Test func anotherProcesssSettingReachesAWatchingAppStorage() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let watching = try AppStorage(state: state)
        let seen = Counter()
        let token = watching.onChange { seen.increment() }
        defer { token.cancel() }
        try AppStorage(state: state).set("utc", for: AppKeys.timeZone)
        #expect(eventually(timeout: 20) { seen.value == 1 })
        #expect(watching.value(for: AppKeys.timeZone) == "utc")
    }
}

/// A file written in place, as an editor or `echo … >` does, through a descriptor no child
/// process inherits. Foundation's writes open without `O_CLOEXEC`: a process another test
/// spawned while one was open kept the file open, and its exit seconds later closed it for the
/// last time, a real "closed after writing" that the watcher rightly reported, with the file
/// half-written by then (how the in-place test failed twice in `.ci/run`).
private struct InPlaceFile {
    private var descriptor: Int32

    init(_ path: String, truncating: Bool) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (truncating ? O_TRUNC : 0), 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }

    func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.write(descriptor, bytes, bytes.count) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
    }

    mutating func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}
