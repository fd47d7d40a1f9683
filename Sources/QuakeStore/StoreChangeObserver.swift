import QuakeModel
import Foundation
import QuakeTime

/// Tells a process that another connection — in any process — committed to the store, so it
/// can merge the history after its last token. Like Core Data's remote change notification.
///
/// How it knows without busy-polling the disk: inotify on the state directory wakes it when
/// the WAL (or the database file) is written; it then asks its own idle connection for
/// `PRAGMA data_version`, which changes exactly when another connection committed
/// (https://www.sqlite.org/pragma.html#pragma_data_version). The file's size or mtime alone
/// would miss commits after a checkpoint resets the WAL. A commit writes the WAL (the event)
/// before the WAL index's header, in shared memory, which makes no event, makes it visible; a
/// writer descheduled between the two on a loaded machine would leave the check seeing nothing
/// new, and its commit unreported until the next one. So every check an event wakes is followed
/// by three more (`followUpDelays`); so is the observer's start, since a commit under way then
/// made its events before the watch began. Where inotify is unavailable (or the
/// directory's watch is lost), a check every second takes its place; with it, an idle process
/// makes no wake-ups at all.
///
/// ```swift
/// let observer = try StoreChangeObserver(container: container) { print("store changed") }
/// defer { observer.stop() }
/// ```
public final class StoreChangeObserver: @unchecked Sendable {
    // @unchecked: all mutable state is confined to `queue`.
    private let queue = DispatchQueue(label: "quaketui.store.observer")
    private let connection: Connection
    private let onChange: @Sendable () -> Void
    private var lastVersion: Int64 = 0
    private var events: DirectoryEvents.Token?
    private var checkScheduled = false
    /// Bumped by every file event: the follow-up checks of an older event stop.
    private var followUps = 0
    private var stopped = false
    private let storeFileName: String
    private let clock: AppClock
    private let safetyInterval: TimeInterval

    /// The checks after each check a file event woke, however it went (the event of a commit
    /// may be heard before the commit can be seen, and a check that found an earlier commit may
    /// have coalesced a later one's event).
    static let followUpDelays: [DispatchTimeInterval] = [.milliseconds(50), .milliseconds(250), .seconds(1)]

    /// Starts observing. `onChange` runs on a private queue, once per detected change (several
    /// quick commits may be reported once). `events` is the kernel's file events (tests pass
    /// nil to exercise the timed checks).
    public init(container: PersistentContainer, safetyInterval: TimeInterval = 1,
                events: DirectoryEvents? = DirectoryEvents.shared,
                onChange: @escaping @Sendable () -> Void) throws(StoreError) {
        do {
            connection = try PersistentContainer.openConnection(path: container.path)
            lastVersion = try connection.scalar("PRAGMA data_version").int64 ?? 0
        } catch {
            throw StoreError(error, path: container.path)
        }
        self.onChange = onChange
        storeFileName = PersistentContainer.fileName
        clock = container.clock
        self.safetyInterval = safetyInterval
        queue.sync {
            subscribe(to: events, directory: container.directory.path)
            if self.events == nil { scheduleSafetyCheck() }
            // A commit whose WAL write came before the watch, and its WAL index header after the
            // version above was read, makes no event: the checks a start runs find it.
            scheduleCheck()
        }
    }

    /// The timed check, again and again until stopped, on the container's clock.
    private func scheduleSafetyCheck() {
        clock.schedule(after: .milliseconds(Int(safetyInterval * 1000)), on: queue) { [weak self] in
            guard let self, !stopped else { return }
            check()
            scheduleSafetyCheck()
        }
    }

    deinit { assert(stopped, "StoreChangeObserver was not stopped") }

    /// Stops observing and closes the connection. No `onChange` runs after it returns.
    public func stop() {
        queue.sync {
            guard !stopped else { return }
            stopped = true
            events?.cancel()
            connection.close()
        }
    }

    private func subscribe(to events: DirectoryEvents?, directory: String) {
        let prefix = storeFileName
        self.events = events?.subscribe(directory: directory, kinds: .all, names: { $0.hasPrefix(prefix) }) { [weak self] event in
            self?.fileChanged(event)
        }
    }

    /// What a file event does: a check shortly after, then the follow-ups; a lost watch hands
    /// over to the timed checks. (Tests call it to stand in for the kernel.)
    func fileChanged(_ event: DirectoryEvents.Event = .changed) {
        queue.async { [self] in
            if event == .watchLost, events != nil {
                events = nil
                scheduleSafetyCheck()
            }
            scheduleCheck()
        }
    }

    /// A large import writes the WAL thousands of times; coalesce into one check shortly after.
    private func scheduleCheck() {
        followUps &+= 1
        guard !stopped, !checkScheduled else { return }
        checkScheduled = true
        // Strong, not unowned: the owner may stop and release the observer within these
        // 5 ms (quitting right after a commit); `check()` then sees `stopped` and returns.
        clock.schedule(after: .milliseconds(5), on: queue) { [self] in
            checkScheduled = false
            check()
            scheduleFollowUp(0, of: followUps)
        }
    }

    private func scheduleFollowUp(_ step: Int, of chain: Int) {
        guard !stopped, step < Self.followUpDelays.count else { return }
        clock.schedule(after: Self.followUpDelays[step], on: queue) { [weak self] in
            guard let self, !stopped, chain == followUps else { return }
            check()
            scheduleFollowUp(step + 1, of: chain)
        }
    }

    private func check() {
        guard !stopped else { return }
        guard let version = try? connection.scalar("PRAGMA data_version").int64 else { return }
        if version != lastVersion {
            lastVersion = version
            onChange()
        }
    }
}
